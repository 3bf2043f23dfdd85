//! The app mounted in headless Chromium for the `web_ui*` tests, driven through the DOM as a
//! person would: find, type, choose, click. Each test mounts its own app in a container of
//! its own, removed when the [`Mounted`] is dropped.
#![allow(dead_code)] // each test file uses its own subset

use leptos::mount::mount_to;
use leptos::task::tick;
use tablescope::ui::App;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement};

/// The app mounted in a fresh container; unmounted and removed when dropped.
pub struct Mounted {
    pub root: HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Mounted {
    pub fn new() -> Self {
        let document = web_sys::window().unwrap().document().unwrap();
        let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
        document.body().unwrap().append_child(&root).unwrap();
        let handle = mount_to(root.clone(), App);
        Mounted {
            root,
            _handle: Box::new(handle),
        }
    }

    pub fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    pub fn get(&self, selector: &str) -> Element {
        self.find(selector)
            .unwrap_or_else(|| panic!("no element matches {selector}"))
    }

    pub fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    /// The text of every element `selector` matches, in document order.
    pub fn all_text(&self, selector: &str) -> Vec<String> {
        let nodes = self.root.query_selector_all(selector).unwrap();
        (0..nodes.length())
            .filter_map(|i| nodes.item(i))
            .filter_map(|n| n.text_content())
            .collect()
    }

    /// Shows a section (`data`, `query`, `batch`, `learn`) by its tab; a section's panel is
    /// built the first time it is shown.
    pub async fn show_section(&self, id: &str) {
        self.click(&format!("#nav-{id}"));
        tick().await;
    }

    pub fn click(&self, selector: &str) {
        self.get(selector).unchecked_into::<HtmlElement>().click();
    }

    /// Sets an input's or textarea's value and fires `input`, as typing would.
    pub fn type_into(&self, selector: &str, value: &str) {
        let el = self.get(selector);
        if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
            input.set_value(value);
        } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            area.set_value(value);
        }
        el.dispatch_event(&Event::new("input").unwrap()).unwrap();
    }

    /// Picks an option of a select and fires `change`.
    pub fn choose(&self, selector: &str, value: &str) {
        let select: HtmlSelectElement = self.get(selector).unchecked_into();
        select.set_value(value);
        select
            .dispatch_event(&Event::new("change").unwrap())
            .unwrap();
    }

    /// An input's or textarea's current value.
    pub fn value(&self, selector: &str) -> String {
        let el = self.get(selector);
        match el.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => el
                .dyn_ref::<web_sys::HtmlTextAreaElement>()
                .map(|a| a.value())
                .unwrap_or_default(),
        }
    }

    /// Types a table name and presses the create button, then lets effects run.
    pub async fn create_table(&self, name: &str) {
        self.type_into("#new-table-name", name);
        self.click("form.create-table button[type=submit]");
        tick().await;
    }
}

impl Default for Mounted {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

/// `text` without the digit grouping of prose numbers ("1,100" → "1100"): an engine sentence
/// said again in English formats its counts as prose, the engine wrote them bare.
pub fn without_grouping(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|&(i, c)| {
            !(*c == ','
                && i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        })
        .map(|(_, c)| *c)
        .collect()
}

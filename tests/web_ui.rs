#![cfg(target_arch = "wasm32")]
//! The app mounted in headless Chromium: the header, and the tables panel driven through the
//! DOM as a person would (type, click, confirm).

use leptos::mount::mount_to;
use leptos::task::tick;
use tablescope::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The app mounted in a fresh container of its own; unmounted when dropped.
struct Mounted {
    root: HtmlElement,
    _handle: Box<dyn std::any::Any>,
}

impl Mounted {
    fn new() -> Self {
        let document = web_sys::window().unwrap().document().unwrap();
        let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
        document.body().unwrap().append_child(&root).unwrap();
        let handle = mount_to(root.clone(), App);
        Mounted {
            root,
            _handle: Box::new(handle),
        }
    }

    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    fn get(&self, selector: &str) -> Element {
        self.find(selector)
            .unwrap_or_else(|| panic!("no element matches {selector}"))
    }

    fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    fn click(&self, selector: &str) {
        self.get(selector).unchecked_into::<HtmlElement>().click();
    }

    fn table_names(&self) -> Vec<String> {
        let rows = self
            .root
            .query_selector_all(".table-row .table-name")
            .unwrap();
        (0..rows.length())
            .filter_map(|i| rows.item(i))
            .filter_map(|n| n.text_content())
            .collect()
    }

    /// Types a table name and presses the create button, then lets effects run.
    async fn create_table(&self, name: &str) {
        let input: HtmlInputElement = self.get("#new-table-name").unchecked_into();
        input.set_value(name);
        input.dispatch_event(&Event::new("input").unwrap()).unwrap();
        self.click("form.create-table button[type=submit]");
        tick().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

#[wasm_bindgen_test]
async fn header_shows_the_name_and_version() {
    let app = Mounted::new();
    tick().await;
    assert_eq!(app.text("h1"), "Tablescope");
    assert_eq!(app.text(".version"), format!("v{}", tablescope::VERSION));
    assert!(app.find(".table-list").is_none());
    assert!(app.find(".empty").is_some());
}

#[wasm_bindgen_test]
async fn creating_a_table_lists_it_with_zero_counts() {
    let app = Mounted::new();
    app.create_table("Employees").await;
    assert_eq!(app.table_names(), vec!["Employees"]);
    assert_eq!(
        app.text("[data-table=Employees] .table-counts"),
        "0 entities · 0 partitions"
    );
    assert!(app.find(".error-notice").is_none());
    assert_eq!(app.text(".status"), "Created table Employees.");
    let input: HtmlInputElement = app.get("#new-table-name").unchecked_into();
    assert_eq!(input.value(), "", "the field is cleared after a create");
}

#[wasm_bindgen_test]
async fn the_services_error_is_shown_inline() {
    let app = Mounted::new();
    app.create_table("ab").await;
    assert_eq!(
        app.get(".error-notice")
            .get_attribute("data-code")
            .as_deref(),
        Some("OutOfRangeInput")
    );
    assert_eq!(app.text(".error-code"), "400 OutOfRangeInput");
    assert_eq!(
        app.text(".error-message"),
        "One of the request inputs is out of range."
    );
    assert_eq!(
        app.text(".error-detail"),
        "a table name has 3 to 63 characters; this one has 2"
    );

    app.create_table("Orders").await;
    app.create_table("orders").await;
    assert_eq!(app.text(".error-code"), "409 TableAlreadyExists");
    assert_eq!(app.table_names(), vec!["Orders"]);

    app.create_table("Customers").await;
    assert!(
        app.find(".error-notice").is_none(),
        "a success clears the error"
    );
}

#[wasm_bindgen_test]
async fn delete_needs_a_confirmation_and_cancel_keeps_the_table() {
    let app = Mounted::new();
    app.create_table("Keep").await;
    app.create_table("Drop").await;
    assert_eq!(app.table_names(), vec!["Drop", "Keep"]);

    app.click("[data-table=Keep] button.delete");
    tick().await;
    assert!(app.find("[data-table=Keep] .confirm-delete").is_some());
    app.click("[data-table=Keep] button.cancel");
    tick().await;
    assert_eq!(app.table_names(), vec!["Drop", "Keep"]);

    app.click("[data-table=Drop] button.delete");
    tick().await;
    assert_eq!(
        app.table_names(),
        vec!["Drop", "Keep"],
        "nothing is deleted before confirming"
    );
    app.click("[data-table=Drop] .confirm-delete");
    tick().await;
    assert_eq!(app.table_names(), vec!["Keep"]);
    assert_eq!(app.text(".status"), "Deleted table Drop.");
}

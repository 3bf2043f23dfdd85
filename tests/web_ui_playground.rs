#![cfg(target_arch = "wasm32")]
//! The playground mounted in headless Chromium and driven through the DOM: a typed insert
//! through the editor shows up in the grid with its column types, a raw filter syncs into the
//! builder, and a stale ETag gives 412 beside the operation.

mod web_common;

use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_common::Mounted;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

/// Adds a property row in the editor and fills it.
async fn add_property(app: &Mounted, name: &str, edm: &str, value: &str) {
    app.click(".add-property");
    tick().await;
    app.type_into(".property-row:last-of-type .prop-name", name);
    app.choose(".property-row:last-of-type .prop-type", edm);
    tick().await;
    app.type_into(".property-row:last-of-type input.prop-value", value);
    tick().await;
}

#[wasm_bindgen_test]
async fn an_insert_through_the_editor_shows_in_the_grid_with_its_types() {
    let app = Mounted::new();
    app.create_table("Grid").await;
    app.type_into("#entity-pk", "p");
    app.type_into("#entity-rk", "1");
    add_property(&app, "Big", "Int64", "-9223372036854775808").await;
    add_property(&app, "When", "DateTime", "1601-01-01T00:00:00.0000001Z").await;
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
    app.show_section("query").await;
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

    // An `or` is a group of the builder; only a bare `true`/`false` term
    // is not expressible: the raw text is kept and the hint says so.
    app.type_into("#raw-filter", "Age eq 1 or Age eq 2");
    tick().await;
    assert_eq!(app.value("#raw-filter"), "Age eq 1 or Age eq 2");
    assert!(app.text("#raw-filter-hint").starts_with("Kept in sync"));
    let root = app.get(".cond-group.root-group");
    assert_eq!(root.get_attribute("data-join").as_deref(), Some("or"));
    app.type_into("#raw-filter", "Age eq 1 or true");
    tick().await;
    assert!(app
        .text("#raw-filter-hint")
        .contains("not expressible in the builder"));
}

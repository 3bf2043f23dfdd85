#![cfg(target_arch = "wasm32")]
//! The app mounted in headless Chromium: the header, and the tables panel driven through the
//! DOM as a person would (type, click, confirm).

mod web_common;

use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_common::Mounted;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

/// The table names in the tables panel, in order.
fn table_names(app: &Mounted) -> Vec<String> {
    app.all_text(".table-row .table-name")
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
    assert_eq!(table_names(&app), vec!["Employees"]);
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
    assert_eq!(table_names(&app), vec!["Orders"]);

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
    assert_eq!(table_names(&app), vec!["Drop", "Keep"]);

    app.click("[data-table=Keep] button.delete");
    tick().await;
    assert!(app.find("[data-table=Keep] .confirm-delete").is_some());
    app.click("[data-table=Keep] button.cancel");
    tick().await;
    assert_eq!(table_names(&app), vec!["Drop", "Keep"]);

    app.click("[data-table=Drop] button.delete");
    tick().await;
    assert_eq!(
        table_names(&app),
        vec!["Drop", "Keep"],
        "nothing is deleted before confirming"
    );
    app.click("[data-table=Drop] .confirm-delete");
    tick().await;
    assert_eq!(table_names(&app), vec!["Keep"]);
    assert_eq!(app.text(".status"), "Deleted table Drop.");
}

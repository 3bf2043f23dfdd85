#![cfg(target_arch = "wasm32")]
//! The account's service in the mounted app: the switch asks first and converts only when
//! confirmed; a run's request units are the sum of its pages', none on Table storage.
//!
//! `cargo test --target wasm32-unknown-unknown --test web_ui_target`

mod web_common;

use leptos::task::tick;
use tablescope::ui::state::workspace::runs::{Run, RunPage};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_common::Mounted;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

fn checked(app: &Mounted, selector: &str) -> bool {
    app.get(selector)
        .unchecked_into::<HtmlInputElement>()
        .checked()
}

const STORAGE: &str = ".target-option.table-storage input";
const COSMOS: &str = ".target-option.cosmos-table input";

#[wasm_bindgen_test]
async fn the_switch_asks_and_converts_only_when_confirmed() {
    let app = Mounted::new();
    app.create_table("Orders").await;
    app.show_section("query").await;
    assert!(checked(&app, STORAGE));
    assert!(!checked(&app, COSMOS));

    app.click(COSMOS);
    tick().await;
    let question = app.text(".target-question");
    assert!(
        question.contains("queries return entities in the order they were written"),
        "{question}"
    );
    assert_eq!(
        app.text(".switch-target"),
        "Switch to Azure Cosmos DB for Table"
    );
    // Cancel: nothing changed, storage checked again.
    app.click(".target-confirm .cancel");
    tick().await;
    assert!(app.find(".target-confirm").is_none());
    assert!(checked(&app, STORAGE));
    assert!(app.find(".target-switched").is_none());

    app.click(COSMOS);
    tick().await;
    app.click(".switch-target");
    tick().await;
    assert!(app.find(".target-confirm").is_none());
    assert_eq!(
        app.text(".target-switched"),
        "Now on Azure Cosmos DB for Table. Tables kept: 1; entities kept: 0."
    );
    assert!(checked(&app, COSMOS));
    assert!(app.find(".target-dropped").is_none());
    // The table is still listed after the switch.
    assert_eq!(app.all_text(".table-row .table-name"), ["Orders"]);
}

fn page(ru: Option<f64>) -> RunPage {
    RunPage {
        scanned: 1,
        returned: 1,
        partitions: 1,
        continues_partition: false,
        token: None,
        ru,
    }
}

fn run(pages: Vec<RunPage>) -> Run {
    Run {
        id: 1,
        table: "T".into(),
        filter: String::new(),
        kind: "table scan".into(),
        explain: None,
        pages,
        render_ms: None,
    }
}

#[wasm_bindgen_test]
fn a_runs_request_units_are_its_pages_summed() {
    assert_eq!(run(vec![page(Some(1.1)), page(Some(2.2))]).ru(), Some(3.3));
    assert_eq!(run(vec![page(Some(14.85))]).ru(), Some(14.85));
    assert_eq!(run(vec![page(None), page(None)]).ru(), None);
    assert_eq!(run(vec![]).ru(), None);
}

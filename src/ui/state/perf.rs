//! A test-only hook for the performance measurements: with `?perf=1` in the URL the page
//! exposes `window.__tablescopeFill(table, partitions, rowsPerPartition)`, which inserts
//! `partitions × rowsPerPartition` entities through `Request::Batch` of 100 (the service's
//! largest batch) and returns how many were written; `window.__tablescopeSavesInFlight()`,
//! the saves not yet committed to IndexedDB (non-zero while saves are held back); and `window.__tablescopeWasmBytes()`, the size of
//! the wasm's linear memory (which only grows). Without the parameter nothing is exposed.

use crate::engine::{BatchRequest, RawEntity, Request, MAX_OPERATIONS};
use crate::ui::state::AppState;
use serde_json::Value as Json;
use wasm_bindgen::prelude::*;

/// Installs the hook when the page's URL asks for it.
pub fn install(state: AppState) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if !requested(&window) {
        return;
    }
    let fill = Closure::<dyn Fn(String, u32, u32) -> u32>::new(
        move |table: String, partitions: u32, rows: u32| fill(state, &table, partitions, rows),
    );
    expose(&window, "__tablescopeFill", fill.as_ref());
    // The hooks live as long as the page.
    fill.forget();
    let saves = Closure::<dyn Fn() -> u32>::new(|| {
        crate::persist::saves_in_flight()
            + u32::from(super::save_queue::pending())
            + u32::from(crate::persist::busy())
    });
    expose(&window, "__tablescopeSavesInFlight", saves.as_ref());
    saves.forget();
    let memory = Closure::<dyn Fn() -> f64>::new(|| {
        wasm_bindgen::memory()
            .unchecked_into::<js_sys::WebAssembly::Memory>()
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as f64
    });
    expose(&window, "__tablescopeWasmBytes", memory.as_ref());
    memory.forget();
}

fn expose(window: &web_sys::Window, name: &str, hook: &JsValue) {
    let _ = js_sys::Reflect::set(window, &JsValue::from_str(name), hook);
}

/// Writes the entities in batches of 100 per partition; returns how many were written.
fn fill(state: AppState, table: &str, partitions: u32, rows: u32) -> u32 {
    let mut written = 0;
    for p in 0..partitions {
        let pk = format!("p{p:04}");
        let mut operations = Vec::with_capacity(MAX_OPERATIONS);
        for r in 0..rows {
            let entity = RawEntity(vec![
                ("PartitionKey".into(), Json::String(pk.clone())),
                ("RowKey".into(), Json::String(format!("r{r:06}"))),
                ("Number".into(), Json::from(r)),
                ("Label".into(), Json::String(format!("entity {r} of {pk}"))),
            ]);
            operations.push(BatchRequest::Insert { entity });
            if operations.len() == MAX_OPERATIONS || r + 1 == rows {
                let n = operations.len() as u32;
                let response = state.write(&Request::Batch {
                    table: table.to_string(),
                    operations: std::mem::take(&mut operations),
                });
                if response.is_success() {
                    written += n;
                }
            }
        }
    }
    written
}

/// Whether the page's URL asks for the test hooks (`?perf=1`).
pub fn requested(window: &web_sys::Window) -> bool {
    let search = window.location().search().unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .any(|p| p == "perf=1")
}

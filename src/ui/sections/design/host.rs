//! The Design section as a module loaded on first use.
//!
//! The section (`ui::design`) is built as its own wasm (the `design` bin, `src/bin/design.rs`;
//! Trunk writes `design.js` and `design_bg.wasm` without a hash and does not load them), so
//! none of its code, view templates or text is in the playground's wasm. The first time the
//! section is shown, this host loads the module and mounts it with a bridge: a JavaScript
//! object of functions on the user's sandbox account (the two wasm modules share no memory).
//! The section keeps its document itself (`localStorage`, `sections::design::doc`). The module's side and the bridge's contract: `sections::design::bridge`.
//!
//! Invariants kept on this side: the generator's entities are written without saving and
//! saved by `save` (`AppState::write_unsaved`, `AppState::save_now`); a read-only tab refuses
//! every write (a throw the section shows); reads go through `window.tablescope.wire` and
//! `op::QUERY` (the evaluator's counted pages), which change nothing.

use crate::i18n::msg;
use crate::ui::kit::module_host::{Module, ModuleHost};
use crate::ui::state::code_link::CodeLink;
use crate::ui::state::navigation::{Navigation, Section};
use crate::ui::state::AppState;
use js_sys::{Array, Object, Reflect, Uint8Array};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// The module's files, relative to the page.
pub const DESIGN_JS: &str = crate::modules::DESIGN.js;
pub const DESIGN_WASM: &str = crate::modules::DESIGN.wasm;
/// The module's export that mounts the section (`src/bin/design.rs`).
const MOUNT: &str = "mount_design";

/// The section's panel, for `SectionPanel` (app.rs), which calls it through a pointer so that
/// none of this is inlined into the start.
pub fn panel() -> AnyView {
    let module = Module {
        js: DESIGN_JS,
        wasm: DESIGN_WASM,
        mount: MOUNT,
        class: "design",
        loading: msg::design_loading,
        failed: |reason| msg::lang_load_failed(msg::nav_design(), reason),
        retry: msg::learn_retry,
    };
    let bridge = bridge(AppState::expect(), Navigation::expect(), CodeLink::expect());
    view! { <ModuleHost module=module bridge=bridge.into() /> }.into_any()
}

/// The operations of the bridge's `call([op, a, b])`, by number (names would be text in the
/// playground's wasm, where the split cannot defer data). `sections::design::bridge` calls them.
pub mod op {
    /// `() -> [[name, entities], …]`.
    pub const TABLES: u32 = 0;
    /// `(name)`, saved; throws when refused.
    pub const CREATE_TABLE: u32 = 1;
    /// `(name)`, saved; throws when refused.
    pub const DELETE_TABLE: u32 = 2;
    /// `(table, [chunk, …]) -> undefined | [PartitionKey, RowKey, message]`: written, not saved.
    pub const INSERT: u32 = 3;
    /// `()`: saves what was written since, views re-read.
    pub const SAVE: u32 = 4;
    /// `(code)`: "Open in Code section".
    pub const OPEN_CODE: u32 = 5;
    /// `(table, filter, top | undefined, NextPartitionKey | undefined, NextRowKey |
    /// undefined, keep) -> [scanned, returned, partitions, kind, NextPartitionKey | undefined,
    /// NextRowKey | undefined, last PartitionKey | undefined, [chunk, …]]`: one query page
    /// (the engine's `query::count_page`, the page the service would send) with its first
    /// `keep` entities as format-2 chunks; `kind` is the `QueryKind`'s place in declaration
    /// order. Reads only.
    pub const QUERY: u32 = 6;
    /// `()`: holds every save back until `RELEASE` (`crate::persist::hold`), so a replace
    /// reaches the disk as one transaction once complete.
    pub const HOLD: u32 = 7;
    /// `()`: ends a `HOLD` and saves everything written since it began, as one transaction.
    pub const RELEASE: u32 = 8;
}

/// The bridge: `{call, wire}`. `call` has the signature of `window.tablescope.wire` (so no
/// new JS glue), and lives as long as the page; `wire` is that function.
fn bridge(state: AppState, section: Navigation, link: CodeLink) -> Object {
    let call = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(move |args: JsValue| {
        answer(state, section, link, &Array::from(&args)).map_err(JsValue::from)
    });
    let out = Object::new();
    let _ = Reflect::set(&out, &"call".into(), call.as_ref());
    call.forget();
    let wire = web_sys::window()
        .and_then(|w| Reflect::get(&w, &"tablescope".into()).ok())
        .and_then(|n| Reflect::get(&n, &"wire".into()).ok())
        .unwrap_or(JsValue::UNDEFINED);
    let _ = Reflect::set(&out, &"wire".into(), &wire);
    out
}

fn answer(
    state: AppState,
    section: Navigation,
    link: CodeLink,
    args: &Array,
) -> Result<JsValue, String> {
    let text = |i: u32| args.get(i).as_string().ok_or("bad request");
    let op = args.get(0).as_f64().unwrap_or(-1.0) as u32;
    match op {
        op::TABLES => Ok(state
            .describe_tables()
            .iter()
            .map(|t| {
                JsValue::from(Array::of2(
                    &t.name.as_str().into(),
                    &(t.entities as f64).into(),
                ))
            })
            .collect::<Array>()
            .into()),
        op::CREATE_TABLE => state
            .create_table(&text(1)?)
            .map(|()| JsValue::UNDEFINED)
            .map_err(|e| e.to_string()),
        op::DELETE_TABLE => state
            .delete_table(&text(1)?)
            .map(|()| JsValue::UNDEFINED)
            .map_err(|e| e.to_string()),
        op::INSERT => insert(state, &text(1)?, &args.get(2)),
        // Saved in this call, so the generator's clock sees what a save costs.
        op::SAVE => state.save_now().map(|()| JsValue::UNDEFINED),
        op::QUERY => query(state, args),
        op::HOLD => {
            crate::ui::state::save_queue::watch();
            crate::persist::hold();
            Ok(JsValue::UNDEFINED)
        }
        op::RELEASE => {
            crate::persist::release();
            state.save_now().map(|()| JsValue::UNDEFINED)
        }
        op::OPEN_CODE => {
            link.to_open.set(text(1)?);
            section.set(Section::Code);
            Ok(JsValue::UNDEFINED)
        }
        _ => Err("bad request".into()),
    }
}

/// Writes format-2 chunks of `table` without saving, each as a run of inserts into its
/// partition (`engine::RowRun`: the rows go from the chunk's bytes into records, with no
/// `Entity` between). The first entity refused stops it and is answered as
/// `[PartitionKey, RowKey, message]`; the entities before it stay written, as do those before
/// a chunk found damaged (which answers `Err`).
fn insert(state: AppState, table: &str, chunks: &JsValue) -> Result<JsValue, String> {
    let mut bytes = Vec::new();
    for chunk in Array::from(chunks).iter() {
        bytes.push(
            chunk
                .dyn_into::<Uint8Array>()
                .map_err(|_| "bad request")?
                .to_vec(),
        );
    }
    state.write_unsaved(|account| {
        for chunk in &bytes {
            let mut rows = crate::persist::binary::ChunkRows::new(chunk)?;
            let partition_key = rows.partition_key;
            let mut run = account
                .insert_run(table, partition_key, &rows.names)
                .map_err(|e| e.to_string())?;
            while let Some((_, row)) = rows.next()? {
                if let Err(e) = run.insert(row) {
                    let refused = Array::of3(
                        &partition_key.into(),
                        &row.row_key.into(),
                        &e.to_string().into(),
                    );
                    return Ok(refused.into());
                }
            }
        }
        Ok(JsValue::UNDEFINED)
    })?
}

/// One page of a query for the Design section's evaluator (`op::QUERY`): counts, the
/// continuation and a few entities, without the service's JSON (the evaluator counts pages
/// of up to 1,000 entities each, and measures sizes on the first 100).
fn query(state: AppState, args: &Array) -> Result<JsValue, String> {
    use crate::engine::query::{count_page, plan, Continuation, QueryOptions};
    let text = |i: u32| args.get(i).as_string();
    let (Some(table), Some(filter)) = (text(1), text(2)) else {
        return Err("bad request".into());
    };
    let continuation = match (text(4), text(5)) {
        (Some(next_partition_key), Some(next_row_key)) => Some(Continuation {
            next_partition_key,
            next_row_key,
        }),
        _ => None,
    };
    let keep = args.get(6).as_f64().unwrap_or(0.0).max(0.0) as usize;
    // The evaluator's scan budget: a page ends where the Query section's would.
    let page_budget = args.get(7).as_f64().map(|n| n.max(0.0) as u64);
    let options = QueryOptions {
        page_budget,
        top: args
            .get(3)
            .as_f64()
            .map(|n| n.clamp(0.0, f64::from(u32::MAX)) as u32),
        continuation,
        ..QueryOptions::default()
    };
    let page = state
        .read_mut(|account| {
            let table = account.table(&table).map_err(|e| e.to_string())?;
            let expr = crate::engine::filter::parse(&filter).map_err(|e| e.to_string())?;
            count_page(table, plan(expr), &options, keep).map_err(|e| e.to_string())
        })
        .ok_or("bad request")??;
    // The kept entities, a chunk per run of one PartitionKey.
    let chunks = Array::new();
    for run in page
        .entities
        .chunk_by(|a, b| a.partition_key == b.partition_key)
    {
        if let Some(first) = run.first() {
            let bytes = crate::persist::binary::encode_entities(&first.partition_key, run);
            chunks.push(&Uint8Array::from(bytes.as_slice()));
        }
    }
    let text_or_undefined =
        |s: Option<&String>| s.map_or(JsValue::UNDEFINED, |s| JsValue::from_str(s));
    let c = page.continuation.as_ref();
    let answer: Array = [
        JsValue::from(page.stats.scanned as f64),
        JsValue::from(page.stats.returned as f64),
        JsValue::from(page.stats.partitions as f64),
        JsValue::from(page.stats.kind as u32),
        text_or_undefined(c.map(|c| &c.next_partition_key)),
        text_or_undefined(c.map(|c| &c.next_row_key)),
        text_or_undefined(page.last_partition_key.as_ref()),
        chunks.into(),
    ]
    .iter()
    .collect();
    Ok(answer.into())
}

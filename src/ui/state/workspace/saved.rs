//! The workspace across reloads: the section shown, the selected table, the query's `$filter`,
//! `$select`, `$top` and page budget, the run history, the staged batch and each table's grid
//! columns as arranged with the column chooser. (The builder is
//! the `$filter` read back: every filter it writes reads back into the same builder.)
//!
//! Saved in `localStorage` under [`KEY`] (beside the language choice, `tablescope.lang`) as
//! one small JSON object, rewritten on every change, so a reload at any moment (F5) finds the
//! last state. The tables themselves are in IndexedDB (`crate::persist`); this is only the
//! work around them, so it is kept only while the tables are saved (a read-only second tab,
//! or a page whose storage failed, neither restores nor saves it).
//!
//! Invariant: reading never fails the start. Data that is not JSON, of another version, or
//! with a field of the wrong shape gives the defaults for what is wrong (each field on its
//! own); a table that no longer exists is not selected; a staged operation that does not read
//! back is dropped.
//!
//! Format (version 1): `{"version": 1, "section": "query", "table": "Employees",
//! "query": {"filter", "select", "top", "budget"}, "history": [{"table", "filter", "kind",
//! "pages": [{"scanned", "returned", "partitions", "continues", "token", "ru"}]}], "batch": [{"op": "merge",
//! "entity": {…}, "ifMatch": "*"} or {"op": "delete", "partitionKey", "rowKey", "ifMatch"}],
//! "columns": [["Table", [["Name", true], ["Timestamp", false], …]], …]}` (operation names as
//! the service spells them; `columns` is optional, see `super::layouts::layouts_js`).
//!
//! Size: start runs [`keep`] and, on a return visit, [`restore`], so they are in the page's
//! first download (scripts/split.mjs). They use the browser's JSON (`JSON.parse`,
//! `JSON.stringify`, property access), not serde_json's `Value`, whose reader, writer and maps
//! cost the primary wasm about 14 KB more. The history's and the batch's readers and writers
//! are `#[inline(never)]` and called only when there is something to read or write, so they
//! stay in the deferred wasm; the batch is read and written by hand, not by the engine's serde
//! derive (an internally tagged enum: a large reader).

use super::runs::{Run, RunPage};
use super::{Staged, Workspace, WriteOp};
use crate::engine::{BatchRequest, RawEntity};
use crate::ui::state::navigation::{Navigation, Section};
use crate::ui::state::AppState;
use js_sys::{Array, Object, Reflect, JSON};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The `localStorage` key.
pub const KEY: &str = "tablescope.workspace";
/// The format written; data of any other version is ignored.
const VERSION: f64 = 1.0;
/// Runs kept across a reload (the newest).
const MAX_RUNS: usize = 50;

/// Restores the saved workspace (when the tables are saved), then saves every change to it.
/// `section` keeps what the page's address asked for (a share link or a lesson opens Learn)
/// over the saved one.
pub fn keep(workspace: Workspace, section: Navigation, state: AppState) {
    if !crate::persist::is_attached() {
        return;
    }
    if let Some(text) = storage().and_then(|s| s.get_item(KEY).ok().flatten()) {
        restore(&text, workspace, section, state);
    }
    // A change schedules one write a moment later (of the state then: later changes ride
    // along), so typing does not write on every key. A reload (F5) before it still finds the
    // change: `pagehide` writes at once. One JavaScript function serves both.
    let pending = StoredValue::new(false);
    let flush = Closure::<dyn Fn()>::new(move || {
        if pending.try_get_value() == Some(true) {
            pending.set_value(false);
            write(workspace, section);
        }
    });
    let window = web_sys::window();
    if let Some(w) = &window {
        let _ = w.add_event_listener_with_callback("pagehide", flush.as_ref().unchecked_ref());
    }
    let flush: js_sys::Function = flush.into_js_value().unchecked_into();
    Effect::new(move |started: Option<()>| {
        let q = workspace.query;
        section.track();
        workspace.table.track();
        workspace.filter.track();
        workspace.batch.track();
        workspace.columns.with(|_| ());
        q.select.track();
        q.top.track();
        q.budget.track();
        q.history.track();
        // The first run only subscribes (the state was just restored: nothing to write).
        if started.is_some() && pending.try_get_value() == Some(false) {
            pending.set_value(true);
            if let Some(w) = &window {
                let _ =
                    w.set_timeout_with_callback_and_timeout_and_arguments_0(&flush, SAVE_AFTER_MS);
            }
        }
    });
}

/// How long after a change the workspace is written, in milliseconds.
const SAVE_AFTER_MS: i32 = 300;

/// Writes the workspace now.
fn write(workspace: Workspace, section: Navigation) {
    let text = JSON::stringify(&snapshot(workspace, section))
        .ok()
        .and_then(|t| t.as_string());
    if let (Some(s), Some(text)) = (storage(), text) {
        // Over quota (a huge staged batch): the last state that fitted stays.
        let _ = s.set_item(KEY, &text);
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn set(object: &Object, name: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(object, &JsValue::from_str(name), &value.into());
}

fn get(object: &JsValue, name: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn str_at(object: &JsValue, name: &str) -> Option<String> {
    get(object, name).as_string()
}

/// The array `name` of `object`, when it is one and not empty.
fn items(object: &JsValue, name: &str) -> Option<Array> {
    let v = get(object, name);
    Array::is_array(&v)
        .then(|| Array::from(&v))
        .filter(|a| a.length() > 0)
}

/// The workspace as the saved object.
fn snapshot(w: Workspace, section: Navigation) -> Object {
    let q = w.query;
    let out = Object::new();
    set(&out, "version", VERSION);
    set(&out, "section", section.get().id());
    set(&out, "table", w.table.get());
    let query = Object::new();
    set(&query, "filter", w.filter.get());
    set(&query, "select", q.select.get());
    set(&query, "top", q.top.get());
    set(&query, "budget", q.budget.get());
    set(&out, "query", query);
    set(&out, "history", q.history.with(|h| encode_runs(h)));
    set(&out, "batch", w.batch.with(|b| encode_batch(b)));
    set(&out, "columns", super::layouts::layouts_js(w));
    out
}

/// Puts what `text` holds in place, field by field (see the module invariant).
pub fn restore(text: &str, w: Workspace, section: Navigation, state: AppState) {
    let Ok(saved) = JSON::parse(text) else {
        return;
    };
    if get(&saved, "version").as_f64() != Some(VERSION) {
        return;
    }
    if let Some(table) = str_at(&saved, "table") {
        if state.describe_tables().iter().any(|t| t.name == table) {
            w.table.set(Some(table));
        }
    }
    let wanted = str_at(&saved, "section");
    if section.get_untracked() == Section::default() {
        if let Some(s) = Section::ALL
            .into_iter()
            .find(|s| Some(s.id()) == wanted.as_deref())
        {
            section.set(s);
        }
    }
    let q = get(&saved, "query");
    for (name, signal) in [
        ("filter", w.filter),
        ("select", w.query.select),
        ("top", w.query.top),
        ("budget", w.query.budget),
    ] {
        if let Some(v) = str_at(&q, name) {
            signal.set(v);
        }
    }
    if let Some(runs) = items(&saved, "history") {
        w.query.history.set(decode_runs(&runs, w));
    }
    if let Some(ops) = items(&saved, "batch") {
        w.batch.set(decode_batch(&ops, w));
    }
    if let Some(columns) = items(&saved, "columns") {
        super::layouts::restore_layouts_js(&columns, w);
    }
}

/// The newest runs (without their explanations); an empty array when there are none.
fn encode_runs(runs: &[Run]) -> Array {
    if runs.is_empty() {
        return Array::new();
    }
    encode_some_runs(runs)
}

#[inline(never)]
fn encode_some_runs(runs: &[Run]) -> Array {
    runs.iter()
        .skip(runs.len().saturating_sub(MAX_RUNS))
        .map(|r| {
            let run = Object::new();
            set(&run, "table", r.table.as_str());
            set(&run, "filter", r.filter.as_str());
            set(&run, "kind", r.kind.as_str());
            let pages: Array = r
                .pages
                .iter()
                .map(|p| {
                    let page = Object::new();
                    set(&page, "scanned", p.scanned as f64);
                    set(&page, "returned", p.returned as f64);
                    set(&page, "partitions", p.partitions as f64);
                    set(&page, "continues", p.continues_partition);
                    set(&page, "token", p.token.clone());
                    if let Some(ru) = p.ru {
                        set(&page, "ru", ru);
                    }
                    JsValue::from(page)
                })
                .collect();
            set(&run, "pages", pages);
            JsValue::from(run)
        })
        .collect()
}

#[inline(never)]
fn decode_runs(runs: &Array, w: Workspace) -> Vec<Run> {
    let count = |v: &JsValue, name: &str| {
        get(v, name)
            .as_f64()
            .filter(|n| *n >= 0.0)
            .map_or(0, |n| n as u64)
    };
    runs.iter()
        .filter_map(|r| {
            let pages = get(&r, "pages");
            if !Array::is_array(&pages) {
                return None;
            }
            Some(Run {
                id: w.next_id(),
                table: str_at(&r, "table")?,
                filter: str_at(&r, "filter")?,
                kind: str_at(&r, "kind")?,
                explain: None,
                pages: Array::from(&pages)
                    .iter()
                    .map(|p| RunPage {
                        scanned: count(&p, "scanned"),
                        returned: count(&p, "returned"),
                        partitions: count(&p, "partitions"),
                        continues_partition: get(&p, "continues").as_bool().unwrap_or(false),
                        token: str_at(&p, "token"),
                        ru: get(&p, "ru").as_f64().filter(|ru| *ru >= 0.0),
                    })
                    .collect(),
                render_ms: None,
            })
        })
        .collect()
}

/// The staged operations; an empty array when there are none.
fn encode_batch(staged: &[Staged]) -> Array {
    if staged.is_empty() {
        return Array::new();
    }
    encode_some_ops(staged)
}

#[inline(never)]
fn encode_some_ops(staged: &[Staged]) -> Array {
    staged
        .iter()
        .map(|s| {
            let op = Object::new();
            set(&op, "op", crate::ui::state::model::batch_op_name(&s.op));
            match &s.op {
                BatchRequest::Delete {
                    partition_key,
                    row_key,
                    if_match,
                } => {
                    set(&op, "partitionKey", partition_key.as_str());
                    set(&op, "rowKey", row_key.as_str());
                    set(&op, "ifMatch", if_match.clone());
                }
                BatchRequest::Get {
                    partition_key,
                    row_key,
                } => {
                    set(&op, "partitionKey", partition_key.as_str());
                    set(&op, "rowKey", row_key.as_str());
                }
                BatchRequest::Insert { entity }
                | BatchRequest::UpsertReplace { entity }
                | BatchRequest::UpsertMerge { entity } => {
                    set(&op, "entity", entity_object(entity));
                }
                BatchRequest::Replace { entity, if_match }
                | BatchRequest::Merge { entity, if_match } => {
                    set(&op, "entity", entity_object(entity));
                    set(&op, "ifMatch", if_match.clone());
                }
            }
            JsValue::from(op)
        })
        .collect()
}

/// The entity in the service's JSON form, as a JavaScript object (so the saved text shows it
/// as JSON, not as a string of JSON).
fn entity_object(entity: &RawEntity) -> JsValue {
    JSON::parse(&entity.to_json().to_string()).unwrap_or(JsValue::NULL)
}

/// The staged operations that read back; a malformed one is dropped.
#[inline(never)]
fn decode_batch(ops: &Array, w: Workspace) -> Vec<Staged> {
    ops.iter()
        .filter_map(|v| {
            let name = str_at(&v, "op")?;
            let if_match = str_at(&v, "ifMatch");
            let op = match name.as_str() {
                "delete" | "get" => {
                    let (pk, rk) = (str_at(&v, "partitionKey")?, str_at(&v, "rowKey")?);
                    if name == "get" {
                        BatchRequest::Get {
                            partition_key: pk,
                            row_key: rk,
                        }
                    } else {
                        BatchRequest::Delete {
                            partition_key: pk,
                            row_key: rk,
                            if_match,
                        }
                    }
                }
                _ => {
                    let entity = get(&v, "entity");
                    if !entity.is_object() || Array::is_array(&entity) {
                        return None;
                    }
                    let text = JSON::stringify(&entity).ok()?.as_string()?;
                    let entity = RawEntity::parse(&text).ok()?;
                    let keys = (String::new(), String::new());
                    WriteOp::from_name(&name)?
                        .batch_request(keys, || Ok::<_, ()>(entity), if_match)
                        .ok()?
                }
            };
            Some(Staged {
                id: w.next_id(),
                op,
            })
        })
        .collect()
}

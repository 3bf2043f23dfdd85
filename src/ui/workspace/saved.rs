//! The workspace across reloads: the section shown, the selected table, the query's `$filter`,
//! `$select`, `$top` and page budget, the run history and the staged batch. (The builder is
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
//! "pages": [{"scanned", "returned", "partitions", "token"}]}], "batch": [{"op": "merge",
//! "entity": {…}, "ifMatch": "*"} or {"op": "delete", "partitionKey", "rowKey", "ifMatch"}]}`
//! (operation names as the service spells them).
//!
//! Size: start runs [`keep`] and, on a return visit, [`restore`], so they are in the page's
//! first download (scripts/split.mjs). The history's and the batch's readers and writers are
//! `#[inline(never)]` and called only when there is something to read or write, so they stay in
//! the deferred wasm; the batch is read and written by hand, not by the engine's serde derive
//! (an internally tagged enum: a large reader).

use super::{Staged, Workspace, WriteOp};
use crate::engine::{BatchRequest, RawEntity};
use crate::ui::app::Section;
use crate::ui::results::{Run, RunPage};
use crate::ui::state::AppState;
use leptos::prelude::*;
use serde_json::{json, Value};

/// The `localStorage` key.
pub const KEY: &str = "tablescope.workspace";
/// The format written; data of any other version is ignored.
const VERSION: u64 = 1;
/// Runs kept across a reload (the newest).
const MAX_RUNS: usize = 50;

/// Restores the saved workspace (when the tables are saved), then saves every change to it.
/// `section` keeps what the page's address asked for (a share link or a lesson opens Learn)
/// over the saved one.
pub fn keep(workspace: Workspace, section: RwSignal<Section>, state: AppState) {
    if !crate::persist::is_attached() {
        return;
    }
    if let Some(text) = storage().and_then(|s| s.get_item(KEY).ok().flatten()) {
        restore(&text, workspace, section, state);
    }
    Effect::new(move |started: Option<()>| {
        if started.is_none() {
            // The first run only subscribes (the state was just restored: nothing to write).
            let q = workspace.query;
            section.track();
            workspace.table.track();
            workspace.filter.track();
            workspace.batch.track();
            q.select.track();
            q.top.track();
            q.budget.track();
            q.history.track();
            return;
        }
        let text = snapshot(workspace, section).to_string();
        if let Some(s) = storage() {
            // Over quota (a huge staged batch): the last state that fitted stays.
            let _ = s.set_item(KEY, &text);
        }
    });
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The workspace as the saved JSON.
fn snapshot(w: Workspace, section: RwSignal<Section>) -> Value {
    let q = w.query;
    let history = q.history.with(|h| {
        if h.is_empty() {
            Vec::new()
        } else {
            encode_runs(h)
        }
    });
    let batch = w.batch.with(|b| {
        if b.is_empty() {
            Vec::new()
        } else {
            encode_batch(b)
        }
    });
    json!({
        "version": VERSION,
        "section": section.get().id(),
        "table": w.table.get(),
        "query": {"filter": w.filter.get(), "select": q.select.get(), "top": q.top.get(),
                  "budget": q.budget.get()},
        "history": history,
        "batch": batch,
    })
}

/// Puts what `text` holds in place, field by field (see the module invariant).
pub fn restore(text: &str, w: Workspace, section: RwSignal<Section>, state: AppState) {
    let Ok(saved) = serde_json::from_str::<Value>(text) else {
        return;
    };
    if saved.get("version").and_then(Value::as_u64) != Some(VERSION) {
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
    if let Some(q) = saved.get("query") {
        let q_opts = w.query;
        for (name, signal) in [
            ("filter", w.filter),
            ("select", q_opts.select),
            ("top", q_opts.top),
            ("budget", q_opts.budget),
        ] {
            if let Some(v) = str_at(q, name) {
                signal.set(v);
            }
        }
    }
    if let Some(runs) = saved.get("history").and_then(Value::as_array) {
        if !runs.is_empty() {
            w.query.history.set(decode_runs(runs, w));
        }
    }
    if let Some(ops) = saved.get("batch").and_then(Value::as_array) {
        if !ops.is_empty() {
            w.batch.set(decode_batch(ops, w));
        }
    }
}

fn str_at(v: &Value, name: &str) -> Option<String> {
    v.get(name).and_then(Value::as_str).map(str::to_string)
}

#[inline(never)]
fn encode_runs(runs: &[Run]) -> Vec<Value> {
    runs.iter()
        .skip(runs.len().saturating_sub(MAX_RUNS))
        .map(|r| {
            let pages: Vec<Value> = r
                .pages
                .iter()
                .map(|p| {
                    json!({"scanned": p.scanned, "returned": p.returned,
                           "partitions": p.partitions, "token": p.token})
                })
                .collect();
            json!({"table": r.table, "filter": r.filter, "kind": r.kind, "pages": pages})
        })
        .collect()
}

#[inline(never)]
fn decode_runs(runs: &[Value], w: Workspace) -> Vec<Run> {
    let count = |v: &Value, name: &str| v.get(name).and_then(Value::as_u64).unwrap_or(0);
    runs.iter()
        .filter_map(|r| {
            let pages = r.get("pages")?.as_array()?;
            Some(Run {
                id: w.next_id(),
                table: str_at(r, "table")?,
                filter: str_at(r, "filter")?,
                kind: str_at(r, "kind")?,
                explain: None,
                pages: pages
                    .iter()
                    .map(|p| RunPage {
                        scanned: count(p, "scanned"),
                        returned: count(p, "returned"),
                        partitions: count(p, "partitions"),
                        token: str_at(p, "token"),
                    })
                    .collect(),
                render_ms: None,
            })
        })
        .collect()
}

#[inline(never)]
fn encode_batch(staged: &[Staged]) -> Vec<Value> {
    staged
        .iter()
        .map(|s| match &s.op {
            BatchRequest::Delete {
                partition_key,
                row_key,
                if_match,
            } => json!({"op": "delete", "partitionKey": partition_key, "rowKey": row_key,
                        "ifMatch": if_match}),
            BatchRequest::Get {
                partition_key,
                row_key,
            } => json!({"op": "get", "partitionKey": partition_key, "rowKey": row_key}),
            BatchRequest::Insert { entity }
            | BatchRequest::UpsertReplace { entity }
            | BatchRequest::UpsertMerge { entity } => {
                json!({"op": crate::ui::model::batch_op_name(&s.op), "entity": entity.to_json()})
            }
            BatchRequest::Replace { entity, if_match }
            | BatchRequest::Merge { entity, if_match } => {
                json!({"op": crate::ui::model::batch_op_name(&s.op), "entity": entity.to_json(),
                       "ifMatch": if_match})
            }
        })
        .collect()
}

/// The staged operations that read back; a malformed one is dropped.
#[inline(never)]
fn decode_batch(ops: &[Value], w: Workspace) -> Vec<Staged> {
    ops.iter()
        .filter_map(|v| {
            let name = str_at(v, "op")?;
            let if_match = str_at(v, "ifMatch");
            let op = match name.as_str() {
                "delete" | "get" => {
                    let (pk, rk) = (str_at(v, "partitionKey")?, str_at(v, "rowKey")?);
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
                    let entity = v.get("entity")?.as_object()?.clone();
                    let keys = (String::new(), String::new());
                    WriteOp::from_name(&name)?
                        .batch_request(keys, || Ok::<_, ()>(RawEntity::from(entity)), if_match)
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

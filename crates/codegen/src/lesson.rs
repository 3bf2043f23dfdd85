//! A lesson's data for a docs embed's code cell (`ui::cell`): the tables and entities as the
//! lesson leaves them.
//!
//! The lesson's writes are sent, in order, through `tablescope_wire` as the raw HTTP requests
//! "show as code" writes for them (`code::http`), on a fresh account; reads change nothing and
//! are skipped. Not through the scenario runner (`engine::scenario::Runner`): it builds each
//! request with serde's derived `Request` reader and checks every step's expectations, which
//! cost the cell's wasm 30 KB gzip that a docs embed's budget does not have, and the cell needs
//! neither (it shows no steps). A write the lesson expects to fail fails here too and changes
//! nothing, as in the lesson.

use super::http::wire_request;
use super::{Op, Write};
use serde_json::{Map, Value as Json};
use tablescope_engine::json::decode;
use tablescope_engine::scenario::{Scenario, Step};
use tablescope_engine::{Account, DateTime, RawEntity};
use tablescope_wire::{self as wire, Context, Endpoint};

/// A fresh account with every write of `lesson` applied (crates/codegen/tests/lesson_data.rs checks it holds
/// what the scenario runner's does, for every lesson).
pub fn lesson_account(lesson: &Scenario) -> Account {
    let mut account = Account::default();
    let endpoint = Endpoint::anonymous(wire::DEV_ACCOUNT);
    // Each step's ETag, for a later step's `"ifMatch": {"step": N}`.
    let mut etags: Vec<Option<String>> = Vec::with_capacity(lesson.steps.len());
    for step in &lesson.steps {
        let etag = op_of(step, &etags).and_then(|op| {
            // The account's own clock stamps the entities; the context's time is only the
            // answer's Date header.
            let context = Context {
                now: DateTime::MIN,
                request_id: String::new(),
            };
            let outcome = wire::handle(&mut account, &endpoint, &context, &wire_request(&op));
            outcome
                .response
                .headers
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("ETag"))
                .map(|(_, value)| value.clone())
        });
        etags.push(etag);
    }
    account
}

/// The write `step` makes, or `None` for a read (or a step that cannot be sent: the lesson's
/// own player reports those).
fn op_of(step: &Step, etags: &[Option<String>]) -> Option<Op> {
    let fields = &step.request;
    let table = text(fields, "table")?;
    match step.op.as_str() {
        "createTable" => Some(Op::CreateTable(table)),
        "deleteTable" => Some(Op::DeleteTable(table)),
        "batch" => {
            let operations = fields.get("operations")?.as_array()?;
            let writes = operations
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let entity = step.operation_entities.get(i).and_then(Option::as_ref);
                    write_of(o.as_object()?, entity, etags)
                })
                .collect::<Option<Vec<_>>>()?;
            Some(Op::Batch { table, writes })
        }
        _ => Some(Op::Write {
            table,
            write: write_of(fields, step.entity.as_ref(), etags)?,
        }),
    }
}

fn write_of(
    fields: &Map<String, Json>,
    raw: Option<&RawEntity>,
    etags: &[Option<String>],
) -> Option<Write> {
    let entity = || decode(raw?).ok();
    let if_match = || match fields.get("ifMatch") {
        Some(Json::String(s)) if s.trim() != "*" => Some(s.clone()),
        Some(Json::Object(r)) => etags.get(r.get("step")?.as_u64()? as usize)?.clone(),
        _ => None,
    };
    Some(match fields.get("op")?.as_str()? {
        "insert" => Write::Insert(entity()?),
        "upsertReplace" => Write::UpsertReplace(entity()?),
        "upsertMerge" => Write::UpsertMerge(entity()?),
        "replace" => Write::Replace(entity()?, if_match()),
        "merge" => Write::Merge(entity()?, if_match()),
        "delete" => Write::Delete {
            partition_key: text(fields, "partitionKey")?,
            row_key: text(fields, "rowKey")?,
            if_match: if_match(),
        },
        _ => return None,
    })
}

fn text(fields: &Map<String, Json>, name: &str) -> Option<String> {
    fields.get(name)?.as_str().map(str::to_string)
}

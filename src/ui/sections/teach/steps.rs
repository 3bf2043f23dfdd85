//! Building a scenario step's [`Request`] by hand from its JSON fields.
//!
//! The engine's [`Runner`](crate::engine::scenario::Runner) builds requests with the derived
//! `Deserialize` of [`Request`], which costs about 20 KB of gzipped wasm; the player only
//! needs this small, strict builder. It accepts exactly the fields docs/service/lessons.md lists (an
//! unknown field is an error, as in the engine) and resolves `{"step": N}` references against
//! earlier outcomes. `tests/web_teach.rs` checks that it runs every shipped scenario to the
//! same outcome as the engine's runner.

use crate::engine::scenario::{earlier_outcome, step_ref, Runner, Step, StepOutcome};
use crate::engine::{BatchRequest, Continuation, RawEntity, Request};
use serde_json::{Map, Value as Json};

/// Runs the runner's next step with the hand-built request; `None` when all have run.
pub fn run_next(runner: &mut Runner) -> Option<&StepOutcome> {
    runner.step_with(build)
}

/// The fields each op accepts besides `op`.
fn allowed(op: &str, in_batch: bool) -> &'static [&'static str] {
    match (op, in_batch) {
        ("createTable" | "deleteTable", false) => &["table"],
        ("listTables", false) => &["filter", "top"],
        ("insert" | "upsertReplace" | "upsertMerge", false) => &["table", "entity"],
        ("insert" | "upsertReplace" | "upsertMerge", true) => &["entity"],
        ("replace" | "merge", false) => &["table", "entity", "ifMatch"],
        ("replace" | "merge", true) => &["entity", "ifMatch"],
        ("delete", false) => &["table", "partitionKey", "rowKey", "ifMatch"],
        ("delete", true) => &["partitionKey", "rowKey", "ifMatch"],
        ("get", false) => &["table", "partitionKey", "rowKey", "select"],
        ("get", true) => &["partitionKey", "rowKey"],
        ("query", false) => &[
            "table",
            "filter",
            "select",
            "top",
            "continuation",
            "pageBudget",
        ],
        ("batch", false) => &["table", "operations"],
        _ => &[],
    }
}

struct Fields<'a> {
    map: &'a Map<String, Json>,
    earlier: &'a [StepOutcome],
}

impl Fields<'_> {
    fn string(&self, name: &str) -> Result<String, String> {
        self.opt_string(name)?
            .ok_or_else(|| format!("missing field `{name}`"))
    }
    fn opt_string(&self, name: &str) -> Result<Option<String>, String> {
        match self.map.get(name) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{name}` must be a string")),
        }
    }
    fn opt_u64(&self, name: &str) -> Result<Option<u64>, String> {
        match self.map.get(name) {
            None | Some(Json::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| format!("`{name}` must be a whole number")),
        }
    }
    fn opt_u32(&self, name: &str) -> Result<Option<u32>, String> {
        self.opt_u64(name)?
            .map(|n| u32::try_from(n).map_err(|_| format!("`{name}` is too large")))
            .transpose()
    }
    fn select(&self) -> Result<Option<Vec<String>>, String> {
        match self.map.get("select") {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| "`select` lists property names".to_string())
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err("`select` must be a list".into()),
        }
    }
    /// The entity as written (duplicates kept when the parser saw them).
    fn entity(&self, written: Option<&RawEntity>) -> Result<RawEntity, String> {
        if let Some(raw) = written {
            return Ok(raw.clone());
        }
        match self.map.get("entity") {
            Some(Json::Object(m)) => Ok(RawEntity::from(m.clone())),
            Some(_) => Err("`entity` must be an object".into()),
            None => Err("missing field `entity`".into()),
        }
    }
    fn earlier(&self, n: usize) -> Result<&StepOutcome, String> {
        earlier_outcome(self.earlier, n)
    }
    fn if_match(&self) -> Result<Option<String>, String> {
        if let Some(r) = self.map.get("ifMatch").and_then(step_ref) {
            let n = r?;
            let etag = self.earlier(n)?.response.etag.map(String::from);
            return etag
                .map(Some)
                .ok_or_else(|| format!("step {n} returned no ETag"));
        }
        self.opt_string("ifMatch")
    }
    fn continuation(&self) -> Result<Option<Continuation>, String> {
        let Some(v) = self.map.get("continuation") else {
            return Ok(None);
        };
        if let Some(n) = step_ref(v) {
            let n = n?;
            return self
                .earlier(n)?
                .response
                .continuation
                .clone()
                .map(Some)
                .ok_or_else(|| format!("step {n} returned no continuation"));
        }
        let obj = v.as_object().ok_or("`continuation` must be an object")?;
        let key = |name: &str| {
            obj.get(name)
                .and_then(Json::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("continuation needs `{name}`"))
        };
        if obj.len() != 2 {
            return Err("a continuation is {nextPartitionKey, nextRowKey}".into());
        }
        Ok(Some(Continuation {
            next_partition_key: key("nextPartitionKey")?,
            next_row_key: key("nextRowKey")?,
        }))
    }
}

fn check_fields(map: &Map<String, Json>, op: &str, in_batch: bool) -> Result<(), String> {
    let ok = allowed(op, in_batch);
    if ok.is_empty() {
        return Err(format!("unknown op '{op}'"));
    }
    match map
        .keys()
        .find(|k| k.as_str() != "op" && !ok.contains(&k.as_str()))
    {
        Some(k) => Err(format!("unknown field `{k}`")),
        None => Ok(()),
    }
}

/// The request of one step, references resolved against earlier outcomes.
pub fn build(step: &Step, earlier: &[StepOutcome]) -> Result<Request, String> {
    let f = Fields {
        map: &step.request,
        earlier,
    };
    let op = step.op.as_str();
    check_fields(f.map, op, false)?;
    let table = || f.string("table");
    Ok(match op {
        "createTable" => Request::CreateTable { table: table()? },
        "deleteTable" => Request::DeleteTable { table: table()? },
        "listTables" => Request::ListTables {
            filter: f.opt_string("filter")?,
            top: f.opt_u32("top")?,
            next_table_name: None,
        },
        "insert" => Request::Insert {
            table: table()?,
            entity: f.entity(step.entity.as_ref())?,
        },
        "upsertReplace" => Request::UpsertReplace {
            table: table()?,
            entity: f.entity(step.entity.as_ref())?,
        },
        "upsertMerge" => Request::UpsertMerge {
            table: table()?,
            entity: f.entity(step.entity.as_ref())?,
        },
        "replace" => Request::Replace {
            table: table()?,
            entity: f.entity(step.entity.as_ref())?,
            if_match: f.if_match()?,
        },
        "merge" => Request::Merge {
            table: table()?,
            entity: f.entity(step.entity.as_ref())?,
            if_match: f.if_match()?,
        },
        "delete" => Request::Delete {
            table: table()?,
            partition_key: f.string("partitionKey")?,
            row_key: f.string("rowKey")?,
            if_match: f.if_match()?,
        },
        "get" => Request::Get {
            table: table()?,
            partition_key: f.string("partitionKey")?,
            row_key: f.string("rowKey")?,
            select: f.select()?,
        },
        "query" => Request::Query {
            table: table()?,
            filter: f.opt_string("filter")?,
            select: f.select()?,
            top: f.opt_u32("top")?,
            continuation: f.continuation()?,
            page_budget: f.opt_u64("pageBudget")?,
            trace: false,
        },
        "batch" => Request::Batch {
            table: table()?,
            operations: batch_operations(step, earlier)?,
        },
        other => return Err(format!("unknown op '{other}'")),
    })
}

fn batch_operations(step: &Step, earlier: &[StepOutcome]) -> Result<Vec<BatchRequest>, String> {
    let Some(Json::Array(ops)) = step.request.get("operations") else {
        return Err("a batch needs \"operations\": a list of steps".into());
    };
    ops.iter()
        .enumerate()
        .map(|(j, o)| {
            let map = o
                .as_object()
                .ok_or_else(|| format!("operation {j}: a step is a JSON object"))?;
            let f = Fields { map, earlier };
            let op = f.string("op")?;
            check_fields(map, &op, true).map_err(|e| format!("operation {j}: {e}"))?;
            let written = step.operation_entities.get(j).and_then(Option::as_ref);
            Ok(match op.as_str() {
                "insert" => BatchRequest::Insert {
                    entity: f.entity(written)?,
                },
                "upsertReplace" => BatchRequest::UpsertReplace {
                    entity: f.entity(written)?,
                },
                "upsertMerge" => BatchRequest::UpsertMerge {
                    entity: f.entity(written)?,
                },
                "replace" => BatchRequest::Replace {
                    entity: f.entity(written)?,
                    if_match: f.if_match()?,
                },
                "merge" => BatchRequest::Merge {
                    entity: f.entity(written)?,
                    if_match: f.if_match()?,
                },
                "delete" => BatchRequest::Delete {
                    partition_key: f.string("partitionKey")?,
                    row_key: f.string("rowKey")?,
                    if_match: f.if_match()?,
                },
                "get" => BatchRequest::Get {
                    partition_key: f.string("partitionKey")?,
                    row_key: f.string("rowKey")?,
                },
                other => return Err(format!("operation {j}: unknown op '{other}'")),
            })
        })
        .collect()
}

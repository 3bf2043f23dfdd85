//! Reading a scenario file strictly.

use super::expect::Expect;
use crate::json::RawEntity;
use serde_json::{Map, Value as Json};

pub const OPS: [&str; 12] = [
    "createTable",
    "deleteTable",
    "listTables",
    "insert",
    "upsertReplace",
    "upsertMerge",
    "replace",
    "merge",
    "delete",
    "get",
    "query",
    "batch",
];
const BATCH_OPS: [&str; 7] = [
    "insert",
    "upsertReplace",
    "upsertMerge",
    "replace",
    "merge",
    "delete",
    "get",
];

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub steps: Vec<Step>,
}

/// A value that may be given directly or taken from an earlier step's result.
#[derive(Debug, Clone, PartialEq)]
pub enum StepRef<T> {
    Value(T),
    /// The ETag (for `ifMatch`) or continuation (for `continuation`) returned by step N.
    Step(usize),
}

/// One step: the request as JSON (references still unresolved), its note and expectations.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub op: String,
    /// The step's request fields, `op` included, without `note` and `expect`.
    pub request: Map<String, Json>,
    pub note: Option<String>,
    pub expect: Option<Expect>,
    /// The step's entity as written, duplicate members kept (a JSON map would drop them,
    /// and a name given twice must fail with DuplicatePropertiesSpecified).
    pub entity: Option<RawEntity>,
    /// The same for each batch operation.
    pub operation_entities: Vec<Option<RawEntity>>,
}

/// Just the entities of each step, read with duplicates kept.
#[derive(serde::Deserialize)]
struct DupFile {
    steps: Vec<DupStep>,
}

#[derive(serde::Deserialize)]
struct DupStep {
    #[serde(default)]
    entity: Option<RawEntity>,
    #[serde(default)]
    operations: Option<Vec<DupStep>>,
}

fn err(msg: String) -> String {
    msg
}

/// Parses scenario JSON text. Errors name the step and field.
pub fn parse(text: &str) -> Result<Scenario, String> {
    let root: Json = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let Json::Object(mut root) = root else {
        return Err("a scenario is a JSON object".into());
    };
    for key in root.keys() {
        if !matches!(key.as_str(), "format" | "name" | "description" | "steps") {
            return Err(format!(
                "unknown field '{key}' (allowed: format, name, description, steps)"
            ));
        }
    }
    match root.get("format") {
        Some(f) if f == &Json::from(1) => {}
        other => {
            return Err(format!(
                "\"format\" must be 1, found {}",
                other.map_or("nothing".into(), |v| v.to_string())
            ))
        }
    }
    let name = string_field(&root, "name")?.unwrap_or_default();
    let description = string_field(&root, "description")?.unwrap_or_default();
    let Some(Json::Array(steps)) = root.remove("steps") else {
        return Err("\"steps\" must be a list".into());
    };
    let mut steps = steps
        .into_iter()
        .enumerate()
        .map(|(i, s)| parse_step(s, &OPS, true).map_err(|e| format!("step {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    // Shapes were checked above, so this second read only fails where an entity is not an
    // object; the request itself reports that when it runs.
    if let Ok(dups) = serde_json::from_str::<DupFile>(text) {
        for (step, dup) in steps.iter_mut().zip(dups.steps) {
            step.entity = dup.entity;
            step.operation_entities = dup
                .operations
                .unwrap_or_default()
                .into_iter()
                .map(|o| o.entity)
                .collect();
        }
    }
    Ok(Scenario {
        name,
        description,
        steps,
    })
}

fn string_field(root: &Map<String, Json>, key: &str) -> Result<Option<String>, String> {
    match root.get(key) {
        None => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("\"{key}\" must be a string")),
    }
}

fn parse_step(step: Json, ops: &[&str], top_level: bool) -> Result<Step, String> {
    let Json::Object(mut map) = step else {
        return Err("a step is a JSON object".into());
    };
    let op = match map.get("op") {
        Some(Json::String(op)) if ops.contains(&op.as_str()) => op.clone(),
        Some(Json::String(op)) => {
            return Err(err(format!(
                "unknown op '{op}' (allowed: {})",
                ops.join(", ")
            )))
        }
        _ => return Err("every step needs an \"op\"".into()),
    };
    let note = match map.remove("note") {
        None => None,
        Some(Json::String(s)) => Some(s),
        Some(_) => return Err("\"note\" must be a string".into()),
    };
    let expect = match map.remove("expect") {
        None => None,
        Some(e) => Some(serde_json::from_value::<Expect>(e).map_err(|e| format!("expect: {e}"))?),
    };
    if map.contains_key("trace") {
        return Err("unknown field 'trace'".into());
    }
    if !top_level && map.contains_key("table") {
        return Err("operations inside a batch have no \"table\"".into());
    }
    if op == "batch" {
        let Some(Json::Array(ops)) = map.get_mut("operations") else {
            return Err("a batch needs \"operations\": a list of steps".into());
        };
        for (j, o) in ops.iter_mut().enumerate() {
            let inner = parse_step(o.take(), &BATCH_OPS, false)
                .map_err(|e| format!("operation {j}: {e}"))?;
            if inner.note.is_some() || inner.expect.is_some() {
                return Err(format!(
                    "operation {j}: note and expect belong to the batch step"
                ));
            }
            *o = Json::Object(inner.request);
        }
    }
    Ok(Step {
        op,
        request: map,
        note,
        expect,
        entity: None,
        operation_entities: Vec::new(),
    })
}

/// Reads `{"step": N}` if that is what a field holds.
pub fn step_ref(v: &Json) -> Option<Result<usize, String>> {
    let obj = v.as_object()?;
    let n = obj.get("step")?;
    if obj.len() != 1 {
        return Some(Err("a step reference is exactly {\"step\": N}".into()));
    }
    Some(
        n.as_u64()
            .map(|n| n as usize)
            .ok_or_else(|| "\"step\" must be a step index".into()),
    )
}

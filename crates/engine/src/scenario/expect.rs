//! Expectations and how a response is compared with them (docs/service/lessons.md#expectations).

use crate::api::Response;
use crate::json::{decode_value, RawEntity};
use crate::query::{Continuation, QueryKind};
use crate::value::{EdmType, Value};
use serde::Deserialize;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// What a step expects. A field left out is not compared.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expect {
    pub status: Option<u16>,
    /// `Some(None)` is `"code": null`: the step must succeed.
    #[serde(default, deserialize_with = "some")]
    pub code: Option<Option<String>>,
    pub message_prefix: Option<String>,
    pub entity: Option<RawEntity>,
    pub entities: Option<Vec<RawEntity>>,
    pub count: Option<u64>,
    pub scanned: Option<u64>,
    pub partitions: Option<u64>,
    pub kind: Option<QueryKind>,
    pub continuation: Option<ContinuationExpect>,
    pub tables: Option<Vec<String>>,
    /// On Cosmos DB for Table: the property index entries a query read.
    pub index_entries: Option<u64>,
    /// On Cosmos DB for Table: the estimated request units, to two decimals.
    pub request_units: Option<f64>,
}

fn some<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ContinuationExpect {
    Present(bool),
    Exact(Continuation),
}

/// One field that did not match.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    pub field: &'static str,
    pub expected: String,
    pub actual: String,
}

impl Expect {
    /// Every field of the expectation that the response does not meet.
    pub fn check(&self, r: &Response) -> Vec<Mismatch> {
        let mut out = Vec::new();
        let mut cmp = |field: &'static str, expected: String, actual: String| {
            if expected != actual {
                out.push(Mismatch {
                    field,
                    expected,
                    actual,
                });
            }
        };
        if let Some(s) = self.status {
            cmp("status", s.to_string(), r.status.to_string());
        }
        let code = r.error.as_ref().map(|e| e.code.to_string());
        if let Some(c) = &self.code {
            cmp("code", show_opt(c), show_opt(&code));
        }
        if let Some(prefix) = &self.message_prefix {
            let msg = r
                .error
                .as_ref()
                .map(|e| e.message.clone())
                .unwrap_or_default();
            let actual = if msg.starts_with(prefix.as_str()) {
                prefix.clone()
            } else {
                msg
            };
            cmp("messagePrefix", prefix.clone(), actual);
        }
        if let Some(e) = &self.entity {
            let ts = lists_timestamp(e);
            cmp(
                "entity",
                typed(e, ts),
                r.entity
                    .as_ref()
                    .map_or("none".into(), |a| typed(&a.to_raw(), ts)),
            );
        }
        if let Some(es) = &self.entities {
            let ts = es.iter().any(lists_timestamp);
            let exp: Vec<String> = es.iter().map(|e| typed(e, ts)).collect();
            let act: Vec<String> = r
                .entities
                .iter()
                .flatten()
                .map(|e| typed(&e.to_raw(), ts))
                .collect();
            cmp("entities", exp.join("\n"), act.join("\n"));
        }
        let stats = r.stats;
        if let Some(c) = self.count {
            let actual = r
                .entities
                .as_ref()
                .map_or("none".into(), |e| e.len().to_string());
            cmp("count", c.to_string(), actual);
        }
        if let Some(s) = self.scanned {
            cmp(
                "scanned",
                s.to_string(),
                stats.map_or("none".into(), |s| s.scanned.to_string()),
            );
        }
        if let Some(p) = self.partitions {
            cmp(
                "partitions",
                p.to_string(),
                stats.map_or("none".into(), |s| s.partitions.to_string()),
            );
        }
        if let Some(k) = self.kind {
            cmp(
                "kind",
                format!("{k:?}"),
                stats.map_or("none".into(), |s| format!("{:?}", s.kind)),
            );
        }
        match &self.continuation {
            Some(ContinuationExpect::Present(p)) => cmp(
                "continuation",
                p.to_string(),
                r.continuation.is_some().to_string(),
            ),
            Some(ContinuationExpect::Exact(c)) => cmp(
                "continuation",
                format!("{:?}", Some(c)),
                format!("{:?}", r.continuation),
            ),
            None => {}
        }
        if let Some(n) = self.index_entries {
            cmp(
                "indexEntries",
                n.to_string(),
                r.index
                    .as_ref()
                    .map_or("none".into(), |i| i.entries.to_string()),
            );
        }
        if let Some(ru) = self.request_units {
            cmp(
                "requestUnits",
                format!("{ru:.2}"),
                r.ru.and_then(|e| e.value)
                    .map_or("none".into(), |v| format!("{v:.2}")),
            );
        }
        if let Some(t) = &self.tables {
            cmp(
                "tables",
                format!("{t:?}"),
                format!("{:?}", r.tables.clone().unwrap_or_default()),
            );
        }
        out
    }
}

fn show_opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "null".into())
}

fn lists_timestamp(raw: &RawEntity) -> bool {
    raw.0
        .iter()
        .any(|(k, _)| k == "Timestamp" || k == "odata.etag")
}

/// An entity as a canonical typed text, for comparison "with types": members sorted by name,
/// each as `Name: Type = value`; Timestamp and `odata.etag` are left out unless the
/// expectation lists them (then both sides show them).
fn typed(raw: &RawEntity, with_timestamp: bool) -> String {
    let mut annotations: BTreeMap<&str, EdmType> = BTreeMap::new();
    for (k, v) in &raw.0 {
        if let Some(p) = k.strip_suffix("@odata.type") {
            if let Some(t) = v.as_str().and_then(EdmType::from_odata_name) {
                annotations.insert(p, t);
            }
        }
    }
    let mut members: BTreeMap<&str, String> = BTreeMap::new();
    for (k, v) in &raw.0 {
        let system = k.starts_with("odata.") || k == "Timestamp";
        if k.ends_with("@odata.type") || (system && !with_timestamp) {
            continue;
        }
        let shown = match v {
            _ if system => v.as_str().unwrap_or_default().to_string(),
            Json::Null => "null".to_string(),
            _ => match decode_value(k, v, annotations.get(k.as_str()).copied()) {
                Ok(Value::Double(d)) => {
                    format!("Double = {}", crate::value::format_double(d))
                }
                Ok(val) => format!("{} = {}", val.edm_type(), val.display_text()),
                Err(_) => format!("invalid {v}"),
            },
        };
        members.insert(k, shown);
    }
    let parts: Vec<String> = members.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{{}}}", parts.join(", "))
}

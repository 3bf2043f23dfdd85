//! A read pattern as the requests it sends for one drawn entity: each request's `$filter`,
//! `$select` and `$top`. The evaluator sends them; the projector counts what they would scan.

use super::distribution::TICKS_PER_DAY;
use super::model::{ConditionOp, ReadPattern};
use super::sample::value_of;
use super::sample::{Drawn, TypeModel};
use super::template::{Raw, Template};
use tablescope_engine::Value;

/// One request of a call (a fan-out call sends one per bucket).
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub filter: String,
    /// The partition the request reads, when it names one.
    pub partition_key: Option<String>,
    /// The bucket it names, for fan-out requests.
    pub bucket: Option<u64>,
}

/// The requests of one call of `r` with parameters from `d`.
pub fn requests(model: &TypeModel, r: &ReadPattern, d: &Drawn) -> Vec<Planned> {
    let buckets: Vec<Option<u64>> = match (r.fan_out, model.partition_key.buckets()) {
        (true, Some(b)) => (0..b).map(Some).collect(),
        _ => vec![None],
    };
    buckets
        .into_iter()
        .map(|bucket| {
            let pk = match bucket {
                Some(_) => {
                    let lookup = |name: &str| {
                        let at = model.ty.properties.iter().position(|p| p.name == name)?;
                        Some((d.raws.get(at)?, d.value_at(at)?))
                    };
                    model.partition_key.expand_bucket(&lookup, bucket)
                }
                None => d.partition_key.clone(),
            };
            let mut parts = Vec::new();
            let mut partition_key = None;
            for c in &r.conditions {
                match c.on.as_str() {
                    "PartitionKey" => match &c.op {
                        ConditionOp::Through { field } => {
                            let prefix = key_prefix(model, &model.partition_key, d, field);
                            parts.push(range("PartitionKey", &prefix));
                        }
                        _ => {
                            parts.push(format!("PartitionKey eq {}", quote(&pk)));
                            partition_key = Some(pk.clone());
                        }
                    },
                    "RowKey" => parts.push(match &c.op {
                        ConditionOp::Through { field } => {
                            range("RowKey", &key_prefix(model, &model.row_key, d, field))
                        }
                        ConditionOp::Range { field, span } => format!(
                            "RowKey ge {} and RowKey lt {}",
                            quote(&key_prefix(model, &model.row_key, d, field)),
                            quote(&key_after(model, &model.row_key, d, field, *span))
                        ),
                        op => compare("RowKey", &d.row_key, op),
                    }),
                    name => {
                        if let Some(v) = d.value(model.ty, name) {
                            parts.push(match (&c.op, v) {
                                (ConditionOp::Prefix { .. }, Value::String(s)) => {
                                    compare(name, s, &c.op)
                                }
                                _ => format!("{name} eq {}", literal(v)),
                            });
                        }
                    }
                }
            }
            Planned {
                filter: parts.join(" and "),
                partition_key,
                bucket,
            }
        })
        .collect()
}

/// The `$select` of a pattern, when it sends one.
pub fn select(r: &ReadPattern) -> Option<Vec<String>> {
    r.needs.clone().filter(|_| r.select)
}

/// The drawn entity's key expanded through the field on `field` (and the literal after it).
pub fn key_prefix(model: &TypeModel, key: &Template, d: &Drawn, field: &str) -> String {
    let lookup = |name: &str| {
        let at = model.ty.properties.iter().position(|p| p.name == name)?;
        Some((d.raws.get(at)?, d.value_at(at)?))
    };
    key.through(field)
        .map(|t| t.expand(&lookup))
        .unwrap_or_default()
}

/// The drawn entity's key through the field on `field`, that field `span` values later (a day
/// each for a date): a range's upper bound.
pub fn key_after(model: &TypeModel, key: &Template, d: &Drawn, field: &str, span: u32) -> String {
    let Some(at) = model.ty.properties.iter().position(|p| p.name == field) else {
        return String::new();
    };
    let (Some(raw), Some(def)) = (d.raws.get(at), model.ty.properties.get(at)) else {
        return String::new();
    };
    let raw = match raw {
        Raw::Ord(v) => Raw::Ord(v.saturating_add(i64::from(span))),
        Raw::Ticks(t) => Raw::Ticks(t.saturating_add(i64::from(span) * TICKS_PER_DAY)),
        Raw::Text(t) => Raw::Text(t.clone()),
    };
    let value = value_of(def, &raw);
    let lookup = |name: &str| {
        if name == field {
            return Some((&raw, &value));
        }
        let at = model.ty.properties.iter().position(|p| p.name == name)?;
        Some((d.raws.get(at)?, d.value_at(at)?))
    };
    key.through(field)
        .map(|t| t.expand(&lookup))
        .unwrap_or_default()
}

fn compare(name: &str, value: &str, op: &ConditionOp) -> String {
    match op {
        ConditionOp::Eq => format!("{name} eq {}", quote(value)),
        ConditionOp::Prefix { length } => {
            let prefix: String = value.chars().take(*length as usize).collect();
            range(name, &prefix)
        }
        // Bound from a key's template (see `key_prefix`), never from a property's value.
        ConditionOp::Through { .. } | ConditionOp::Range { .. } => {
            format!("{name} eq {}", quote(value))
        }
    }
}

/// The string range of the values starting with `prefix`.
fn range(name: &str, prefix: &str) -> String {
    match successor(prefix) {
        Some(next) => format!("{name} ge {} and {name} lt {}", quote(prefix), quote(&next)),
        None => format!("{name} ge {}", quote(prefix)),
    }
}

/// The smallest string greater than every string starting with `prefix`.
fn successor(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        if let Some(next) = char::from_u32(last as u32 + 1) {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// A value as an OData literal.
fn literal(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Int32(n) => n.to_string(),
        Value::Int64(n) => format!("{n}L"),
        Value::Double(x) => {
            let t = tablescope_engine::format_double(*x);
            if t.contains(['.', 'E', 'e']) {
                t
            } else {
                format!("{t}.0")
            }
        }
        Value::Boolean(b) => b.to_string(),
        Value::DateTime(d) => format!("datetime'{d}'"),
        Value::Guid(g) => format!("guid'{g}'"),
        Value::Binary(_) => quote(&v.display_text()),
    }
}

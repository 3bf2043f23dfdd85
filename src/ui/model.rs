//! The UI's pure logic, apart from the DOM so the browser tests can check it directly:
//! typed property inputs, the query builder (both directions), and the batch checks of SPEC §4.

use crate::engine::filter::{self, CmpOp, Expr, Target};
use crate::engine::json::{self, RawEntity};
use crate::engine::{
    validate, BatchRequest, DateTime, EdmType, Guid, Value, MAX_OPERATIONS, MAX_PAYLOAD_BYTES,
};
use base64::Engine as _;
use serde_json::{Map, Value as Json};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

// ---- typed values ----

/// How a Binary property is typed into the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BinaryEncoding {
    #[default]
    Base64,
    Hex,
}

/// Parses what the user typed as a value of `edm`. Int64 never goes through f64; DateTime keeps
/// all seven fractional digits; Double accepts `NaN`, `Infinity`, `-Infinity`.
pub fn parse_typed(edm: EdmType, text: &str, binary: BinaryEncoding) -> Result<Value, String> {
    let t = text.trim();
    match edm {
        EdmType::String => Ok(Value::string(text)),
        EdmType::Int32 => t
            .parse::<i32>()
            .map(Value::Int32)
            .map_err(|_| "an Int32 is a whole number from -2147483648 to 2147483647".into()),
        EdmType::Int64 => t.parse::<i64>().map(Value::Int64).map_err(|_| {
            "an Int64 is a whole number from -9223372036854775808 to 9223372036854775807".into()
        }),
        EdmType::Double => match t {
            "NaN" => Ok(Value::Double(f64::NAN)),
            "Infinity" | "INF" => Ok(Value::Double(f64::INFINITY)),
            "-Infinity" | "-INF" => Ok(Value::Double(f64::NEG_INFINITY)),
            _ => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Value::Double)
                .ok_or_else(|| "a Double is a number, NaN, Infinity or -Infinity".into()),
        },
        EdmType::Boolean => match t {
            "true" => Ok(Value::Boolean(true)),
            "false" => Ok(Value::Boolean(false)),
            _ => Err("a Boolean is true or false".into()),
        },
        EdmType::DateTime => DateTime::parse(t)
            .map(Value::DateTime)
            .map_err(|e| match e {
                crate::engine::DateTimeError::OutOfRange => {
                    "a DateTime lies between 1601-01-01 and 9999-12-31T23:59:59.9999999Z".into()
                }
                _ => "ISO 8601 in UTC, e.g. 2024-01-01T12:00:00.1234567Z".into(),
            }),
        EdmType::Guid => Guid::parse(t)
            .map(Value::Guid)
            .ok_or_else(|| "a Guid looks like c9da6455-213d-42c9-9a79-3e9149a57833".into()),
        EdmType::Binary => match binary {
            BinaryEncoding::Base64 => B64
                .decode(t)
                .map(|b| Value::Binary(b.into()))
                .map_err(|_| "not valid base64".into()),
            BinaryEncoding::Hex => parse_hex(t)
                .map(|b| Value::Binary(b.into()))
                .ok_or_else(|| "hex is pairs of 0-9 a-f".into()),
        },
    }
}

fn parse_hex(t: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = t
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
        .collect::<Option<_>>()?;
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    Some(digits.chunks(2).map(|p| p[0] * 16 + p[1]).collect())
}

/// The text a value is edited as (Binary in the given encoding).
pub fn edit_text(value: &Value, binary: BinaryEncoding) -> String {
    match (value, binary) {
        (Value::Binary(b), BinaryEncoding::Hex) => b.iter().map(|x| format!("{x:02x}")).collect(),
        (Value::DateTime(d), _) => d.to_string_7(),
        _ => value.display_text(),
    }
}

/// One property as typed into the editor.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyDraft {
    /// Stable identity for keyed lists.
    pub id: u64,
    pub name: String,
    pub edm: EdmType,
    pub text: String,
    pub binary: BinaryEncoding,
}

impl PropertyDraft {
    /// Why this property cannot be sent, if it cannot.
    pub fn problem(&self) -> Option<String> {
        if let Err(e) = validate::property_name(&self.name) {
            return Some(e.detail.unwrap_or(e.message));
        }
        if matches!(self.name.as_str(), "PartitionKey" | "RowKey" | "Timestamp") {
            return Some(format!("{} is a system property", self.name));
        }
        parse_typed(self.edm, &self.text, self.binary).err()
    }

    /// What will be stored when it differs from what was typed. The service keeps DateTime to
    /// 100 ns; what it does with more than seven fractional digits is not documented, and
    /// Tablescope drops the rest, so the editor says exactly what is stored.
    pub fn note(&self) -> Option<String> {
        if self.edm != EdmType::DateTime || fraction_digits(&self.text) <= 7 {
            return None;
        }
        match parse_typed(self.edm, &self.text, self.binary).ok()? {
            Value::DateTime(t) => Some(format!(
                "DateTime keeps 7 fractional digits (100 ns): stored as {}",
                t.to_string_7()
            )),
            _ => None,
        }
    }
}

/// How many digits follow the seconds' `.` in a DateTime's text (0 without a fraction).
fn fraction_digits(text: &str) -> usize {
    let Some((_, time)) = text.split_once('T') else {
        return 0;
    };
    match time.split_once('.') {
        Some((_, rest)) => rest.bytes().take_while(u8::is_ascii_digit).count(),
        None => 0,
    }
}

/// The entity in the service's JSON form, or every problem found (property name: message).
pub fn build_entity(
    partition_key: &str,
    row_key: &str,
    properties: &[PropertyDraft],
) -> Result<RawEntity, Vec<String>> {
    let mut map = Map::new();
    map.insert("PartitionKey".into(), Json::String(partition_key.into()));
    map.insert("RowKey".into(), Json::String(row_key.into()));
    let mut problems = Vec::new();
    for p in properties {
        match p.problem() {
            Some(why) => problems.push(format!("{}: {why}", display_name(&p.name))),
            None => {
                if let Ok(v) = parse_typed(p.edm, &p.text, p.binary) {
                    if map.contains_key(&p.name) {
                        problems.push(format!("{}: given twice", p.name));
                    }
                    json::encode_property(&mut map, &p.name, &v);
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(RawEntity(map.into_iter().collect()))
    } else {
        Err(problems)
    }
}

fn display_name(name: &str) -> &str {
    if name.is_empty() {
        "(unnamed)"
    } else {
        name
    }
}

/// An entity's properties as editor drafts (system properties left out), ids from `next_id`.
pub fn drafts_of(raw: &RawEntity, next_id: &mut u64) -> Vec<PropertyDraft> {
    let Ok(entity) = json::decode_stored(raw) else {
        return Vec::new();
    };
    entity
        .properties
        .iter()
        .map(|(name, value)| {
            *next_id += 1;
            PropertyDraft {
                id: *next_id,
                name: name.to_string(),
                edm: value.edm_type(),
                text: edit_text(value, BinaryEncoding::Base64),
                binary: BinaryEncoding::Base64,
            }
        })
        .collect()
}

/// A RawEntity's key pair and ETag, when present.
pub fn keys_of(raw: &RawEntity) -> (String, String, Option<String>) {
    let get = |k: &str| raw.get(k).and_then(Json::as_str).map(str::to_string);
    (
        get("PartitionKey").unwrap_or_default(),
        get("RowKey").unwrap_or_default(),
        get("odata.etag"),
    )
}

/// The entity as the service would send it, one member per line.
pub fn pretty_json(raw: &RawEntity) -> String {
    let mut out = String::from("{\n");
    for (i, (name, value)) in raw.0.iter().enumerate() {
        let comma = if i + 1 < raw.0.len() { "," } else { "" };
        out.push_str(&format!(
            "  {}: {value}{comma}\n",
            Json::String(name.clone())
        ));
    }
    out.push('}');
    out
}

// ---- the query builder ----

/// Which kind of query the builder writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BuilderKind {
    /// PartitionKey eq and RowKey eq.
    Point,
    /// PartitionKey eq, optionally a RowKey prefix, plus conditions.
    Partition,
    /// Conditions only.
    #[default]
    Table,
}

/// One extra condition: `Name op literal`.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub id: u64,
    pub property: String,
    pub op: CmpOp,
    pub edm: EdmType,
    pub text: String,
}

/// What the builder holds; [`Builder::filter`] writes it as OData, [`Builder::from_filter`]
/// reads it back when the filter has the builder's shape.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Builder {
    pub kind: BuilderKind,
    pub partition_key: String,
    pub row_key: String,
    /// RowKey starts with (partition queries only; empty for none).
    pub row_prefix: String,
    pub conditions: Vec<Condition>,
}

/// `'text'` with quotes doubled.
pub fn quote(s: &str) -> String {
    filter::literal_text(&Value::string(s))
}

/// The smallest string greater than every string starting with `prefix`, for
/// `RowKey ge 'abc' and RowKey lt 'abd'`; `None` when there is none (prefix of U+10FFFF only).
pub fn prefix_successor(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last as u32 + 1 {
            0xD800 => Some('\u{E000}'),
            n => char::from_u32(n),
        };
        if let Some(c) = next {
            chars.push(c);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

impl Builder {
    /// The `$filter` text, or why a condition cannot be written.
    pub fn filter(&self) -> Result<String, String> {
        let mut parts = Vec::new();
        if matches!(self.kind, BuilderKind::Point | BuilderKind::Partition) {
            parts.push(format!("PartitionKey eq {}", quote(&self.partition_key)));
        }
        if self.kind == BuilderKind::Point {
            parts.push(format!("RowKey eq {}", quote(&self.row_key)));
        }
        if self.kind == BuilderKind::Partition && !self.row_prefix.is_empty() {
            parts.push(format!("RowKey ge {}", quote(&self.row_prefix)));
            if let Some(end) = prefix_successor(&self.row_prefix) {
                parts.push(format!("RowKey lt {}", quote(&end)));
            }
        }
        if self.kind != BuilderKind::Point {
            for c in &self.conditions {
                let value = parse_typed(c.edm, &c.text, BinaryEncoding::Hex)
                    .map_err(|e| format!("{}: {e}", display_name(&c.property)))?;
                if c.property.is_empty() {
                    return Err("a condition needs a property name".into());
                }
                parts.push(format!(
                    "{} {} {}",
                    c.property,
                    c.op.as_str(),
                    filter::literal_text(&value)
                ));
            }
        }
        Ok(parts.join(" and "))
    }

    /// The builder for a filter, when the filter is a plain `and` of comparisons in the
    /// builder's shape; `None` otherwise (the raw text is then kept as written).
    pub fn from_filter(text: &str, next_id: &mut u64) -> Option<Builder> {
        let expr = filter::parse(text).ok()?;
        let mut comparisons = Vec::new();
        if !flatten_and(&expr, &mut comparisons) {
            return None;
        }
        let mut b = Builder::default();
        let mut pk = None;
        let mut rk_eq = None;
        let mut rk_ge = None;
        let mut rk_lt = None;
        let mut rest = Vec::new();
        for (target, op, literal) in comparisons {
            let text = match literal {
                Value::String(s) => Some(s.to_string()),
                _ => None,
            };
            match (&target, op, text) {
                (Target::PartitionKey, CmpOp::Eq, Some(s)) if pk.is_none() => pk = Some(s),
                (Target::RowKey, CmpOp::Eq, Some(s)) if rk_eq.is_none() => rk_eq = Some(s),
                (Target::RowKey, CmpOp::Ge, Some(s)) if rk_ge.is_none() => rk_ge = Some(s),
                (Target::RowKey, CmpOp::Lt, Some(s)) if rk_lt.is_none() => rk_lt = Some(s),
                _ => rest.push((target, op, literal.clone())),
            }
        }
        // A RowKey range the builder did not write (not a prefix) cannot be shown in it.
        let prefix = match (rk_ge, rk_lt) {
            (None, None) => String::new(),
            (Some(ge), Some(lt)) if prefix_successor(&ge).as_deref() == Some(lt.as_str()) => ge,
            _ => return None,
        };
        match (pk, rk_eq) {
            (Some(p), Some(r)) if rest.is_empty() && prefix.is_empty() => {
                b.kind = BuilderKind::Point;
                b.partition_key = p;
                b.row_key = r;
            }
            (Some(p), None) => {
                b.kind = BuilderKind::Partition;
                b.partition_key = p;
                b.row_prefix = prefix;
            }
            (None, None) if prefix.is_empty() => b.kind = BuilderKind::Table,
            _ => return None,
        }
        for (target, op, literal) in rest {
            if target == Target::PartitionKey || target == Target::RowKey {
                // Key comparisons other than the builder's own are not in its vocabulary.
                return None;
            }
            *next_id += 1;
            b.conditions.push(Condition {
                id: *next_id,
                property: target.name().to_string(),
                op,
                edm: literal.edm_type(),
                text: edit_text(&literal, BinaryEncoding::Hex),
            });
        }
        Some(b)
    }
}

fn flatten_and<'a>(e: &'a Expr, out: &mut Vec<(Target, CmpOp, &'a Value)>) -> bool {
    match e {
        Expr::And(a, b) => flatten_and(a, out) && flatten_and(b, out),
        Expr::Compare {
            target,
            op,
            literal,
        } => {
            out.push((target.clone(), *op, literal));
            true
        }
        Expr::Bool(true) => out.is_empty(),
        _ => false,
    }
}

/// Splits `text` at a syntax error's character span: (before, the offending span, after).
/// An error at the end gives an empty span (the caret goes after the text).
pub fn split_at_error(text: &str, position: usize, length: usize) -> (String, String, String) {
    let chars: Vec<char> = text.chars().collect();
    let start = position.min(chars.len());
    let end = (position + length).min(chars.len());
    (
        chars[..start].iter().collect(),
        chars[start..end].iter().collect(),
        chars[end..].iter().collect(),
    )
}

// ---- batches ----

/// The entity an operation acts on.
pub fn batch_keys(op: &BatchRequest) -> (String, String) {
    match op {
        BatchRequest::Insert { entity }
        | BatchRequest::UpsertReplace { entity }
        | BatchRequest::UpsertMerge { entity }
        | BatchRequest::Replace { entity, .. }
        | BatchRequest::Merge { entity, .. } => {
            let (pk, rk, _) = keys_of(entity);
            (pk, rk)
        }
        BatchRequest::Delete {
            partition_key,
            row_key,
            ..
        }
        | BatchRequest::Get {
            partition_key,
            row_key,
        } => (partition_key.clone(), row_key.clone()),
    }
}

/// The operation's name as the service spells it.
pub fn batch_op_name(op: &BatchRequest) -> &'static str {
    match op {
        BatchRequest::Insert { .. } => "insert",
        BatchRequest::UpsertReplace { .. } => "upsert-replace",
        BatchRequest::UpsertMerge { .. } => "upsert-merge",
        BatchRequest::Replace { .. } => "replace",
        BatchRequest::Merge { .. } => "merge",
        BatchRequest::Delete { .. } => "delete",
        BatchRequest::Get { .. } => "get",
    }
}

/// Why a staged batch would be refused (SPEC §4), each message naming the operation's 0-based
/// index as the service does; empty when it may be committed.
pub fn check_batch(ops: &[BatchRequest]) -> Vec<String> {
    let mut problems = Vec::new();
    if ops.is_empty() {
        problems.push("Stage at least one operation.".to_string());
        return problems;
    }
    if ops.len() > MAX_OPERATIONS {
        problems.push(format!(
            "{} operations staged: a batch holds at most {MAX_OPERATIONS}.",
            ops.len()
        ));
    }
    let (first_pk, _) = batch_keys(&ops[0]);
    let mut seen: Vec<(String, String)> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let keys = batch_keys(op);
        if keys.0 != first_pk {
            problems.push(format!(
                "Operation {i} is in partition {}, operation 0 in {}: a batch acts on one partition.",
                quote(&keys.0),
                quote(&first_pk)
            ));
        }
        if seen.contains(&keys) {
            problems.push(format!(
                "Operation {i} repeats the entity ({}, {}): each entity at most once.",
                quote(&keys.0),
                quote(&keys.1)
            ));
        }
        if matches!(op, BatchRequest::Get { .. }) && ops.len() > 1 {
            problems.push(format!(
                "Operation {i} is a point read: a read must be alone in its batch."
            ));
        }
        seen.push(keys);
    }
    let payload: usize = ops.iter().map(payload_bytes).sum();
    if payload > MAX_PAYLOAD_BYTES {
        problems.push(format!(
            "The payload is {payload} bytes: a batch carries at most {MAX_PAYLOAD_BYTES} (4 MiB)."
        ));
    }
    problems
}

/// About what one operation adds to the batch's body: its entity's JSON plus the
/// request line and headers of its part of the multipart body.
fn payload_bytes(op: &BatchRequest) -> usize {
    const PART_OVERHEAD: usize = 200;
    let body = match op {
        BatchRequest::Insert { entity }
        | BatchRequest::UpsertReplace { entity }
        | BatchRequest::UpsertMerge { entity }
        | BatchRequest::Replace { entity, .. }
        | BatchRequest::Merge { entity, .. } => entity.to_json().to_string().len(),
        BatchRequest::Delete { .. } | BatchRequest::Get { .. } => 0,
    };
    body + PART_OVERHEAD
}

/// The failing operation's index from a batch error message (`"3:The specified…"`).
pub fn failed_index(message: &str) -> Option<usize> {
    message.split_once(':')?.0.parse().ok()
}

// ---- imports ----

/// The table a CSV file's name proposes: the name before its first `.`, without a browser's
/// copy suffix (`Orders (1)`), letters and digits only, from the first letter on, at most 63
/// characters; `None` when that is not a valid table name (then nothing is proposed and the
/// user names the table). `Orders (1).typed.csv` proposes `Orders`.
pub fn table_name_from_file(file: &str) -> Option<String> {
    let stem = file.split('.').next().unwrap_or_default().trim_end();
    let stem = match stem.strip_suffix(')').and_then(|s| s.rsplit_once('(')) {
        Some((before, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => before,
        _ => stem,
    };
    let name: String = stem
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .skip_while(|c| !c.is_ascii_alphabetic())
        .take(63)
        .collect();
    crate::engine::validate::table_name(&name)
        .is_ok()
        .then_some(name)
}

//! The UI's pure logic, apart from the DOM so the browser tests can check it directly:
//! typed property inputs (here), the query builder in both directions ([`builder`]), and the
//! batch checks of docs/service/batches.md with the import's name proposal ([`batch`]).

mod batch;
mod builder;

pub use batch::{batch_keys, batch_op_name, check_batch, failed_index, table_name_from_file};
pub use builder::{
    prefix_successor, quote, split_at_error, Builder, BuilderKind, Condition, Group, Join, Node,
};

use crate::engine::json::{self, RawEntity};
use crate::engine::{validate, DateTime, EdmType, Guid, Value};
use crate::i18n::msg;
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
            .map_err(|_| msg::value_int32()),
        EdmType::Int64 => t
            .parse::<i64>()
            .map(Value::Int64)
            .map_err(|_| msg::value_int64()),
        EdmType::Double => match t {
            "NaN" => Ok(Value::Double(f64::NAN)),
            "Infinity" | "INF" => Ok(Value::Double(f64::INFINITY)),
            "-Infinity" | "-INF" => Ok(Value::Double(f64::NEG_INFINITY)),
            _ => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Value::Double)
                .ok_or_else(msg::value_double),
        },
        EdmType::Boolean => match t {
            "true" => Ok(Value::Boolean(true)),
            "false" => Ok(Value::Boolean(false)),
            _ => Err(msg::value_boolean()),
        },
        EdmType::DateTime => DateTime::parse(t)
            .map(Value::DateTime)
            .map_err(|e| match e {
                crate::engine::DateTimeError::OutOfRange => msg::value_datetime_range(),
                _ => msg::value_datetime_format("2024-01-01T12:00:00.1234567Z"),
            }),
        EdmType::Guid => Guid::parse(t)
            .map(Value::Guid)
            .ok_or_else(|| msg::value_guid("c9da6455-213d-42c9-9a79-3e9149a57833")),
        EdmType::Binary => match binary {
            BinaryEncoding::Base64 => B64
                .decode(t)
                .map(|b| Value::Binary(b.into()))
                .map_err(|_| msg::value_base64()),
            BinaryEncoding::Hex => parse_hex(t)
                .map(|b| Value::Binary(b.into()))
                .ok_or_else(msg::value_hex),
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
            return Some(
                e.detail
                    .map_or(e.message, |d| crate::ui::text::error_text::detail(&d)),
            );
        }
        if matches!(self.name.as_str(), "PartitionKey" | "RowKey" | "Timestamp") {
            return Some(msg::value_system_property(&self.name));
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
            Value::DateTime(t) => Some(msg::value_datetime_stored(t.to_string_7())),
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
                        problems.push(msg::editor_given_twice(&p.name));
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

pub(crate) fn display_name(name: &str) -> String {
    if name.is_empty() {
        msg::editor_unnamed()
    } else {
        name.to_string()
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

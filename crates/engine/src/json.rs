//! The service's JSON form of entities ("minimal metadata"), docs/service/data-model.md.
//!
//! String, Boolean, Int32 (a number without a decimal point) and Double (a number with one)
//! need no annotation; Int64 (as a string), DateTime, Guid, Binary (base64) and non-finite
//! Doubles carry `"Name@odata.type": "Edm.X"`.
//!
//! [`RawEntity`] keeps a JSON object's members in order *with duplicates*, because a name given
//! twice must fail with `DuplicatePropertiesSpecified` rather than silently keep the last one.

use super::datetime::DateTime;
use super::detail::{Detail, ValueProblem};
use super::entity::{Entity, PropertyName};
use super::error::{Error, ErrorCode, Result};
use super::json_problem::{JsonProblem, ENTITY_EXPECTED};
use super::record::ValueRef;
use super::value::{EdmType, Guid, Value};
use base64::Engine as _;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value as Json};
use std::collections::{HashMap, HashSet};
use std::fmt;

const ANNOTATION: &str = "@odata.type";
const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// A JSON object as written, members in order, duplicates kept.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawEntity(pub Vec<(String, Json)>);

impl RawEntity {
    /// The JSON form of an entity (with Timestamp and `odata.etag` when it has them).
    pub fn from_entity(entity: &Entity) -> RawEntity {
        RawEntity(encode(entity, true).into_iter().collect())
    }

    /// Parses JSON text, keeping duplicate members.
    pub fn parse(text: &str) -> Result<RawEntity> {
        serde_json::from_str(text).map_err(|e| {
            Error::with_detail(ErrorCode::InvalidInput, Detail::Json(JsonProblem::from(&e)))
        })
    }

    /// The first member named `name` (a raw entity may hold duplicates).
    pub fn get(&self, name: &str) -> Option<&Json> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn to_json(&self) -> Json {
        Json::Object(self.0.iter().cloned().collect())
    }
}

impl From<Map<String, Json>> for RawEntity {
    fn from(map: Map<String, Json>) -> Self {
        RawEntity(map.into_iter().collect())
    }
}

impl Serialize for RawEntity {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for RawEntity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawEntity;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(ENTITY_EXPECTED)
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut a: A,
            ) -> std::result::Result<RawEntity, A::Error> {
                let mut members = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Json>()? {
                    members.push((k, v));
                }
                Ok(RawEntity(members))
            }
        }
        d.deserialize_map(V)
    }
}

/// Entities serialize in the JSON form, so responses and exports carry the service's format.
impl Serialize for Entity {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        RawEntity::from_entity(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Entity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let raw = RawEntity::deserialize(d)?;
        decode_stored(&raw).map_err(serde::de::Error::custom)
    }
}

fn invalid(detail: Detail) -> Error {
    Error::with_detail(ErrorCode::InvalidInput, detail)
}

/// Decodes a request's entity. A client-supplied Timestamp and `odata.*` metadata are ignored;
/// null values are dropped (null and missing are the same thing). Checks types and annotations;
/// the limits of docs/service/data-model.md are checked by [`super::validate::entity`].
pub fn decode(raw: &RawEntity) -> Result<Entity> {
    decode_with(raw, false, &mut Names::default())
}

/// [`decode`] for the entities of one request (a batch's): property names they share are
/// one allocation, not one per entity.
pub fn decode_sharing(raw: &RawEntity, names: &mut Names) -> Result<Entity> {
    decode_with(raw, false, names)
}

/// Decodes an entity written by Tablescope itself (export, persistence): keeps its Timestamp.
pub fn decode_stored(raw: &RawEntity) -> Result<Entity> {
    decode_with(raw, true, &mut Names::default())
}

/// Property names already made, so that entities decoded together (a batch's, a load's)
/// share one allocation per name.
#[derive(Debug, Default)]
pub struct Names(HashMap<Box<str>, PropertyName>);

impl Names {
    pub fn get(&mut self, name: &str) -> PropertyName {
        if let Some(shared) = self.0.get(name) {
            return shared.clone();
        }
        let shared: PropertyName = name.into();
        self.0.insert(name.into(), shared.clone());
        shared
    }
}

fn decode_with(raw: &RawEntity, keep_timestamp: bool, names: &mut Names) -> Result<Entity> {
    let mut properties = Vec::with_capacity(raw.0.len());
    let keys = Decoder::default().decode(raw, keep_timestamp, true, &mut properties)?;
    let (partition_key, row_key) = keys.required()?;
    Ok(Entity {
        partition_key: partition_key.to_string(),
        row_key: row_key.to_string(),
        timestamp: keys.timestamp,
        properties: properties
            .into_iter()
            .map(|(name, value)| (names.get(name), value.into_value()))
            .collect(),
    })
}

/// A property value decoded from a request, borrowing its text where it can: only Binary,
/// which base64 encodes, needs bytes of its own.
#[derive(Debug, Clone, PartialEq)]
pub enum Decoded<'r> {
    Borrowed(ValueRef<'r>),
    Binary(Vec<u8>),
}

impl Decoded<'_> {
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Decoded::Borrowed(v) => *v,
            Decoded::Binary(b) => ValueRef::Binary(b),
        }
    }

    pub fn into_value(self) -> Value {
        match self {
            Decoded::Borrowed(v) => v.to_value(),
            Decoded::Binary(b) => Value::Binary(b.into()),
        }
    }
}

/// What an entity's members say besides its properties: its keys (absent or null: `None`)
/// and, for stored data, its Timestamp.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keys<'r> {
    pub partition_key: Option<&'r str>,
    pub row_key: Option<&'r str>,
    pub timestamp: Option<DateTime>,
}

impl<'r> Keys<'r> {
    /// Both keys, or `PropertiesNeedValue` naming the first missing.
    pub fn required(&self) -> Result<(&'r str, &'r str)> {
        let missing = |detail: Detail| Error::with_detail(ErrorCode::PropertiesNeedValue, detail);
        let partition_key = self
            .partition_key
            .ok_or_else(|| missing(Detail::PartitionKeyRequired))?;
        let row_key = self
            .row_key
            .ok_or_else(|| missing(Detail::RowKeyRequired))?;
        Ok((partition_key, row_key))
    }
}

/// Decodes the entities of one request one after another, reusing its scratch lists.
///
/// The one decoder of the JSON form: [`decode`], [`decode_stored`] and a batch's run of
/// inserts (`batch::inserts`) all go through [`Decoder::decode`], so they accept, refuse
/// and order their errors alike.
#[derive(Default)]
pub struct Decoder<'r> {
    annotations: Vec<(&'r str, EdmType)>,
    seen: Seen<'r>,
}

impl<'r> Decoder<'r> {
    /// Decodes `raw`'s members: its properties are appended to `properties` (names and
    /// values borrowed from `raw`, nulls dropped, in order), its keys returned. A
    /// client-supplied Timestamp and `odata.*` metadata are ignored unless `keep_timestamp`
    /// (stored data). With `check_names`, each property name is checked where it is met
    /// (a caller that checks every distinct name once may skip it). The first fault met in
    /// member order is the error; `properties` may then hold part of the entity.
    pub fn decode(
        &mut self,
        raw: &'r RawEntity,
        keep_timestamp: bool,
        check_names: bool,
        properties: &mut Vec<(&'r str, Decoded<'r>)>,
    ) -> Result<Keys<'r>> {
        self.annotations.clear();
        self.seen.clear();
        for (name, value) in &raw.0 {
            if let Some(prop) = name.strip_suffix(ANNOTATION) {
                let type_name = value.as_str().ok_or_else(|| {
                    invalid(Detail::MustBeString {
                        name: name.to_string(),
                    })
                })?;
                let edm = EdmType::from_odata_name(type_name).ok_or_else(|| {
                    invalid(Detail::UnknownType {
                        name: name.clone(),
                        kind: type_name.to_string(),
                    })
                })?;
                if self.annotations.iter().any(|(p, _)| *p == prop) {
                    return Err(Error::with_detail(
                        ErrorCode::DuplicatePropertiesSpecified,
                        Detail::DuplicateProperty { name: name.clone() },
                    ));
                }
                self.annotations.push((prop, edm));
            }
        }

        let mut keys = Keys::default();
        for (name, value) in &raw.0 {
            if name.ends_with(ANNOTATION) || name.starts_with("odata.") {
                continue;
            }
            if !self.seen.insert(name.as_str()) {
                return Err(Error::with_detail(
                    ErrorCode::DuplicatePropertiesSpecified,
                    Detail::DuplicateProperty { name: name.clone() },
                ));
            }
            match name.as_str() {
                "PartitionKey" => keys.partition_key = key_value(name, value)?,
                "RowKey" => keys.row_key = key_value(name, value)?,
                // Stored data carries the Timestamp it was given: one that does not read back
                // is refused, never replaced (null, like any null, is the same as absent).
                "Timestamp" if keep_timestamp => {
                    keys.timestamp =
                        match value {
                            Json::Null => None,
                            Json::String(text) => Some(DateTime::parse(text).map_err(|_| {
                                invalid(Detail::TimestampRange { text: text.clone() })
                            })?),
                            _ => return Err(invalid(Detail::TimestampText)),
                        };
                }
                "Timestamp" => {}
                _ => {
                    if check_names {
                        super::validate::property_name(name)?;
                    }
                    if value.is_null() {
                        continue;
                    }
                    let annotation = self
                        .annotations
                        .iter()
                        .find(|(p, _)| *p == name)
                        .map(|(_, t)| *t);
                    properties.push((name, decode_ref(name, value, annotation)?));
                }
            }
        }
        Ok(keys)
    }
}

/// Member names met so far: a short list searched in place (an entity has a handful of
/// members), a hash set once it grows past [`Seen::LIST`].
#[derive(Default)]
struct Seen<'a> {
    list: Vec<&'a str>,
    set: Option<HashSet<&'a str>>,
}

impl<'a> Seen<'a> {
    const LIST: usize = 16;

    fn clear(&mut self) {
        self.list.clear();
        self.set = None;
    }

    /// False when `name` was met before.
    fn insert(&mut self, name: &'a str) -> bool {
        if let Some(set) = &mut self.set {
            return set.insert(name);
        }
        if self.list.contains(&name) {
            return false;
        }
        self.list.push(name);
        if self.list.len() > Self::LIST {
            self.set = Some(self.list.drain(..).collect());
        }
        true
    }
}

fn key_value<'r>(name: &str, value: &'r Json) -> Result<Option<&'r str>> {
    match value {
        Json::String(s) => Ok(Some(s)),
        Json::Null => Ok(None),
        _ => Err(invalid(Detail::MustBeString {
            name: name.to_string(),
        })),
    }
}

/// Decodes one property value, annotated or not.
pub fn decode_value(name: &str, value: &Json, annotation: Option<EdmType>) -> Result<Value> {
    decode_ref(name, value, annotation).map(Decoded::into_value)
}

/// [`decode_value`], borrowing the value's text.
pub fn decode_ref<'r>(
    name: &str,
    value: &'r Json,
    annotation: Option<EdmType>,
) -> Result<Decoded<'r>> {
    let bad = |problem: ValueProblem| {
        invalid(Detail::Value {
            name: name.to_string(),
            problem,
        })
    };
    let Some(edm) = annotation else {
        return match value {
            Json::String(s) => Ok(ValueRef::String(s)),
            Json::Bool(b) => Ok(ValueRef::Boolean(*b)),
            Json::Number(n) => {
                number_unannotated(n).ok_or_else(|| bad(ValueProblem::UnannotatedInt))
            }
            _ => Err(bad(ValueProblem::Nested)),
        }
        .map(Decoded::Borrowed);
    };
    let text = value.as_str();
    let borrowed = match edm {
        EdmType::String => text
            .map(ValueRef::String)
            .ok_or_else(|| bad(ValueProblem::String)),
        // Annotated, the text `true` or `false` is read too: the JS SDK sends a Boolean given
        // as `{ value: "false", type: "Boolean" }` that way (docs/service/data-model.md).
        EdmType::Boolean => match (value, text) {
            (Json::Bool(b), _) => Ok(ValueRef::Boolean(*b)),
            (_, Some("true")) => Ok(ValueRef::Boolean(true)),
            (_, Some("false")) => Ok(ValueRef::Boolean(false)),
            _ => Err(bad(ValueProblem::Boolean)),
        },
        EdmType::Int32 => json_i64(value)
            .and_then(|v| i32::try_from(v).ok())
            .map(ValueRef::Int32)
            .ok_or_else(|| bad(ValueProblem::Int32)),
        EdmType::Int64 => json_i64(value)
            .map(ValueRef::Int64)
            .ok_or_else(|| bad(ValueProblem::Int64)),
        EdmType::Double => match (value, text) {
            (Json::Number(n), _) => n
                .as_f64()
                .map(ValueRef::Double)
                .ok_or_else(|| bad(ValueProblem::Double)),
            (_, Some("NaN")) => Ok(ValueRef::Double(f64::NAN)),
            (_, Some("Infinity")) => Ok(ValueRef::Double(f64::INFINITY)),
            (_, Some("-Infinity")) => Ok(ValueRef::Double(f64::NEG_INFINITY)),
            (_, Some(t)) => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(ValueRef::Double)
                .ok_or_else(|| bad(ValueProblem::Double)),
            _ => Err(bad(ValueProblem::Double)),
        },
        EdmType::DateTime => {
            let t = text.ok_or_else(|| bad(ValueProblem::DateTimeText))?;
            match DateTime::parse(t) {
                Ok(d) => Ok(ValueRef::DateTime(d)),
                Err(super::datetime::DateTimeError::OutOfRange) => Err(Error::with_detail(
                    ErrorCode::OutOfRangeInput,
                    Detail::Value {
                        name: name.to_string(),
                        problem: ValueProblem::DateTimeRange,
                    },
                )),
                Err(_) => Err(bad(ValueProblem::DateTime)),
            }
        }
        EdmType::Guid => text
            .and_then(Guid::parse)
            .map(ValueRef::Guid)
            .ok_or_else(|| bad(ValueProblem::Guid)),
        EdmType::Binary => {
            return text
                .and_then(|t| B64.decode(t).ok())
                .map(Decoded::Binary)
                .ok_or_else(|| bad(ValueProblem::Binary))
        }
    };
    borrowed.map(Decoded::Borrowed)
}

fn number_unannotated(n: &Number) -> Option<ValueRef<'static>> {
    if n.is_f64() {
        return n.as_f64().map(ValueRef::Double);
    }
    n.as_i64()
        .and_then(|v| i32::try_from(v).ok())
        .map(ValueRef::Int32)
}

fn json_i64(value: &Json) -> Option<i64> {
    match value {
        Json::String(s) => s.parse().ok(),
        Json::Number(n) => n.as_i64(),
        _ => None,
    }
}

/// Encodes an entity in the JSON form. With `metadata`, `odata.etag` and Timestamp come first.
pub fn encode(entity: &Entity, metadata: bool) -> Map<String, Json> {
    let mut map = Map::new();
    if metadata {
        if let Some(ts) = entity.timestamp {
            let etag = super::entity::etag_with_seven_digits(ts);
            map.insert("odata.etag".into(), Json::String(etag));
        }
    }
    map.insert(
        "PartitionKey".into(),
        Json::String(entity.partition_key.clone()),
    );
    map.insert("RowKey".into(), Json::String(entity.row_key.clone()));
    if metadata {
        if let Some(ts) = entity.timestamp {
            map.insert("Timestamp".into(), Json::String(ts.to_string_7()));
        }
    }
    for (name, value) in &entity.properties {
        encode_property(&mut map, name, value);
    }
    map
}

/// Writes one property (and its annotation when its type needs one) into a JSON object.
pub fn encode_property(map: &mut Map<String, Json>, name: &str, value: &Value) {
    let (json, annotate) = encode_value(value);
    if annotate {
        map.insert(
            format!("{name}{ANNOTATION}"),
            Json::String(value.edm_type().odata_name().into()),
        );
    }
    map.insert(name.to_string(), json);
}

/// A value's JSON form, and whether it needs an `@odata.type` annotation.
pub fn encode_value(value: &Value) -> (Json, bool) {
    match value {
        Value::String(s) => (Json::String(s.to_string()), false),
        Value::Boolean(b) => (Json::Bool(*b), false),
        Value::Int32(v) => (Json::from(*v), false),
        Value::Int64(v) => (Json::String(v.to_string()), true),
        Value::Double(v) => match Number::from_f64(*v) {
            Some(n) => (Json::Number(n), false),
            None => (Json::String(super::value::format_double(*v)), true),
        },
        Value::DateTime(d) => (Json::String(d.to_string()), true),
        Value::Guid(g) => (Json::String(g.to_string()), true),
        Value::Binary(b) => (Json::String(B64.encode(b)), true),
    }
}

/// The JSON form of a projected entity (`$select`): `odata.etag`, then each selected name in
/// order — system properties only when listed, a missing property as null.
pub fn encode_projected(entity: &Entity, select: &[String]) -> Map<String, Json> {
    let mut map = Map::new();
    if let Some(ts) = entity.timestamp {
        let etag = super::entity::etag_with_seven_digits(ts);
        map.insert("odata.etag".into(), Json::String(etag));
    }
    for name in select {
        match name.as_str() {
            "PartitionKey" => {
                map.insert(name.clone(), Json::String(entity.partition_key.clone()));
            }
            "RowKey" => {
                map.insert(name.clone(), Json::String(entity.row_key.clone()));
            }
            "Timestamp" => {
                let ts = entity
                    .timestamp
                    .map(|t| Json::String(t.to_string_7()))
                    .unwrap_or(Json::Null);
                map.insert(name.clone(), ts);
            }
            _ => match entity.get(name) {
                Some(v) => encode_property(&mut map, name, v),
                None => {
                    map.insert(name.clone(), Json::Null);
                }
            },
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_kept_and_refused() {
        let raw = RawEntity::parse(r#"{"PartitionKey":"p","RowKey":"r","A":1,"A":2}"#).unwrap();
        assert_eq!(raw.0.len(), 4);
        assert_eq!(
            decode(&raw).unwrap_err().code,
            ErrorCode::DuplicatePropertiesSpecified
        );
    }

    #[test]
    fn typed_round_trip() {
        let text = r#"{"PartitionKey":"p","RowKey":"r","S":"x","I":7,"D":2.0,"B":true,
            "L@odata.type":"Edm.Int64","L":"9223372036854775807",
            "T@odata.type":"Edm.DateTime","T":"2024-01-01T00:00:00.1234567Z",
            "G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833",
            "Y@odata.type":"Edm.Binary","Y":"AQID",
            "N@odata.type":"Edm.Double","N":"NaN","Z":null}"#;
        let e = decode(&RawEntity::parse(text).unwrap()).unwrap();
        assert_eq!(e.get("L"), Some(&Value::Int64(i64::MAX)));
        assert_eq!(e.get("D"), Some(&Value::Double(2.0)));
        assert_eq!(e.get("I"), Some(&Value::Int32(7)));
        assert_eq!(e.get("Z"), None);
        let back = decode(&RawEntity(encode(&e, false).into_iter().collect())).unwrap();
        assert_eq!(back, e);
        let json = serde_json::to_string(&Json::Object(encode(&e, false))).unwrap();
        assert!(json.contains(r#""D":2.0"#), "{json}");
        assert!(
            json.contains(r#""N@odata.type":"Edm.Double","N":"NaN""#),
            "{json}"
        );
    }

    #[test]
    fn missing_key_needs_value() {
        let raw = RawEntity::parse(r#"{"RowKey":"r"}"#).unwrap();
        assert_eq!(
            decode(&raw).unwrap_err().code,
            ErrorCode::PropertiesNeedValue
        );
    }
}

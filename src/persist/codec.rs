//! A format-1 chunk's value: a JSON array of entities in the service's JSON form, Timestamp
//! included. Saves write format 2 ([`super::binary`]); a load still reads this form.
//!
//! `odata.etag` is left out: it is derived from the Timestamp, so storing it would only cost
//! space.
//!
//! Loading is the hot path (100,000 entities in well under a second), so [`decode`] first tries
//! a direct decoder for the form [`encode`] writes: keys borrowed from the text, no
//! intermediate JSON tree, property names shared across entities, fixed-form DateTimes parsed
//! without chrono. Anything it does not expect sends the whole chunk to the engine's own
//! decoder ([`json::decode_stored`]), which is the reference and gives the precise error.

use crate::engine::json::{self, RawEntity};
use crate::engine::{DateTime, EdmType, Entity, Value};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

const ETAG: &str = "odata.etag";
const ANNOTATION: &str = "@odata.type";

/// Entities as a format-1 chunk value (for inspection: saves write format 2, `binary`).
pub fn encode(entities: &[Entity]) -> Result<String, String> {
    let raws: Vec<RawEntity> = entities
        .iter()
        .map(|entity| {
            let mut raw = RawEntity::from_entity(entity);
            raw.0.retain(|(name, _)| name != ETAG);
            raw
        })
        .collect();
    serde_json::to_string(&raws).map_err(|e| e.to_string())
}

/// Property names seen while loading, so entities share one allocation per name.
pub use crate::engine::json::Names;

/// Decodes a chunk value; every entity must carry its Timestamp.
pub fn decode(text: &str, names: &mut Names) -> Result<Vec<Entity>, String> {
    if let Some(entities) = decode_fast(text, names) {
        return Ok(entities);
    }
    let raws: Vec<RawEntity> =
        serde_json::from_str(text).map_err(|e| format!("not a JSON array of entities: {e}"))?;
    raws.iter()
        .enumerate()
        .map(|(i, raw)| {
            let entity = json::decode_stored(raw).map_err(|e| format!("entity {i}: {e}"))?;
            match entity.timestamp {
                Some(_) => Ok(entity),
                None => Err(format!("entity {i} has no Timestamp")),
            }
        })
        .collect()
}

fn decode_fast(text: &str, names: &mut Names) -> Option<Vec<Entity>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let entities = ChunkSeed(names).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(entities)
}

struct ChunkSeed<'n>(&'n mut Names);

impl<'de> DeserializeSeed<'de> for ChunkSeed<'_> {
    type Value = Vec<Entity>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ChunkSeed<'_> {
    type Value = Vec<Entity>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of entities")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut entities = Vec::with_capacity(seq.size_hint().unwrap_or(256));
        while let Some(entity) = seq.next_element_seed(EntitySeed(&mut *self.0))? {
            entities.push(entity);
        }
        Ok(entities)
    }
}

struct EntitySeed<'n>(&'n mut Names);

impl<'de> DeserializeSeed<'de> for EntitySeed<'_> {
    type Value = Entity;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntitySeed<'_> {
    type Value = Entity;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an entity")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members: Vec<(Text<'de>, Scalar<'de>)> = Vec::with_capacity(20);
        while let Some(name) = map.next_key::<Text<'de>>()? {
            members.push((name, map.next_value::<Scalar<'de>>()?));
        }
        build(&members, self.0).ok_or_else(|| de::Error::custom("not in the stored form"))
    }
}

/// Builds an entity from its members as [`json::decode_stored`] would; `None` for anything
/// unexpected (the caller then uses the engine's decoder).
fn build(members: &[(Text, Scalar)], names: &mut Names) -> Option<Entity> {
    let mut annotations: Vec<(&str, EdmType)> = Vec::new();
    for (name, value) in members {
        if let Some(prop) = name.0.strip_suffix(ANNOTATION) {
            let Scalar::Str(t) = value else { return None };
            if annotations.iter().any(|(p, _)| *p == prop) {
                return None;
            }
            annotations.push((prop, EdmType::from_odata_name(t)?));
        }
    }
    let annotation = |prop: &str| {
        annotations
            .iter()
            .find(|(p, _)| *p == prop)
            .map(|(_, t)| *t)
    };
    let mut entity = Entity::default();
    let (mut pk, mut rk) = (None, None);
    for (name, value) in members {
        let name = name.0.as_ref();
        if name.ends_with(ANNOTATION) || name.starts_with("odata.") {
            continue;
        }
        match (name, value) {
            ("PartitionKey", Scalar::Str(s)) if pk.is_none() => pk = Some(s.to_string()),
            ("RowKey", Scalar::Str(s)) if rk.is_none() => rk = Some(s.to_string()),
            ("Timestamp", Scalar::Str(s)) if entity.timestamp.is_none() => {
                entity.timestamp = Some(datetime(s)?);
            }
            ("PartitionKey" | "RowKey" | "Timestamp", _) => return None,
            (_, Scalar::Null) => {}
            _ => {
                if entity.properties.iter().any(|(n, _)| &**n == name) {
                    return None;
                }
                let typed = property(name, value, annotation(name))?;
                entity.properties.push((names.get(name), typed));
            }
        }
    }
    entity.partition_key = pk?;
    entity.row_key = rk?;
    entity.timestamp?;
    Some(entity)
}

fn property(name: &str, value: &Scalar, annotation: Option<EdmType>) -> Option<Value> {
    Some(match (annotation, value) {
        (None, Scalar::Str(s)) => Value::string(s.as_ref()),
        (None, Scalar::Bool(b)) => Value::Boolean(*b),
        (None, Scalar::I64(v)) => Value::Int32(i32::try_from(*v).ok()?),
        (None, Scalar::U64(v)) => Value::Int32(i32::try_from(*v).ok()?),
        (None, Scalar::F64(v)) => Value::Double(*v),
        (Some(EdmType::DateTime), Scalar::Str(s)) => Value::DateTime(datetime(s)?),
        (Some(EdmType::Int64), Scalar::Str(s)) => Value::Int64(s.parse().ok()?),
        (Some(edm), value) => json::decode_value(name, &value.to_json()?, Some(edm)).ok()?,
        (None, Scalar::Null) => return None,
    })
}

/// A DateTime in the fixed form the engine writes (`2024-01-02T03:04:05Z`, optionally with 1
/// to 7 fractional digits), else through the engine's parser.
fn datetime(text: &str) -> Option<DateTime> {
    fixed_datetime(text).or_else(|| DateTime::parse(text).ok())
}

fn fixed_datetime(text: &str) -> Option<DateTime> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let digits = b.get(from..from + len)?;
        digits.iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let punctuation = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if !punctuation.iter().all(|&(i, c)| b.get(i) == Some(&c)) || b.last() != Some(&b'Z') {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    let frac = match b.len() {
        20 => 0,
        n @ 22..=28 if b.get(19) == Some(&b'.') => {
            let digits = n - 21;
            num(20, digits)? * 10i64.pow(7 - digits as u32)
        }
        _ => return None,
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let max_day = *month_days.get(usize::try_from(month - 1).ok()?)?;
    if day < 1 || day > max_day || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Days since 1970-01-01 (H. Hinnant's days_from_civil).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let unix = days * 86_400 + hour * 3_600 + minute * 60 + second;
    DateTime::from_ticks((unix + 11_644_473_600) * 10_000_000 + frac)
}

/// A member name, borrowed from the text unless it had escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A member value; objects and arrays are not expected (and fail the fast path).
enum Scalar<'a> {
    Str(Cow<'a, str>),
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    Null,
}

impl Scalar<'_> {
    fn to_json(&self) -> Option<serde_json::Value> {
        Some(match self {
            Scalar::Str(s) => serde_json::Value::String(s.to_string()),
            Scalar::Bool(b) => serde_json::Value::Bool(*b),
            Scalar::I64(v) => serde_json::Value::from(*v),
            Scalar::U64(v) => serde_json::Value::from(*v),
            Scalar::F64(v) => serde_json::Value::Number(serde_json::Number::from_f64(*v)?),
            Scalar::Null => serde_json::Value::Null,
        })
    }
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, number, boolean or null")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Scalar::Str(Cow::Owned(v)))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Scalar::I64(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Scalar::U64(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Scalar::F64(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Scalar::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Scalar::Null)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn fixed_datetimes_parse_as_the_engine_does() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let max = DateTime::MAX.ticks() as u64;
        let mut ticks = vec![0, DateTime::MAX.ticks(), 134_116_992_000_000_000];
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let t = ((seed >> 1) % (max + 1)) as i64;
            ticks.push(t);
            ticks.push(t - t % 10_000_000);
        }
        for t in ticks {
            let d = DateTime::from_ticks(t).unwrap();
            for text in [d.to_string(), d.to_string_7()] {
                assert_eq!(fixed_datetime(&text), Some(d), "{text}");
                assert_eq!(DateTime::parse(&text), Ok(d), "{text}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn other_datetime_forms_are_left_to_the_engine() {
        for text in [
            "2024-02-30T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00.12345678Z",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00+01:00",
            "2024-01-01 00:00:00Z",
            "1600-12-31T23:59:59Z",
            "",
        ] {
            assert_eq!(fixed_datetime(text), None, "{text}");
        }
        assert_eq!(
            datetime("2024-01-01T01:00:00+01:00"),
            DateTime::parse("2024-01-01T00:00:00Z").ok()
        );
    }

    #[wasm_bindgen_test]
    fn the_direct_decoder_agrees_with_the_engine() {
        let text = r#"[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00.0000001Z",
            "S":"a\"b","B":false,"I":-7,"D":2.5,"W":3.0,"Big":"-9223372036854775808",
            "Big@odata.type":"Edm.Int64","T@odata.type":"Edm.DateTime","T":"2024-02-29T12:00:00Z",
            "G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833",
            "X@odata.type":"Edm.Binary","X":"AAE=","N@odata.type":"Edm.Double","N":"NaN",
            "Nothing":null}]"#;
        let fast = decode_fast(text, &mut Names::default()).unwrap();
        let raws: Vec<RawEntity> = serde_json::from_str(text).unwrap();
        let reference: Vec<Entity> = raws
            .iter()
            .map(|r| json::decode_stored(r).unwrap())
            .collect();
        assert_eq!(format!("{fast:?}"), format!("{reference:?}"));
    }

    #[wasm_bindgen_test]
    fn unexpected_shapes_fall_back_to_the_engine() {
        for text in [
            r#"[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z","O":{}}]"#,
            r#"[{"PartitionKey":"p","PartitionKey":"q","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z"}]"#,
            r#"[{"PartitionKey":"p","RowKey":"r"}]"#,
            r#"[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z","A":1,"A":2}]"#,
            r#"[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z","A@odata.type":"Edm.Nope","A":1}]"#,
            r#"[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z","A":4294967296}]"#,
            r#"[] trailing"#,
        ] {
            assert!(decode_fast(text, &mut Names::default()).is_none(), "{text}");
            assert!(decode(text, &mut Names::default()).is_err(), "{text}");
        }
    }
}

//! A chunk's value in format 2: the rows of one partition as bytes (a `Uint8Array` record).
//!
//! Format 1 stored a chunk as the service's JSON; at 1,000,000 entities encoding it after a
//! fill took seconds, and reading it back spent most of the reload copying 100 MB of text into
//! the wasm and parsing it. These bytes copy in one `memcpy`, and decode without parsing text.
//! A load reads both forms ([`super::codec`] keeps format 1's), so stores written before stay
//! readable; every chunk a save writes is in this form.
//!
//! Layout (integers little-endian; `n` is unsigned LEB128; `str` is `n` bytes of UTF-8):
//!
//! ```text
//! chunk    = "TSC2" · PartitionKey:str · names:n · name:str{names} · count:n · entity{count}
//! entity   = RowKey:str · Timestamp:i64 · properties:n · property{properties}
//! property = name:n (an index into the chunk's names) · tag:u8 · value
//! value    = String str | Int32 i32 | Int64 i64 | Double f64 (its bits) | Boolean u8 (0 or 1)
//!          | DateTime i64 | Guid 16 bytes | Binary n bytes                    (tags 0 to 7)
//! ```
//!
//! Instants (Timestamp, DateTime) are the engine's ticks: 100 ns since 1601-01-01.
//!
//! Invariants of a chunk [`decode`] accepts: every entity has its Timestamp, no property is
//! named like a system property or twice in one entity, and nothing follows the last entity.

use super::codec::Names;
use crate::engine::{DateTime, Entity, Guid, Key, PropertyName, Stored, Value, ValueRef};

/// The first bytes of every format-2 chunk.
pub const MAGIC: &[u8; 4] = b"TSC2";

const STRING: u8 = 0;
const INT32: u8 = 1;
const INT64: u8 = 2;
const DOUBLE: u8 = 3;
const BOOLEAN: u8 = 4;
const DATETIME: u8 = 5;
const GUID: u8 = 6;
const BINARY: u8 = 7;

/// Encodes rows of one partition as a chunk value.
pub fn encode<'a>(partition_key: &str, rows: &[(&'a Key, &'a Stored)]) -> Vec<u8> {
    // Names in order of first use; a partition's entities usually share all of them.
    let mut names: Vec<&str> = Vec::new();
    let mut body = Vec::with_capacity(rows.len() * 64);
    put_len(&mut body, rows.len());
    for (row_key, stored) in rows {
        put_str(&mut body, row_key.as_str());
        body.extend_from_slice(&stored.timestamp.ticks().to_le_bytes());
        put_len(&mut body, stored.properties.len());
        for (name, value) in stored.properties.iter() {
            let index = match names.iter().position(|n| *n == &**name) {
                Some(i) => i,
                None => {
                    names.push(name);
                    names.len() - 1
                }
            };
            put_len(&mut body, index);
            put_value(&mut body, value);
        }
    }
    let mut out = Vec::with_capacity(body.len() + 64);
    out.extend_from_slice(MAGIC);
    put_str(&mut out, partition_key);
    put_len(&mut out, names.len());
    for name in names {
        put_str(&mut out, name);
    }
    out.extend_from_slice(&body);
    out
}

fn put_value(out: &mut Vec<u8>, value: ValueRef) {
    match value {
        ValueRef::String(s) => {
            out.push(STRING);
            put_str(out, s);
        }
        ValueRef::Int32(v) => {
            out.push(INT32);
            out.extend_from_slice(&v.to_le_bytes());
        }
        ValueRef::Int64(v) => {
            out.push(INT64);
            out.extend_from_slice(&v.to_le_bytes());
        }
        ValueRef::Double(v) => {
            out.push(DOUBLE);
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
        ValueRef::Boolean(v) => {
            out.push(BOOLEAN);
            out.push(u8::from(v));
        }
        ValueRef::DateTime(v) => {
            out.push(DATETIME);
            out.extend_from_slice(&v.ticks().to_le_bytes());
        }
        ValueRef::Guid(v) => {
            out.push(GUID);
            out.extend_from_slice(&v.0);
        }
        ValueRef::Binary(v) => {
            out.push(BINARY);
            put_len(out, v.len());
            out.extend_from_slice(v);
        }
    }
}

fn put_len(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Entities of one partition as a chunk value (an entity without a Timestamp gets
/// `DateTime::MIN`, for a receiver that sets its own): the Design section's hand-overs
/// between its wasm and the playground's.
pub fn encode_entities(partition_key: &str, entities: &[Entity]) -> Vec<u8> {
    use crate::engine::{Record, Shape};
    use std::sync::Arc;
    // An entity type's entities share one property list: one shape for a run of them.
    let mut shape: Option<Arc<Shape>> = None;
    let rows: Vec<(Key, Stored)> = entities
        .iter()
        .map(|e| {
            let shared = match &shape {
                Some(s) if s.is(&e.properties) => s.clone(),
                _ => shape.insert(Arc::new(Shape::of(&e.properties))).clone(),
            };
            (
                Key::new(&e.row_key),
                Stored {
                    timestamp: e.timestamp.unwrap_or(DateTime::MIN),
                    properties: Record::encode(shared, &e.properties),
                },
            )
        })
        .collect();
    let refs: Vec<(&Key, &Stored)> = rows.iter().map(|(k, s)| (k, s)).collect();
    encode(partition_key, &refs)
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Decodes a chunk value: its PartitionKey and entities, or what is wrong with it.
pub fn decode(bytes: &[u8], shared: &mut Names) -> Result<(String, Vec<Entity>), String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len())? != MAGIC {
        return Err("not a chunk of format 2".into());
    }
    let partition_key = r.str()?.to_string();
    let name_count = r.len()?;
    let mut names: Vec<PropertyName> = Vec::with_capacity(name_count.min(256));
    for _ in 0..name_count {
        let name = r.str()?;
        if matches!(name, "PartitionKey" | "RowKey" | "Timestamp") || name.starts_with("odata.") {
            return Err(format!("a property is named {name}"));
        }
        names.push(shared.get(name));
    }
    let count = r.len()?;
    let mut entities = Vec::with_capacity(count.min(bytes.len()));
    for i in 0..count {
        let row_key = r.str()?.to_string();
        let ticks = r.i64()?;
        let timestamp = DateTime::from_ticks(ticks)
            .ok_or_else(|| format!("entity {i}: a Timestamp out of range"))?;
        let property_count = r.len()?;
        let mut properties = Vec::with_capacity(property_count.min(256));
        for _ in 0..property_count {
            let index = r.len()?;
            let name = names
                .get(index)
                .ok_or_else(|| format!("entity {i}: property name {index} is not in the chunk"))?;
            if properties
                .iter()
                .any(|(n, _)| PropertyName::ptr_eq(n, name))
            {
                return Err(format!("entity {i}: property {name} is stored twice"));
            }
            let value = r.value().map_err(|e| format!("entity {i}, {name}: {e}"))?;
            properties.push((name.clone(), value));
        }
        entities.push(Entity {
            partition_key: partition_key.clone(),
            row_key,
            timestamp: Some(timestamp),
            properties,
        });
    }
    if r.at != bytes.len() {
        return Err("bytes follow the last entity".into());
    }
    Ok((partition_key, entities))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len());
        let end = end.ok_or("the chunk ends early")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn len(&mut self) -> Result<usize, String> {
        let mut n: usize = 0;
        for shift in (0..35).step_by(7) {
            let byte = self.take(1)?[0];
            n |= usize::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("a length is too long".into())
    }

    fn str(&mut self) -> Result<&'a str, String> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).map_err(|_| "text that is not UTF-8".into())
    }

    fn i64(&mut self) -> Result<i64, String> {
        Ok(i64::from_le_bytes(self.array()?))
    }

    fn value(&mut self) -> Result<Value, String> {
        let tag = self.take(1)?[0];
        Ok(match tag {
            STRING => Value::string(self.str()?),
            INT32 => Value::Int32(i32::from_le_bytes(self.array()?)),
            INT64 => Value::Int64(self.i64()?),
            DOUBLE => Value::Double(f64::from_bits(u64::from_le_bytes(self.array()?))),
            BOOLEAN => match self.take(1)?[0] {
                0 => Value::Boolean(false),
                1 => Value::Boolean(true),
                b => return Err(format!("a Boolean stored as {b}")),
            },
            DATETIME => {
                Value::DateTime(DateTime::from_ticks(self.i64()?).ok_or("a DateTime out of range")?)
            }
            GUID => Value::Guid(Guid(self.array()?)),
            BINARY => {
                let n = self.len()?;
                Value::Binary(self.take(n)?.into())
            }
            tag => return Err(format!("an unknown type tag {tag}")),
        })
    }
}

#[cfg(test)]
#[path = "binary_tests.rs"]
mod tests;

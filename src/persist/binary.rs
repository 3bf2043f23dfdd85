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
use crate::engine::{DateTime, Entity, Guid, Key, PropertyName, Row, Seen, Stored, ValueRef};

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
    let mut chunk = ChunkWriter::new(partition_key, rows.len() * 64);
    for (row_key, stored) in rows {
        let properties = &stored.properties;
        chunk.push(
            row_key.as_str(),
            stored.timestamp,
            properties.len(),
            properties.iter(),
        );
    }
    chunk.finish()
}

/// A chunk written entity by entity: nothing is kept of an entity but its bytes. The
/// count and the names (in order of first use; a partition's entities usually share all
/// of them) go in front when it is finished.
pub struct ChunkWriter {
    partition_key: String,
    names: Vec<PropertyName>,
    body: Vec<u8>,
    count: usize,
}

impl ChunkWriter {
    /// A chunk of `partition_key` whose entities should take about `bytes`.
    pub fn new(partition_key: &str, bytes: usize) -> ChunkWriter {
        ChunkWriter {
            partition_key: partition_key.to_string(),
            names: Vec::new(),
            body: Vec::with_capacity(bytes),
            count: 0,
        }
    }

    /// Appends an entity of the partition: its `count` properties.
    pub fn push<'v>(
        &mut self,
        row_key: &str,
        timestamp: DateTime,
        count: usize,
        properties: impl Iterator<Item = (&'v PropertyName, ValueRef<'v>)>,
    ) {
        let body = &mut self.body;
        put_str(body, row_key);
        body.extend_from_slice(&timestamp.ticks().to_le_bytes());
        put_len(body, count);
        for (name, value) in properties {
            let names = &mut self.names;
            let found = names
                .iter()
                .position(|n| PropertyName::ptr_eq(n, name) || n == name);
            let index = found.unwrap_or_else(|| {
                names.push(name.clone());
                names.len() - 1
            });
            put_len(body, index);
            put_value(body, value);
        }
        self.count += 1;
    }

    /// The chunk's bytes.
    pub fn finish(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.body.len() + 64);
        out.extend_from_slice(MAGIC);
        put_str(&mut out, &self.partition_key);
        put_len(&mut out, self.names.len());
        for name in &self.names {
            put_str(&mut out, name);
        }
        put_len(&mut out, self.count);
        out.extend_from_slice(&self.body);
        out
    }
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
    let mut chunk = ChunkWriter::new(partition_key, entities.len() * 64);
    for e in entities {
        chunk.push_entity(e);
    }
    chunk.finish()
}

impl ChunkWriter {
    /// Appends an entity of the partition (without a Timestamp: `DateTime::MIN`).
    pub fn push_entity(&mut self, e: &Entity) {
        let properties = e.properties.iter().map(|(n, v)| (n, ValueRef::from(v)));
        let stamp = e.timestamp.unwrap_or(DateTime::MIN);
        self.push(&e.row_key, stamp, e.properties.len(), properties);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Decodes a chunk value: its PartitionKey and entities, or what is wrong with it.
pub fn decode(bytes: &[u8], shared: &mut Names) -> Result<(String, Vec<Entity>), String> {
    let mut rows = ChunkRows::new(bytes)?;
    let partition_key = rows.partition_key.to_string();
    let names: Vec<PropertyName> = rows.names.iter().map(|n| shared.get(n)).collect();
    let mut entities = Vec::with_capacity(rows.count.min(bytes.len()));
    while let Some((timestamp, row)) = rows.next()? {
        let mut properties = Vec::with_capacity(row.values.len());
        for (n, v) in row.names.iter().zip(row.values) {
            properties.push((names[*n].clone(), v.to_value()));
        }
        entities.push(Entity {
            partition_key: partition_key.clone(),
            row_key: row.row_key.to_string(),
            timestamp: Some(timestamp),
            properties,
        });
    }
    Ok((partition_key, entities))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// What a read found wrong (a fixed sentence: the hot reads return no `String`).
type Bad = &'static str;

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Bad> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len());
        let end = end.ok_or("the chunk ends early")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Bad> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn len(&mut self) -> Result<usize, Bad> {
        let mut n: usize = 0;
        for shift in (0..35).step_by(7) {
            let byte = *self.take(1)?.first().ok_or("the chunk ends early")?;
            n |= usize::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("a length is too long")
    }

    fn str(&mut self) -> Result<&'a str, Bad> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).map_err(|_| "text that is not UTF-8")
    }

    fn i64(&mut self) -> Result<i64, Bad> {
        Ok(i64::from_le_bytes(self.array()?))
    }

    fn value_ref(&mut self) -> Result<ValueRef<'a>, String> {
        let tag = self.take(1)?[0];
        Ok(match tag {
            STRING => ValueRef::String(self.str()?),
            INT32 => ValueRef::Int32(i32::from_le_bytes(self.array()?)),
            INT64 => ValueRef::Int64(self.i64()?),
            DOUBLE => ValueRef::Double(f64::from_bits(u64::from_le_bytes(self.array()?))),
            BOOLEAN => match self.take(1)?[0] {
                0 => ValueRef::Boolean(false),
                1 => ValueRef::Boolean(true),
                b => return Err(format!("a Boolean stored as {b}")),
            },
            DATETIME => ValueRef::DateTime(
                DateTime::from_ticks(self.i64()?).ok_or("a DateTime out of range")?,
            ),
            GUID => ValueRef::Guid(Guid(self.array()?)),
            BINARY => {
                let n = self.len()?;
                ValueRef::Binary(self.take(n)?)
            }
            tag => return Err(format!("an unknown type tag {tag}")),
        })
    }
}

/// A chunk's rows borrowed from its bytes, one at a time, for a run of inserts
/// (`engine::RowRun`: no `Entity` per row). It checks what [`decode`] checks, row by row;
/// each row comes with its stored Timestamp.
pub struct ChunkRows<'a> {
    pub partition_key: &'a str,
    /// The chunk's property names; a row names its properties by position in them.
    pub names: Vec<&'a str>,
    r: Reader<'a>,
    count: usize,
    next: usize,
    positions: Vec<usize>,
    values: Vec<ValueRef<'a>>,
}

impl<'a> ChunkRows<'a> {
    /// Reads the chunk's header.
    pub fn new(bytes: &'a [u8]) -> Result<ChunkRows<'a>, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len())? != MAGIC {
            return Err("not a chunk of format 2".into());
        }
        let partition_key = r.str()?;
        let name_count = r.len()?;
        let mut names = Vec::with_capacity(name_count.min(256));
        for _ in 0..name_count {
            let name = r.str()?;
            if matches!(name, "PartitionKey" | "RowKey" | "Timestamp") || name.starts_with("odata.")
            {
                return Err(format!("a property is named {name}"));
            }
            if names.contains(&name) {
                return Err(format!("the property name {name} is listed twice"));
            }
            names.push(name);
        }
        let count = r.len()?;
        Ok(ChunkRows {
            partition_key,
            names,
            r,
            count,
            next: 0,
            positions: Vec::new(),
            values: Vec::new(),
        })
    }

    /// The next row and its Timestamp, or `None` after the last (when nothing may follow).
    pub fn next(&mut self) -> Result<Option<(DateTime, Row<'_>)>, String> {
        let i = self.next;
        if i == self.count {
            return if self.r.at == self.r.bytes.len() {
                Ok(None)
            } else {
                Err("bytes follow the last entity".into())
            };
        }
        self.next += 1;
        let r = &mut self.r;
        let row_key = r.str()?;
        let timestamp = DateTime::from_ticks(r.i64()?)
            .ok_or_else(|| format!("entity {i}: a Timestamp out of range"))?;
        let property_count = r.len()?;
        self.positions.clear();
        self.values.clear();
        let mut seen = Seen::default();
        for _ in 0..property_count {
            let index = r.len()?;
            let Some(name) = self.names.get(index) else {
                return Err(format!(
                    "entity {i}: property name {index} is not in the chunk"
                ));
            };
            if seen.again(index, &self.positions) {
                return Err(format!("entity {i}: property {name} is stored twice"));
            }
            let value = r
                .value_ref()
                .map_err(|e| format!("entity {i}, {name}: {e}"))?;
            self.positions.push(index);
            self.values.push(value);
        }
        let row = Row {
            row_key,
            names: &self.positions,
            values: &self.values,
        };
        Ok(Some((timestamp, row)))
    }
}

#[cfg(test)]
#[path = "binary_tests.rs"]
mod tests;

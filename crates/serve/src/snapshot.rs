//! The data directory's snapshot: the account as bytes, read back without parsing text.
//!
//! The playground's JSON export (`export`) spelled every property's name, type annotation and
//! value as text: at 1,000,000 entities a snapshot was 350 MB that took seconds to parse and
//! a gigabyte and more of parse trees at its peak. These bytes decode straight into entities,
//! one partition at a time. `tablescope-serve export` still writes the JSON export.
//!
//! Layout (integers little-endian; `n` is unsigned LEB128; `str` is `n` bytes of UTF-8):
//!
//! ```text
//! file      = "TSSNAP\0\x01" · meta:str · tables:n · table{tables}
//! meta      = JSON: {"target": "cosmosTable"} when not Table storage, and
//!             "serviceProperties" when they are not a new account's (as in the export)
//! table     = name:str · acl:str (JSON: the stored access policies, `[]` for none)
//!             · partitions:n · partition{partitions}
//! partition = bytes:n (the length of what follows, to its last entity) · PartitionKey:str
//!             · names:n · name:str{names} · count:n · entity{count}
//! entity    = RowKey:str · Timestamp:i64 · properties:n · property{properties}
//! property  = name:n (an index into the partition's names) · tag:u8 · value
//! value     = String str | Int32 i32 | Int64 i64 | Double f64 (its bits) | Boolean u8 (0
//!             or 1) | DateTime i64 | Guid 16 bytes | Binary n bytes          (tags 0 to 7)
//! ```
//!
//! Instants (Timestamp, DateTime) are the engine's ticks: 100 ns since 1601-01-01. The value
//! encoding is the browser store's (`src/persist/binary.rs`).
//!
//! Invariants of a file [`read`] accepts: it is exactly the layout above with nothing after
//! the last table; every entity has a Timestamp, no property is named like a system property
//! or twice in one entity, and no RowKey is stored twice in a partition; no table is listed
//! twice (by the target's rules for names).

use super::record::Tables;
use serde::{Deserialize, Serialize};
use std::io::{self, Read, Write};
use tablescope_engine::{
    Account, DateTime, Entity, Guid, PropertyName, ServiceProperties, SignedIdentifier, Target,
    Value, ValueRef,
};

/// The first bytes of every snapshot in this format.
pub const MAGIC: &[u8; 8] = b"TSSNAP\0\x01";

const STRING: u8 = 0;
const INT32: u8 = 1;
const INT64: u8 = 2;
const DOUBLE: u8 = 3;
const BOOLEAN: u8 = 4;
const DATETIME: u8 = 5;
const GUID: u8 = 6;
const BINARY: u8 = 7;

/// The account-wide members, as the export spells them.
#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Meta {
    #[serde(default, skip_serializing_if = "is_table_storage")]
    target: Target,
    #[serde(
        default,
        rename = "serviceProperties",
        skip_serializing_if = "Option::is_none"
    )]
    service_properties: Option<ServiceProperties>,
}

fn is_table_storage(t: &Target) -> bool {
    *t == Target::TableStorage
}

/// Writes the account, one partition at a time (only one partition's bytes are held).
pub fn write(account: &Account, out: &mut impl Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    let properties = account.service_properties();
    let meta = Meta {
        target: account.target(),
        service_properties: (*properties != ServiceProperties::default())
            .then(|| properties.clone()),
    };
    let mut buf = Vec::new();
    put_str(&mut buf, &serde_json::to_string(&meta)?);
    put_len(&mut buf, account.tables().count());
    out.write_all(&buf)?;
    let mut body = Vec::new();
    let mut names: Vec<PropertyName> = Vec::new();
    for table in account.tables() {
        buf.clear();
        put_str(&mut buf, &table.name);
        put_str(&mut buf, &serde_json::to_string(table.acl())?);
        put_len(&mut buf, table.partition_count());
        out.write_all(&buf)?;
        for (pk, partition) in table.partitions() {
            body.clear();
            names.clear();
            for (rk, stored) in &partition.rows {
                put_str(&mut body, rk.as_str());
                body.extend_from_slice(&stored.timestamp.ticks().to_le_bytes());
                put_len(&mut body, stored.properties.len());
                for (name, value) in stored.properties.iter() {
                    let found = names
                        .iter()
                        .position(|n| PropertyName::ptr_eq(n, name) || n == name);
                    let index = found.unwrap_or_else(|| {
                        names.push(name.clone());
                        names.len() - 1
                    });
                    put_len(&mut body, index);
                    put_value(&mut body, value);
                }
            }
            buf.clear();
            put_str(&mut buf, pk.as_str());
            put_len(&mut buf, names.len());
            for name in &names {
                put_str(&mut buf, name);
            }
            put_len(&mut buf, partition.rows.len());
            let mut head = Vec::with_capacity(10);
            put_len(&mut head, buf.len() + body.len());
            out.write_all(&head)?;
            out.write_all(&buf)?;
            out.write_all(&body)?;
        }
    }
    Ok(())
}

pub(crate) fn put_value(out: &mut Vec<u8>, value: ValueRef) {
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

pub(crate) fn put_len(out: &mut Vec<u8>, mut n: usize) {
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

pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Reads a snapshot's bytes into [`Tables`], keeping every entity's Timestamp; a file that
/// is not the layout above is refused with what is wrong and where.
#[cfg(test)]
pub fn read(bytes: &[u8]) -> Result<Tables, String> {
    read_from(bytes)
}

/// [`read`] from a stream: one partition's bytes are held at a time, never the file's, so
/// the peak of a start is the tables plus one partition.
pub fn read_from(input: impl Read) -> Result<Tables, String> {
    let mut src = Source {
        input,
        at: 0,
        buf: Vec::new(),
    };
    if src.bytes(MAGIC.len()).ok() != Some(&MAGIC[..]) {
        return Err("not a tablescope-serve snapshot (its first bytes are not TSSNAP)".into());
    }
    let meta: Meta = src
        .str()
        .and_then(|m| serde_json::from_str(m).map_err(|e| e.to_string()))
        .map_err(|e| src.located(e))?;
    let mut tables = Tables::for_target(meta.target);
    if let Some(properties) = meta.service_properties {
        tables.set_properties(properties);
    }
    let table_count = src.len().map_err(|e| src.located(e))?;
    let mut latest = None;
    for _ in 0..table_count {
        let name = src.str().map(str::to_string).map_err(|e| src.located(e))?;
        let acl: Vec<SignedIdentifier> = src
            .str()
            .and_then(|a| serde_json::from_str(a).map_err(|e| e.to_string()))
            .map_err(|e| src.located(format!("table '{name}': {e}")))?;
        tables.add_table(&name)?;
        let table = tables.table_mut(&name)?;
        table.restore_acl(acl);
        let partitions = src.len().map_err(|e| src.located(e))?;
        for _ in 0..partitions {
            let start = src.at;
            let located = |e: String| format!("at byte {start}: table '{name}': {e}");
            let length = src.len().map_err(located)?;
            let body = src
                .bytes(length)
                .map_err(|_| located("the partition ends after the file".into()))?;
            let entities = partition(&mut Reader { bytes: body, at: 0 }).map_err(located)?;
            for entity in entities {
                let Some(timestamp) = entity.timestamp else {
                    continue;
                };
                latest = latest.max(Some(timestamp));
                let keys = (entity.partition_key.clone(), entity.row_key.clone());
                if table.put(entity, timestamp).is_some() {
                    return Err(located(format!(
                        "PartitionKey '{}', RowKey '{}' is stored twice",
                        keys.0, keys.1
                    )));
                }
            }
        }
    }
    if src.bytes(1).is_ok() {
        return Err(format!(
            "at byte {}: bytes follow the last table",
            src.at - 1
        ));
    }
    if let Some(t) = latest {
        tables.observe_timestamp(t);
    }
    Ok(tables)
}

/// The file as it streams in: `at` bytes consumed so far; `buf` holds the last piece taken.
struct Source<R> {
    input: R,
    at: usize,
    buf: Vec<u8>,
}

impl<R: Read> Source<R> {
    fn located(&self, e: String) -> String {
        format!("at byte {}: {e}", self.at)
    }

    /// The next `n` bytes (read as they come, so a damaged length cannot allocate more
    /// than the file holds).
    fn bytes(&mut self, n: usize) -> Result<&[u8], String> {
        self.buf.clear();
        let read = (&mut self.input)
            .take(n as u64)
            .read_to_end(&mut self.buf)
            .map_err(|e| e.to_string())?;
        self.at += read;
        if read < n {
            return Err("the file ends early".into());
        }
        Ok(&self.buf)
    }

    fn len(&mut self) -> Result<usize, String> {
        let mut n: usize = 0;
        for shift in (0..63).step_by(7) {
            let byte = self.bytes(1)?[0];
            n |= usize::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("a length is too long".into())
    }

    fn str(&mut self) -> Result<&str, String> {
        let n = self.len()?;
        std::str::from_utf8(self.bytes(n)?).map_err(|_| "text that is not UTF-8".to_string())
    }
}

/// One partition's entities from its bytes (after its length), checked (a property named
/// like a system property or twice in an entity is refused; the entities must end where the
/// bytes do).
fn partition(r: &mut Reader) -> Result<Vec<Entity>, String> {
    let partition_key = r.str()?;
    let name_count = r.len()?;
    let mut names: Vec<PropertyName> = Vec::with_capacity(name_count.min(256));
    for _ in 0..name_count {
        let name = r.str()?;
        if matches!(name, "PartitionKey" | "RowKey" | "Timestamp") || name.starts_with("odata.") {
            return Err(format!("a property is named {name}"));
        }
        if names.iter().any(|n| &**n == name) {
            return Err(format!("the property name {name} is listed twice"));
        }
        names.push(PropertyName::from(name));
    }
    let count = r.len()?;
    let mut entities = Vec::with_capacity(count.min(r.bytes.len()));
    let mut used = Vec::new();
    for i in 0..count {
        let row_key = r.str()?;
        let timestamp = DateTime::from_ticks(r.i64()?)
            .ok_or_else(|| format!("entity {i}: a Timestamp out of range"))?;
        let property_count = r.len()?;
        let mut properties = Vec::with_capacity(property_count.min(name_count));
        used.clear();
        used.resize(name_count, false);
        for _ in 0..property_count {
            let index = r.len()?;
            let Some(name) = names.get(index) else {
                return Err(format!("entity {i}: property name {index} is not listed"));
            };
            if std::mem::replace(&mut used[index], true) {
                return Err(format!("entity {i}: property {name} is stored twice"));
            }
            let value = r.value().map_err(|e| format!("entity {i}, {name}: {e}"))?;
            properties.push((name.clone(), value));
        }
        entities.push(Entity {
            partition_key: partition_key.to_string(),
            row_key: row_key.to_string(),
            timestamp: Some(timestamp),
            properties,
        });
    }
    if r.at != r.bytes.len() {
        return Err("the partition's entities do not end where its length says".into());
    }
    Ok(entities)
}

pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

/// What a read found wrong (a fixed sentence: the hot reads return no `String`).
pub(crate) type Bad = &'static str;

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Bad> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len())
            .ok_or("the bytes end early")?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], Bad> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub(crate) fn len(&mut self) -> Result<usize, Bad> {
        let mut n: usize = 0;
        for shift in (0..63).step_by(7) {
            let byte = self.take(1)?[0];
            n |= usize::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("a length is too long")
    }

    pub(crate) fn str(&mut self) -> Result<&'a str, Bad> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).map_err(|_| "text that is not UTF-8")
    }

    pub(crate) fn i64(&mut self) -> Result<i64, Bad> {
        Ok(i64::from_le_bytes(self.array()?))
    }

    pub(crate) fn value(&mut self) -> Result<Value, String> {
        let tag = self.take(1)?[0];
        Ok(match tag {
            STRING => Value::String(self.str()?.into()),
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
#[path = "snapshot_tests.rs"]
pub(crate) mod tests;

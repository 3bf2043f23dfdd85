//! From the records read back to tables and a chunk index.
//!
//! Strict by default: the first damaged record fails the load and names it. Recovering skips
//! damaged chunks whole (a chunk is checked before any of its entities is stored) and rebuilds
//! tables the meta record does not list from their chunks.

use super::codec::{self, Names};
use super::error::PersistError;
use super::layout::{self, Index, Meta, FORMAT, META_KEY};
use crate::engine::{cmp_utf16, DateTime, Entity, Table};
use std::cmp::Ordering;
use std::collections::HashMap;
use wasm_bindgen::JsValue;

/// What a load produced.
pub struct Loaded {
    pub tables: HashMap<String, Table>,
    pub index: Index,
    /// The latest Timestamp stored (meta's, or a later entity's).
    pub last: DateTime,
    /// What recovering skipped (empty for a strict load).
    pub damaged: Vec<PersistError>,
}

/// Builds the tables from the meta record and the chunk records (keys and values in key
/// order, as `getAllKeys`/`getAll` return them).
pub fn build(
    meta: Option<JsValue>,
    keys: &[JsValue],
    values: &[JsValue],
    recover: bool,
) -> Result<Loaded, PersistError> {
    let mut damaged = Vec::new();
    let mut report = |e: PersistError| -> Result<(), PersistError> {
        if recover {
            damaged.push(e);
            Ok(())
        } else {
            Err(e)
        }
    };
    let meta = match meta {
        Some(value) => Some(decode_meta(&value)?),
        None if keys.is_empty() => None,
        None => {
            report(PersistError::corrupt(
                META_KEY,
                "the meta record is missing",
            ))?;
            None
        }
    };
    let mut last = DateTime::MIN;
    let mut tables: HashMap<String, Table> = HashMap::new();
    for name in meta.iter().flat_map(|m| &m.tables) {
        if tables.insert(name.clone(), Table::new(name)).is_some() {
            report(PersistError::corrupt(
                META_KEY,
                format!("table {name} is listed twice"),
            ))?;
        }
    }
    if let Some(t) = meta.and_then(|m| DateTime::parse(&m.last_timestamp).ok()) {
        last = t;
    }
    if keys.len() != values.len() {
        return Err(PersistError::Other(
            "the browser returned keys and values that do not match".into(),
        ));
    }
    let mut index = Index::default();
    let mut names = Names::default();
    for (key, value) in keys.iter().zip(values) {
        let Some(key) = key.as_string() else {
            report(PersistError::corrupt("?", "a chunk key is not a string"))?;
            continue;
        };
        match read_chunk(&key, value, &tables, &mut names, recover) {
            Ok((table, pk, start, entities)) => {
                let table = tables
                    .entry(table.to_string())
                    .or_insert_with(|| Table::new(table));
                if let Err(e) = store(&key, table, entities, &mut last) {
                    report(e)?;
                }
                index.push_loaded(&table.name, pk, start);
            }
            Err(e) => report(e)?,
        }
    }
    if let Err(key) = index.check() {
        report(PersistError::corrupt(
            &key,
            "the partition's chunks do not start at the empty RowKey",
        ))?;
    }
    Ok(Loaded {
        tables,
        index,
        last,
        damaged,
    })
}

fn decode_meta(value: &JsValue) -> Result<Meta, PersistError> {
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| PersistError::corrupt(META_KEY, "not a JSON object"))?;
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_u64()));
    if format != Some(u64::from(FORMAT)) {
        return Err(PersistError::Other(format!(
            "the stored data has format {format:?}, and this Tablescope reads format {FORMAT}; \
             a newer Tablescope wrote it"
        )));
    }
    serde_json::from_str(&text).map_err(|e| PersistError::corrupt(META_KEY, e.to_string()))
}

/// Decodes and checks one chunk without storing anything; returns its (table, PartitionKey,
/// start RowKey) and entities.
fn read_chunk<'k>(
    key: &'k str,
    value: &JsValue,
    tables: &HashMap<String, Table>,
    names: &mut Names,
    recover: bool,
) -> Result<(&'k str, &'k str, &'k str, Vec<Entity>), PersistError> {
    let (table, pk, start) = layout::parse_chunk_key(key)
        .ok_or_else(|| PersistError::corrupt(key, "not a chunk key"))?;
    if !recover && !tables.contains_key(table) {
        return Err(PersistError::corrupt(
            key,
            format!("table {table} is not listed in meta"),
        ));
    }
    let text = value
        .as_string()
        .ok_or_else(|| PersistError::corrupt(key, "the value is not a JSON string"))?;
    let entities = codec::decode(&text, names).map_err(|e| PersistError::corrupt(key, e))?;
    if entities.is_empty() {
        return Err(PersistError::corrupt(key, "the chunk is empty"));
    }
    for entity in &entities {
        if entity.partition_key != pk {
            return Err(PersistError::corrupt(
                key,
                format!("holds an entity of partition '{}'", entity.partition_key),
            ));
        }
        if cmp_utf16(&entity.row_key, start) == Ordering::Less {
            return Err(PersistError::corrupt(
                key,
                format!(
                    "holds RowKey '{}', before the chunk's start",
                    entity.row_key
                ),
            ));
        }
        if entity.timestamp.is_none() {
            return Err(PersistError::corrupt(key, "an entity has no Timestamp"));
        }
    }
    Ok((table, pk, start, entities))
}

/// Stores a checked chunk's entities in their table.
fn store(
    key: &str,
    table: &mut Table,
    entities: Vec<Entity>,
    last: &mut DateTime,
) -> Result<(), PersistError> {
    let mut duplicates = 0;
    for entity in entities {
        let Some(timestamp) = entity.timestamp else {
            continue;
        };
        if timestamp > *last {
            *last = timestamp;
        }
        let count = table.entity_count();
        table.put(entity, timestamp);
        if table.entity_count() == count {
            duplicates += 1;
        }
    }
    match duplicates {
        0 => Ok(()),
        n => Err(PersistError::corrupt(
            key,
            format!("{n} RowKey(s) are stored twice"),
        )),
    }
}

//! The on-disk layout and the in-memory index of chunks.
//!
//! Database `tablescope-<namespace>`, version [`DB_VERSION`], two object stores with
//! out-of-line string keys:
//! - `meta`: key `"account"` → `{format: 2, tables: [display names], lastTimestamp, seq}`, and
//!   `target: "cosmosTable"` for a Cosmos DB for Table account (absent: Table storage);
//! - `chunks`: key `"<Table>/<PartitionKey>/<chunkStartRowKey>"` → the chunk's entities as
//!   bytes (a `Uint8Array`, `persist::binary`). Format 1 stored a JSON string (an array of the
//!   entities in the service's JSON form, with Timestamp); a load still reads those.
//!
//! '/' cannot occur in a table name or a PartitionKey, so the first two '/' of a chunk key
//! separate its parts; whatever follows is the start RowKey.
//!
//! Invariants of [`Index`], for every (table, partition) it holds:
//! - `starts` is non-empty, strictly increasing in the service's key order, and `starts[0]`
//!   is the empty RowKey, so every RowKey falls in exactly one chunk;
//! - chunk `i` holds the rows in `[starts[i], starts[i + 1])` (the last one is unbounded);
//! - each chunk on disk holds between 1 and [`MAX_CHUNK`] entities.

use crate::engine::Key;
use std::collections::{BTreeMap, HashMap};

pub const DB_VERSION: u32 = 1;
/// 2: chunk values are bytes (`persist::binary`); format 1's were JSON text, still read.
pub const FORMAT: u32 = 2;
pub const META_STORE: &str = "meta";
pub const CHUNK_STORE: &str = "chunks";
pub const META_KEY: &str = "account";
/// The most entities in one chunk record; a chunk that grows past it is split.
pub const MAX_CHUNK: usize = 256;

/// The database name for a namespace.
pub fn db_name(namespace: &str) -> String {
    format!("tablescope-{namespace}")
}

/// The record key of a chunk.
pub fn chunk_key(table: &str, partition_key: &str, start: &str) -> String {
    format!("{table}/{partition_key}/{start}")
}

/// Splits a chunk key into (table, PartitionKey, start RowKey).
pub fn parse_chunk_key(key: &str) -> Option<(&str, &str, &str)> {
    let mut parts = key.splitn(3, '/');
    Some((parts.next()?, parts.next()?, parts.next()?))
}

/// The smallest and the first-past-the-end keys of a table's chunks: every chunk key of table
/// `T` starts with `T/`, and `'0'` is the character after `'/'`.
pub fn table_key_range(table: &str) -> (String, String) {
    (format!("{table}/"), format!("{table}0"))
}

/// The meta record.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub format: u32,
    pub tables: Vec<String>,
    pub last_timestamp: String,
    /// How many save transactions have committed on this store. Each save checks, inside its
    /// own transaction, that the record holds the value the save was planned on, and aborts
    /// otherwise (see `Persist::begin`). Absent, so 0, in stores written before it existed.
    #[serde(default)]
    pub seq: u64,
    /// The account's service properties, when they are not a new account's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_properties: Option<crate::engine::ServiceProperties>,
    /// The service the account models; absent (Table storage) in stores written before it
    /// existed and for every storage account, so their meta record is unchanged.
    #[serde(default, skip_serializing_if = "is_storage")]
    pub target: crate::engine::Target,
    /// The stored access policies of the tables that have any, by display name.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub acls: std::collections::BTreeMap<String, Vec<crate::engine::SignedIdentifier>>,
}

fn is_storage(target: &crate::engine::Target) -> bool {
    *target == crate::engine::Target::TableStorage
}

/// Where the chunks of every partition start, by table display name and PartitionKey.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Index {
    tables: HashMap<String, BTreeMap<Key, Vec<Key>>>,
}

impl Index {
    pub fn clear(&mut self) {
        self.tables.clear();
    }

    pub fn remove_table(&mut self, table: &str) {
        self.tables.remove(table);
    }

    /// The chunk starts of a partition (empty when it has no chunk).
    pub fn starts(&self, table: &str, partition_key: &Key) -> &[Key] {
        self.tables
            .get(table)
            .and_then(|t| t.get(partition_key))
            .map_or(&[], Vec::as_slice)
    }

    /// The start of the chunk a RowKey belongs to, creating the partition's first chunk.
    pub fn chunk_for(&mut self, table: &str, partition_key: &Key, row_key: &Key) -> Key {
        let starts = self.starts_mut(table, partition_key);
        let after = starts.partition_point(|s| s <= row_key);
        match after.checked_sub(1).and_then(|i| starts.get(i)) {
            Some(start) => start.clone(),
            // Unreachable while starts[0] is "": every key is >= "".
            None => Key::default(),
        }
    }

    /// A partition's chunk starts, created as one chunk starting at "" if new.
    fn starts_mut(&mut self, table: &str, partition_key: &Key) -> &mut Vec<Key> {
        self.tables
            .entry(table.to_string())
            .or_default()
            .entry(partition_key.clone())
            .or_insert_with(|| vec![Key::default()])
    }

    /// [`Index::chunk_for`] of many RowKeys of one partition: the starts of the chunks they
    /// belong to, each once, in key order.
    pub fn chunks_for<'k>(
        &mut self,
        table: &str,
        partition_key: &Key,
        row_keys: impl Iterator<Item = &'k Key>,
    ) -> Vec<Key> {
        let starts = self.starts_mut(table, partition_key);
        let mut used = vec![false; starts.len()];
        for row_key in row_keys {
            // starts[0] is "", so every key has a chunk: `after` is at least 1.
            let after = starts.partition_point(|s| s <= row_key);
            if let Some(u) = after.checked_sub(1).and_then(|i| used.get_mut(i)) {
                *u = true;
            }
        }
        let chunks = starts.iter().zip(used).filter(|(_, u)| *u);
        chunks.map(|(s, _)| s.clone()).collect()
    }

    /// Replaces a partition's chunk starts (empty removes the partition).
    pub fn set_starts(&mut self, table: &str, partition_key: &Key, starts: Vec<Key>) {
        let partitions = self.tables.entry(table.to_string()).or_default();
        if starts.is_empty() {
            partitions.remove(partition_key);
        } else {
            partitions.insert(partition_key.clone(), starts);
        }
    }

    /// Adds a chunk start found on disk (load); call [`Index::check`] after the last one.
    pub fn push_loaded(&mut self, table: &str, partition_key: &str, start: &str) {
        self.tables
            .entry(table.to_string())
            .or_default()
            .entry(Key::new(partition_key))
            .or_default()
            .push(Key::new(start));
    }

    /// Sorts loaded starts and checks the invariants; returns the key of a partition that
    /// breaks them.
    pub fn check(&mut self) -> Result<(), String> {
        for (table, partitions) in &mut self.tables {
            for (pk, starts) in partitions.iter_mut() {
                starts.sort();
                let sorted = starts.windows(2).all(|w| w.first() < w.get(1));
                let first_empty = starts.first().is_some_and(|s| s.as_str().is_empty());
                if !sorted || !first_empty {
                    return Err(chunk_key(table, pk.as_str(), ""));
                }
            }
        }
        Ok(())
    }

    /// How many chunks the index knows of.
    pub fn chunk_count(&self) -> usize {
        self.tables
            .values()
            .flat_map(|t| t.values())
            .map(Vec::len)
            .sum()
    }
}

/// Where to cut `n` rows into chunks of at most [`MAX_CHUNK`]: the offsets of the second and
/// later pieces, in pieces of near-equal size.
pub fn split_offsets(n: usize) -> Vec<usize> {
    let pieces = n.div_ceil(MAX_CHUNK).max(1);
    (1..pieces).map(|j| j * n / pieces).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn keys_round_trip() {
        let key = chunk_key("T", "p'%é", "a/b");
        assert_eq!(parse_chunk_key(&key), Some(("T", "p'%é", "a/b")));
    }

    #[wasm_bindgen_test]
    fn split_offsets_bound_pieces() {
        assert!(split_offsets(256).is_empty());
        assert_eq!(split_offsets(257), vec![128]);
        assert_eq!(split_offsets(1000), vec![250, 500, 750]);
    }

    #[wasm_bindgen_test]
    fn a_table_range_holds_its_keys_only() {
        let (lower, upper) = table_key_range("Foo");
        for inside in ["Foo/", "Foo/p/", "Foo/\u{FFFF}/x"] {
            assert!(
                lower.as_str() <= inside && inside < upper.as_str(),
                "{inside}"
            );
        }
        for outside in ["Fo/", "Foo0/p/", "Foo2/p/", "FooBar/p/", "foo/p/"] {
            assert!(
                !(lower.as_str() <= outside && outside < upper.as_str()),
                "{outside}"
            );
        }
    }
}

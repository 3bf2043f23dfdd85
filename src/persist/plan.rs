//! From change sets to the record writes of one transaction.
//!
//! Planning is synchronous and reads the account as it is now, so the caller plans right after
//! taking the changes, before the account can change again; the writes then go to disk in one
//! transaction. Because chunks are written from the current state, all change sets planned
//! together must also be written together: a chunk may already hold rows of a later change set.

use super::binary;
use super::error::PersistError;
use super::layout::{chunk_key, split_offsets, Index, Meta, FORMAT};
use crate::engine::{Account, Change, ChangeSet, DateTime, Key, Partition, Stored};
use std::collections::BTreeSet;
use std::ops::Bound;

/// One record operation on the chunk store.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Clear,
    /// Delete every chunk of a table.
    DeleteTable(String),
    Delete(String),
    /// A chunk in format 2 ([`super::binary`]).
    Put {
        key: String,
        value: Vec<u8>,
    },
}

/// Everything one transaction writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub ops: Vec<Op>,
    pub meta: Meta,
}

/// Plans the writes for `changes`, updating the index to what the disk will hold after them.
/// `full` (or an [`Change::AccountReplaced`]) clears the store and rewrites every table.
pub fn plan(
    index: &mut Index,
    last_timestamp: &mut DateTime,
    account: &Account,
    changes: &[ChangeSet],
    full: bool,
) -> Result<Plan, PersistError> {
    let replaced = full
        || changes
            .iter()
            .flatten()
            .any(|c| *c == Change::AccountReplaced);
    let mut ops = Vec::new();
    if replaced {
        index.clear();
        ops.push(Op::Clear);
        for table in account.tables() {
            for (pk, partition) in table.partitions() {
                let rows: Vec<(&Key, &Stored)> = partition.rows.iter().collect();
                let starts = write_rows(
                    &table.name,
                    pk,
                    Key::default(),
                    &rows,
                    &mut ops,
                    last_timestamp,
                )?;
                index.set_starts(&table.name, pk, starts);
            }
        }
    } else {
        let mut dirty: BTreeSet<(String, Key, Key)> = BTreeSet::new();
        for change in changes.iter().flatten() {
            match change {
                // Settings ride in the meta record, written with every save.
                Change::TableCreated { .. }
                | Change::AccountReplaced
                | Change::ServicePropertiesSet
                | Change::AclSet { .. } => {}
                Change::TableDeleted { table } => {
                    ops.push(Op::DeleteTable(table.clone()));
                    index.remove_table(table);
                    dirty.retain(|(t, _, _)| t != table);
                }
                Change::EntityWritten {
                    table,
                    partition_key,
                    row_key,
                }
                | Change::EntityDeleted {
                    table,
                    partition_key,
                    row_key,
                } => {
                    let pk = Key::new(partition_key);
                    let start = index.chunk_for(table, &pk, &Key::new(row_key));
                    dirty.insert((table.clone(), pk, start));
                }
                Change::RowsInserted {
                    table,
                    partition_key,
                    row_keys,
                } => {
                    let pk = Key::new(partition_key);
                    for start in index.chunks_for(table, &pk, row_keys.iter()) {
                        dirty.insert((table.clone(), pk.clone(), start));
                    }
                }
            }
        }
        for (table, pk, start) in dirty {
            rewrite_chunk(
                index,
                last_timestamp,
                account,
                &table,
                &pk,
                &start,
                &mut ops,
            )?;
        }
    }
    let meta = Meta {
        format: FORMAT,
        tables: account.tables().map(|t| t.name.clone()).collect(),
        last_timestamp: last_timestamp.to_string_7(),
        seq: 0,
        target: account.target(),
        service_properties: Some(account.service_properties())
            .filter(|p| **p != crate::engine::ServiceProperties::default())
            .cloned(),
        acls: account
            .tables()
            .filter(|t| !t.acl().is_empty())
            .map(|t| (t.name.clone(), t.acl().to_vec()))
            .collect(),
    };
    Ok(Plan { ops, meta })
}

/// Rewrites the chunk of a partition that starts at `start` from the account's current rows:
/// drops it when empty, splits it when too big.
fn rewrite_chunk(
    index: &mut Index,
    last_timestamp: &mut DateTime,
    account: &Account,
    table: &str,
    pk: &Key,
    start: &Key,
    ops: &mut Vec<Op>,
) -> Result<(), PersistError> {
    let mut starts = index.starts(table, pk).to_vec();
    // A start that is gone was absorbed by an earlier chunk, which rewrote its rows.
    let Ok(i) = starts.binary_search(start) else {
        return Ok(());
    };
    let empty = Partition::default();
    let partition = account
        .table(table)
        .ok()
        .filter(|t| t.name == table)
        .and_then(|t| t.partitions().get(pk))
        .unwrap_or(&empty);
    while let Some(lower) = starts.get(i).cloned() {
        let upper = starts.get(i + 1).cloned();
        let rows: Vec<(&Key, &Stored)> = rows_in(partition, &lower, upper.as_ref()).collect();
        if !rows.is_empty() {
            let written = write_rows(table, pk, lower, &rows, ops, last_timestamp)?;
            starts.splice(i..=i, written);
            break;
        }
        match upper {
            // The partition's only chunk is empty: drop it.
            None if i == 0 => {
                ops.push(Op::Delete(chunk_key(table, pk.as_str(), lower.as_str())));
                starts.clear();
                break;
            }
            // The first chunk (start "") is empty: it takes over the next chunk's rows.
            Some(next) if i == 0 => {
                ops.push(Op::Delete(chunk_key(table, pk.as_str(), next.as_str())));
                starts.remove(1);
            }
            _ => {
                ops.push(Op::Delete(chunk_key(table, pk.as_str(), lower.as_str())));
                starts.remove(i);
                break;
            }
        }
    }
    index.set_starts(table, pk, starts);
    Ok(())
}

/// The rows of a partition in `[lower, upper)`.
fn rows_in<'a>(
    partition: &'a Partition,
    lower: &Key,
    upper: Option<&Key>,
) -> impl Iterator<Item = (&'a Key, &'a Stored)> {
    let upper = match upper {
        Some(u) if u > lower => Bound::Excluded(u),
        _ => Bound::Unbounded,
    };
    partition.rows.range((Bound::Included(lower), upper))
}

/// Writes rows as chunks of at most MAX_CHUNK, the first keyed at `first_start`, the others at
/// their first RowKey; returns the starts of the chunks written.
fn write_rows(
    table: &str,
    pk: &Key,
    first_start: Key,
    rows: &[(&Key, &Stored)],
    ops: &mut Vec<Op>,
    last_timestamp: &mut DateTime,
) -> Result<Vec<Key>, PersistError> {
    let mut cuts = vec![0];
    cuts.extend(split_offsets(rows.len()));
    cuts.push(rows.len());
    let mut starts = Vec::with_capacity(cuts.len());
    for bounds in cuts.windows(2) {
        let (Some(&from), Some(&to)) = (bounds.first(), bounds.get(1)) else {
            continue;
        };
        let Some(piece) = rows.get(from..to) else {
            continue;
        };
        let start = match (starts.is_empty(), piece.first()) {
            (true, _) => first_start.clone(),
            (false, Some((rk, _))) => (*rk).clone(),
            (false, None) => continue,
        };
        for (_, stored) in piece {
            if stored.timestamp > *last_timestamp {
                *last_timestamp = stored.timestamp;
            }
        }
        let value = binary::encode(pk.as_str(), piece);
        ops.push(Op::Put {
            key: chunk_key(table, pk.as_str(), start.as_str()),
            value,
        });
        starts.push(start);
    }
    Ok(starts)
}

#[cfg(test)]
mod tests {
    use super::super::binary;
    use super::super::codec::Names;
    use super::super::layout::{parse_chunk_key, MAX_CHUNK};
    use super::*;
    use crate::engine::{Entity, Value};
    use std::collections::BTreeMap;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The chunk store as a plain map, changed by a plan's operations.
    #[derive(Default)]
    struct Disk(BTreeMap<String, Vec<u8>>);

    impl Disk {
        fn apply(&mut self, plan: &Plan) {
            for op in &plan.ops {
                match op {
                    Op::Clear => self.0.clear(),
                    Op::DeleteTable(t) => self.0.retain(|k, _| !k.starts_with(&format!("{t}/"))),
                    Op::Delete(k) => {
                        self.0.remove(k);
                    }
                    Op::Put { key, value } => {
                        self.0.insert(key.clone(), value.clone());
                    }
                }
            }
        }

        /// Checks the layout's invariants against the account and the index.
        fn check(&self, account: &Account, index: &Index) {
            let mut rows: BTreeMap<(String, String, String), i32> = BTreeMap::new();
            let mut chunks = 0;
            for (key, value) in &self.0 {
                let (table, pk, start) = parse_chunk_key(key).unwrap();
                let (_, entities) = binary::decode(value, &mut Names::default()).unwrap();
                assert!(!entities.is_empty() && entities.len() <= MAX_CHUNK, "{key}");
                let starts = index.starts(table, &Key::new(pk));
                let i = starts.iter().position(|s| s.as_str() == start).unwrap();
                for e in entities {
                    assert_eq!(e.partition_key, pk);
                    let rk = Key::new(&e.row_key);
                    assert!(rk >= Key::new(start), "{key}: {}", e.row_key);
                    assert!(starts.get(i + 1).is_none_or(|next| rk < *next), "{key}");
                    let Some(&Value::Int32(v)) = e.get("V") else {
                        panic!("{key}")
                    };
                    rows.insert((table.into(), e.partition_key, e.row_key), v);
                }
                chunks += 1;
            }
            assert_eq!(chunks, index.chunk_count());
            let mut expected = BTreeMap::new();
            for t in account.tables() {
                for (pk, p) in t.partitions() {
                    assert_eq!(index.starts(&t.name, pk).first().map(Key::as_str), Some(""));
                    for (rk, s) in &p.rows {
                        let Some((_, Value::Int32(v))) = s.properties.first() else {
                            panic!()
                        };
                        expected.insert((t.name.clone(), pk.to_string(), rk.to_string()), v);
                    }
                }
            }
            assert_eq!(rows, expected);
        }
    }

    /// Random writes and deletes on a few partitions, saved after every few changes: the disk
    /// always holds exactly the account, in bounded chunks that match the index.
    #[wasm_bindgen_test]
    fn the_disk_follows_the_account() {
        let mut account = Account::default();
        let (mut index, mut last, mut disk) = (Index::default(), DateTime::MIN, Disk::default());
        account.create_table("Model").unwrap();
        let mut seed: u64 = 42;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        for step in 0..4_000 {
            let pk = format!("p{}", next(3));
            let rk = format!("{:04}", next(900));
            if next(3) == 0 {
                let _ = account.delete("Model", &pk, &rk, None);
            } else if next(10) == 0 {
                // A run of inserts (the Design generator's): new rows of one partition,
                // one change for them all; a key already there is refused and skipped.
                let mut run = account.insert_run("Model", &pk, &["V"]).unwrap();
                for _ in 0..next(40) {
                    let rk = format!("{:04}", next(900));
                    let values = [crate::engine::ValueRef::Int32(step)];
                    let row = crate::engine::Row {
                        row_key: &rk,
                        names: &[0],
                        values: &values,
                    };
                    let _ = run.insert(row);
                }
            } else {
                let e = Entity::new(pk, rk).with("V", Value::Int32(step));
                account
                    .write("Model", e, crate::engine::WriteMode::UpsertReplace, None)
                    .unwrap();
            }
            if next(7) == 0 || step == 3_999 {
                let changes = account.take_changes();
                let plan = plan(&mut index, &mut last, &account, &changes, false).unwrap();
                disk.apply(&plan);
                disk.check(&account, &index);
            }
        }
        assert!(disk.0.len() > 3, "partitions split into several chunks");

        // Deleting everything leaves no chunk; a deleted table leaves nothing behind.
        let keys: Vec<(String, String)> = account
            .table("Model")
            .unwrap()
            .partitions()
            .iter()
            .flat_map(|(pk, p)| {
                p.rows
                    .keys()
                    .map(move |rk| (pk.to_string(), rk.to_string()))
            })
            .collect();
        for (pk, rk) in keys.iter().take(keys.len() / 2) {
            account.delete("Model", pk, rk, None).unwrap();
        }
        let changes = account.take_changes();
        disk.apply(&plan(&mut index, &mut last, &account, &changes, false).unwrap());
        disk.check(&account, &index);
        account.delete_table("Model").unwrap();
        let changes = account.take_changes();
        disk.apply(&plan(&mut index, &mut last, &account, &changes, false).unwrap());
        assert!(disk.0.is_empty());
        assert_eq!(index.chunk_count(), 0);
    }

    /// A full rewrite gives the same disk as the incremental path.
    #[wasm_bindgen_test]
    fn a_full_rewrite_replaces_everything() {
        let mut account = Account::default();
        account.create_table("Full").unwrap();
        for i in 0..700 {
            let e =
                Entity::new(format!("p{}", i % 2), format!("{i:04}")).with("V", Value::Int32(i));
            account.insert("Full", e).unwrap();
        }
        let (mut index, mut last, mut disk) = (Index::default(), DateTime::MIN, Disk::default());
        disk.0.insert("Stale/p/".into(), "[]".into());
        let plan = plan(&mut index, &mut last, &account, &[], true).unwrap();
        assert_eq!(plan.ops.first(), Some(&Op::Clear));
        disk.apply(&plan);
        disk.check(&account, &index);
        assert_eq!(
            disk.0.len(),
            4,
            "two partitions of 350 rows, two chunks each"
        );
        assert_eq!(plan.meta.tables, vec!["Full".to_string()]);
    }
}

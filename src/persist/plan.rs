//! From change sets to the record writes of one transaction.
//!
//! Planning is synchronous and reads the account as it is now, so the caller plans right after
//! taking the changes, before the account can change again; the writes then go to disk in one
//! transaction. Because chunks are written from the current state, all change sets planned
//! together must also be written together: a chunk may already hold rows of a later change set.

use super::codec;
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
    Put {
        key: String,
        value: String,
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
                Change::TableCreated { .. } | Change::AccountReplaced => {}
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
        Some(u) if u > lower => Bound::Excluded(u.clone()),
        _ => Bound::Unbounded,
    };
    partition
        .rows
        .range::<Key, _>((Bound::Included(lower.clone()), upper))
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
        let value = codec::encode(pk.as_str(), piece.iter().copied())
            .map_err(|e| PersistError::Other(format!("cannot encode entities: {e}")))?;
        ops.push(Op::Put {
            key: chunk_key(table, pk.as_str(), start.as_str()),
            value,
        });
        starts.push(start);
    }
    Ok(starts)
}

//! Entity group transactions (docs/service/batches.md): one table, one partition, at most 100 operations,
//! each entity at most once; all applied or none.
//!
//! The batch is checked in two passes before anything is applied: first its shape (count,
//! partition, duplicates, each entity's validity), then each operation against the current
//! state in order. Since an entity appears at most once, operations cannot affect each
//! other's checks, so passing both passes guarantees the apply step cannot fail.

use super::account::{Account, IfMatch, WriteMode};
use super::entity::Entity;
use super::error::{Error, ErrorCode, Result};
use super::json::{self, RawEntity};
use crate::target::{ru, Rule, Target};
use serde_json::Value as Json;

mod inserts;

pub const MAX_OPERATIONS: usize = 100;
pub const MAX_PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

/// One operation of a batch, before it is checked; borrowed from the request that carries it
/// (a batch of 100 writes is not copied to be checked).
#[derive(Debug, Clone, PartialEq)]
pub enum BatchOperation<'r> {
    Write {
        mode: WriteMode,
        entity: &'r RawEntity,
        if_match: Option<&'r str>,
    },
    Delete {
        partition_key: &'r str,
        row_key: &'r str,
        if_match: Option<&'r str>,
    },
    Get {
        partition_key: &'r str,
        row_key: &'r str,
    },
}

/// What a committed operation answered.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchResult {
    Written {
        status: u16,
        timestamp: super::datetime::DateTime,
        /// The entity's modelled size on Cosmos ([`crate::target::ru::item_bytes`]), for
        /// its request units; 0 on storage.
        bytes: usize,
    },
    /// `bytes` as in `Written`, of the entity deleted.
    Deleted {
        bytes: usize,
    },
    Read(Entity),
}

enum Checked {
    Write(Entity),
    Delete(String, String),
    Get(String, String),
}

/// Runs a batch atomically. On failure nothing is applied and the error's message starts
/// with the failing operation's index.
pub fn run(
    account: &mut Account,
    table: &str,
    operations: &[BatchOperation],
) -> Result<Vec<BatchResult>> {
    account.table(table).map_err(|e| e.at_index(0))?;
    let target = account.target();
    if operations.len() > MAX_OPERATIONS {
        return Err(Error::new(ErrorCode::InvalidInput)
            .at_index(MAX_OPERATIONS - 1)
            .with_message_tail(
                "The batch request operation exceeds the maximum 100 changes per change set.",
            ));
    }
    // A bound settles almost every batch; only a batch near the limit is counted exactly.
    let max_payload = target.max_batch_bytes();
    if operations.iter().map(payload_bound).sum::<usize>() > max_payload {
        let payload: usize = operations.iter().map(payload_size).sum();
        if payload > max_payload {
            return Err(match target {
                Target::TableStorage => Error::with_detail(
                    ErrorCode::RequestBodyTooLarge,
                    crate::Detail::BatchTooLarge { size: payload },
                ),
                Target::CosmosTable => {
                    crate::target::refusal(ErrorCode::RequestBodyTooLarge, Rule::BatchSizeLimit)
                }
            });
        }
    }
    // The all-inserts path shares one Timestamp among the inserts: storage's way only.
    if !target.is_cosmos() {
        if let Some(results) = inserts::run(account, table, operations) {
            return Ok(results);
        }
    }
    run_each(account, table, operations)
}

/// The general path, for any batch that passed the checks of [`run`]: every operation is
/// decoded and checked on its own, then all are applied in one change set.
fn run_each(
    account: &mut Account,
    table: &str,
    operations: &[BatchOperation],
) -> Result<Vec<BatchResult>> {
    let keyed = shape(operations).map_err(|e| match e.code {
        // Cosmos refuses the whole request (top-level 400), not one part of it.
        ErrorCode::InvalidDuplicateRow if account.target().is_cosmos() => Error {
            rule: Some(Rule::DuplicateRowRefusedAtTop),
            ..e
        },
        _ => e,
    })?;
    let mut checked = Vec::with_capacity(keyed.len());
    for (i, (op, entity)) in operations.iter().zip(keyed).enumerate() {
        checked.push(check(account, table, op, entity).map_err(|e| e.at_index(i))?);
    }
    let stamps = Stamps::take(account, operations)?;
    let cosmos = account.target().is_cosmos();
    Ok(account.as_one_change_set(|account| {
        checked
            .into_iter()
            .zip(operations)
            .filter_map(|(c, op)| apply(account, table, c, op, &stamps, cosmos).ok())
            .collect()
    }))
}

/// A batch commits at one instant: its inserts share one Timestamp (and so one ETag), its
/// other writes share a second, one tick later, as production answers (docs/service/wire.md#batch).
/// On Cosmos every write takes its own Timestamp instead ([`Rule::TimestampPerBatchOperation`]):
/// `insert` and `update` are `None`, and each write takes the next one as it is applied.
struct Stamps {
    insert: Option<super::datetime::DateTime>,
    update: Option<super::datetime::DateTime>,
}

impl Stamps {
    /// Both or neither: a batch refused for want of Timestamps leaves the clock unchanged.
    /// On Cosmos, the clock is checked for room for every write before any is applied.
    fn take(account: &mut Account, operations: &[BatchOperation]) -> Result<Stamps> {
        if account.target().is_cosmos() {
            let writes = operations
                .iter()
                .filter(|op| matches!(op, BatchOperation::Write { .. }))
                .count();
            let mut last = account.last_timestamp();
            for _ in 0..writes {
                last = account
                    .timestamp_after(last)
                    .ok_or_else(crate::account::clock_exhausted)?;
            }
            return Ok(Stamps {
                insert: None,
                update: None,
            });
        }
        let is_insert = |op: &BatchOperation| {
            matches!(
                op,
                BatchOperation::Write {
                    mode: WriteMode::Insert,
                    ..
                }
            )
        };
        let inserts = operations.iter().any(is_insert);
        let updates = operations
            .iter()
            .any(|op| matches!(op, BatchOperation::Write { .. }) && !is_insert(op));
        let (insert, update) = match (inserts, updates) {
            (true, true) => {
                let [insert, update] = account.next_timestamps()?;
                (Some(insert), Some(update))
            }
            (true, false) => (Some(account.next_timestamp()?), None),
            (false, true) => (None, Some(account.next_timestamp()?)),
            (false, false) => (None, None),
        };
        Ok(Stamps { insert, update })
    }
}

/// First pass: the batch's shape, and each entity decoded and valid. Errors come as the
/// operations are read in order: for each, its decoding, then its partition, then whether
/// an earlier operation names the same entity.
fn shape(operations: &[BatchOperation]) -> Result<Vec<Option<Entity>>> {
    let has_get = operations
        .iter()
        .position(|op| matches!(op, BatchOperation::Get { .. }));
    if let (Some(i), true) = (has_get, operations.len() > 1) {
        return Err(
            Error::with_detail(ErrorCode::InvalidInput, crate::Detail::PointReadAlone).at_index(i),
        );
    }
    // The entities first (up to the first that fails), then their keys, borrowed from them:
    // a key error before the failed entity comes first, as reading in order would find it.
    let mut names = json::Names::default();
    let mut entities = Vec::with_capacity(operations.len());
    let mut failed = None;
    for (i, op) in operations.iter().enumerate() {
        entities.push(match op {
            BatchOperation::Write { entity, .. } => {
                let decoded = json::decode_sharing(entity, &mut names)
                    .and_then(|e| super::validate::entity(&e).map(|()| e));
                match decoded {
                    Ok(e) => Some(e),
                    Err(e) => {
                        failed = Some(e.at_index(i));
                        break;
                    }
                }
            }
            BatchOperation::Delete { .. } | BatchOperation::Get { .. } => None,
        });
    }
    let key = |i: usize| -> (&str, &str) {
        match (&entities[i], operations[i].named_keys()) {
            (Some(e), _) => (&e.partition_key, &e.row_key),
            (None, Some(keys)) => keys,
            (None, None) => ("", ""),
        }
    };
    let mut row_keys = std::collections::HashSet::with_capacity(entities.len());
    for i in 0..entities.len() {
        let (pk, rk) = key(i);
        if pk != key(0).0 {
            return Err(Error::new(ErrorCode::CommandsInBatchActOnDifferentPartitions).at_index(i));
        }
        if !row_keys.insert(rk) {
            return Err(Error::new(ErrorCode::InvalidDuplicateRow).at_index(i));
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(entities),
    }
}

fn parse_if_match(if_match: Option<&str>) -> Result<Option<IfMatch>> {
    if_match.map(IfMatch::parse).transpose()
}

/// Second pass: one operation against the current state.
fn check(
    account: &Account,
    table: &str,
    op: &BatchOperation,
    entity: Option<Entity>,
) -> Result<Checked> {
    match (op, entity) {
        (BatchOperation::Write { mode, if_match, .. }, Some(e)) => {
            let cond = parse_if_match(*if_match)?;
            // `shape` validated `e` already.
            account
                .prepare_valid_write(table, e, *mode, cond.as_ref())
                .map(Checked::Write)
        }
        (
            BatchOperation::Delete {
                partition_key,
                row_key,
                if_match,
            },
            _,
        ) => {
            let cond = parse_if_match(*if_match)?;
            account.prepare_delete(table, partition_key, row_key, cond.as_ref())?;
            Ok(Checked::Delete(
                partition_key.to_string(),
                row_key.to_string(),
            ))
        }
        (
            BatchOperation::Get {
                partition_key,
                row_key,
            },
            _,
        ) => {
            account.get(table, partition_key, row_key)?;
            Ok(Checked::Get(partition_key.to_string(), row_key.to_string()))
        }
        (BatchOperation::Write { .. }, None) => Err(Error::new(ErrorCode::InvalidInput)),
    }
}

fn apply(
    account: &mut Account,
    table: &str,
    checked: Checked,
    op: &BatchOperation,
    stamps: &Stamps,
    cosmos: bool,
) -> Result<BatchResult> {
    match checked {
        Checked::Write(e) => {
            let bytes = if cosmos { ru::entity_bytes(&e) } else { 0 };
            let (status, stamp) = match op {
                BatchOperation::Write {
                    mode: WriteMode::Insert,
                    ..
                } => (201, stamps.insert),
                _ => (204, stamps.update),
            };
            let written = match stamp {
                Some(t) => account.apply_write_at(table, e, t),
                None => account.apply_write(table, e),
            };
            written.map(|timestamp| BatchResult::Written {
                status,
                timestamp,
                bytes,
            })
        }
        Checked::Delete(pk, rk) => {
            let bytes = match cosmos {
                true => account
                    .table(table)
                    .ok()
                    .and_then(|t| t.get(&pk, &rk))
                    .map_or(0, |s| ru::item_bytes(&pk, &rk, &s.properties)),
                false => 0,
            };
            account
                .apply_delete(table, &pk, &rk)
                .map(|_| BatchResult::Deleted { bytes })
        }
        Checked::Get(pk, rk) => account.get(table, &pk, &rk).map(BatchResult::Read),
    }
}

fn payload_size(op: &BatchOperation) -> usize {
    match (op, op.named_keys()) {
        (_, Some((partition_key, row_key))) => partition_key.len() + row_key.len(),
        (BatchOperation::Write { entity, .. }, None) => {
            // Counted as written, without keeping the text.
            let mut bytes = ByteCount(0);
            serde_json::to_writer(&mut bytes, entity).map_or(0, |()| bytes.0)
        }
        (_, None) => 0,
    }
}

/// At least [`payload_size`], found without writing: JSON text escapes a byte into at most
/// six (`\u001f`), and writes a number in at most 24.
fn payload_bound(op: &BatchOperation) -> usize {
    match (op, op.named_keys()) {
        (_, Some((partition_key, row_key))) => partition_key.len() + row_key.len(),
        (BatchOperation::Write { entity, .. }, None) => {
            2 + entity
                .0
                .iter()
                .map(|(name, value)| member_bound(name, value))
                .sum::<usize>()
        }
        (_, None) => 0,
    }
}

/// A member's bytes at most: its quoted name, a colon, its value and a comma.
fn member_bound(name: &str, value: &Json) -> usize {
    6 * name.len() + 4 + json_bound(value)
}

fn json_bound(value: &Json) -> usize {
    match value {
        Json::Null | Json::Bool(_) => 5,
        Json::Number(_) => 24,
        Json::String(s) => 6 * s.len() + 2,
        Json::Array(items) => 2 + items.iter().map(|v| json_bound(v) + 1).sum::<usize>(),
        Json::Object(members) => {
            2 + members
                .iter()
                .map(|(name, v)| member_bound(name, v))
                .sum::<usize>()
        }
    }
}

impl<'r> BatchOperation<'r> {
    /// The keys a Delete or a Get names (a Write's are in its entity).
    fn named_keys(&self) -> Option<(&'r str, &'r str)> {
        match *self {
            BatchOperation::Delete {
                partition_key,
                row_key,
                ..
            }
            | BatchOperation::Get {
                partition_key,
                row_key,
            } => Some((partition_key, row_key)),
            BatchOperation::Write { .. } => None,
        }
    }
}

/// A writer that only counts the bytes written to it.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Error {
    /// Replaces the message after the index prefix.
    fn with_message_tail(mut self, tail: &str) -> Self {
        if let Some(colon) = self.message.find(':') {
            self.message.truncate(colon + 1);
            self.message.push_str(tail);
        }
        self
    }
}

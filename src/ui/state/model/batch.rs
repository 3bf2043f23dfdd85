//! The batch stager's checks (docs/service/batches.md) and the CSV import's table name proposal.

use super::{keys_of, quote};
use crate::engine::{BatchRequest, MAX_OPERATIONS, MAX_PAYLOAD_BYTES};
use crate::i18n::msg;

// ---- batches ----

/// The entity an operation acts on.
pub fn batch_keys(op: &BatchRequest) -> (String, String) {
    match op {
        BatchRequest::Insert { entity }
        | BatchRequest::UpsertReplace { entity }
        | BatchRequest::UpsertMerge { entity }
        | BatchRequest::Replace { entity, .. }
        | BatchRequest::Merge { entity, .. } => {
            let (pk, rk, _) = keys_of(entity);
            (pk, rk)
        }
        BatchRequest::Delete {
            partition_key,
            row_key,
            ..
        }
        | BatchRequest::Get {
            partition_key,
            row_key,
        } => (partition_key.clone(), row_key.clone()),
    }
}

/// The operation's name as the service spells it.
pub fn batch_op_name(op: &BatchRequest) -> &'static str {
    match op {
        BatchRequest::Insert { .. } => "insert",
        BatchRequest::UpsertReplace { .. } => "upsert-replace",
        BatchRequest::UpsertMerge { .. } => "upsert-merge",
        BatchRequest::Replace { .. } => "replace",
        BatchRequest::Merge { .. } => "merge",
        BatchRequest::Delete { .. } => "delete",
        BatchRequest::Get { .. } => "get",
    }
}

/// Why a staged batch would be refused (docs/service/batches.md), each message naming the operation's 0-based
/// index as the service does; empty when it may be committed.
pub fn check_batch(ops: &[BatchRequest]) -> Vec<String> {
    let mut problems = Vec::new();
    if ops.is_empty() {
        problems.push(msg::batch_need_one());
        return problems;
    }
    if ops.len() > MAX_OPERATIONS {
        problems.push(msg::batch_too_many(
            ops.len(),
            crate::i18n::number(MAX_OPERATIONS),
        ));
    }
    let (first_pk, _) = batch_keys(&ops[0]);
    let mut seen: Vec<(String, String)> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let keys = batch_keys(op);
        if keys.0 != first_pk {
            problems.push(msg::batch_other_partition(
                quote(&first_pk),
                i,
                quote(&keys.0),
            ));
        }
        if seen.contains(&keys) {
            problems.push(msg::batch_repeats(i, quote(&keys.0), quote(&keys.1)));
        }
        if matches!(op, BatchRequest::Get { .. }) && ops.len() > 1 {
            problems.push(msg::batch_read_alone(i));
        }
        seen.push(keys);
    }
    let payload: usize = ops.iter().map(payload_bytes).sum();
    if payload > MAX_PAYLOAD_BYTES {
        problems.push(msg::batch_too_big(
            crate::i18n::number(payload),
            crate::i18n::number(MAX_PAYLOAD_BYTES),
        ));
    }
    problems
}

/// About what one operation adds to the batch's body: its entity's JSON plus the
/// request line and headers of its part of the multipart body.
fn payload_bytes(op: &BatchRequest) -> usize {
    const PART_OVERHEAD: usize = 200;
    let body = match op {
        BatchRequest::Insert { entity }
        | BatchRequest::UpsertReplace { entity }
        | BatchRequest::UpsertMerge { entity }
        | BatchRequest::Replace { entity, .. }
        | BatchRequest::Merge { entity, .. } => entity.to_json().to_string().len(),
        BatchRequest::Delete { .. } | BatchRequest::Get { .. } => 0,
    };
    body + PART_OVERHEAD
}

/// The failing operation's index from a batch error message (`"3:The specified…"`).
pub fn failed_index(message: &str) -> Option<usize> {
    message.split_once(':')?.0.parse().ok()
}

// ---- imports ----

/// The table a CSV file's name proposes: the name before its first `.`, without a browser's
/// copy suffix (`Orders (1)`), letters and digits only, from the first letter on, at most 63
/// characters; `None` when that is not a valid table name (then nothing is proposed and the
/// user names the table). `Orders (1).typed.csv` proposes `Orders`.
pub fn table_name_from_file(file: &str) -> Option<String> {
    let stem = file.split('.').next().unwrap_or_default().trim_end();
    let stem = match stem.strip_suffix(')').and_then(|s| s.rsplit_once('(')) {
        Some((before, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => before,
        _ => stem,
    };
    let name: String = stem
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .skip_while(|c| !c.is_ascii_alphabetic())
        .take(63)
        .collect();
    crate::engine::validate::table_name(&name)
        .is_ok()
        .then_some(name)
}

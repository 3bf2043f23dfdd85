//! The change feed: what each successful write changed, for persistence to consume.
//!
//! Each operation that changes state appends one [`ChangeSet`]; a batch appends exactly one
//! for all its operations, so a consumer that writes one change set per storage transaction
//! keeps batches atomic on disk. A change names *what* changed; the consumer reads the current
//! state for the new values (the feed stays cheap on the write path).

use crate::key::Key;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Change {
    TableCreated {
        table: String,
    },
    TableDeleted {
        table: String,
    },
    /// The entity was inserted or overwritten.
    EntityWritten {
        table: String,
        partition_key: String,
        row_key: String,
    },
    EntityDeleted {
        table: String,
        partition_key: String,
        row_key: String,
    },
    /// New entities of one partition were inserted by a run (`Account::insert_run`), in
    /// this order: one change for the run instead of one per entity.
    RowsInserted {
        table: String,
        partition_key: String,
        row_keys: Vec<Key>,
    },
    /// Every table was replaced (an import or a reset): rewrite everything.
    AccountReplaced,
    /// The service properties were set (read them with `Account::service_properties`).
    ServicePropertiesSet,
    /// A table's stored access policies were set (read them with `Account::table_acl`).
    AclSet {
        table: String,
    },
}

impl Change {
    /// The table the change belongs to (its display name); `None` for account-wide changes.
    pub fn table(&self) -> Option<&str> {
        Some(match self {
            Change::AccountReplaced | Change::ServicePropertiesSet => return None,
            Change::TableCreated { table }
            | Change::TableDeleted { table }
            | Change::EntityWritten { table, .. }
            | Change::EntityDeleted { table, .. }
            | Change::RowsInserted { table, .. }
            | Change::AclSet { table } => table,
        })
    }
}

/// The changes of one operation or one batch, applied together.
pub type ChangeSet = Vec<Change>;

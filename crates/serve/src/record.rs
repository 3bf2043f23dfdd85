//! What one change log record holds, how it is made from the engine's change feed, and how
//! it is replayed onto tables during recovery.
//!
//! A record is a `Vec<Op>` (as bytes: `record_bytes`; earlier servers wrote its JSON, which
//! is still read): one engine [`ChangeSet`] (one operation, or one whole batch), with each written entity's value *after* the change, Timestamp included, so that
//! replay restores the same ETags. Replaying the records of a log in order onto the snapshot
//! they follow gives the account as it was when the last record was acknowledged.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tablescope_engine::{
    Account, Change, ChangeSet, DateTime, Entity, ServiceProperties, SignedIdentifier, Table,
    Target,
};

/// One change, with the value it leaves behind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Op {
    CreateTable {
        table: String,
    },
    DeleteTable {
        table: String,
    },
    /// The entity as stored (insert, replace, merge, upserts), with its Timestamp.
    Put {
        table: String,
        entity: Entity,
    },
    Delete {
        table: String,
        partition_key: String,
        row_key: String,
    },
    /// The service properties as Set Table Service Properties left them.
    SetServiceProperties {
        properties: ServiceProperties,
    },
    /// A table's stored access policies as Set Table ACL left them.
    SetAcl {
        table: String,
        acl: Vec<SignedIdentifier>,
    },
}

/// The ops of one change set, reading the written entities' current values from `account`;
/// `None` when the set replaced the whole account (an import), which only a snapshot records.
///
/// The feed is taken right after each request, so the current value is the one the change
/// wrote; an entity that is gone by then is logged as deleted, which replays to the same end.
pub fn ops(account: &Account, set: &ChangeSet) -> Option<Vec<Op>> {
    let mut ops = Vec::with_capacity(set.len());
    for change in set {
        match change {
            Change::AccountReplaced => return None,
            Change::TableCreated { table } => ops.push(Op::CreateTable {
                table: table.clone(),
            }),
            Change::TableDeleted { table } => ops.push(Op::DeleteTable {
                table: table.clone(),
            }),
            Change::EntityWritten {
                table,
                partition_key,
                row_key,
            } => ops.push(written(account, table, partition_key, row_key)),
            Change::RowsInserted {
                table,
                partition_key,
                row_keys,
            } => {
                for row_key in row_keys {
                    ops.push(written(account, table, partition_key, row_key.as_str()));
                }
            }
            Change::EntityDeleted {
                table,
                partition_key,
                row_key,
            } => ops.push(Op::Delete {
                table: table.clone(),
                partition_key: partition_key.clone(),
                row_key: row_key.clone(),
            }),
            Change::ServicePropertiesSet => ops.push(Op::SetServiceProperties {
                properties: account.service_properties().clone(),
            }),
            Change::AclSet { table } => ops.push(Op::SetAcl {
                table: table.clone(),
                acl: account
                    .table_acl(table)
                    .map(<[_]>::to_vec)
                    .unwrap_or_default(),
            }),
        }
    }
    Some(ops)
}

/// The op for an entity written: its value now, or its delete if it is gone.
fn written(account: &Account, table: &str, partition_key: &str, row_key: &str) -> Op {
    match account
        .table(table)
        .ok()
        .and_then(|t| t.entity(partition_key, row_key))
    {
        Some(entity) => Op::Put {
            table: table.to_string(),
            entity,
        },
        None => Op::Delete {
            table: table.to_string(),
            partition_key: partition_key.to_string(),
            row_key: row_key.to_string(),
        },
    }
}

/// Tables being rebuilt from a snapshot and a log, before they go into an [`Account`].
///
/// Invariants: keyed by [`Tables::key`] of the table name (lower-cased on Table storage, whose
/// names are case-insensitive; exact on Cosmos DB for Table, whose names are not); `latest`
/// is the largest Timestamp put so far; `target` is the snapshot's (Table storage when there
/// is none, as a directory without one was written by a storage account).
#[derive(Debug, Default)]
pub struct Tables {
    tables: BTreeMap<String, Table>,
    latest: Option<DateTime>,
    properties: ServiceProperties,
    target: Target,
}

impl Tables {
    /// No tables yet, of an account on `target`.
    pub fn for_target(target: Target) -> Tables {
        Tables {
            target,
            ..Tables::default()
        }
    }

    /// The service the account these tables belong to models.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Makes tables that hold nothing yet belong to an account on `target` (a new directory
    /// takes the target it is opened with).
    pub fn set_target_when_empty(&mut self, target: Target) {
        if self.tables.is_empty() {
            self.target = target;
        }
    }

    /// The key a table is kept under: names match as the target matches them.
    fn key(&self, name: &str) -> String {
        match self.target {
            Target::TableStorage => name.to_ascii_lowercase(),
            Target::CosmosTable => name.to_string(),
        }
    }

    /// Applies one op. An op that cannot apply (an entity for a table that does not exist)
    /// means the files do not say what was acknowledged: recovery stops rather than guess.
    pub fn apply(&mut self, op: Op) -> Result<(), String> {
        match op {
            Op::CreateTable { table } => {
                let key = self.key(&table);
                self.tables.insert(key, Table::new(&table));
            }
            Op::DeleteTable { table } => {
                let key = self.key(&table);
                self.tables.remove(&key);
            }
            Op::Put { table, entity } => self.put(&table, entity)?,
            Op::Delete {
                table,
                partition_key,
                row_key,
            } => {
                self.table_mut(&table)?.remove(&partition_key, &row_key);
            }
            Op::SetServiceProperties { properties } => self.properties = properties,
            Op::SetAcl { table, acl } => self.table_mut(&table)?.restore_acl(acl),
        }
        Ok(())
    }

    /// Whether every op of one record would apply, so that a repair drops a record whole
    /// rather than apply part of a batch.
    pub fn check(&self, ops: &[Op]) -> Result<(), String> {
        let mut exists: BTreeMap<String, bool> = BTreeMap::new();
        for op in ops {
            let (table, key) = match op {
                Op::CreateTable { table } => {
                    exists.insert(self.key(table), true);
                    continue;
                }
                Op::DeleteTable { table } => {
                    exists.insert(self.key(table), false);
                    continue;
                }
                Op::SetServiceProperties { .. } => continue,
                Op::Put { table, entity } => {
                    if entity.timestamp.is_none() {
                        return Err(format!("an entity of table '{table}' has no Timestamp"));
                    }
                    (table, self.key(table))
                }
                Op::Delete { table, .. } | Op::SetAcl { table, .. } => (table, self.key(table)),
            };
            let there = exists
                .get(&key)
                .copied()
                .unwrap_or_else(|| self.tables.contains_key(&key));
            if !there {
                return Err(format!(
                    "a change names table '{table}', which does not exist"
                ));
            }
        }
        Ok(())
    }

    /// Adds an empty table (a snapshot's table, before its entities).
    pub fn add_table(&mut self, name: &str) -> Result<(), String> {
        let key = self.key(name);
        if self.tables.contains_key(&key) {
            return Err(format!("table '{name}' appears twice"));
        }
        self.tables.insert(key, Table::new(name));
        Ok(())
    }

    /// Stores an entity with the Timestamp it carries.
    pub fn put(&mut self, table: &str, entity: Entity) -> Result<(), String> {
        let timestamp = entity
            .timestamp
            .ok_or_else(|| format!("an entity of table '{table}' has no Timestamp"))?;
        self.latest = self.latest.max(Some(timestamp));
        self.table_mut(table)?.put(entity, timestamp);
        Ok(())
    }

    /// Makes the account's later Timestamps come after `t` (the latest a snapshot holds).
    pub fn observe_timestamp(&mut self, t: DateTime) {
        self.latest = self.latest.max(Some(t));
    }

    /// Sets the service properties (a snapshot's).
    pub fn set_properties(&mut self, properties: ServiceProperties) {
        self.properties = properties;
    }

    pub(crate) fn table_mut(&mut self, table: &str) -> Result<&mut Table, String> {
        let key = self.key(table);
        self.tables
            .get_mut(&key)
            .ok_or_else(|| format!("a change names table '{table}', which does not exist"))
    }

    pub fn entity_count(&self) -> usize {
        self.tables.values().map(Table::entity_count).sum()
    }

    /// Puts the tables into `account` (which must be empty) and makes its later Timestamps
    /// come after every one loaded, so no ETag is issued twice.
    pub fn restore(self, account: &mut Account) {
        if account.target() != self.target {
            // The account is empty: the switch only changes which service it models.
            account.switch_target(self.target);
        }
        for table in self.tables.into_values() {
            account.restore_table(table);
        }
        account.restore_service_properties(self.properties);
        if let Some(t) = self.latest {
            account.observe_timestamp(t);
        }
        account.take_changes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablescope_engine::{FixedClock, RawEntity, Request};

    fn entity(json: &str) -> RawEntity {
        RawEntity::parse(json).unwrap()
    }

    fn insert(table: &str, json: &str) -> Request {
        Request::Insert {
            table: table.into(),
            entity: entity(json),
        }
    }

    /// Runs requests, logging each change set as the server does, and checks that replaying
    /// the log rebuilds the same account with the same ETags.
    #[test]
    fn replaying_the_ops_rebuilds_the_account() {
        let mut account = Account::new(Box::new(FixedClock::default()));
        let requests = vec![
            Request::CreateTable {
                table: "People".into(),
            },
            insert("People", r#"{"PartitionKey":"a","RowKey":"1","Age":3}"#),
            insert("People", r#"{"PartitionKey":"a","RowKey":"2","Name":"x"}"#),
            Request::UpsertMerge {
                table: "People".into(),
                entity: entity(r#"{"PartitionKey":"a","RowKey":"1","Big":"1"}"#),
            },
            Request::Delete {
                table: "People".into(),
                partition_key: "a".into(),
                row_key: "2".into(),
                if_match: Some("*".into()),
            },
            Request::SetTableAcl {
                table: "People".into(),
                identifiers: vec![tablescope_engine::SignedIdentifier {
                    id: "all".into(),
                    access_policy: None,
                }],
            },
            Request::SetServiceProperties {
                properties: serde_json::from_str(
                    r#"{"cors":[{"allowedOrigins":["*"],"allowedMethods":["GET"],"allowedHeaders":[],"exposedHeaders":[],"maxAgeInSeconds":5}]}"#,
                )
                .unwrap(),
            },
            Request::CreateTable {
                table: "Gone".into(),
            },
            insert("Gone", r#"{"PartitionKey":"p","RowKey":"r"}"#),
            Request::DeleteTable {
                table: "Gone".into(),
            },
        ];
        let mut log: Vec<Vec<Op>> = Vec::new();
        for r in &requests {
            let response = account.execute(r);
            assert_eq!(response.error, None, "{r:?}");
            for set in account.take_changes() {
                log.push(ops(&account, &set).unwrap());
            }
        }
        assert_eq!(log.len(), requests.len());
        // Through the bytes the log stores them as, and through the JSON earlier servers
        // stored them as: both rebuild the account.
        let mut through_json = Tables::default();
        let mut tables = Tables::default();
        for record in &log {
            let bytes = crate::record_bytes::encode(record).unwrap();
            assert_eq!(&crate::record_bytes::decode(&bytes).unwrap(), record);
            for op in crate::record_bytes::decode(&bytes).unwrap() {
                tables.apply(op).unwrap();
            }
            let text = serde_json::to_vec(record).unwrap();
            for op in crate::record_bytes::decode(&text).unwrap() {
                through_json.apply(op).unwrap();
            }
        }
        let mut from_json = Account::new(Box::new(FixedClock::default()));
        through_json.restore(&mut from_json);
        assert_eq!(
            serde_json::to_string(&from_json.export()).unwrap(),
            serde_json::to_string(&account.export()).unwrap()
        );
        let mut rebuilt = Account::new(Box::new(FixedClock::default()));
        tables.restore(&mut rebuilt);
        assert_eq!(
            serde_json::to_string(&rebuilt.export()).unwrap(),
            serde_json::to_string(&account.export()).unwrap()
        );
        assert_eq!(rebuilt.table_acl("People").unwrap()[0].id, "all");
        assert_eq!(rebuilt.service_properties().cors[0].max_age_in_seconds, 5);
        let merged = rebuilt.get("People", "a", "1").unwrap();
        assert_eq!(merged, account.get("People", "a", "1").unwrap());
        assert_eq!(merged.properties.len(), 2);
        // The next write's ETag comes after every loaded one.
        let before = merged.timestamp.unwrap();
        let t = rebuilt.insert("People", Entity::new("b", "1")).unwrap();
        assert!(t > before);
    }

    #[test]
    fn an_entity_deleted_before_the_feed_is_read_logs_as_a_delete() {
        let mut account = Account::default();
        account.create_table("Tab").unwrap();
        account.insert("Tab", Entity::new("p", "r")).unwrap();
        account.delete("Tab", "p", "r", None).unwrap();
        let sets = account.take_changes();
        assert_eq!(sets.len(), 3);
        assert_eq!(
            ops(&account, &sets[1]).unwrap(),
            vec![Op::Delete {
                table: "Tab".into(),
                partition_key: "p".into(),
                row_key: "r".into()
            }]
        );
    }

    #[test]
    fn an_import_is_not_a_log_record() {
        let mut account = Account::default();
        account
            .import_json(r#"{"format":"tablescope-account","version":1,"tables":[]}"#)
            .unwrap();
        let sets = account.take_changes();
        assert_eq!(sets, vec![vec![Change::AccountReplaced]]);
        assert_eq!(ops(&account, &sets[0]), None);
    }

    #[test]
    fn a_put_into_a_missing_table_stops_recovery() {
        let mut tables = Tables::default();
        let mut e = Entity::new("p", "r");
        e.timestamp = Some(DateTime::MIN);
        assert_eq!(
            tables.apply(Op::Put {
                table: "Nope".into(),
                entity: e
            }),
            Err("a change names table 'Nope', which does not exist".to_string())
        );
    }
}

//! Copying an account to the other target: the data is kept, and what the other target
//! cannot hold is named, never silently lost.

use super::{Rule, Target};
use crate::account::Account;
use crate::changes::Change;
use crate::clock::Clock;
use crate::table::{to_entity, Table};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Something a copy to another target could not keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Dropped {
    /// An entity the target refuses: `rule` says why ([`Rule::RowKeyLimit`],
    /// [`Rule::ReservedPropertyNames`], [`Rule::BinaryRoom`]).
    Entity {
        table: String,
        partition_key: String,
        row_key: String,
        rule: Rule,
    },
    /// A table's stored access policies ([`Rule::UnsupportedOperations`]: no table ACL).
    TableAcl { table: String, policies: usize },
    /// The service properties (logging, metrics, CORS), which Cosmos does not support.
    ServiceProperties,
    /// A table whose name equals an earlier one's but for case: on storage, names are
    /// case-insensitive, so only the first (`kept`) comes across.
    TableName { table: String, kept: String },
}

/// What a copy to another target did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyReport {
    pub from: Target,
    pub to: Target,
    /// Tables and entities copied.
    pub tables: u64,
    pub entities: u64,
    /// What could not be kept, in the order it was met.
    pub dropped: Vec<Dropped>,
}

impl Account {
    /// A new account on `target` (with its own clock) holding this one's data; the report
    /// says what did not fit. Entities keep their Timestamps.
    pub fn copy_to(&self, target: Target, clock: Box<dyn Clock>) -> (Account, CopyReport) {
        let mut copy = Account::for_target(target, clock);
        let (tables, report) = self.converted(target);
        copy.tables = tables;
        copy.observe_timestamp(self.last_timestamp());
        if !report.dropped.contains(&Dropped::ServiceProperties) {
            copy.properties = self.properties.clone();
        }
        (copy, report)
    }

    /// Moves this account to `target` in place (the switch on a workspace's account): the
    /// data is kept as [`Self::copy_to`] keeps it, and one change says the account was
    /// replaced.
    pub fn switch_target(&mut self, target: Target) -> CopyReport {
        let (tables, report) = self.converted(target);
        self.tables = tables;
        self.target = target;
        if report.dropped.contains(&Dropped::ServiceProperties) {
            self.properties = Default::default();
        }
        self.record(vec![Change::AccountReplaced]);
        report
    }

    fn converted(&self, to: Target) -> (BTreeMap<String, Table>, CopyReport) {
        let mut report = CopyReport {
            from: self.target(),
            to,
            tables: 0,
            entities: 0,
            dropped: Vec::new(),
        };
        if to.is_cosmos() && *self.service_properties() != Default::default() {
            report.dropped.push(Dropped::ServiceProperties);
        }
        let mut tables = BTreeMap::new();
        for t in self.tables() {
            let key = crate::account::map_key(to, &t.name);
            if let Some(kept) = tables.get(&key).map(|k: &Table| k.name.clone()) {
                report.dropped.push(Dropped::TableName {
                    table: t.name.clone(),
                    kept,
                });
                continue;
            }
            let mut copy = Table::for_target(&t.name, to);
            if to.is_cosmos() && !t.acl().is_empty() {
                report.dropped.push(Dropped::TableAcl {
                    table: t.name.clone(),
                    policies: t.acl().len(),
                });
            } else {
                copy.acl = t.acl().to_vec();
            }
            for (pk, partition) in t.partitions() {
                for (rk, stored) in partition.rows.iter() {
                    let entity = to_entity(pk.as_str(), rk.as_str(), stored);
                    if let Err(e) = to.check_entity(&entity) {
                        report.dropped.push(Dropped::Entity {
                            table: t.name.clone(),
                            partition_key: entity.partition_key,
                            row_key: entity.row_key,
                            rule: e.rule.unwrap_or(Rule::RowKeyLimit),
                        });
                        continue;
                    }
                    copy.put(entity, stored.timestamp);
                    report.entities += 1;
                }
            }
            report.tables += 1;
            tables.insert(key, copy);
        }
        (tables, report)
    }
}

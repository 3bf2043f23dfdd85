//! Export and import of a whole account as versioned JSON.
//!
//! ```json
//! { "format": "tablescope-account", "version": 1,
//!   "tables": [ { "name": "Employees", "entities": [ { "PartitionKey": "...", ... } ] } ] }
//! ```
//! Entities are in the service's JSON form with their Timestamp, so ETags survive a round trip.
//! An import is checked whole before anything changes: a bad file leaves the account untouched.

use super::account::Account;
use super::changes::Change;
use super::error::{Error, ErrorCode, Result};
use super::json::{self, RawEntity};
use super::table::Table;
use super::validate;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

pub const FORMAT: &str = "tablescope-account";
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    pub format: String,
    pub version: u32,
    pub tables: Vec<TableSnapshot>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSnapshot {
    pub name: String,
    pub entities: Vec<RawEntity>,
}

fn bad(detail: String) -> Error {
    Error::with_detail(ErrorCode::InvalidInput, detail)
}

impl Account {
    /// The whole account as a snapshot.
    pub fn export(&self) -> Snapshot {
        let tables = self
            .tables()
            .map(|t| TableSnapshot {
                name: t.name.clone(),
                entities: t
                    .partitions()
                    .iter()
                    .flat_map(|(pk, p)| {
                        p.rows.iter().map(move |(rk, s)| {
                            RawEntity::from_entity(&super::table::to_entity(
                                pk.as_str(),
                                rk.as_str(),
                                s,
                            ))
                        })
                    })
                    .collect(),
            })
            .collect();
        Snapshot {
            format: FORMAT.into(),
            version: VERSION,
            tables,
        }
    }

    /// Replaces every table with the snapshot's, or changes nothing and says what is wrong.
    pub fn import(&mut self, snapshot: &Snapshot) -> Result<()> {
        let tables = build_tables(self, snapshot)?;
        let names: Vec<String> = self.tables().map(|t| t.name.clone()).collect();
        for name in names {
            let _ = self.delete_table(name.as_str());
        }
        for t in tables {
            self.restore_table(t);
        }
        self.take_changes();
        self.record(vec![Change::AccountReplaced]);
        Ok(())
    }

    /// Parses and imports snapshot JSON text.
    pub fn import_json(&mut self, text: &str) -> Result<()> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
        let format = value.get("format").and_then(|f| f.as_str());
        if format != Some(FORMAT) {
            return Err(bad(format!(
                "not a Tablescope export: \"format\" must be \"{FORMAT}\""
            )));
        }
        let version = value.get("version").and_then(|v| v.as_u64());
        if version != Some(u64::from(VERSION)) {
            return Err(bad(format!(
                "unsupported export version {version:?}; this Tablescope reads version {VERSION}"
            )));
        }
        let snapshot: Snapshot =
            serde_json::from_value(value).map_err(|e| bad(format!("malformed export: {e}")))?;
        self.import(&snapshot)
    }
}

fn build_tables(account: &mut Account, snapshot: &Snapshot) -> Result<Vec<Table>> {
    if snapshot.format != FORMAT || snapshot.version != VERSION {
        return Err(bad(format!("expected format {FORMAT} version {VERSION}")));
    }
    let mut seen = HashSet::new();
    let mut tables = Vec::with_capacity(snapshot.tables.len());
    for ts in &snapshot.tables {
        validate::table_name(&ts.name).map_err(|e| context(e, format!("table '{}'", ts.name)))?;
        if !seen.insert(ts.name.to_ascii_lowercase()) {
            return Err(bad(format!("table '{}' appears twice", ts.name)));
        }
        let mut table = Table::new(&ts.name);
        for (i, raw) in ts.entities.iter().enumerate() {
            let where_ = || format!("table '{}', entity {i}", ts.name);
            let e = json::decode_stored(raw).map_err(|e| context(e, where_()))?;
            validate::entity(&e).map_err(|e| context(e, where_()))?;
            if table.get(&e.partition_key, &e.row_key).is_some() {
                return Err(bad(format!(
                    "{}: PartitionKey '{}' RowKey '{}' appears twice",
                    where_(),
                    e.partition_key,
                    e.row_key
                )));
            }
            let ts_ = match e.timestamp {
                Some(t) => t,
                None => account.next_timestamp(),
            };
            account.observe_timestamp(ts_);
            table.put(e, ts_);
        }
        tables.push(table);
    }
    Ok(tables)
}

/// Prefixes an error's detail with where it happened.
fn context(mut e: Error, place: String) -> Error {
    e.detail = Some(match e.detail {
        Some(d) => format!("{place}: {d}"),
        None => place,
    });
    e
}

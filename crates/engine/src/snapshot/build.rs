//! The tables of an import, built one entity at a time and checked as they come.
//!
//! Both readers use it: the whole-text one ([`Account::import_json`]) and the streaming one
//! ([`super::stream::Reader`]). Nothing here touches the account: entities without a Timestamp
//! get the ones its clock would issue next, planned against a copy of the clock's state.

use super::super::account::Account;
use super::super::datetime::DateTime;
use super::super::detail::{Detail, Place};
use super::super::error::{Error, ErrorCode, Result};
use super::super::json::{self, RawEntity};
use super::super::json_problem::{JsonProblem, JsonProblemKind};
use super::super::settings::SignedIdentifier;
use super::super::table::Table;
use super::super::validate;
use crate::target::Target;
use serde_json::Value as Json;
use std::collections::HashSet;

/// Tables being built; each entity goes into the last table begun.
pub(crate) struct Builder {
    /// Whose rules decide when two table names are the same one.
    target: Target,
    last: DateTime,
    seen: HashSet<String>,
    tables: Vec<Table>,
    /// How many entities the last table has been given (for naming an entity in an error).
    index: usize,
    entities: u64,
}

impl Builder {
    pub(crate) fn new(account: &Account, target: Target) -> Builder {
        Builder {
            target,
            last: account.last_timestamp(),
            seen: HashSet::new(),
            tables: Vec::new(),
            index: 0,
            entities: 0,
        }
    }

    /// Sets the target before any table is begun (the streaming reader learns it from the
    /// export's header).
    pub(crate) fn set_target(&mut self, target: Target) {
        debug_assert!(self.tables.is_empty());
        self.target = target;
    }

    /// Begins a table: its name must be valid and new (on storage, in any case).
    pub(crate) fn table(&mut self, name: &str) -> Result<()> {
        let at = || Place::Table {
            table: name.to_string(),
        };
        validate::table_name(name).map_err(|e| context(e, at()))?;
        if !self.seen.insert(crate::account::map_key(self.target, name)) {
            return Err(bad(Detail::TableTwice {
                table: name.to_string(),
            }));
        }
        self.tables.push(Table::new(name));
        self.index = 0;
        Ok(())
    }

    /// The stored access policies of the last table begun.
    pub(crate) fn acl(&mut self, acl: Vec<SignedIdentifier>) -> Result<()> {
        let Some(table) = self.tables.last_mut() else {
            return Ok(());
        };
        crate::settings::check_identifiers(&acl).map_err(|e| {
            context(
                e,
                Place::Table {
                    table: table.name.clone(),
                },
            )
        })?;
        table.restore_acl(acl);
        Ok(())
    }

    /// Adds an entity to the last table begun, checked as a write would check it.
    pub(crate) fn entity(&mut self, account: &Account, raw: &RawEntity) -> Result<()> {
        let Some(table) = self.tables.last_mut() else {
            return Err(bad(Detail::Malformed(JsonProblem {
                kind: JsonProblemKind::Other {
                    text: "an entity outside a table".into(),
                },
                line: 0,
                column: 0,
            })));
        };
        let i = self.index;
        let where_ = || place(&table.name, i, raw);
        let e = json::decode_stored(raw).map_err(|e| context(e, where_()))?;
        validate::entity(&e).map_err(|e| context(e, where_()))?;
        if table.get(&e.partition_key, &e.row_key).is_some() {
            return Err(bad(Detail::At {
                place: where_(),
                detail: Some(Box::new(Detail::KeysTwice {
                    pk: e.partition_key.clone(),
                    rk: e.row_key.clone(),
                })),
            }));
        }
        let at = match e.timestamp {
            Some(t) => t,
            None => account
                .timestamp_after(self.last)
                .ok_or_else(|| context(clock_full(Detail::ClockFull), where_()))?,
        };
        self.last = self.last.max(at);
        // An import may not leave the clock where the next write has no Timestamp to get
        // (see `Account::next_timestamp`).
        if account.timestamp_after(self.last).is_none() {
            return Err(context(
                clock_full(Detail::ClockFullAfter {
                    at: at.to_string_7(),
                }),
                where_(),
            ));
        }
        table.put(e, at);
        self.index += 1;
        self.entities += 1;
        Ok(())
    }

    /// How many tables and entities are built so far.
    pub(crate) fn counts(&self) -> (usize, u64) {
        (self.tables.len(), self.entities)
    }

    /// The tables, and the latest Timestamp they hold or were given.
    pub(crate) fn finish(self) -> (Vec<Table>, DateTime) {
        (self.tables, self.last)
    }
}

pub(crate) fn bad(detail: Detail) -> Error {
    Error::with_detail(ErrorCode::InvalidInput, detail)
}

/// The refusal of an entity whose Timestamp leaves the clock no room: 400 OutOfRangeInput, as
/// for any DateTime the service cannot take.
fn clock_full(why: Detail) -> Error {
    Error::with_detail(ErrorCode::OutOfRangeInput, why)
}

/// Names an entity in an error: its table, its position, and its keys when it has them.
fn place(table: &str, index: usize, raw: &RawEntity) -> Place {
    let keys = match (
        raw.get("PartitionKey").and_then(Json::as_str),
        raw.get("RowKey").and_then(Json::as_str),
    ) {
        (Some(pk), Some(rk)) => Some((pk.to_string(), rk.to_string())),
        _ => None,
    };
    Place::Entity {
        table: table.to_string(),
        index,
        keys,
    }
}

/// Prefixes an error's detail with where it happened.
fn context(mut e: Error, place: Place) -> Error {
    e.detail = Some(Box::new(Detail::At {
        place,
        detail: e.detail.take(),
    }));
    e
}

//! An account: its tables, its clock, and the operations of docs/service/operations.md on them.

use super::changes::{Change, ChangeSet};
use super::clock::{Clock, FixedClock};
use super::datetime::DateTime;
use super::entity::{ETag, Entity};
use super::error::{Error, ErrorCode, Result};
use super::table::{to_entity, Table};
use super::validate;
use crate::target::Target;
use std::collections::BTreeMap;

/// The tables of one account, on Table storage or on Cosmos DB for Table ([`Target`]).
///
/// Invariants: `tables` is keyed by [`map_key`] of the name for `target` (on storage the
/// lower-cased name: lookup is case-insensitive, the table keeps its display name; on Cosmos
/// the listing order's hash and the exact name); every table follows `target`
/// ([`Table::target`]); `last_timestamp` is the latest Timestamp issued, and every write
/// gets a strictly later one.
pub struct Account {
    pub(crate) tables: BTreeMap<String, Table>,
    pub(crate) target: Target,
    clock: Box<dyn Clock>,
    last_timestamp: DateTime,
    feed: Option<Vec<ChangeSet>>,
    /// Logging, metrics and CORS rules, as Set Table Service Properties left them.
    pub(crate) properties: crate::settings::ServiceProperties,
}

impl Default for Account {
    fn default() -> Self {
        Account::new(Box::new(FixedClock::default()))
    }
}

/// An If-Match condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfMatch {
    Any,
    /// A weak ETag, as the service issues them.
    Weak(String),
}

impl IfMatch {
    /// `*` or a weak ETag `W/"…"`; a strong or malformed tag is 400 InvalidInput.
    pub fn parse(text: &str) -> Result<IfMatch> {
        let text = text.trim();
        if text == "*" {
            return Ok(IfMatch::Any);
        }
        let well_formed = text.len() > 4 && text.starts_with("W/\"") && text.ends_with('"');
        if well_formed {
            Ok(IfMatch::Weak(text.to_string()))
        } else {
            Err(Error::with_detail(
                ErrorCode::InvalidInput,
                crate::Detail::IfMatch {
                    got: text.to_string(),
                },
            ))
        }
    }

    fn matches(&self, timestamp: DateTime) -> bool {
        match self {
            IfMatch::Any => true,
            // The instant decides, so a tag kept with all seven fraction digits still matches.
            IfMatch::Weak(tag) => ETag::parse(tag).is_some_and(|e| e.timestamp() == timestamp),
        }
    }
}

/// How a write treats an existing entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    Insert,
    Replace,
    Merge,
    UpsertReplace,
    UpsertMerge,
}

impl Account {
    pub fn new(clock: Box<dyn Clock>) -> Self {
        Account::for_target(Target::TableStorage, clock)
    }

    /// An empty account on `target`.
    pub fn for_target(target: Target, clock: Box<dyn Clock>) -> Self {
        Account {
            tables: BTreeMap::new(),
            target,
            clock,
            last_timestamp: DateTime::MIN,
            feed: Some(Vec::new()),
            properties: crate::settings::ServiceProperties::default(),
        }
    }

    /// Turns the change feed on or off (off for bulk loads and benchmarks).
    pub fn set_change_feed(&mut self, on: bool) {
        self.feed = on.then(Vec::new);
    }

    /// Takes the change sets recorded since the last call.
    pub fn take_changes(&mut self) -> Vec<ChangeSet> {
        self.feed.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub(crate) fn record(&mut self, set: ChangeSet) {
        if let Some(feed) = &mut self.feed {
            if !set.is_empty() {
                feed.push(set);
            }
        }
    }

    pub(crate) fn feed_on(&self) -> bool {
        self.feed.is_some()
    }

    /// The next Timestamp: the clock's now, but always after the last one issued.
    ///
    /// At the end of the clock's range (9999-12-31T23:59:59.9999999Z issued, or a clock
    /// standing there) no strictly later Timestamp exists. The service never gives two writes
    /// the same ETag, so rather than reuse one the write is refused with 500 InternalError:
    /// the request is valid and the fault is the account's own state, which no retry of the
    /// same request fixes. The clock is unchanged on refusal.
    pub(crate) fn next_timestamp(&mut self) -> Result<DateTime> {
        let [next] = self.next_timestamps()?;
        Ok(next)
    }

    /// `N` strictly increasing Timestamps (a batch takes up to two), or none at all and the
    /// clock unchanged.
    pub(crate) fn next_timestamps<const N: usize>(&mut self) -> Result<[DateTime; N]> {
        let mut stamps = [self.last_timestamp; N];
        let mut last = self.last_timestamp;
        for slot in &mut stamps {
            last = self.timestamp_after(last).ok_or_else(clock_exhausted)?;
            *slot = last;
        }
        self.last_timestamp = last;
        Ok(stamps)
    }

    /// The Timestamp a write would get if `last` were the latest issued: the clock's now,
    /// or one tick after `last` when now is not later. `None` when no later instant exists.
    /// Reads the clock without moving it, so imports can plan their Timestamps first.
    pub(crate) fn timestamp_after(&self, last: DateTime) -> Option<DateTime> {
        let now = self.clock.now();
        if now > last {
            Some(now)
        } else {
            DateTime::from_ticks(last.ticks().checked_add(1)?)
        }
    }

    /// The latest Timestamp issued or observed.
    pub(crate) fn last_timestamp(&self) -> DateTime {
        self.last_timestamp
    }

    /// Makes later Timestamps come after `t` (used when loading stored data).
    pub fn observe_timestamp(&mut self, t: DateTime) {
        if t > self.last_timestamp {
            self.last_timestamp = t;
        }
    }

    // ---- tables ----

    /// The service this account models.
    pub fn target(&self) -> Target {
        self.target
    }

    pub fn table(&self, name: &str) -> Result<&Table> {
        if self.target.is_cosmos() {
            let mut buf = [0u8; 80];
            let found = match hashed(name, &mut buf) {
                Some(key) => self.tables.get(key),
                None => self.tables.get(&map_key(self.target, name)),
            };
            return found.ok_or_else(|| Error::new(ErrorCode::TableNotFound));
        }
        let mut buf = [0u8; 64];
        lower(name, &mut buf)
            .and_then(|key| self.tables.get(key))
            .ok_or_else(|| Error::new(ErrorCode::TableNotFound))
    }

    pub(crate) fn table_mut(&mut self, name: &str) -> Result<&mut Table> {
        if self.target.is_cosmos() {
            let mut buf = [0u8; 80];
            let found = match hashed(name, &mut buf) {
                Some(key) => self.tables.get_mut(key),
                None => self.tables.get_mut(&map_key(self.target, name)),
            };
            return found.ok_or_else(|| Error::new(ErrorCode::TableNotFound));
        }
        let mut buf = [0u8; 64];
        lower(name, &mut buf)
            .and_then(|key| self.tables.get_mut(key))
            .ok_or_else(|| Error::new(ErrorCode::TableNotFound))
    }

    /// All tables in the service's order: on storage by name, case-insensitively; on Cosmos
    /// by a hash of the name ([`crate::target::ModelChoice::HashOfName`]).
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    pub fn create_table(&mut self, name: &str) -> Result<&Table> {
        validate::table_name(name)?;
        let key = map_key(self.target, name);
        let target = self.target;
        if self.tables.contains_key(&key) {
            return Err(Error::new(ErrorCode::TableAlreadyExists));
        }
        self.record(vec![Change::TableCreated {
            table: name.to_string(),
        }]);
        Ok(self
            .tables
            .entry(key)
            .or_insert_with(|| Table::for_target(name, target)))
    }

    pub fn delete_table(&mut self, name: &str) -> Result<()> {
        let table = self
            .tables
            .remove(&map_key(self.target, name))
            .ok_or_else(|| Error::new(ErrorCode::ResourceNotFound))?;
        self.record(vec![Change::TableDeleted { table: table.name }]);
        Ok(())
    }

    /// Puts a whole table in place, as loaded from storage or an import (no change recorded).
    /// The table is made to follow the account's target ([`Table::target`]).
    pub fn restore_table(&mut self, mut table: Table) {
        table.set_target(self.target);
        self.tables.insert(map_key(self.target, &table.name), table);
    }

    // ---- entities ----

    pub fn get(&self, table: &str, partition_key: &str, row_key: &str) -> Result<Entity> {
        self.table(table)?
            .entity(partition_key, row_key)
            .ok_or_else(|| Error::new(ErrorCode::ResourceNotFound))
    }

    /// Checks a write without applying it; returns the entity as it would be stored
    /// (without its Timestamp). Batches use this to validate every operation first.
    pub(crate) fn prepare_write(
        &self,
        table: &str,
        entity: Entity,
        mode: WriteMode,
        if_match: Option<&IfMatch>,
    ) -> Result<Entity> {
        self.table(table)?;
        validate::entity(&entity)?;
        self.prepare_valid_write(table, entity, mode, if_match)
    }

    /// [`Self::prepare_write`] for an entity that passed [`validate::entity`] already.
    pub(crate) fn prepare_valid_write(
        &self,
        table: &str,
        entity: Entity,
        mode: WriteMode,
        if_match: Option<&IfMatch>,
    ) -> Result<Entity> {
        let t = self.table(table)?;
        self.target.check_entity(&entity)?;
        let existing = t.get(&entity.partition_key, &entity.row_key);
        match (mode, existing) {
            (WriteMode::Insert, Some(_)) => Err(Error::new(ErrorCode::EntityAlreadyExists)),
            (WriteMode::Insert, None) => Ok(entity),
            (WriteMode::Replace | WriteMode::Merge, None) => {
                Err(Error::new(ErrorCode::ResourceNotFound))
            }
            (WriteMode::Replace | WriteMode::Merge, Some(old)) => {
                if !if_match.unwrap_or(&IfMatch::Any).matches(old.timestamp) {
                    return Err(Error::new(ErrorCode::UpdateConditionNotSatisfied));
                }
                if mode == WriteMode::Merge {
                    merged(&entity, old)
                } else {
                    Ok(entity)
                }
            }
            (WriteMode::UpsertReplace, _) | (WriteMode::UpsertMerge, None) => Ok(entity),
            (WriteMode::UpsertMerge, Some(old)) => merged(&entity, old),
        }
    }

    /// Applies a prepared write: stamps it and stores it; returns its Timestamp.
    pub(crate) fn apply_write(&mut self, table: &str, entity: Entity) -> Result<DateTime> {
        let timestamp = self.next_timestamp()?;
        self.apply_write_at(table, entity, timestamp)
    }

    /// Stores a checked write with a Timestamp the caller took from [`Self::next_timestamp`]
    /// (a batch's operations share their commit's Timestamps).
    pub(crate) fn apply_write_at(
        &mut self,
        table: &str,
        entity: Entity,
        timestamp: DateTime,
    ) -> Result<DateTime> {
        let feed = self.feed_on();
        let t = self.table_mut(table)?;
        let mut change = None;
        if feed {
            change = Some(Change::EntityWritten {
                table: t.name.clone(),
                partition_key: entity.partition_key.clone(),
                row_key: entity.row_key.clone(),
            });
        }
        t.put(entity, timestamp);
        if let Some(c) = change {
            self.record(vec![c]);
        }
        Ok(timestamp)
    }

    /// insert, replace, merge, upsert-replace or upsert-merge (docs/service/operations.md); returns the new
    /// Timestamp (the ETag's source).
    pub fn write(
        &mut self,
        table: &str,
        entity: Entity,
        mode: WriteMode,
        if_match: Option<&IfMatch>,
    ) -> Result<DateTime> {
        let prepared = self.prepare_write(table, entity, mode, if_match)?;
        self.apply_write(table, prepared)
    }

    pub fn insert(&mut self, table: &str, entity: Entity) -> Result<DateTime> {
        self.write(table, entity, WriteMode::Insert, None)
    }

    /// Checks a delete without applying it.
    pub(crate) fn prepare_delete(
        &self,
        table: &str,
        pk: &str,
        rk: &str,
        if_match: Option<&IfMatch>,
    ) -> Result<()> {
        let old = self
            .table(table)?
            .get(pk, rk)
            .ok_or_else(|| Error::new(ErrorCode::ResourceNotFound))?;
        if !if_match.unwrap_or(&IfMatch::Any).matches(old.timestamp) {
            return Err(Error::new(ErrorCode::UpdateConditionNotSatisfied));
        }
        Ok(())
    }

    pub(crate) fn apply_delete(&mut self, table: &str, pk: &str, rk: &str) -> Result<()> {
        let t = self.table_mut(table)?;
        t.remove(pk, rk)
            .ok_or_else(|| Error::new(ErrorCode::ResourceNotFound))?;
        let name = t.name.clone();
        if self.feed_on() {
            self.record(vec![Change::EntityDeleted {
                table: name,
                partition_key: pk.into(),
                row_key: rk.into(),
            }]);
        }
        Ok(())
    }

    pub fn delete(
        &mut self,
        table: &str,
        pk: &str,
        rk: &str,
        if_match: Option<&IfMatch>,
    ) -> Result<()> {
        self.prepare_delete(table, pk, rk, if_match)?;
        self.apply_delete(table, pk, rk)
    }

    /// Runs `f` with change recording gathered into one change set (for batches).
    pub(crate) fn as_one_change_set<T>(&mut self, f: impl FnOnce(&mut Account) -> T) -> T {
        let outer = self.feed.take();
        self.feed = outer.as_ref().map(|_| Vec::new());
        let result = f(self);
        let inner = std::mem::replace(&mut self.feed, outer);
        if let Some(sets) = inner {
            self.record(sets.into_iter().flatten().collect());
        }
        result
    }
}

/// The refusal of a write that cannot get a Timestamp later than the last one issued.
pub(crate) fn clock_exhausted() -> Error {
    Error::with_detail(ErrorCode::InternalError, crate::Detail::ClockReached)
}

/// The key a table is kept under on `target`: the lower-cased name on storage; on Cosmos the
/// FNV-1a hash of the exact name in hexadecimal, then the name, so that the map's order is
/// the listing order ([`crate::target::ModelChoice::HashOfName`]).
pub(crate) fn map_key(target: Target, name: &str) -> String {
    match target {
        Target::TableStorage => name.to_ascii_lowercase(),
        Target::CosmosTable => format!("{:016x}{name}", fnv1a(name)),
    }
}

fn fnv1a(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// [`map_key`] on Cosmos written into `buf` (every operation looks its table up: no
/// allocation), when it fits.
fn hashed<'b>(name: &str, buf: &'b mut [u8; 80]) -> Option<&'b str> {
    let key = buf.get_mut(..16 + name.len())?;
    let hash = fnv1a(name);
    for (i, digit) in key.iter_mut().take(16).enumerate() {
        *digit = b"0123456789abcdef"[((hash >> (60 - 4 * i)) & 0xf) as usize];
    }
    key.get_mut(16..)?.copy_from_slice(name.as_bytes());
    std::str::from_utf8(key).ok()
}

/// The lower-cased table name in `buf`, without allocating (lookups are on every operation).
/// `None` for a name no table can have (longer than 63 bytes).
fn lower<'b>(name: &str, buf: &'b mut [u8; 64]) -> Option<&'b str> {
    let bytes = name.as_bytes();
    let slot = buf.get_mut(..bytes.len())?;
    slot.copy_from_slice(bytes);
    slot.make_ascii_lowercase();
    std::str::from_utf8(slot).ok()
}

/// Merge: the new properties overwrite or add; the others are kept.
fn merged(update: &Entity, old: &super::table::Stored) -> Result<Entity> {
    let mut result = to_entity(&update.partition_key, &update.row_key, old);
    result.timestamp = None;
    for (name, value) in &update.properties {
        match result.properties.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.clone(),
            None => result.properties.push((name.clone(), value.clone())),
        }
    }
    validate::entity(&result)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cosmos_table_key_written_in_place_is_the_map_key() {
        let long = "T".repeat(64);
        for name in ["Bench", "a", "tbl0123456789", long.as_str()] {
            let mut buf = [0u8; 80];
            assert_eq!(
                hashed(name, &mut buf),
                Some(map_key(Target::CosmosTable, name).as_str())
            );
        }
        assert_eq!(hashed(&"T".repeat(65), &mut [0u8; 80]), None);
    }
}

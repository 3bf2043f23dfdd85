//! New entities of one partition inserted as a run: what [`Account::insert`] of each in turn
//! does, for a fraction of the work (the Design section's generator hands a million entities
//! over as partition chunks, and the page's engine is built for size, not speed).
//!
//! A run interns and checks its property names once, looks a shape up once per distinct
//! property list, writes values straight from the caller's borrowed bytes into records, and
//! reads the clock once: its rows get consecutive Timestamps (one tick apart) after the
//! account's latest, as a batch's operations share their commit's instant.
//!
//! Invariants:
//! - each row inserted is stored and counted exactly as `insert` would; the table's column
//!   counts and the change feed catch up when the run ends ([`RowRun::finish`], or its
//!   drop): one [`Change::RowsInserted`] names every row the run inserted. Nothing can read
//!   the table or take the feed before that, since the run borrows the account;
//! - a row the run's quick checks do not pass goes through `insert` itself, so a refusal
//!   carries the exact error `insert` gives, and nothing of the row is applied.

use crate::account::Account;
use crate::changes::Change;
use crate::datetime::DateTime;
use crate::entity::{Entity, PropertyName};
use crate::error::{Error, ErrorCode, Result};
use crate::key::{utf16_len, Key};
use crate::record::{Record, Shape, ValueRef};
use crate::table::Stored;
use crate::validate;
use crate::value::EdmType;
use std::sync::Arc;

/// One row of a run: its RowKey and its properties, `names[i]` (a position in the run's
/// names) holding `values[i]`.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    pub row_key: &'a str,
    pub names: &'a [usize],
    pub values: &'a [ValueRef<'a>],
}

/// The name positions a row has used so far, to find one used twice: bits for the first 64
/// positions, a search of the row's earlier positions beyond.
#[derive(Debug, Default)]
pub struct Seen {
    bits: u64,
}

impl Seen {
    /// Whether position `n` was seen before (`earlier`: the row's positions so far); marks it.
    #[inline]
    pub fn again(&mut self, n: usize, earlier: &[usize]) -> bool {
        if n >= 64 {
            return earlier.contains(&n);
        }
        let bit = 1u64 << n;
        let twice = self.bits & bit != 0;
        self.bits |= bit;
        twice
    }
}

/// A run of inserts into one partition of one table ([`Account::insert_run`]).
pub struct RowRun<'a> {
    account: &'a mut Account,
    table: String,
    partition_key: Key,
    /// The PartitionKey's part of the entity size (4 + 2 × its UTF-16 length), `None` when
    /// the key is not valid (then every row takes `insert`'s path, which says why).
    key_size: Option<usize>,
    /// The run's property names, interned by the table.
    names: Vec<PropertyName>,
    /// Each name's part of the entity size (8 + 2 × its UTF-16 length), `None` when it is
    /// not a valid user property name.
    name_sizes: Vec<Option<usize>>,
    /// Values counted per name and type, not yet added to the table's columns.
    counts: Vec<[u32; 8]>,
    /// The last new row's property names (positions), types and shape.
    last: Option<(Vec<usize>, Vec<EdmType>, Arc<Shape>)>,
    /// The Timestamp of the run's last row, once one is inserted.
    stamp: Option<DateTime>,
    /// The RowKeys inserted, not yet fed to the change feed (empty when the feed is off).
    inserted: Vec<Key>,
}

impl Account {
    /// Starts a run of inserts into partition `partition_key` of `table`, whose rows name
    /// their properties by position in `names`.
    pub fn insert_run(
        &mut self,
        table: &str,
        partition_key: &str,
        names: &[&str],
    ) -> Result<RowRun<'_>> {
        let t = self.table(table)?;
        let interned: Vec<PropertyName> = names.iter().map(|n| t.interned(n)).collect();
        let name_sizes = names
            .iter()
            .map(|n| {
                let system = matches!(*n, "PartitionKey" | "RowKey" | "Timestamp");
                let valid = !system && validate::property_name(n).is_ok();
                valid.then(|| 8 + 2 * utf16_len(n))
            })
            .collect();
        let key_size = validate::key("PartitionKey", partition_key)
            .ok()
            .map(|()| 4 + 2 * utf16_len(partition_key));
        Ok(RowRun {
            table: table.to_string(),
            partition_key: Key::new(partition_key),
            key_size,
            counts: vec![[0; 8]; names.len()],
            names: interned,
            name_sizes,
            last: None,
            stamp: None,
            inserted: Vec::new(),
            account: self,
        })
    }
}

impl RowRun<'_> {
    /// Inserts a row, as [`Account::insert`] would; returns its Timestamp.
    pub fn insert(&mut self, row: Row) -> Result<DateTime> {
        if !self.passes_quick_checks(&row) {
            return self.insert_slowly(row);
        }
        // The clock is read for the run's first row only; the clock moves when a row is
        // stored, so a refused row takes no Timestamp (as with `insert`).
        let stamp = match self.stamp {
            Some(last) => {
                DateTime::from_ticks(last.ticks().saturating_add(1)).filter(|t| *t > last)
            }
            None => self.account.timestamp_after(self.account.last_timestamp()),
        };
        let stamp = stamp.ok_or_else(crate::account::clock_exhausted)?;
        self.store(row, Key::new(row.row_key), stamp)?;
        Ok(stamp)
    }

    /// The row's key when `row` passes every check an insert makes: valid, within the
    /// limits, and new to the partition. A row it accepts cannot then fail
    /// [`RowRun::insert_at`] with that key (unless the same RowKey is inserted in between,
    /// which the caller rules out).
    pub(crate) fn accepts(&self, row: &Row) -> Option<Key> {
        if !self.passes_quick_checks(row) {
            return None;
        }
        let table = self.account.table(&self.table).ok()?;
        let row_key = Key::new(row.row_key);
        let exists = table
            .partitions()
            .get(&self.partition_key)
            .is_some_and(|p| p.rows.contains_key(&row_key));
        (!exists).then_some(row_key)
    }

    /// The next Timestamp of the account's clock ([`Account::next_timestamp`]), for rows
    /// that share one.
    pub(crate) fn next_timestamp(&mut self) -> Result<DateTime> {
        self.account.next_timestamp()
    }

    /// Inserts a row [`RowRun::accepts`], under the key it gave, with a Timestamp the
    /// caller took (a batch's inserts share their commit's).
    pub(crate) fn insert_at(&mut self, row: Row, row_key: Key, stamp: DateTime) -> Result<()> {
        self.store(row, row_key, stamp)
    }

    /// Stores a row that passed the quick checks under `row_key` (its RowKey), stamped
    /// `stamp`.
    fn store(&mut self, row: Row, row_key: Key, stamp: DateTime) -> Result<()> {
        let shape = self.shape_of(&row);
        let stored = Stored {
            timestamp: stamp,
            properties: Record::encode_refs(shape, row.values),
        };
        let table = self.account.table_mut(&self.table)?;
        if !table.insert_new(&self.partition_key, row_key.clone(), stored) {
            return Err(Error::new(ErrorCode::EntityAlreadyExists));
        }
        self.account.observe_timestamp(stamp);
        self.stamp = Some(stamp);
        for (n, v) in row.names.iter().zip(row.values) {
            if let Some(c) = self.counts.get_mut(*n) {
                c[v.edm_type() as usize] += 1;
            }
        }
        if self.account.feed_on() {
            self.inserted.push(row_key);
        }
        Ok(())
    }

    /// Adds the run's counts to the table's columns and its rows to the change feed. Also
    /// done on drop.
    pub fn finish(mut self) {
        self.catch_up();
    }

    fn catch_up(&mut self) {
        let Ok(table) = self.account.table_mut(&self.table) else {
            return;
        };
        table.count_run(&self.names, &mut self.counts);
        let name = table.name.clone();
        if !self.inserted.is_empty() {
            self.account.record(vec![Change::RowsInserted {
                table: name,
                partition_key: self.partition_key.as_str().to_string(),
                row_keys: std::mem::take(&mut self.inserted),
            }]);
        }
    }

    /// Whether the row passes the quick checks, its entity size within the limit.
    fn passes_quick_checks(&self, row: &Row) -> bool {
        self.quick_size(row)
            .is_some_and(|size| size <= validate::MAX_ENTITY_BYTES)
    }

    /// The row's entity size when every quick check passes (key, names, property count,
    /// value sizes); `None` sends it to `insert`'s own checks.
    fn quick_size(&self, row: &Row) -> Option<usize> {
        let mut size = self.key_size?;
        validate::key("RowKey", row.row_key).ok()?;
        size += 2 * utf16_len(row.row_key);
        if row.names.len() != row.values.len() || row.names.len() > validate::MAX_USER_PROPERTIES {
            return None;
        }
        let mut seen = Seen::default();
        for (i, (n, v)) in row.names.iter().zip(row.values).enumerate() {
            size += (*self.name_sizes.get(*n)?)?;
            let repeated = seen.again(*n, &row.names[..i]);
            let too_large = match v {
                ValueRef::String(s) => utf16_len(s) > validate::MAX_STRING_UNITS,
                ValueRef::Binary(b) => b.len() > validate::MAX_BINARY_BYTES,
                _ => false,
            };
            if repeated || too_large {
                return None;
            }
            size += v.size();
        }
        Some(size)
    }

    /// The shared shape of the row's names and types (the last row's when they match).
    fn shape_of(&mut self, row: &Row) -> Arc<Shape> {
        if let Some((names, types, shape)) = &self.last {
            let same = *names == *row.names
                && types
                    .iter()
                    .zip(row.values)
                    .all(|(t, v)| *t == v.edm_type());
            if same {
                return shape.clone();
            }
        }
        let names: Vec<PropertyName> = row.names.iter().map(|n| self.names[*n].clone()).collect();
        let types: Vec<EdmType> = row.values.iter().map(|v| v.edm_type()).collect();
        let shape = match self.account.table_mut(&self.table) {
            Ok(table) => table.shape_for_parts(&names, &types),
            Err(_) => Arc::new(Shape::of_parts(names, types.clone())),
        };
        self.last = Some((row.names.to_vec(), types, shape.clone()));
        shape
    }

    /// The row through [`Account::insert`]: its checks, its error.
    fn insert_slowly(&mut self, row: Row) -> Result<DateTime> {
        let mut entity = Entity::new(self.partition_key.as_str(), row.row_key);
        for (n, v) in row.names.iter().zip(row.values) {
            let name = self.names.get(*n).cloned().unwrap_or_else(|| "".into());
            entity.properties.push((name, v.to_value()));
        }
        let stamp = self.account.insert(&self.table, entity)?;
        self.stamp = Some(stamp);
        Ok(stamp)
    }
}

impl Drop for RowRun<'_> {
    fn drop(&mut self) {
        self.catch_up();
    }
}

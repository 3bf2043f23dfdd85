//! A Cosmos DB for Table container's bookkeeping beside a table's rows: the order results
//! come back in ([`Rule::InsertionOrder`](super::Rule::InsertionOrder)) and an index of every
//! property ([`Rule::AutomaticIndex`](super::Rule::AutomaticIndex)). Kept only on tables of
//! Cosmos accounts: a storage table has none and pays nothing for it.
//!
//! Most tables are written in key order, or each partition is (a load, a log appended by
//! RowKey): then the container's order is the rows' own, and nothing is kept for it.
//!
//! Invariants, for the table `T` that owns it:
//! - `key_order` true: along `T`'s rows in key order (PartitionKey, then RowKey) no Timestamp
//!   is earlier than the one before it, so key order is the container's order (Timestamp,
//!   ties by keys). It only turns false on a write, and true again when `T` is emptied;
//! - `order`, once built, holds one [`Pos`] per entity of `T`: its Timestamp and keys. It is
//!   built from `T`'s rows when a query needs it while `key_order` is false, and kept up to
//!   date by every add and remove from then on;
//! - `partitions[pk]`, where present, holds `(timestamp, rk)` for every entity of partition
//!   `pk` and is not empty; where absent, partition `pk`'s rows in RowKey order have no
//!   Timestamp earlier than the one before it (its order is its rows' order);
//! - `index`, once built, holds in `properties[name][key]` the `Pos` of every entity whose
//!   property `name` has a value with index key `key`, no inner map or set empty: the same
//!   index an eager build would hold. It is built from the table's rows on the first lookup
//!   and kept up to date by every add and remove from then on; a table never filtered by a
//!   property pays nothing for it;
//! - `entries` is the number of properties over all entities of `T`: the number of `Pos`
//!   values the index holds (or would hold), one per property of each entity.

use crate::datetime::DateTime;
use crate::entity::PropertyName;
use crate::filter::{CmpOp, Expr, Target as On};
use crate::key::Key;
use crate::record::{Record, ValueRef};
use crate::row_map::RowMap;
use crate::table::{Partition, Stored, Table};
use crate::value::{Guid, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::sync::OnceLock;

/// Where an entity stands in a Cosmos container's order: by Timestamp, ties by keys
/// ([`super::ModelChoice::OrderOfLastWrite`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub timestamp: DateTime,
    pub partition_key: Key,
    pub row_key: Key,
}

/// A value as the index orders it. Int32 and Int64 share one class (a filter's integer
/// literal widens, [`crate::filter::compatible`]); a double is kept by its total-order bits.
/// The variants' order is the classes' order, so each class is one contiguous range.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum IndexKey {
    Boolean(bool),
    Int(i64),
    Double(i64),
    DateTime(DateTime),
    Guid(Guid),
    String(Key),
    Binary(Box<[u8]>),
}

fn double_key(d: f64) -> i64 {
    let bits = d.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

impl IndexKey {
    fn of(v: ValueRef) -> IndexKey {
        match v {
            ValueRef::Boolean(b) => IndexKey::Boolean(b),
            ValueRef::Int32(i) => IndexKey::Int(i64::from(i)),
            ValueRef::Int64(i) => IndexKey::Int(i),
            ValueRef::Double(d) => IndexKey::Double(double_key(d)),
            ValueRef::DateTime(t) => IndexKey::DateTime(t),
            ValueRef::Guid(g) => IndexKey::Guid(g),
            ValueRef::String(s) => IndexKey::String(Key::new(s)),
            ValueRef::Binary(b) => IndexKey::Binary(b.into()),
        }
    }
}

/// The whole range of one class of keys, as bounds.
fn class(first: IndexKey, after: Option<IndexKey>) -> (Bound<IndexKey>, Bound<IndexKey>) {
    (
        Bound::Included(first),
        after.map_or(Bound::Unbounded, Bound::Excluded),
    )
}

/// The key ranges a comparison `property op literal` can hold in; an over-approximation
/// (every entity read is checked against the whole filter), `None` when the comparison is
/// not looked up (`ne`).
fn ranges(op: CmpOp, literal: &Value) -> Option<Vec<(Bound<IndexKey>, Bound<IndexKey>)>> {
    let (whole, key) = match literal {
        Value::Boolean(b) => (
            class(IndexKey::Boolean(false), Some(IndexKey::Int(i64::MIN))),
            IndexKey::Boolean(*b),
        ),
        Value::Int32(_) | Value::Int64(_) => {
            let i = match literal {
                Value::Int32(i) => i64::from(*i),
                Value::Int64(i) => *i,
                _ => 0,
            };
            (
                class(IndexKey::Int(i64::MIN), Some(IndexKey::Double(i64::MIN))),
                IndexKey::Int(i),
            )
        }
        Value::Double(d) => (
            class(
                IndexKey::Double(i64::MIN),
                Some(IndexKey::DateTime(DateTime::MIN)),
            ),
            IndexKey::Double(double_key(*d)),
        ),
        Value::DateTime(t) => (
            class(
                IndexKey::DateTime(DateTime::MIN),
                Some(IndexKey::Guid(Guid([0; 16]))),
            ),
            IndexKey::DateTime(*t),
        ),
        Value::Guid(g) => (
            class(
                IndexKey::Guid(Guid([0; 16])),
                Some(IndexKey::String(Key::new(""))),
            ),
            IndexKey::Guid(*g),
        ),
        Value::String(s) => (
            class(
                IndexKey::String(Key::new("")),
                Some(IndexKey::Binary(Box::new([]))),
            ),
            IndexKey::String(Key::new(s)),
        ),
        Value::Binary(b) => (
            class(IndexKey::Binary(Box::new([])), None),
            IndexKey::Binary(b.clone()),
        ),
    };
    let (lower, upper) = whole;
    let mut out = vec![match op {
        CmpOp::Ne => return None,
        CmpOp::Eq => match literal {
            // -0.0 and 0.0 are equal but apart in total order; they are neighbours in it.
            Value::Double(d) if *d == 0.0 => (
                Bound::Included(IndexKey::Double(double_key(-0.0))),
                Bound::Included(IndexKey::Double(double_key(0.0))),
            ),
            _ => (Bound::Included(key.clone()), Bound::Included(key)),
        },
        CmpOp::Gt => (Bound::Excluded(key), upper),
        CmpOp::Ge => (Bound::Included(key), upper),
        CmpOp::Lt => (lower, Bound::Excluded(key)),
        CmpOp::Le => (lower, Bound::Included(key)),
    }];
    // An integer literal also compares with doubles: all of them are candidates.
    if matches!(literal, Value::Int32(_) | Value::Int64(_)) {
        out.push(class(
            IndexKey::Double(i64::MIN),
            Some(IndexKey::DateTime(DateTime::MIN)),
        ));
    }
    Some(out)
}

/// What a query read from the index: entries, and the properties it looked up.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexRead {
    /// Index entries read (one per entity position a lookup visited).
    pub entries: u64,
    /// The properties whose index answered, in the filter's order.
    pub properties: Vec<String>,
}

/// Order and property index of one Cosmos table (see the module's invariants).
#[derive(Debug, Clone)]
pub struct Items {
    key_order: bool,
    order: OnceLock<BTreeSet<Pos>>,
    partitions: BTreeMap<Key, BTreeSet<(DateTime, Key)>>,
    index: OnceLock<Index>,
    entries: u64,
}

impl Default for Items {
    /// An empty table's: its (no) rows are in key order.
    fn default() -> Self {
        Items {
            key_order: true,
            order: OnceLock::new(),
            partitions: BTreeMap::new(),
            index: OnceLock::new(),
            entries: 0,
        }
    }
}

/// Whether `rows` (in key order) have no Timestamp earlier than the one before it.
fn ascending<'a>(mut rows: impl Iterator<Item = &'a Stored>) -> bool {
    let mut last = DateTime::MIN;
    rows.all(|s| {
        let later = s.timestamp >= last;
        last = s.timestamp;
        later
    })
}

/// The property index: for each property name, the positions holding each index key.
type Index = BTreeMap<PropertyName, BTreeMap<IndexKey, Positions>>;

/// The positions of the entities holding one value of one property: most values (a name, an
/// amount) are held by one entity, which then costs no set of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Positions {
    One(Pos),
    /// At least two positions.
    Many(BTreeSet<Pos>),
}

impl Positions {
    /// Adds `p`; false if it was there.
    fn insert(&mut self, p: Pos) -> bool {
        match self {
            Positions::One(q) if *q == p => false,
            Positions::One(q) => {
                let q = q.clone();
                *self = Positions::Many(BTreeSet::from([q, p]));
                true
            }
            Positions::Many(set) => set.insert(p),
        }
    }

    /// The positions from `from` on, in order.
    pub(crate) fn from<'a>(&'a self, from: &Pos) -> impl Iterator<Item = &'a Pos> {
        let (one, many) = match self {
            Positions::One(q) => (Some(q).filter(|q| *q >= from), None),
            Positions::Many(set) => (None, Some(set.range(from.clone()..))),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }
}

impl Items {
    /// The bookkeeping of a table holding `partitions` (a table loaded, imported or copied
    /// into a Cosmos account).
    pub(crate) fn of(partitions: &BTreeMap<Key, Partition>) -> Items {
        let mut items = Items::default();
        for (pk, partition) in partitions {
            let rows = partition.rows.iter().map(|(_, s)| s);
            items.entries += rows.clone().map(|s| s.properties.len() as u64).sum::<u64>();
            if !ascending(rows) {
                items
                    .partitions
                    .insert(pk.clone(), positions(&partition.rows));
            }
        }
        let rows = partitions
            .values()
            .flat_map(|p| p.rows.iter().map(|(_, s)| s));
        items.key_order = items.partitions.is_empty() && ascending(rows);
        items
    }

    /// Number of index entries over all properties.
    pub fn index_entries(&self) -> u64 {
        self.entries
    }

    /// Every entity's position, in the container's order; `None` when that is key order
    /// (the rows' own order, [`Items`]'s invariants).
    pub(crate) fn order(&self, table: &Table) -> Option<&BTreeSet<Pos>> {
        if self.key_order {
            return None;
        }
        Some(self.order.get_or_init(|| {
            let mut order = BTreeSet::new();
            for (pk, partition) in table.partitions() {
                for (rk, stored) in partition.rows.iter() {
                    order.insert(Pos {
                        timestamp: stored.timestamp,
                        partition_key: pk.clone(),
                        row_key: rk.clone(),
                    });
                }
            }
            order
        }))
    }

    /// The positions of one partition's entities, in order; `None` when that is RowKey
    /// order (the partition's rows' own).
    pub(crate) fn partition(&self, pk: &Key) -> Option<&BTreeSet<(DateTime, Key)>> {
        self.partitions.get(pk)
    }

    /// Records the entity just stored under `pk`, `rk` in `partitions` (the table's rows,
    /// the new row among them; an entity it overwrote [`Items::remove`]d first): its
    /// Timestamp, its number of properties, and the Timestamps of the rows just before and
    /// just after it in its partition ([`RowMap::insert_between`]).
    pub(crate) fn add(
        &mut self,
        (pk, rk): (&Key, &Key),
        (timestamp, properties): (DateTime, usize),
        [before, after]: [Option<DateTime>; 2],
        partitions: &BTreeMap<Key, Partition>,
    ) {
        let pos = || Pos {
            timestamp,
            partition_key: pk.clone(),
            row_key: rk.clone(),
        };
        self.entries += properties as u64;
        if let Some(index) = self.index.get_mut() {
            let row = partitions.get(pk).and_then(|p| p.rows.get(rk));
            if let Some(stored) = row {
                index_add(index, &pos(), &stored.properties);
            }
        }
        let fits = |before: Option<DateTime>, after: Option<DateTime>| {
            before.is_none_or(|b| b <= timestamp) && after.is_none_or(|a| a >= timestamp)
        };
        let in_partition = fits(before, after);
        match self.partitions.get_mut(pk) {
            Some(rows) => {
                rows.insert((timestamp, rk.clone()));
            }
            None if !in_partition => {
                if let Some(partition) = partitions.get(pk) {
                    self.partitions
                        .insert(pk.clone(), positions(&partition.rows));
                }
            }
            None => {}
        }
        if self.key_order {
            // At a partition's edge, the neighbours are in the partitions beside it.
            let before = before.or_else(|| {
                let (_, p) = partitions.range::<Key, _>(..pk).next_back()?;
                p.rows.last().map(|s| s.timestamp)
            });
            let after = after.or_else(|| {
                let next = (Bound::Excluded(pk), Bound::Unbounded);
                let (_, p) = partitions.range::<Key, _>(next).next()?;
                p.rows.first().map(|s| s.timestamp)
            });
            self.key_order = in_partition && fits(before, after);
        } else if let Some(order) = self.order.get_mut() {
            order.insert(pos());
        }
    }

    /// The property index, built from `table`'s rows (the table that owns these items) on
    /// first use.
    fn index(&self, table: &Table) -> &Index {
        self.index.get_or_init(|| {
            let mut index = Index::new();
            for (pk, partition) in table.partitions() {
                for (rk, stored) in partition.rows.iter() {
                    let pos = Pos {
                        timestamp: stored.timestamp,
                        partition_key: pk.clone(),
                        row_key: rk.clone(),
                    };
                    index_add(&mut index, &pos, &stored.properties);
                }
            }
            index
        })
    }

    /// Forgets an entity that left the table (or is being overwritten); `emptied` when it
    /// was the table's last.
    pub(crate) fn remove(
        &mut self,
        pk: &Key,
        rk: &Key,
        timestamp: DateTime,
        record: &Record,
        emptied: bool,
    ) {
        let pos = || Pos {
            timestamp,
            partition_key: pk.clone(),
            row_key: rk.clone(),
        };
        self.entries -= record.len() as u64;
        if let Some(index) = self.index.get_mut() {
            index_remove(index, &pos(), record);
        }
        if let Some(rows) = self.partitions.get_mut(pk) {
            rows.remove(&(timestamp, rk.clone()));
            if rows.is_empty() {
                self.partitions.remove(pk);
            }
        }
        if emptied {
            self.key_order = true;
            self.order = OnceLock::new();
        } else if let Some(order) = self.order.get_mut() {
            order.remove(&pos());
        }
    }

    /// The index sets that may hold matches of `filter` (every entity read is checked
    /// against the whole filter): for each conjunct the index answers, the sets of positions
    /// its ranges cover; `None` when no conjunct is looked up
    /// ([`super::ModelChoice::ConjunctsOnly`]). Names the properties looked up in `read`.
    pub(crate) fn lookup<'a>(
        &'a self,
        table: &'a Table,
        filter: &Expr,
        read: &mut IndexRead,
    ) -> Option<Vec<Vec<&'a Positions>>> {
        let mut found = Vec::new();
        let mut index = None;
        for term in filter.conjuncts() {
            let Expr::Compare {
                target: On::Property(name),
                op,
                literal,
            } = term
            else {
                continue;
            };
            let Some(ranges) = ranges(*op, literal) else {
                continue;
            };
            let mut sets = Vec::new();
            let index = *index.get_or_insert_with(|| self.index(table));
            if let Some(values) = index.get(&**name) {
                for range in ranges {
                    sets.extend(values.range(range).map(|(_, positions)| positions));
                }
            }
            if !read.properties.iter().any(|p| p == &**name) {
                read.properties.push(name.to_string());
            }
            found.push(sets);
        }
        (!found.is_empty()).then_some(found)
    }
}

/// The positions of a partition's `rows`.
fn positions(rows: &RowMap) -> BTreeSet<(DateTime, Key)> {
    rows.iter()
        .map(|(rk, s)| (s.timestamp, rk.clone()))
        .collect()
}

/// Adds the position `pos` of an entity with properties `record` to `index`.
fn index_add(index: &mut Index, pos: &Pos, record: &Record) {
    for (name, value) in record.iter() {
        let values = match index.get_mut(name) {
            Some(v) => v,
            None => index.entry(name.clone()).or_default(),
        };
        match values.entry(IndexKey::of(value)) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(Positions::One(pos.clone()));
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                slot.get_mut().insert(pos.clone());
            }
        }
    }
}

/// Removes the position `pos` of an entity with properties `record` from `index`, dropping
/// the sets and maps it leaves empty.
fn index_remove(index: &mut Index, pos: &Pos, record: &Record) {
    for (name, value) in record.iter() {
        let Some(values) = index.get_mut(name) else {
            continue;
        };
        let key = IndexKey::of(value);
        let emptied = match values.get_mut(&key) {
            Some(Positions::One(q)) => q == pos,
            Some(slot @ Positions::Many(_)) => {
                if let Positions::Many(set) = slot {
                    set.remove(pos);
                    // A set left with one position becomes `One` again.
                    if set.len() == 1 {
                        if let Some(last) = set.pop_first() {
                            *slot = Positions::One(last);
                        }
                    }
                }
                false
            }
            None => false,
        };
        if emptied {
            values.remove(&key);
        }
        if values.is_empty() {
            index.remove(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::datetime::DateTime;
    use crate::entity::Entity;
    use crate::table::Table;
    use crate::value::Value;
    use crate::Target;
    use proptest::prelude::*;

    fn entity(pk: u8, rk: u8, a: u8, b: Option<u8>) -> Entity {
        let e = Entity::new(format!("p{pk}"), format!("r{rk}")).with("A", Value::Int32(a.into()));
        match b {
            Some(b) => e.with("B", Value::String(format!("v{b}").into())),
            None => e,
        }
    }

    proptest! {
        /// An index built on first use, after any mix of puts (inserts, replacements, merged
        /// results) and removals, equals one built first and kept up to date by each change.
        #[test]
        fn a_lazily_built_index_equals_an_eagerly_kept_one(
            ops in proptest::collection::vec(
                (0u8..3, 0u8..3, 0u8..6, 0u8..3, proptest::option::of(0u8..3)), 0..120),
        ) {
            let mut eager = Table::for_target("T", Target::CosmosTable);
            let mut lazy = Table::for_target("T", Target::CosmosTable);
            let items = eager.items().expect("cosmos");
            items.index(&eager);
            for (i, (op, pk, rk, a, b)) in ops.into_iter().enumerate() {
                for t in [&mut eager, &mut lazy] {
                    match op {
                        0 => {
                            t.remove(&format!("p{pk}"), &format!("r{rk}"));
                        }
                        _ => {
                            let at = DateTime::from_ticks(i as i64 + 1).expect("ticks");
                            t.put(entity(pk, rk, a, b), at);
                        }
                    }
                }
            }
            let (e, l) = (eager.items().expect("cosmos"), lazy.items().expect("cosmos"));
            prop_assert!(e.index.get().is_some());
            prop_assert!(l.index.get().is_none());
            prop_assert_eq!(e.index(&eager), l.index(&lazy));
            let props: u64 = lazy.partitions().values()
                .flat_map(|p| p.rows.iter().map(|(_, s)| s.properties.len() as u64)).sum();
            prop_assert_eq!(l.index_entries(), props);
            let held: usize = l.index(&lazy).values().flat_map(|v| v.values())
                .map(|p| match p { super::Positions::One(_) => 1, super::Positions::Many(s) => s.len() })
                .sum();
            prop_assert_eq!(held as u64, props);
        }
    }
}

//! A table's storage: partitions in key order, rows in key order inside each.
//!
//! Invariants:
//! - `partitions` holds no empty partition;
//! - `entity_count` is the number of rows over all partitions;
//! - `columns[name].counts[t]` is the number of stored entities whose property `name` has
//!   type `t`, and a column with all counts zero is removed;
//! - property names are interned through `columns`' keys, so equal names share one
//!   allocation (a name is interned while some stored entity carries it);
//! - `shapes` holds [`Shape`]s of stored records, sorted by [`Shape::key`], at most
//!   [`MAX_SHARED_SHAPES`] of them; a shape is dropped from it when its last stored record
//!   goes, unless a clone of that record (or of the table) is alive then, in which case it
//!   stays as an unused entry. Records never depend on being in it: it only lets equal
//!   property lists share one shape (once it is full, a new property list gets a shape of its
//!   own, which costs memory, never correctness).

use super::datetime::DateTime;
use super::entity::{Entity, Property, PropertyName};
use super::key::Key;
use super::record::{shape_key, shape_key_of_parts, Record, Shape};
use super::value::EdmType;
use crate::row_map::RowMap;
use crate::target::{Items, Target};
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

/// A stored entity; its keys are the map keys that lead to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub timestamp: DateTime,
    /// The user properties, compact (see [`Record`]).
    pub properties: Record,
}

/// One partition: the rows that share a PartitionKey.
#[derive(Debug, Clone, Default)]
pub struct Partition {
    pub rows: RowMap,
}

/// How many stored entities carry a property, by type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColumnStats {
    pub counts: [u32; 8],
}

impl ColumnStats {
    pub fn types(&self) -> Vec<EdmType> {
        EdmType::ALL
            .into_iter()
            .filter(|t| self.counts[*t as usize] > 0)
            .collect()
    }
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|c| u64::from(*c)).sum()
    }
    pub fn has(&self, t: EdmType) -> bool {
        self.counts[t as usize] > 0
    }
}

/// A table: its display name and its data.
#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    partitions: BTreeMap<Key, Partition>,
    entity_count: usize,
    columns: BTreeMap<PropertyName, ColumnStats>,
    shapes: Vec<Arc<Shape>>,
    /// The table's stored access policies, as Set Table ACL left them.
    pub(crate) acl: Vec<crate::settings::SignedIdentifier>,
    /// On a Cosmos DB for Table account only: the container's order and property index,
    /// kept in step with `partitions` by every write ([`Items`]'s invariants).
    items: Option<Box<Items>>,
}

impl Table {
    pub fn new(name: &str) -> Self {
        Table {
            name: name.to_string(),
            partitions: BTreeMap::new(),
            entity_count: 0,
            columns: BTreeMap::new(),
            shapes: Vec::new(),
            acl: Vec::new(),
            items: None,
        }
    }

    /// An empty table of an account on `target` (a Cosmos table keeps [`Items`]).
    pub fn for_target(name: &str, target: Target) -> Self {
        let mut t = Table::new(name);
        if target.is_cosmos() {
            t.items = Some(Box::default());
        }
        t
    }

    /// The target whose rules this table follows.
    pub fn target(&self) -> Target {
        match self.items {
            Some(_) => Target::CosmosTable,
            None => Target::TableStorage,
        }
    }

    /// The Cosmos container's order and index; `None` on a storage table.
    pub fn items(&self) -> Option<&Items> {
        if cfg!(feature = "without-cosmos") {
            return None;
        }
        self.items.as_deref()
    }

    /// Makes the table follow `target`'s rules: builds or drops [`Items`] from the rows
    /// (a table loaded or imported into an account).
    pub(crate) fn set_target(&mut self, target: Target) {
        if target == self.target() {
            return;
        }
        self.items = None;
        if target.is_cosmos() {
            self.items = Some(Box::new(Items::of(&self.partitions)));
        }
    }

    pub fn entity_count(&self) -> usize {
        self.entity_count
    }

    pub fn partition_count(&self) -> usize {
        self.partitions.len()
    }

    pub fn partitions(&self) -> &BTreeMap<Key, Partition> {
        &self.partitions
    }

    /// The partitions whose key lies within the bounds, in order.
    pub fn partition_range(
        &self,
        lower: Bound<&Key>,
        upper: Bound<&Key>,
    ) -> impl Iterator<Item = (&Key, &Partition)> {
        let empty = matches!((lower, upper), (Bound::Included(l) | Bound::Excluded(l), Bound::Included(u) | Bound::Excluded(u)) if l > u)
            || matches!((lower, upper), (Bound::Excluded(l), Bound::Excluded(u)) if l == u);
        let range = if empty {
            None
        } else {
            Some(self.partitions.range::<Key, _>((lower, upper)))
        };
        range.into_iter().flatten()
    }

    /// Property names seen in this table, with how many entities carry each type.
    pub fn columns(&self) -> &BTreeMap<PropertyName, ColumnStats> {
        &self.columns
    }

    pub fn get(&self, partition_key: &str, row_key: &str) -> Option<&Stored> {
        self.partitions
            .get(&Key::new(partition_key))?
            .rows
            .get(&Key::new(row_key))
    }

    /// The stored entity as an [`Entity`] value.
    pub fn entity(&self, partition_key: &str, row_key: &str) -> Option<Entity> {
        self.get(partition_key, row_key)
            .map(|s| to_entity(partition_key, row_key, s))
    }

    /// Stores an entity (insert or overwrite); returns the previous one.
    pub fn put(&mut self, entity: Entity, timestamp: DateTime) -> Option<Stored> {
        // Names interned in place (an iterator chain collected anew was more wasm code).
        let mut properties = entity.properties;
        for (name, value) in properties.iter_mut() {
            *name = self.intern_and_count(name, value.edm_type());
        }
        let shape = self.shape_for(&properties);
        let stored = Stored {
            timestamp,
            properties: Record::encode(shape, &properties),
        };
        let (pk, rk) = (Key::from(entity.partition_key), Key::from(entity.row_key));
        let previous = if live(&mut self.items).is_none() {
            self.partitions
                .entry(pk)
                .or_default()
                .rows
                .insert(rk, stored)
        } else {
            // A Cosmos table's items learn the row's neighbours from the same search.
            let (keys, row) = (
                (pk.clone(), rk.clone()),
                (timestamp, stored.properties.len()),
            );
            let rows = &mut self.partitions.entry(pk).or_default().rows;
            let (previous, around) = rows.insert_between(rk, stored);
            if let Some(items) = live(&mut self.items) {
                if let Some(old) = &previous {
                    items.remove(&keys.0, &keys.1, old.timestamp, &old.properties, false);
                }
                items.add((&keys.0, &keys.1), row, around, &self.partitions);
            }
            previous
        };
        match &previous {
            Some(old) => self.forget(&old.properties),
            None => self.entity_count += 1,
        }
        previous
    }

    /// Removes an entity; returns it if it was there.
    pub fn remove(&mut self, partition_key: &str, row_key: &str) -> Option<Stored> {
        let pk = Key::new(partition_key);
        let partition = self.partitions.get_mut(&pk)?;
        let rk = Key::new(row_key);
        let removed = partition.rows.remove(&rk)?;
        if partition.rows.is_empty() {
            self.partitions.remove(&pk);
        }
        self.entity_count -= 1;
        if let Some(items) = live(&mut self.items) {
            let emptied = self.entity_count == 0;
            items.remove(&pk, &rk, removed.timestamp, &removed.properties, emptied);
        }
        self.forget(&removed.properties);
        Some(removed)
    }

    /// A new row, unless the partition holds `row_key` already (then `false` and nothing
    /// changed). Its properties must be counted by the caller ([`Table::count_run`]).
    pub(crate) fn insert_new(&mut self, partition_key: &Key, row_key: Key, stored: Stored) -> bool {
        let partition = match self.partitions.get_mut(partition_key) {
            Some(p) => p,
            None => self.partitions.entry(partition_key.clone()).or_default(),
        };
        if live(&mut self.items).is_none() {
            let inserted = partition.rows.insert_new(row_key, stored);
            self.entity_count += usize::from(inserted);
            return inserted;
        }
        // A Cosmos table's items learn the row's neighbours from the same search.
        let (rk, row) = (row_key.clone(), (stored.timestamp, stored.properties.len()));
        let around = partition.rows.insert_new_between(row_key, stored);
        if let (Some(around), Some(items)) = (around, live(&mut self.items)) {
            items.add((partition_key, &rk), row, around, &self.partitions);
        }
        let inserted = around.is_some();
        self.entity_count += usize::from(inserted);
        inserted
    }

    /// The table's interned name for `name` (a column's key), or a new one.
    pub(crate) fn interned(&self, name: &str) -> PropertyName {
        self.columns
            .get_key_value(name)
            .map_or_else(|| PropertyName::from(name), |(k, _)| k.clone())
    }

    /// Adds a run's counts (`counts[i][t]`: values of type `t` under `names[i]`, which the
    /// run interned with [`Table::interned`]) to the columns, and zeroes them.
    pub(crate) fn count_run(&mut self, names: &[PropertyName], counts: &mut [[u32; 8]]) {
        for (name, counted) in names.iter().zip(counts.iter_mut()) {
            if counted.iter().all(|c| *c == 0) {
                continue;
            }
            let stats = self.columns.entry(name.clone()).or_default();
            for (total, c) in stats.counts.iter_mut().zip(counted.iter_mut()) {
                *total += std::mem::take(c);
            }
        }
    }

    /// [`Table::shape_for`] for interned names and types given apart.
    pub(crate) fn shape_for_parts(
        &mut self,
        names: &[PropertyName],
        types: &[EdmType],
    ) -> Arc<Shape> {
        self.shared_shape(
            shape_key_of_parts(names, types),
            |s| s.is_parts(names, types),
            || Shape::of_parts(names.to_vec(), types.to_vec()),
        )
    }

    /// Counts one more value of type `t` under `name`; returns the interned name.
    fn intern_and_count(&mut self, name: &PropertyName, t: EdmType) -> PropertyName {
        if let Some(stats) = self.columns.get_mut(name) {
            stats.counts[t as usize] += 1;
        } else {
            let mut stats = ColumnStats::default();
            stats.counts[t as usize] = 1;
            self.columns.insert(name.clone(), stats);
            return name.clone();
        }
        self.columns
            .get_key_value(name)
            .map_or_else(|| name.clone(), |(k, _)| k.clone())
    }

    /// Uncounts a record that is leaving the table, and drops its shape if no other record
    /// uses it (the map's reference and the leaving record's are the only two).
    fn forget(&mut self, record: &Record) {
        let shape = record.shape();
        for (name, t) in shape.names().iter().zip(shape.types()) {
            let slot = *t as usize;
            if let Some(stats) = self.columns.get_mut(name) {
                stats.counts[slot] = stats.counts[slot].saturating_sub(1);
                if stats.total() == 0 {
                    self.columns.remove(name);
                }
            }
        }
        if Arc::strong_count(shape) <= 2 {
            // Rare (a shape's last record), and the list is short: a pass over it keeps the
            // order and has no index to get wrong.
            self.shapes.retain(|s| !Arc::ptr_eq(s, shape));
        }
    }

    /// The interned shape of these (interned) properties, made if new. A sorted list rather
    /// than a hash map: tables have few shapes, and a map's code costs the wasm kilobytes.
    fn shape_for(&mut self, properties: &[Property]) -> Arc<Shape> {
        self.shared_shape(
            shape_key(properties),
            |s| s.is(properties),
            || Shape::of(properties),
        )
    }

    /// The shape with this [`Shape::key`] that `is` accepts, or the one `make` builds (then
    /// shared while the list has room).
    fn shared_shape(
        &mut self,
        key: u64,
        is: impl Fn(&Shape) -> bool,
        make: impl FnOnce() -> Shape,
    ) -> Arc<Shape> {
        // Where shapes with this key start (or where this one goes).
        let at = self.shapes.partition_point(|s| s.key() < key);
        let mut same_key = self.shapes.iter().skip(at).take_while(|s| s.key() == key);
        if let Some(shape) = same_key.find(|s| is(s)) {
            return shape.clone();
        }
        let shape = Arc::new(make());
        if self.shapes.len() < MAX_SHARED_SHAPES {
            self.shapes.insert(at, shape.clone());
        }
        shape
    }
}

/// At most this many shapes are shared per table, so that adding one (an insertion into a
/// sorted list) stays cheap however many distinct property lists a table's entities have.
pub const MAX_SHARED_SHAPES: usize = 4096;

/// Builds an [`Entity`] from a stored row and its keys.
pub fn to_entity(partition_key: &str, row_key: &str, stored: &Stored) -> Entity {
    Entity {
        partition_key: partition_key.to_string(),
        row_key: row_key.to_string(),
        timestamp: Some(stored.timestamp),
        properties: stored.properties.to_vec(),
    }
}

/// A table's items to keep up to date; never any in an engine built `without-cosmos`, so that
/// build leaves out the Cosmos order and index code altogether.
fn live(items: &mut Option<Box<Items>>) -> Option<&mut Items> {
    if cfg!(feature = "without-cosmos") {
        return None;
    }
    items.as_deref_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;

    #[test]
    fn counts_and_columns_follow_writes() {
        let mut t = Table::new("T");
        let e = Entity::new("p", "r").with("A", Value::Int32(1));
        t.put(e.clone(), DateTime::MIN);
        t.put(
            Entity::new("p", "s").with("A", Value::string("x")),
            DateTime::MIN,
        );
        assert_eq!(t.entity_count(), 2);
        assert_eq!(
            t.columns()["A"].types(),
            vec![EdmType::String, EdmType::Int32]
        );
        t.put(Entity::new("p", "r"), DateTime::MIN);
        assert_eq!(t.entity_count(), 2);
        assert_eq!(t.columns()["A"].types(), vec![EdmType::String]);
        t.remove("p", "s");
        t.remove("p", "r");
        assert_eq!(t.entity_count(), 0);
        assert_eq!(t.partition_count(), 0);
        assert!(t.columns().is_empty());
    }

    #[test]
    fn a_shape_lives_as_long_as_its_records() {
        let mut t = Table::new("T");
        let a = || Entity::new("p", "1").with("A", Value::Int32(1));
        t.put(a(), DateTime::MIN);
        t.put(a().with("B", Value::Boolean(true)), DateTime::MIN);
        assert_eq!(t.shapes.len(), 1);
        t.put(
            Entity::new("p", "2").with("A", Value::Int32(5)),
            DateTime::MIN,
        );
        t.put(a(), DateTime::MIN);
        assert_eq!(t.shapes.len(), 1);
        t.remove("p", "1");
        t.remove("p", "2");
        assert!(t.shapes.is_empty());
    }

    /// Past the shared shapes' limit, entities still store and read back exactly, each new
    /// property list with a shape of its own, and removing them all empties the list.
    #[test]
    fn more_property_lists_than_shared_shapes() {
        let mut t = Table::new("T");
        let n = MAX_SHARED_SHAPES + 10;
        let entity = |i: usize| {
            Entity::new("p", format!("{i:05}")).with(&format!("P{i}"), Value::Int64(i as i64))
        };
        for i in 0..n {
            t.put(entity(i), DateTime::MIN);
        }
        assert_eq!(t.shapes.len(), MAX_SHARED_SHAPES);
        for i in [0, MAX_SHARED_SHAPES - 1, MAX_SHARED_SHAPES, n - 1] {
            let got = t.entity("p", &format!("{i:05}")).unwrap();
            assert_eq!(got.properties, entity(i).properties);
        }
        // The same list again shares the stored shape.
        let mut again = entity(7);
        again.row_key = "again".into();
        t.put(again, DateTime::MIN);
        assert_eq!(t.shapes.len(), MAX_SHARED_SHAPES);
        for i in 0..n {
            t.remove("p", &format!("{i:05}"));
        }
        assert_eq!(t.shapes.len(), 1);
        t.remove("p", "again");
        assert!(t.shapes.is_empty());
    }

    #[test]
    fn names_are_interned() {
        let mut t = Table::new("T");
        t.put(
            Entity::new("p", "1").with("Name", Value::Int32(1)),
            DateTime::MIN,
        );
        t.put(
            Entity::new("p", "2").with("Name", Value::Int32(2)),
            DateTime::MIN,
        );
        let a = &t.get("p", "1").unwrap().properties.shape().names()[0];
        let b = &t.get("p", "2").unwrap().properties.shape().names()[0];
        assert!(std::sync::Arc::ptr_eq(a, b));
        // One shape for both: the same names and types.
        assert!(std::sync::Arc::ptr_eq(
            t.get("p", "1").unwrap().properties.shape(),
            t.get("p", "2").unwrap().properties.shape()
        ));
    }
}

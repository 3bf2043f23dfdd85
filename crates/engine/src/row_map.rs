//! A partition's rows in RowKey order, as sorted runs ("leaves") of at most [`LEAF`] rows.
//!
//! A scan walks each leaf as a plain slice: no per-row call into a tree iterator, which the
//! browser's size-optimised build (opt-level z) does not inline, and rows lie next to each
//! other in memory. A lookup is two binary searches (over the leaves' last keys, then in one
//! leaf); an insert or a delete moves at most one leaf's rows, and a split moves the list of
//! leaves (24 bytes a leaf).
//!
//! That last cost grows with the partition: a million rows are ~16,000 leaves, and inserting
//! a million in random order into one partition took about twice a `BTreeMap`'s time natively
//! (1.6 s against 0.8 s on a loaded machine; in RowKey order it is faster, 0.1 s against
//! 0.35 s). A B-tree of leaves avoids that, but cost the playground's page load 1.8 KB gzip,
//! which its 300 KB budget does not have (docs/size.md).
//!
//! Invariants: every leaf is non-empty and sorted, each leaf's keys all lie below the next
//! leaf's, and `len` is the number of rows.

use crate::datetime::DateTime;
use crate::key::Key;
use crate::table::Stored;
use std::cmp::Ordering;
use std::ops::Bound;

/// Rows per leaf at most. A full leaf splits in two, except when the new row goes after the
/// partition's last row (loads mostly append): then a new leaf starts, and the full one
/// stays full.
pub const LEAF: usize = 64;

pub type Entry = (Key, Stored);

#[derive(Debug, Clone, Default)]
pub struct RowMap {
    leaves: Vec<Vec<Entry>>,
    len: usize,
}

/// Where a row is or would go: leaf `leaf`, index `at` in it (`leaf == leaves.len()`: past
/// the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    leaf: usize,
    at: usize,
}

impl RowMap {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, row_key: &Key) -> Option<&Stored> {
        let (leaf, found) = self.find(row_key)?;
        found.ok().map(|at| &self.leaves[leaf][at].1)
    }

    pub fn contains_key(&self, row_key: &Key) -> bool {
        self.get(row_key).is_some()
    }

    /// Stores `stored` under `row_key`; returns the row it replaced.
    pub fn insert(&mut self, row_key: Key, stored: Stored) -> Option<Stored> {
        let (leaf, at, stored) = self.add(row_key, stored).err()?;
        Some(std::mem::replace(&mut self.leaves[leaf][at].1, stored))
    }

    /// Stores a new row; `false` (and nothing changed) when `row_key` is there already.
    pub fn insert_new(&mut self, row_key: Key, stored: Stored) -> bool {
        self.add(row_key, stored).is_ok()
    }

    /// Adds a new row; when `row_key` is there already, changes nothing and gives `stored`
    /// back with the place of the row that has the key.
    fn add(&mut self, row_key: Key, stored: Stored) -> Result<(), (usize, usize, Stored)> {
        match self.find(&row_key) {
            Some((leaf, Ok(at))) => return Err((leaf, at, stored)),
            Some((leaf, Err(at))) => self.insert_at(leaf, at, (row_key, stored)),
            None => self.append((row_key, stored)),
        }
        Ok(())
    }

    pub fn remove(&mut self, row_key: &Key) -> Option<Stored> {
        let (leaf, Ok(at)) = self.find(row_key)? else {
            return None;
        };
        let (_, stored) = self.leaves[leaf].remove(at);
        if self.leaves[leaf].is_empty() {
            self.leaves.remove(leaf);
        }
        self.len -= 1;
        Some(stored)
    }

    /// Every row in RowKey order.
    pub fn iter(&self) -> Iter<'_> {
        self.leaves
            .iter()
            .flatten()
            .map(pair as fn(&Entry) -> (&Key, &Stored))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + Clone {
        self.iter().map(|(k, _)| k)
    }

    /// The rows within the bounds, in order. Bounds that cross give no rows.
    pub fn range(
        &self,
        bounds: (Bound<&Key>, Bound<&Key>),
    ) -> impl DoubleEndedIterator<Item = (&Key, &Stored)> + Clone {
        self.range_slices(bounds).flatten().map(pair)
    }

    /// [`RowMap::range`] as runs of consecutive rows: what a scan walks.
    pub fn range_slices(
        &self,
        (lower, upper): (Bound<&Key>, Bound<&Key>),
    ) -> impl DoubleEndedIterator<Item = &[(Key, Stored)]> + Clone {
        let start = match lower {
            Bound::Unbounded => Place { leaf: 0, at: 0 },
            Bound::Included(k) => self.first_where(|(x, _)| x >= k),
            Bound::Excluded(k) => self.first_where(|(x, _)| x > k),
        };
        let end = match upper {
            Bound::Unbounded => Place {
                leaf: self.leaves.len(),
                at: 0,
            },
            Bound::Included(k) => self.first_where(|(x, _)| x > k),
            Bound::Excluded(k) => self.first_where(|(x, _)| x >= k),
        };
        let end = end.max(start);
        let leaves = self
            .leaves
            .get(start.leaf..=end.leaf.min(self.leaves.len().saturating_sub(1)));
        leaves
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(move |(i, leaf)| {
                let leaf_index = start.leaf + i;
                let from = if leaf_index == start.leaf {
                    start.at
                } else {
                    0
                };
                let to = if leaf_index == end.leaf {
                    end.at
                } else {
                    leaf.len()
                };
                &leaf[from..to.max(from)]
            })
            .filter(|slice| !slice.is_empty())
    }

    /// The first place whose row `holds` (`holds` is false then true along the order).
    fn first_where(&self, holds: impl Fn(&Entry) -> bool) -> Place {
        let leaf = self
            .leaves
            .partition_point(|l| l.last().is_some_and(|e| !holds(e)));
        let at = self
            .leaves
            .get(leaf)
            .map_or(0, |l| l.partition_point(|e| !holds(e)));
        Place { leaf, at }
    }

    /// The rows from the first one that `holds` on, in order (`holds` is false then true
    /// along the order).
    pub fn from_first_where(
        &self,
        holds: impl Fn(&Entry) -> bool,
    ) -> impl Iterator<Item = (&Key, &Stored)> {
        let Place { leaf, at } = self.first_where(holds);
        let first = self.leaves.get(leaf).and_then(|l| l.get(at..));
        let rest = self.leaves.get(leaf + 1..).unwrap_or_default();
        first
            .unwrap_or_default()
            .iter()
            .chain(rest.iter().flatten())
            .map(pair)
    }

    /// The last row, and the first.
    pub fn last(&self) -> Option<&Stored> {
        self.leaves.last().and_then(|l| l.last()).map(|(_, s)| s)
    }

    pub fn first(&self) -> Option<&Stored> {
        self.leaves.first().and_then(|l| l.first()).map(|(_, s)| s)
    }

    /// [`RowMap::insert`], also giving the Timestamps of the rows just before and just after
    /// the row's place.
    pub fn insert_between(
        &mut self,
        row_key: Key,
        stored: Stored,
    ) -> (Option<Stored>, [Option<DateTime>; 2]) {
        let place = self.find(&row_key);
        let around = self.around(place);
        let previous = match place {
            Some((leaf, Ok(at))) => Some(std::mem::replace(&mut self.leaves[leaf][at].1, stored)),
            Some((leaf, Err(at))) => {
                self.insert_at(leaf, at, (row_key, stored));
                None
            }
            None => {
                self.append((row_key, stored));
                None
            }
        };
        (previous, around)
    }

    /// [`RowMap::insert_new`], also giving the Timestamps of the rows just before and just
    /// after the new row; `None` (and nothing changed) when `row_key` is there already.
    pub fn insert_new_between(
        &mut self,
        row_key: Key,
        stored: Stored,
    ) -> Option<[Option<DateTime>; 2]> {
        let place = self.find(&row_key);
        let around = self.around(place);
        match place {
            Some((_, Ok(_))) => return None,
            Some((leaf, Err(at))) => self.insert_at(leaf, at, (row_key, stored)),
            None => self.append((row_key, stored)),
        }
        Some(around)
    }

    /// The Timestamps of the rows just before and just after `place` ([`RowMap::find`]'s).
    fn around(&self, place: Option<(usize, Result<usize, usize>)>) -> [Option<DateTime>; 2] {
        let Some((leaf, found)) = place else {
            return [self.last().map(|s| s.timestamp), None];
        };
        let rows = &self.leaves[leaf];
        let (at, next) = match found {
            Ok(at) => (at, at + 1),
            Err(at) => (at, at),
        };
        let before = match at.checked_sub(1) {
            Some(i) => rows.get(i),
            None => leaf.checked_sub(1).and_then(|l| self.leaves[l].last()),
        };
        let after = match rows.get(next) {
            Some(row) => Some(row),
            None => self.leaves.get(leaf + 1).and_then(|l| l.first()),
        };
        [before, after].map(|row| row.map(|(_, s)| s.timestamp))
    }

    /// The leaf that holds `row_key` or should, and its place there (`Ok`: found); `None`
    /// when it goes after every row.
    ///
    /// Both binary searches are written out: at opt-level z, `partition_point` and
    /// `binary_search_by` call their closure at every step, and a point read in wasm took
    /// twice its native time, a third of it in those calls.
    fn find(&self, row_key: &Key) -> Option<(usize, Result<usize, usize>)> {
        let (mut lo, mut hi) = (0, self.leaves.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.leaves[mid].last() {
                Some((k, _)) if k.cmp(row_key) == Ordering::Less => lo = mid + 1,
                _ => hi = mid,
            }
        }
        let rows = self.leaves.get(lo)?;
        let (mut at, mut end) = (0, rows.len());
        while at < end {
            let mid = at + (end - at) / 2;
            match rows[mid].0.cmp(row_key) {
                Ordering::Less => at = mid + 1,
                Ordering::Greater => end = mid,
                Ordering::Equal => return Some((lo, Ok(mid))),
            }
        }
        Some((lo, Err(at)))
    }

    /// Adds a row after every other.
    fn append(&mut self, entry: Entry) {
        match self.leaves.last_mut() {
            Some(last) if last.len() < LEAF => last.push(entry),
            _ => {
                let mut leaf = Vec::with_capacity(4);
                leaf.push(entry);
                self.leaves.push(leaf);
            }
        }
        self.len += 1;
    }

    /// Inserts a row inside leaf `leaf` at `at`, splitting the leaf if it is full.
    fn insert_at(&mut self, leaf: usize, at: usize, entry: Entry) {
        let rows = &mut self.leaves[leaf];
        if rows.len() >= LEAF {
            let upper = rows.split_off(LEAF / 2);
            self.leaves.insert(leaf + 1, upper);
            let (leaf, at) = if at > LEAF / 2 {
                (leaf + 1, at - LEAF / 2)
            } else {
                (leaf, at)
            };
            self.leaves[leaf].insert(at, entry);
        } else {
            rows.insert(at, entry);
        }
        self.len += 1;
    }
}

/// The rows of a [`RowMap`] in order ([`RowMap::iter`]).
pub type Iter<'a> = std::iter::Map<
    std::iter::Flatten<std::slice::Iter<'a, Vec<Entry>>>,
    fn(&'a Entry) -> (&'a Key, &'a Stored),
>;

fn pair(entry: &Entry) -> (&Key, &Stored) {
    (&entry.0, &entry.1)
}

impl<'a> IntoIterator for &'a RowMap {
    type Item = (&'a Key, &'a Stored);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Record, Shape};
    use proptest::prelude::*;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    fn stored(n: u32) -> Stored {
        Stored {
            timestamp: DateTime::from_ticks(i64::from(n) + 1).unwrap(),
            properties: Record::encode(Arc::new(Shape::of(&[])), &[]),
        }
    }

    fn key(n: u16) -> Key {
        Key::new(&format!("r{n:05}"))
    }

    fn bound(kind: u8, n: u16) -> Bound<Key> {
        match kind % 3 {
            0 => Bound::Unbounded,
            1 => Bound::Included(key(n)),
            _ => Bound::Excluded(key(n)),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

        /// Any mix of inserts, replacements and removals reads back as a BTreeMap would:
        /// lookups, order, length and every range.
        #[test]
        fn a_row_map_is_a_sorted_map(
            ops in proptest::collection::vec((0u8..4, 0u16..400), 0..600),
            ranges in proptest::collection::vec((0u8..3, 0u16..420, 0u8..3, 0u16..420), 0..12),
        ) {
            let (mut map, mut model) = (RowMap::default(), BTreeMap::new());
            for (i, (op, n)) in ops.into_iter().enumerate() {
                let s = stored(i as u32);
                match op {
                    0 => prop_assert_eq!(map.insert(key(n), s.clone()), model.insert(key(n), s)),
                    1 => {
                        let new = !model.contains_key(&key(n));
                        prop_assert_eq!(map.insert_new(key(n), s.clone()), new);
                        model.entry(key(n)).or_insert(s);
                    }
                    2 => prop_assert_eq!(map.remove(&key(n)), model.remove(&key(n))),
                    _ => prop_assert_eq!(map.get(&key(n)), model.get(&key(n))),
                }
                prop_assert_eq!(map.len(), model.len());
            }
            prop_assert!(map.leaves.iter().all(|l| !l.is_empty() && l.len() <= LEAF));
            for pair in map.leaves.windows(2) {
                prop_assert!(pair[0][pair[0].len() - 1].0 < pair[1][0].0);
            }
            let all: Vec<_> = map.iter().collect();
            prop_assert_eq!(all, model.iter().collect::<Vec<_>>());
            for (lk, ln, uk, un) in ranges {
                let (lower, upper) = (bound(lk, ln), bound(uk, un));
                let got: Vec<_> = map.range((lower.as_ref(), upper.as_ref())).collect();
                let crossed = match (&lower, &upper) {
                    (Bound::Included(l) | Bound::Excluded(l), Bound::Included(u) | Bound::Excluded(u)) => {
                        l > u || (l == u && !matches!((&lower, &upper), (Bound::Included(_), Bound::Included(_))))
                    }
                    _ => false,
                };
                let want: Vec<_> = if crossed {
                    Vec::new()
                } else {
                    model.range::<Key, _>((lower.as_ref(), upper.as_ref())).collect()
                };
                prop_assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn appends_fill_leaves_and_inserts_split_them() {
        let mut map = RowMap::default();
        for n in 0..(LEAF as u16 * 2) {
            map.insert(key(n * 2), stored(0));
        }
        assert_eq!(
            map.leaves.iter().map(Vec::len).collect::<Vec<_>>(),
            [LEAF, LEAF]
        );
        map.insert(key(1), stored(0));
        assert_eq!(
            map.leaves.iter().map(Vec::len).collect::<Vec<_>>(),
            [LEAF / 2 + 1, LEAF / 2, LEAF]
        );
        assert_eq!(map.len(), LEAF * 2 + 1);

        // Rows that each go before every other: the first leaf splits as it fills.
        let mut map = RowMap::default();
        for n in (0..(LEAF as u16 * 2 + 1)).rev() {
            assert!(map.insert_new(key(n), stored(0)));
        }
        assert!(map.leaves.iter().all(|l| !l.is_empty() && l.len() <= LEAF));
        let keys: Vec<Key> = map.keys().cloned().collect();
        let sorted: Vec<Key> = (0..(LEAF as u16 * 2 + 1)).map(key).collect();
        assert_eq!(keys, sorted);
    }
}

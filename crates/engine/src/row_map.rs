//! A partition's rows in RowKey order, as sorted runs ("leaves") of at most [`LEAF`] rows,
//! kept in a B-tree by their first RowKey.
//!
//! A scan walks each leaf as a plain slice: no per-row call into a tree iterator, which the
//! browser's size-optimised build (opt-level z) does not inline, and a leaf's rows lie next to
//! each other in memory. A lookup is a B-tree search among the leaves, then a binary search
//! in one; an insert or a delete moves at most one leaf's rows, and adding or dropping a leaf
//! is one B-tree operation, so no order of inserts costs more than logarithmic time.
//!
//! Invariants: every leaf is non-empty, sorted, and holds at most [`LEAF`] rows; a leaf's key
//! in the tree is at most its first RowKey and above the previous leaf's last (a leaf whose
//! first row was removed keeps its key), so the leaf holding a RowKey, or where it goes, is
//! the last one keyed at or below it; `len` is the number of rows.

use crate::key::Key;
use crate::table::Stored;
use std::collections::BTreeMap;
use std::ops::Bound;

/// Rows per leaf at most. A full leaf splits in two, except when the new row goes after its
/// last row (loads mostly append): then a new leaf starts, and the full one stays full.
pub const LEAF: usize = 32;

type Entry = (Key, Stored);

#[derive(Debug, Clone, Default)]
pub struct RowMap {
    leaves: BTreeMap<Key, Vec<Entry>>,
    len: usize,
}

impl RowMap {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, row_key: &Key) -> Option<&Stored> {
        let (_, leaf) = self.leaf_for(row_key)?;
        let at = leaf.binary_search_by(|(k, _)| k.cmp(row_key)).ok()?;
        Some(&leaf[at].1)
    }

    pub fn contains_key(&self, row_key: &Key) -> bool {
        self.get(row_key).is_some()
    }

    /// Stores `stored` under `row_key`; returns the row it replaced.
    pub fn insert(&mut self, row_key: Key, stored: Stored) -> Option<Stored> {
        match self.add(row_key, stored, true) {
            Ok(replaced) => replaced,
            Err(_) => None,
        }
    }

    /// Stores a new row; `false` (and nothing changed) when `row_key` is there already.
    pub fn insert_new(&mut self, row_key: Key, stored: Stored) -> bool {
        self.add(row_key, stored, false).is_ok()
    }

    pub fn remove(&mut self, row_key: &Key) -> Option<Stored> {
        let (first, leaf) = self
            .leaves
            .range_mut::<Key, _>((Bound::Unbounded, Bound::Included(row_key)))
            .next_back()?;
        let at = leaf.binary_search_by(|(k, _)| k.cmp(row_key)).ok()?;
        let (_, stored) = leaf.remove(at);
        // The leaf keeps its key when its first row goes (the key only has to stay at or
        // below its first row); an emptied leaf leaves the tree.
        let emptied = leaf.is_empty().then(|| first.clone());
        if let Some(first) = emptied {
            self.leaves.remove(&first);
        }
        self.len -= 1;
        Some(stored)
    }

    /// Every row in RowKey order.
    pub fn iter(&self) -> Iter<'_> {
        self.leaves
            .values()
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
    ) -> impl Iterator<Item = (&Key, &Stored)> + Clone {
        self.range_slices(bounds).flatten().map(pair)
    }

    /// [`RowMap::range`] as runs of consecutive rows: what a scan walks.
    pub fn range_slices(
        &self,
        (lower, upper): (Bound<&Key>, Bound<&Key>),
    ) -> impl Iterator<Item = &[(Key, Stored)]> + Clone {
        // The leaf where the range starts: the one that holds (or would hold) its lower end.
        let start = match lower {
            Bound::Unbounded => None,
            Bound::Included(k) | Bound::Excluded(k) => self.leaf_for(k).map(|(first, _)| first),
        };
        let leaves = self
            .leaves
            .range::<Key, _>((
                start.map_or(Bound::Unbounded, Bound::Included),
                Bound::Unbounded,
            ))
            .map(|(_, leaf)| leaf);
        // Owned, so the runs outlive the caller's bounds.
        let (lower, upper) = (lower.map(Key::clone), upper.map(Key::clone));
        let mut done = false;
        leaves
            .enumerate()
            .map_while(move |(i, leaf)| {
                if done {
                    return None;
                }
                let from = if i == 0 {
                    leaf.partition_point(|(k, _)| below(&lower, k))
                } else {
                    0
                };
                let within = |k: &Key| match &upper {
                    Bound::Unbounded => true,
                    Bound::Included(u) => k <= u,
                    Bound::Excluded(u) => k < u,
                };
                let to = match leaf.last() {
                    Some((last, _)) if within(last) => leaf.len(),
                    _ => {
                        done = true;
                        leaf.partition_point(|(k, _)| within(k))
                    }
                };
                Some(&leaf[from..to.max(from)])
            })
            .filter(|run| !run.is_empty())
    }

    /// The leaf that holds `row_key` or would: the last keyed at or below it.
    fn leaf_for(&self, row_key: &Key) -> Option<(&Key, &Vec<Entry>)> {
        self.leaves
            .range::<Key, _>((Bound::Unbounded, Bound::Included(row_key)))
            .next_back()
    }

    /// Adds a row, or with `replace` replaces the row with its key (`Ok(Some(old))`); without,
    /// an existing key changes nothing and gives `stored` back.
    fn add(
        &mut self,
        row_key: Key,
        stored: Stored,
        replace: bool,
    ) -> Result<Option<Stored>, Stored> {
        let Some((_, leaf)) = self
            .leaves
            .range_mut::<Key, _>((Bound::Unbounded, Bound::Included(&row_key)))
            .next_back()
        else {
            self.add_first(row_key, stored);
            return Ok(None);
        };
        let at = match leaf.binary_search_by(|(k, _)| k.cmp(&row_key)) {
            Ok(at) if replace => return Ok(Some(std::mem::replace(&mut leaf[at].1, stored))),
            Ok(_) => return Err(stored),
            Err(at) => at,
        };
        let new_leaf = if leaf.len() < LEAF {
            leaf.insert(at, (row_key, stored));
            None
        } else if at == leaf.len() {
            // After a full leaf's last row: a new leaf, keyed by the row, sized for the rows
            // that likely follow it.
            let mut next = Vec::with_capacity(LEAF);
            next.push((row_key, stored));
            Some(next)
        } else {
            let mut upper = leaf.split_off(LEAF / 2);
            if at > LEAF / 2 {
                upper.insert(at - LEAF / 2, (row_key, stored));
            } else {
                leaf.insert(at, (row_key, stored));
            }
            Some(upper)
        };
        if let Some(new_leaf) = new_leaf {
            self.leaves.insert(new_leaf[0].0.clone(), new_leaf);
        }
        self.len += 1;
        Ok(None)
    }

    /// Adds a row before every other: into the first leaf (then keyed by the row) when it has
    /// room, else as a new first leaf.
    fn add_first(&mut self, row_key: Key, stored: Stored) {
        match self.leaves.pop_first() {
            Some((_, mut leaf)) if leaf.len() < LEAF => {
                leaf.insert(0, (row_key.clone(), stored));
                self.leaves.insert(row_key, leaf);
            }
            Some((first, leaf)) => {
                self.leaves.insert(first, leaf);
                self.leaves.insert(row_key.clone(), vec![(row_key, stored)]);
            }
            None => {
                self.leaves.insert(row_key.clone(), vec![(row_key, stored)]);
            }
        }
        self.len += 1;
    }
}

/// Whether `k` lies below the range's lower bound.
fn below(lower: &Bound<Key>, k: &Key) -> bool {
    match lower {
        Bound::Unbounded => false,
        Bound::Included(l) => k < l,
        Bound::Excluded(l) => k <= l,
    }
}

/// The rows of a [`RowMap`] in order ([`RowMap::iter`]).
pub type Iter<'a> = std::iter::Map<
    std::iter::Flatten<std::collections::btree_map::Values<'a, Key, Vec<Entry>>>,
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
    use crate::datetime::DateTime;
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
            let leaves: Vec<_> = map.leaves.iter().collect();
            for (i, (first, leaf)) in leaves.iter().enumerate() {
                prop_assert!(!leaf.is_empty() && leaf.len() <= LEAF);
                prop_assert!(*first <= &leaf[0].0);
                if let Some((next, _)) = leaves.get(i + 1) {
                    prop_assert!(&leaf[leaf.len() - 1].0 < *next);
                }
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
            map.leaves.values().map(Vec::len).collect::<Vec<_>>(),
            [LEAF, LEAF]
        );
        map.insert(key(1), stored(0));
        assert_eq!(
            map.leaves.values().map(Vec::len).collect::<Vec<_>>(),
            [LEAF / 2 + 1, LEAF / 2, LEAF]
        );
        assert_eq!(map.len(), LEAF * 2 + 1);

        // Rows that each go before every other fill a first leaf, then start a new one.
        let mut map = RowMap::default();
        for n in (0..(LEAF as u16 * 2 + 1)).rev() {
            assert!(map.insert_new(key(n), stored(0)));
        }
        assert_eq!(
            map.leaves.values().map(Vec::len).collect::<Vec<_>>(),
            [1, LEAF, LEAF]
        );
        let keys: Vec<Key> = map.keys().cloned().collect();
        let sorted: Vec<Key> = (0..(LEAF as u16 * 2 + 1)).map(key).collect();
        assert_eq!(keys, sorted);
    }
}

//! A batch of inserts only, the common bulk load, applied as a run of rows
//! ([`Account::insert_run`]): each entity's values go from the request into its record
//! without becoming an [`crate::entity::Entity`] first, and its names are interned and
//! counted once per batch instead of once per property.
//!
//! Invariant: [`run`] either applies the whole batch as the general path would (the same
//! rows and Timestamp, the same results, one change set naming the same entities) or applies
//! nothing, leaves the clock alone and returns `None`. Then the general path runs and gives
//! the batch's exact answer, so every refusal, and every batch this path does not take
//! (other operations, an If-Match, a fault anywhere), keeps the general path's behaviour.

use super::{BatchOperation, BatchResult};
use crate::account::{Account, WriteMode};
use crate::json::{Decoded, Decoder};
use crate::record::ValueRef;
use crate::rows::Row;
use std::collections::HashSet;

/// Applies a batch of plain inserts (no If-Match) into one partition, or nothing (`None`).
pub(super) fn run(
    account: &mut Account,
    table: &str,
    operations: &[BatchOperation],
) -> Option<Vec<BatchResult>> {
    let mut decoder = Decoder::default();
    let mut properties: Vec<(&str, Decoded)> = Vec::with_capacity(operations.len() * 8);
    // Each row's RowKey and where its properties end in `properties`.
    let mut rows: Vec<(&str, usize)> = Vec::with_capacity(operations.len());
    let mut partition_key = None;
    for op in operations {
        let BatchOperation::Write {
            mode: WriteMode::Insert,
            entity,
            if_match: None,
        } = op
        else {
            return None;
        };
        // Names are checked once each, by the run.
        let keys = decoder.decode(entity, false, false, &mut properties).ok()?;
        let (pk, rk) = keys.required().ok()?;
        if *partition_key.get_or_insert(pk) != pk {
            return None;
        }
        rows.push((rk, properties.len()));
    }
    if !unique(rows.iter().map(|(rk, _)| *rk)) {
        return None;
    }

    let mut names = BatchNames::default();
    let mut positions = Vec::with_capacity(properties.len());
    let mut start = 0;
    let mut previous = 0..0;
    for &(_, end) in &rows {
        for (k, (name, _)) in properties[start..end].iter().enumerate() {
            // Entities of a batch mostly list the same names in the same order: the name
            // at the same place in the row before is tried first.
            let guess = positions
                .get(previous.start + k)
                .filter(|_| k < previous.len());
            positions.push(names.position(name, guess.copied())?);
        }
        previous = start..end;
        start = end;
    }
    let values: Vec<ValueRef> = properties.iter().map(|(_, v)| v.as_ref()).collect();
    let row = |i: usize| {
        let start = i.checked_sub(1).map_or(0, |before| rows[before].1);
        let end = rows[i].1;
        Row {
            row_key: rows[i].0,
            names: &positions[start..end],
            values: &values[start..end],
        }
    };

    let mut run = account
        .insert_run(table, partition_key?, &names.list)
        .ok()?;
    // Every row is checked before any is stored; a refused row leaves the run empty, and
    // dropping an empty run changes nothing.
    let keys: Vec<_> = (0..rows.len())
        .map(|i| run.accepts(&row(i)))
        .collect::<Option<_>>()?;
    let stamp = run.next_timestamp().ok()?;
    for (i, row_key) in keys.into_iter().enumerate() {
        // Cannot fail: the row was accepted, and the batch's RowKeys are unique.
        let stored = run.insert_at(row(i), row_key, stamp);
        debug_assert!(stored.is_ok(), "an accepted row was refused: {stored:?}");
    }
    run.finish();
    let written = BatchResult::Written {
        status: 201,
        timestamp: stamp,
        bytes: 0,
    };
    Some(vec![written; rows.len()])
}

/// Whether no RowKey repeats: keys in ascending order (as bulk loads mostly send them) are
/// unique without hashing.
fn unique<'r>(row_keys: impl Iterator<Item = &'r str> + Clone) -> bool {
    let mut pairs = row_keys.clone().zip(row_keys.clone().skip(1));
    if pairs.all(|(a, b)| a < b) {
        return true;
    }
    let mut seen = HashSet::new();
    row_keys.into_iter().all(|rk| seen.insert(rk))
}

/// The batch's distinct property names in the order met, searched in place: at most
/// [`BatchNames::MAX`] (a batch with more takes the general path, so no search grows long).
#[derive(Default)]
struct BatchNames<'r> {
    list: Vec<&'r str>,
}

impl<'r> BatchNames<'r> {
    const MAX: usize = 64;

    /// The position of `name`, added if new (`guess` is tried first); `None` past
    /// [`BatchNames::MAX`] names.
    fn position(&mut self, name: &'r str, guess: Option<usize>) -> Option<usize> {
        if let Some(g) = guess.filter(|g| self.list.get(*g) == Some(&name)) {
            return Some(g);
        }
        if let Some(at) = self.list.iter().position(|n| *n == name) {
            return Some(at);
        }
        if self.list.len() == Self::MAX {
            return None;
        }
        self.list.push(name);
        Some(self.list.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run as run_batch, run_each, BatchOperation};
    use crate::account::{Account, WriteMode};
    use crate::changes::Change;
    use crate::clock::FixedClock;
    use crate::json::RawEntity;
    use proptest::prelude::*;
    use serde_json::{json, Value as Json};

    fn inserts(entities: &[RawEntity]) -> Vec<BatchOperation<'_>> {
        entities
            .iter()
            .map(|entity| BatchOperation::Write {
                mode: WriteMode::Insert,
                entity,
                if_match: None,
            })
            .collect()
    }

    /// An account with table `Tab`, holding rows `existing` of partition `p`.
    fn account(existing: &[u8]) -> Account {
        let mut a = Account::new(Box::new(FixedClock::default()));
        a.create_table("Tab").unwrap();
        for rk in existing {
            let e = crate::entity::Entity::new("p", rk.to_string())
                .with("Name", crate::value::Value::string("old"));
            a.insert("Tab", e).unwrap();
        }
        a.take_changes();
        a
    }

    /// The entities each change set names, in order (a run's RowsInserted expanded).
    fn written(a: &mut Account) -> Vec<Vec<(String, String, String)>> {
        let name = |t: &str, p: &str, r: &str| (t.to_string(), p.to_string(), r.to_string());
        a.take_changes()
            .into_iter()
            .map(|set| {
                set.iter()
                    .flat_map(|c| match c {
                        Change::EntityWritten {
                            table,
                            partition_key,
                            row_key,
                        } => vec![name(table, partition_key, row_key)],
                        Change::RowsInserted {
                            table,
                            partition_key,
                            row_keys,
                        } => row_keys
                            .iter()
                            .map(|r| name(table, partition_key, r.as_str()))
                            .collect(),
                        other => panic!("a batch of inserts recorded {other:?}"),
                    })
                    .collect()
            })
            .collect()
    }

    /// Members to draw an entity from: plain, annotated, null, ignored, and faulty ones.
    fn member(pick: u8) -> Vec<(String, Json)> {
        let m = |n: &str, v: Json| (n.to_string(), v);
        let typed =
            |n: &str, t: &str, v: Json| vec![m(&format!("{n}@odata.type"), json!(t)), m(n, v)];
        match pick {
            0 => vec![m("Name", json!("Ann"))],
            1 => vec![m("Age", json!(30))],
            2 => typed("Big", "Edm.Int64", json!("9007199254740993")),
            3 => typed(
                "When",
                "Edm.DateTime",
                json!("2024-02-29T12:00:00.1234567Z"),
            ),
            4 => typed("Bin", "Edm.Binary", json!("AQID")),
            5 => typed(
                "G",
                "Edm.Guid",
                json!("c9da6455-213d-42c9-9a79-3e9149a57833"),
            ),
            6 => vec![m("D", json!(2.5))],
            7 => vec![m("Flag", json!(true))],
            8 => vec![m("Gone", Json::Null)],
            9 => vec![
                m("odata.etag", json!("W/\"x\"")),
                m("Timestamp", json!("2020-01-01T00:00:00Z")),
            ],
            10 => vec![m("bad name", json!(1))],
            11 => vec![m("Long", json!("x".repeat(40_000)))],
            12 => typed("Odd", "Edm.Nope", json!(1)),
            13 => vec![m("Name", json!("again"))],
            14 => vec![m("Huge", json!(1_i64 << 40))],
            15 => typed("Late", "Edm.DateTime", json!("1500-01-01T00:00:00Z")),
            16 => vec![m("PartitionKey", json!("q"))],
            17 => vec![m("Nested", json!({"a": 1}))],
            _ => vec![m("Age", json!(31))],
        }
    }

    fn entity(pk: u8, rk: u8, members: &[u8]) -> RawEntity {
        let mut all = Vec::new();
        match pk {
            0 => {}
            1 => all.push(("PartitionKey".to_string(), json!("q"))),
            2 => all.push(("PartitionKey".to_string(), json!("a/b"))),
            _ => all.push(("PartitionKey".to_string(), json!("p"))),
        }
        let row_key = match rk {
            20 => json!("bad#key"),
            21 => json!("k".repeat(1025)),
            22 => Json::Null,
            rk => json!(rk.to_string()),
        };
        all.push(("RowKey".to_string(), row_key));
        for pick in members {
            all.extend(member(*pick));
        }
        RawEntity(all)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

        /// The run of inserts and the general path answer, store, count, stamp and record
        /// every batch of inserts alike, accepted or refused.
        #[test]
        fn a_run_of_inserts_is_the_general_path(
            existing in proptest::collection::btree_set(0u8..12, 0..4),
            ops in proptest::collection::vec(
                ((0u8..12).prop_map(|p| p.min(3)), (0u8..24).prop_map(|r| if r < 20 { r % 12 } else { r }),
                 proptest::collection::vec(0u8..24, 0..6)),
                1..10),
            feed in any::<bool>(),
        ) {
            let existing: Vec<u8> = existing.into_iter().collect();
            let entities: Vec<RawEntity> = ops.iter().map(|(pk, rk, m)| entity(*pk, *rk, m)).collect();
            let operations = inserts(&entities);
            let (mut fast, mut general) = (account(&existing), account(&existing));
            fast.set_change_feed(feed);
            general.set_change_feed(feed);
            let a = run_batch(&mut fast, "Tab", &operations);
            let b = run_each(&mut general, "Tab", &operations);
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(fast.export(), general.export());
            prop_assert_eq!(fast.table("Tab").unwrap().columns(), general.table("Tab").unwrap().columns());
            prop_assert_eq!(fast.last_timestamp(), general.last_timestamp());
            prop_assert_eq!(written(&mut fast), written(&mut general));
        }
    }

    #[test]
    fn a_clean_batch_takes_the_run_and_a_refused_one_changes_nothing() {
        let entities: Vec<RawEntity> = (0..3).map(|rk| entity(3, rk, &[0, 2, 3, 8])).collect();
        let operations = inserts(&entities);
        let mut a = account(&[]);
        let results = super::run(&mut a, "Tab", &operations).expect("taken as a run");
        assert_eq!(results.len(), 3);
        assert_eq!(a.table("Tab").unwrap().entity_count(), 3);
        let stored = a.get("Tab", "p", "1").unwrap();
        assert_eq!(stored.properties.len(), 3, "{stored:?}");
        assert_eq!(
            written(&mut a),
            vec![vec![
                ("Tab".to_string(), "p".to_string(), "0".to_string()),
                ("Tab".to_string(), "p".to_string(), "1".to_string()),
                ("Tab".to_string(), "p".to_string(), "2".to_string()),
            ]]
        );

        // More distinct names than the run searches: the general path takes the batch.
        let wide: Vec<RawEntity> = (0..2)
            .map(|e| {
                let mut raw = entity(3, 10 + e, &[]);
                raw.0
                    .extend((0..40).map(|i| (format!("P{e}x{i}"), json!(i))));
                raw
            })
            .collect();
        let wide_ops = inserts(&wide);
        assert_eq!(super::run(&mut a, "Tab", &wide_ops), None);
        assert_eq!(run_batch(&mut a, "Tab", &wide_ops).map(|r| r.len()), Ok(2));
        assert_eq!(a.get("Tab", "p", "11").unwrap().properties.len(), 40);
        a.take_changes();

        // The same RowKeys again: nothing stored, nothing recorded, the clock where it was.
        let clock = a.last_timestamp();
        let before = a.export();
        assert_eq!(super::run(&mut a, "Tab", &operations), None);
        assert_eq!(a.export(), before);
        assert_eq!(a.last_timestamp(), clock);
        assert!(a.take_changes().is_empty());
    }
}

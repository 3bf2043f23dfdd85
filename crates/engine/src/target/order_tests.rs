//! The container's order of a Cosmos table, whichever way it is kept (the rows' own key
//! order, or positions once writes left key order): every query page walks entities by
//! Timestamp, ties by keys, and a continuation resumes exactly where its page stopped.

use crate::datetime::DateTime;
use crate::entity::{Entity, PropertyName};
use crate::filter;
use crate::key::Key;
use crate::query::{execute_page, plan, QueryOptions};
use crate::record::{Record, Shape};
use crate::table::{Stored, Table};
use crate::value::Value;
use crate::Target;
use proptest::prelude::*;
use std::sync::Arc;

/// Every page of `filter` on `table`, `top` entities a page: the keys in order (at most
/// 200 pages: a continuation that does not advance ends the walk).
fn pages(table: &Table, filter: &str, top: u32) -> Vec<(String, String)> {
    let mut options = QueryOptions {
        top: Some(top),
        ..QueryOptions::default()
    };
    let mut keys = Vec::new();
    for _ in 0..200 {
        let p = plan(filter::parse(filter).expect("parse"));
        let page = execute_page(table, p, &options, false).expect("page");
        keys.extend(page.entities.iter().map(|f| {
            (
                f.partition_key.as_str().to_string(),
                f.row_key.as_str().to_string(),
            )
        }));
        match page.continuation {
            Some(next) => options.continuation = Some(next),
            None => break,
        }
    }
    keys
}

/// The keys of `table`'s entities that `keep` admits, by Timestamp, ties by keys.
fn by_timestamp(table: &Table, keep: impl Fn(&str) -> bool) -> Vec<(String, String)> {
    let mut rows: Vec<_> = table
        .partitions()
        .iter()
        .filter(|(pk, _)| keep(pk.as_str()))
        .flat_map(|(pk, p)| p.rows.iter().map(move |(rk, s)| (s.timestamp, pk, rk)))
        .collect();
    rows.sort();
    rows.into_iter()
        .map(|(_, pk, rk)| (pk.as_str().to_string(), rk.as_str().to_string()))
        .collect()
}

proptest! {
    /// Writes in any order (Timestamps out of key order, ties, overwrites, removals, rows
    /// added as a bulk load adds them, the table emptied and refilled), then a table copied from storage: every query reads in
    /// the container's order, across pages.
    #[test]
    fn pages_walk_the_container_order(
        ops in proptest::collection::vec((0u8..4, 0u8..3, 0u8..4, 0i64..6), 0..60),
        top in 1u32..4,
    ) {
        let mut table = Table::for_target("T", Target::CosmosTable);
        for (op, pk, rk, ticks) in ops {
            let (pk, rk) = (format!("p{pk}"), format!("r{rk}"));
            match op {
                0 => {
                    table.remove(&pk, &rk);
                }
                // A new row as a bulk load adds it (refused when the key is there).
                1 => {
                    let properties = vec![(PropertyName::from("A"), Value::Int32(1))];
                    let stored = Stored {
                        timestamp: DateTime::from_ticks(ticks + 1).expect("ticks"),
                        properties: Record::encode(Arc::new(Shape::of(&properties)), &properties),
                    };
                    let there = table.get(&pk, &rk).is_some();
                    prop_assert_eq!(table.insert_new(&Key::new(&pk), Key::new(&rk), stored), !there);
                }
                _ => {
                    let at = DateTime::from_ticks(ticks + 1).expect("ticks");
                    let e = Entity::new(pk, rk).with("A", Value::Int32(i32::from(op)));
                    table.put(e, at);
                }
            }
            prop_assert_eq!(pages(&table, "RowKey ne 'x'", top), by_timestamp(&table, |_| true));
        }
        let mut copied = table.clone();
        copied.set_target(Target::TableStorage);
        copied.set_target(Target::CosmosTable);
        for t in [&table, &copied] {
            prop_assert_eq!(pages(t, "RowKey ne 'x'", top), by_timestamp(t, |_| true));
            prop_assert_eq!(pages(t, "PartitionKey ge 'p1'", top), by_timestamp(t, |pk| pk >= "p1"));
            for pk in ["p0", "p1", "p2"] {
                let text = format!("PartitionKey eq '{pk}'");
                prop_assert_eq!(pages(t, &text, top), by_timestamp(t, |p| p == pk));
            }
        }
    }
}

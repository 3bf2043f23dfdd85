#![cfg(not(target_arch = "wasm32"))]
//! A docs embed's code cell runs on a lesson's data, loaded by sending the
//! lesson's writes through `tablescope_wire` as raw HTTP (`code::lesson_account`) instead of the
//! scenario runner. For every built-in lesson, the account it makes holds exactly the tables
//! and entities (properties, types and order) the runner's does at the lesson's end.

use std::path::Path;
use tablescope_engine::scenario::{self, Runner};
use tablescope_engine::{Account, Entity};

/// Every table's name and its entities without their Timestamps, in key order.
fn contents(account: &Account) -> Vec<(String, Vec<Entity>)> {
    account
        .tables()
        .map(|t| {
            let mut entities = Vec::new();
            for (pk, partition) in t.partitions() {
                for rk in partition.rows.keys() {
                    let mut e = t.entity(pk.as_str(), rk.as_str()).expect("a stored row");
                    e.timestamp = None;
                    entities.push(e);
                }
            }
            (t.name.clone(), entities)
        })
        .collect()
}

#[test]
fn every_lesson_leaves_the_same_data_through_the_wire_as_through_the_runner() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/scenarios");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("www/scenarios") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "json") || path.ends_with("index.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a lesson file");
        let lesson = scenario::parse(&text).expect("a valid lesson");
        let mut runner = Runner::new(lesson.clone());
        while runner.step().is_some() {}
        let expected = contents(&runner.account);
        let actual = contents(&tablescope_codegen::lesson_account(&lesson));
        assert!(
            expected.iter().map(|(_, e)| e.len()).sum::<usize>() > 0,
            "{}: the lesson leaves some data",
            path.display()
        );
        assert_eq!(actual, expected, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} lessons checked");
}

#![cfg(not(target_arch = "wasm32"))]
//! The built-in teaching scenarios in www/scenarios/: every file is listed in index.json (and
//! every listed file exists), every expectation holds when the file runs through the engine,
//! and every scenario shows the cost of at least one query (`scanned` and `kind` expected).

use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tablescope_engine::scenario;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/scenarios")
}

/// The `file` of each entry in index.json, in order; panics on a malformed index.
fn listed() -> Vec<String> {
    let text = std::fs::read_to_string(dir().join("index.json")).expect("index.json is readable");
    let index: Json = serde_json::from_str(&text).expect("index.json is valid JSON");
    let entries = index["scenarios"]
        .as_array()
        .expect("index.json has a \"scenarios\" list");
    entries
        .iter()
        .map(|e| {
            for field in ["file", "name", "summary"] {
                // A text, or translations by language whose `en` is the source text.
                let value = e[field]
                    .as_str()
                    .or_else(|| e[field]["en"].as_str())
                    .unwrap_or_default();
                assert!(!value.trim().is_empty(), "index entry {e} lacks {field}");
            }
            e["file"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

#[test]
fn index_lists_exactly_the_scenario_files() {
    let listed = listed();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(
        unique.len(),
        listed.len(),
        "a file is listed twice: {listed:?}"
    );
    for f in &listed {
        assert!(
            dir().join(f).is_file(),
            "index.json lists {f}, which does not exist"
        );
    }
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir())
        .expect("www/scenarios is readable")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && n != "index.json")
        .collect();
    let missing: Vec<&String> = on_disk.iter().filter(|n| !unique.contains(n)).collect();
    assert!(missing.is_empty(), "not listed in index.json: {missing:?}");
}

#[test]
fn every_teaching_scenario_holds() {
    let mut failures = Vec::new();
    for f in listed() {
        let text = std::fs::read_to_string(dir().join(&f)).expect("scenario file is readable");
        match scenario::run_text(&text) {
            Err(e) => failures.push(format!("{f}: {e}")),
            Ok(outcome) => {
                failures.extend(outcome.failures().into_iter().map(|m| format!("{f}: {m}")))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing fields:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_teaching_scenario_shows_what_a_query_scans() {
    for f in listed() {
        let text = std::fs::read_to_string(dir().join(&f)).expect("scenario file is readable");
        let s = scenario::parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(!s.name.trim().is_empty(), "{f}: no name");
        assert!(!s.description.trim().is_empty(), "{f}: no description");
        let costed = s
            .steps
            .iter()
            .filter(|st| st.op == "query")
            .filter_map(|st| st.expect.as_ref())
            .filter(|e| e.scanned.is_some() && e.kind.is_some())
            .count();
        assert!(
            costed > 0,
            "{f}: no query step expects both scanned and kind"
        );
        for (i, st) in s.steps.iter().enumerate() {
            let e = st.expect.as_ref();
            assert!(
                e.is_some_and(|e| e.status.is_some()),
                "{f}: step {i} ({}) expects no status",
                st.op
            );
            if st.op == "query" {
                let e = e.expect("checked above");
                assert!(
                    e.count.is_some()
                        && e.scanned.is_some()
                        && e.kind.is_some()
                        && e.continuation.is_some(),
                    "{f}: query step {i} must expect count, scanned, kind and continuation"
                );
                assert!(st.note.is_some(), "{f}: query step {i} has no note");
            }
        }
    }
}

#![cfg(target_arch = "wasm32")]
//! The Learn section's pure parts in the browser build: the player's hand-built requests
//! agree with the engine's runner on every shipped scenario, the partition map's layout,
//! and the Markdown subset.

use tablescope::engine::scenario::{self, Runner};
use tablescope::ui::sections::teach::{layout, parse_index, steps};
use tablescope::ui::widgets::markdown::{blocks, inlines, Block, Inline};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SCENARIOS: [(&str, &str); 10] = [
    ("employees", include_str!("../www/scenarios/employees.json")),
    (
        "query-kinds",
        include_str!("../www/scenarios/query-kinds.json"),
    ),
    (
        "compound-keys",
        include_str!("../www/scenarios/compound-keys.json"),
    ),
    (
        "batch-update",
        include_str!("../www/scenarios/batch-update.json"),
    ),
    (
        "intra-partition-index",
        include_str!("../www/scenarios/intra-partition-index.json"),
    ),
    (
        "index-entities",
        include_str!("../www/scenarios/index-entities.json"),
    ),
    ("log-tail", include_str!("../www/scenarios/log-tail.json")),
    (
        "hot-partition",
        include_str!("../www/scenarios/hot-partition.json"),
    ),
    (
        "empty-pages",
        include_str!("../www/scenarios/empty-pages.json"),
    ),
    (
        "cosmos-table",
        include_str!("../www/scenarios/cosmos-table.json"),
    ),
];

#[wasm_bindgen_test]
fn hand_built_requests_match_the_engine_runner_on_every_scenario() {
    for (name, text) in SCENARIOS {
        let parsed = scenario::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let engine = scenario::run(parsed.clone());
        let mut mine = Runner::new(parsed);
        while steps::run_next(&mut mine).is_some() {}
        assert_eq!(mine.outcomes.len(), engine.steps.len(), "{name}");
        for (a, b) in mine.outcomes.iter().zip(&engine.steps) {
            assert_eq!(a.request, b.request, "{name} step {}", a.index);
            assert_eq!(
                a.response.status, b.response.status,
                "{name} step {}",
                a.index
            );
            assert_eq!(
                a.response.stats, b.response.stats,
                "{name} step {}",
                a.index
            );
            assert_eq!(
                (a.response.ru, &a.response.index, &a.switched),
                (b.response.ru, &b.response.index, &b.switched),
                "{name} step {}",
                a.index
            );
            assert_eq!(a.failures, b.failures, "{name} step {}", a.index);
            assert!(
                a.failures.is_empty(),
                "{name} step {}: {:?}",
                a.index,
                a.failures
            );
        }
    }
}

#[wasm_bindgen_test]
fn an_unknown_field_is_an_error_not_ignored() {
    let text = r#"{"format":1,"steps":[{"op":"createTable","table":"T","colour":"red"}]}"#;
    let mut runner = Runner::new(scenario::parse(text).unwrap());
    let outcome = steps::run_next(&mut runner).unwrap();
    assert_eq!(outcome.request, None);
    assert_eq!(outcome.failures.len(), 1);
    assert_eq!(outcome.failures[0].actual, "unknown field `colour`");
}

fn keys(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(p, r)| (p.to_string(), r.to_string()))
        .collect()
}

#[wasm_bindgen_test]
fn the_map_marks_each_entity_at_its_place() {
    let rows = vec![
        ("A".to_string(), vec!["1".into(), "2".into(), "3".into()]),
        ("B".to_string(), vec!["1".into(), "2".into()]),
    ];
    let scanned = keys(&[("A", "2"), ("A", "3"), ("B", "1")]);
    let returned = keys(&[("A", "3")]);
    let map = layout(&rows, &scanned, &returned);
    assert_eq!(
        (map.bucket, map.entities, map.scanned, map.returned),
        (1, 5, 3, 1)
    );
    let states: Vec<Vec<&str>> = map
        .partitions
        .iter()
        .map(|p| p.cells.iter().map(|c| c.state()).collect())
        .collect();
    assert_eq!(
        states,
        [
            vec!["untouched", "scanned", "returned"],
            vec!["scanned", "untouched"]
        ]
    );
}

#[wasm_bindgen_test]
fn row_keys_are_found_in_the_services_utf16_order() {
    // UTF-16 puts a surrogate pair (U+1F600, 0xD83D…) before U+FF61; UTF-8 byte order puts it
    // after. The rows come in the service's order, and each key must still be found.
    let rows = vec![(
        "P".to_string(),
        vec!["a".into(), "\u{1F600}".into(), "\u{FF61}".into()],
    )];
    let scanned = keys(&[("P", "\u{1F600}"), ("P", "\u{FF61}")]);
    let returned = keys(&[("P", "\u{FF61}")]);
    let map = layout(&rows, &scanned, &returned);
    let states: Vec<&str> = map.partitions[0].cells.iter().map(|c| c.state()).collect();
    assert_eq!(states, ["untouched", "scanned", "returned"]);
    assert_eq!((map.scanned, map.returned), (2, 1));
}

#[wasm_bindgen_test]
fn a_large_table_is_drawn_in_buckets() {
    let rows = vec![(
        "P".to_string(),
        (0..100_000).map(|i| format!("{i:06}")).collect::<Vec<_>>(),
    )];
    let scanned: Vec<(String, String)> = (0..10_000)
        .map(|i| ("P".to_string(), format!("{i:06}")))
        .collect();
    let returned = keys(&[("P", "000005")]);
    let map = layout(&rows, &scanned, &returned);
    assert_eq!(map.bucket, 67, "100,000 entities in at most 1,500 cells");
    let cells = &map.partitions[0].cells;
    assert_eq!(cells.len(), 1_493);
    assert_eq!(cells[0].state(), "returned");
    assert_eq!(cells[1].state(), "scanned");
    assert_eq!(cells[1].percent(), 100);
    assert_eq!(
        cells[149].state(),
        "scanned",
        "entities 9,983..10,049: 17 of 67 scanned"
    );
    assert_eq!(cells[149].percent(), 25);
    assert_eq!(cells[150].state(), "untouched");
    assert_eq!((map.scanned, map.returned), (10_000, 1));
}

/// 1,000 partitions `p000`..`p999` of 3 entities each.
fn thousand_partitions() -> Vec<(String, Vec<String>)> {
    (0..1_000)
        .map(|p| (format!("p{p:03}"), vec!["a".into(), "b".into(), "c".into()]))
        .collect()
}

#[wasm_bindgen_test]
fn a_match_in_the_999th_of_1000_partitions_is_drawn_in_a_row_of_its_own() {
    let rows = thousand_partitions();
    // A partition scan of p998: 3 scanned, 1 returned.
    let scanned = keys(&[("p998", "a"), ("p998", "b"), ("p998", "c")]);
    let returned = keys(&[("p998", "b")]);
    let map = layout(&rows, &scanned, &returned);
    assert!(map.partitions.len() <= 62, "{} rows", map.partitions.len());
    let covered: usize = map.partitions.iter().map(|r| r.partitions).sum();
    assert_eq!(
        covered, 1_000,
        "every partition is drawn, alone or in a band"
    );
    let row = map
        .partitions
        .iter()
        .find(|r| r.partition_key == "p998")
        .expect("the touched partition has a row");
    assert_eq!((row.partitions, row.last_key.as_deref()), (1, None));
    // 3,000 entities in at most 1,500 cells: two per cell, so (a, b) then (c).
    assert_eq!(map.bucket, 2);
    let states: Vec<&str> = row.cells.iter().map(|c| c.state()).collect();
    assert_eq!(states, ["returned", "scanned"]);
    // The bands around it hold only untouched partitions, in key order.
    let before = &map.partitions[map.partitions.len() - 3];
    assert_eq!(before.last_key.as_deref(), Some("p997"));
    let after = map.partitions.last().unwrap();
    assert_eq!(
        (after.partition_key.as_str(), after.partitions),
        ("p999", 1)
    );
    assert_eq!((map.scanned, map.returned), (3, 1));
}

#[wasm_bindgen_test]
fn a_table_scan_of_1000_partitions_shows_its_matches_wherever_they_are() {
    let rows = thousand_partitions();
    let scanned: Vec<(String, String)> = rows
        .iter()
        .flat_map(|(pk, rks)| rks.iter().map(move |rk| (pk.clone(), rk.clone())))
        .collect();
    // Matches in 40 partitions, more than get rows of their own.
    let returned: Vec<(String, String)> = (0..40)
        .map(|i| (format!("p{:03}", i * 25 + 24), "c".to_string()))
        .collect();
    let map = layout(&rows, &scanned, &returned);
    assert!(map.partitions.len() <= 90, "{} rows", map.partitions.len());
    let covered: usize = map.partitions.iter().map(|r| r.partitions).sum();
    assert_eq!(covered, 1_000);
    assert_eq!((map.scanned, map.returned), (3_000, 40));
    let drawn_returned: usize = map.partitions.iter().map(|r| r.returned).sum();
    assert_eq!(
        drawn_returned, 40,
        "every returned entity is in some drawn row"
    );
    let returned_cells: u32 = map
        .partitions
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| c.returned)
        .sum();
    assert_eq!(returned_cells, 40);
    // The first 30 partitions with matches have rows of their own; the rest are in bands.
    let own = map
        .partitions
        .iter()
        .filter(|r| r.partitions == 1 && r.returned == 1)
        .count();
    assert_eq!(own, 30);
    assert!(map
        .partitions
        .iter()
        .any(|r| r.partitions > 1 && r.returned > 0));
}

#[wasm_bindgen_test]
fn markdown_is_a_small_subset_of_text_runs() {
    assert_eq!(
        inlines("a `b` **c** <i>d</i> *f* 2 * 3 **e"),
        vec![
            Inline::Text("a ".into()),
            Inline::Code("b".into()),
            Inline::Text(" ".into()),
            Inline::Bold("c".into()),
            Inline::Text(" <i>d</i> ".into()),
            Inline::Emphasis("f".into()),
            Inline::Text(" 2 * 3 **e".into()),
        ]
    );
    assert_eq!(
        blocks("One\nline.\n\n* x\n* y"),
        vec![
            Block::Paragraph(vec![Inline::Text("One line.".into())]),
            Block::List(vec![
                vec![Inline::Text("x".into())],
                vec![Inline::Text("y".into())]
            ]),
        ]
    );
}

#[wasm_bindgen_test]
fn the_scenario_index_lists_every_file() {
    let entries = parse_index(include_str!("../www/scenarios/index.json")).unwrap();
    let files: Vec<&str> = entries.iter().map(|e| e.file.as_str()).collect();
    let shipped: Vec<String> = SCENARIOS.iter().map(|(n, _)| format!("{n}.json")).collect();
    assert_eq!(files, shipped);
    assert!(tablescope::ui::sections::teach::is_scenario_file(
        "query-kinds.json"
    ));
    assert!(!tablescope::ui::sections::teach::is_scenario_file(
        "../secret.json"
    ));
    assert!(!tablescope::ui::sections::teach::is_scenario_file(
        "https://x/y.json"
    ));
}

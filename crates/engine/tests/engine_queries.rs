#![cfg(not(target_arch = "wasm32"))]
//! Queries: kinds and what they scan, order, projection, $top, paging with budgets.

mod common;
use common::*;
use tablescope_engine::filter::{CmpOp, SyntaxError, SyntaxErrorKind};
use tablescope_engine::query::{AdviceKind, Severity, Summary};
use tablescope_engine::{Account, Continuation, Detail, QueryKind, Request};

/// Partitions a, b, c with rows 1..=5 each; Age = row number.
fn sample() -> Account {
    let mut a = account_with("Emp");
    for pk in ["a", "b", "c"] {
        for rk in 1..=5 {
            insert(
                &mut a,
                "Emp",
                &format!(r#"{{"PartitionKey":"{pk}","RowKey":"{rk}","Age":{rk}}}"#),
            );
        }
    }
    a
}

fn figures(r: &tablescope_engine::Response) -> (u64, u64, u64, QueryKind) {
    let s = r.stats.expect("query stats");
    (s.scanned, s.returned, s.partitions, s.kind)
}

#[test]
fn each_kind_scans_exactly_its_range() {
    let mut a = sample();
    let r = query(&mut a, "Emp", "PartitionKey eq 'b' and RowKey eq '3'");
    assert_eq!(figures(&r), (1, 1, 1, QueryKind::Point));
    let r = query(&mut a, "Emp", "PartitionKey eq 'b' and RowKey eq '9'");
    assert_eq!(figures(&r), (0, 0, 0, QueryKind::Point));
    let r = query(
        &mut a,
        "Emp",
        "PartitionKey eq 'b' and RowKey ge '2' and RowKey lt '4'",
    );
    assert_eq!(figures(&r), (2, 2, 1, QueryKind::PartitionRange));
    let r = query(&mut a, "Emp", "PartitionKey eq 'b' and Age gt 3");
    assert_eq!(figures(&r), (5, 2, 1, QueryKind::PartitionScan));
    let r = query(
        &mut a,
        "Emp",
        "PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2')",
    );
    assert_eq!(figures(&r), (5, 2, 1, QueryKind::PartitionScan));
    let r = query(&mut a, "Emp", "PartitionKey ge 'b'");
    assert_eq!(figures(&r), (10, 10, 2, QueryKind::TableRange));
    let r = query(&mut a, "Emp", "PartitionKey eq 'a' or PartitionKey eq 'c'");
    assert_eq!(figures(&r), (15, 10, 3, QueryKind::TableScan));
    let r = query(&mut a, "Emp", "Age eq 5");
    assert_eq!(figures(&r), (15, 3, 3, QueryKind::TableScan));
    assert_eq!(
        keys(&r),
        vec![
            ("a".into(), "5".into()),
            ("b".into(), "5".into()),
            ("c".into(), "5".into())
        ]
    );
}

#[test]
fn explain_names_bounds_checks_and_rewrites() {
    let mut a = sample();
    let r = query(
        &mut a,
        "Emp",
        "PartitionKey eq 'b' and RowKey ge '2' and Age gt 1",
    );
    let ex = r.explain.unwrap();
    assert_eq!(ex.bounded_by, vec!["PartitionKey eq 'b'", "RowKey ge '2'"]);
    assert_eq!(ex.checked, vec!["Age gt 1"]);
    let r = query(
        &mut a,
        "Emp",
        "(PartitionKey eq 'a' and RowKey eq '1') or (PartitionKey eq 'b' and RowKey eq '2')",
    );
    let ex = r.explain.unwrap();
    assert_eq!(
        ex.advice[0].rewrite,
        vec![
            "PartitionKey eq 'a' and RowKey eq '1'",
            "PartitionKey eq 'b' and RowKey eq '2'"
        ]
    );
    let r = query(&mut a, "Emp", "PartitionKey eq 'a' and PartitionKey eq 'b'");
    assert_eq!(figures(&r), (0, 0, 0, QueryKind::PartitionScan));
    assert_eq!(r.explain.unwrap().summary, Summary::Contradiction);
    let r = query(&mut a, "Emp", "Age eq 'five'");
    let ex = r.explain.unwrap();
    assert_eq!(ex.advice.len(), 1);
    assert_eq!(ex.advice[0].severity, Severity::Warning);
    assert_eq!(
        ex.advice[0].message,
        AdviceKind::TypeMismatch {
            name: "Age".into(),
            held: "Int32".into(),
            literal: "String".into(),
            expr: "Age eq 'five'".into(),
            verdict: false,
        }
    );
    assert_eq!(
        ex.advice[0].message.to_string(),
        "'Age' holds Int32 values but is compared with a String constant in `Age eq 'five'`. \
         Tablescope treats a type mismatch as `ne` true and every other operator false, so this \
         is false wherever 'Age' exists; the real service's behaviour here is undocumented."
    );
}

#[test]
fn explanations_are_typed() {
    let mut a = sample();
    let summary = |a: &mut Account, f: &str| query(a, "Emp", f).explain.unwrap().summary;
    assert_eq!(
        summary(&mut a, "PartitionKey eq 'a b' and RowKey eq '1'"),
        Summary::Point { pk: "'a b'".into() }
    );
    assert_eq!(
        summary(&mut a, "PartitionKey eq 'b' and RowKey ge '2'"),
        Summary::PartitionRange { pk: "'b'".into() }
    );
    assert_eq!(
        summary(&mut a, "PartitionKey eq 'b'"),
        Summary::PartitionScan { pk: "'b'".into() }
    );
    assert_eq!(summary(&mut a, "PartitionKey gt 'a'"), Summary::TableRange);
    assert_eq!(summary(&mut a, "Age gt 1"), Summary::TableScan);
    assert_eq!(
        summary(&mut a, "PartitionKey eq 'b'").to_string(),
        "Partition scan: every entity in partition 'b' is read, because no RowKey range narrows it."
    );
    let advice = |a: &mut Account, f: &str| {
        let ex = query(a, "Emp", f).explain.unwrap();
        ex.advice
            .into_iter()
            .map(|a| (a.severity, a.message))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        advice(&mut a, "RowKey eq '1'"),
        vec![(Severity::Rewrite, AdviceKind::RowKeyAlone)]
    );
    assert_eq!(
        advice(&mut a, "Height gt 2"),
        vec![(
            Severity::Warning,
            AdviceKind::MissingProperty {
                name: "Height".into(),
                expr: "Height gt 2".into()
            }
        )]
    );
    assert_eq!(
        advice(&mut a, "PartitionKey eq 'a' or PartitionKey eq 'b'"),
        vec![(Severity::Rewrite, AdviceKind::OrPartitions { n: 2 })]
    );
    assert_eq!(
        advice(
            &mut a,
            "PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2' or RowKey eq '3')"
        ),
        vec![(Severity::Rewrite, AdviceKind::OrRowKeys { n: 3 })]
    );
    assert_eq!(
        AdviceKind::OrPoints { n: 2 }.to_string(),
        "An `or` of point lookups is a table scan. Run 2 point queries instead: each reads one entity."
    );
}

#[test]
fn missing_property_and_not() {
    let mut a = account_with("Emp");
    insert(
        &mut a,
        "Emp",
        r#"{"PartitionKey":"p","RowKey":"1","Age":3}"#,
    );
    insert(&mut a, "Emp", r#"{"PartitionKey":"p","RowKey":"2"}"#);
    assert_eq!(
        keys(&query(&mut a, "Emp", "Age ne 4")),
        vec![("p".into(), "1".into())]
    );
    assert_eq!(
        keys(&query(&mut a, "Emp", "not (Age eq 4)")),
        vec![("p".into(), "1".into())]
    );
    assert_eq!(keys(&query(&mut a, "Emp", "not (Age eq 3)")), vec![]);
}

#[test]
fn filters_that_name_no_property_and_syntax_errors() {
    let mut a = sample();
    let r = query(&mut a, "Emp", "1 eq 1");
    assert_eq!((r.status, code(&r)), (400, Some("InvalidInput".into())));
    let r = query(&mut a, "Emp", "Age gt");
    assert_eq!((r.status, code(&r)), (400, Some("InvalidInput".into())));
    let detail = *r.error.unwrap().detail.unwrap();
    assert_eq!(
        detail,
        Detail::Syntax(SyntaxError {
            position: 6,
            length: 0,
            kind: SyntaxErrorKind::ValueAfter {
                op: CmpOp::Gt,
                found: None
            }
        })
    );
    assert_eq!(
        detail.to_string(),
        "position 6: expected a value after 'gt'"
    );
    let fifteen = vec!["Age eq 1"; 15].join(" or ");
    assert_eq!(query(&mut a, "Emp", &fifteen).status, 200);
    let r = query(&mut a, "Emp", &format!("{fifteen} or Age eq 2"));
    assert_eq!((r.status, code(&r)), (400, Some("InvalidInput".into())));
    let detail = *r.error.unwrap().detail.unwrap();
    assert_eq!(detail, Detail::FilterComparisons { n: 16, max: 15 });
    assert_eq!(
        detail.to_string(),
        "the filter has 16 comparisons; the service permits at most 15"
    );
    assert_eq!(query(&mut a, "Emp", "true").entities.unwrap().len(), 15);
    assert_eq!(query(&mut a, "Emp", "false").entities.unwrap().len(), 0);
    assert_eq!(query(&mut a, "Emp", "").entities.unwrap().len(), 15);
}

#[test]
fn select_returns_nulls_for_missing_and_system_only_if_listed() {
    let mut a = sample();
    let r = a.execute(&Request::Query {
        table: "Emp".into(),
        filter: Some("PartitionKey eq 'a' and RowKey eq '1'".into()),
        select: Some(vec!["Age".into(), "Nope".into(), "RowKey".into()]),
        top: None,
        continuation: None,
        page_budget: None,
        trace: false,
    });
    let json = serde_json::to_string(&r.entities.unwrap()[0]).unwrap();
    assert_eq!(
        json,
        r#"{"odata.etag":"W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"","Age":1,"Nope":null,"RowKey":"1"}"#
    );
}

#[test]
fn top_limits_and_continues() {
    let mut a = sample();
    let r = query_with(&mut a, "Emp", "", Some(1001), None, None);
    assert_eq!((r.status, code(&r)), (400, Some("InvalidInput".into())));
    let r = query_with(&mut a, "Emp", "", Some(0), None, None);
    assert_eq!(r.entities.as_ref().unwrap().len(), 0);
    assert_eq!(
        r.continuation,
        Some(Continuation {
            next_partition_key: "a".into(),
            next_row_key: "1".into()
        })
    );
    assert_eq!(r.stats.unwrap().scanned, 0);
    // Page through 15 entities 4 at a time: 4, 4, 4, 3, and the last has no token.
    let mut token = None;
    let mut sizes = Vec::new();
    let mut all = Vec::new();
    loop {
        let r = query_with(&mut a, "Emp", "", Some(4), token.clone(), None);
        sizes.push(r.entities.as_ref().unwrap().len());
        all.extend(keys(&r));
        token = r.continuation;
        if token.is_none() {
            break;
        }
    }
    assert_eq!(sizes, vec![4, 4, 4, 3]);
    assert_eq!(all.len(), 15);
    assert_eq!(all[4], ("a".into(), "5".into()));
}

#[test]
fn a_spent_budget_gives_empty_pages_that_still_continue() {
    let mut a = sample();
    // Only c/5 has Age 5 past partition a; budget 3 per page.
    let filter = "PartitionKey ge 'b' and Age eq 5 and RowKey eq '5'";
    let r1 = query_with(&mut a, "Emp", filter, None, None, Some(3));
    assert_eq!(figures(&r1), (3, 0, 1, QueryKind::TableRange));
    assert_eq!(
        r1.continuation,
        Some(Continuation {
            next_partition_key: "b".into(),
            next_row_key: "4".into()
        })
    );
    let r2 = query_with(
        &mut a,
        "Emp",
        filter,
        None,
        r1.continuation.clone(),
        Some(3),
    );
    assert_eq!(keys(&r2), vec![("b".into(), "5".into())]);
    assert_eq!(figures(&r2), (3, 1, 2, QueryKind::TableRange));
    let mut pages = 2;
    let mut token = r2.continuation;
    let mut total = 1;
    while let Some(t) = token {
        let r = query_with(&mut a, "Emp", filter, None, Some(t), Some(3));
        total += r.entities.as_ref().unwrap().len();
        token = r.continuation;
        pages += 1;
    }
    assert_eq!((pages, total), (4, 2));
}

#[test]
fn page_count_is_the_pages_a_run_takes_at_the_playground_budget() {
    use tablescope_engine::query::{page_count, PAGE_SCAN_BUDGET};
    // 25,000 entities in 25 partitions; Flag is true on every 30th.
    let mut a = account_with("Big");
    for i in 0..25_000u32 {
        insert(
            &mut a,
            "Big",
            &format!(
                r#"{{"PartitionKey":"p{:02}","RowKey":"{i:05}","Flag":{}}}"#,
                i / 1000,
                i % 30 == 0
            ),
        );
    }
    // Few matches: the scan budget ends the pages (3); many: 1,000 returned does (25).
    for (filter, returned, want) in [("Flag eq true", 834, 3.0), ("Flag eq false", 24_166, 25.0)] {
        let (mut pages, mut got, mut token) = (0u32, 0u64, None);
        loop {
            let r = query_with(&mut a, "Big", filter, None, token, Some(PAGE_SCAN_BUDGET));
            pages += 1;
            got += r.stats.expect("query stats").returned;
            token = r.continuation;
            if token.is_none() {
                break;
            }
        }
        assert_eq!(got, returned, "{filter}");
        assert_eq!(f64::from(pages), want, "{filter}");
        assert_eq!(page_count(25_000.0, returned as f64), want, "{filter}");
    }
}

#[test]
fn continuation_tokens_round_trip_non_ascii_keys() {
    let mut a = account_with("Uni");
    for rk in ["ä", "日本", "😀", "it's"] {
        insert(
            &mut a,
            "Uni",
            &format!(r#"{{"PartitionKey":"ü","RowKey":"{rk}"}}"#),
        );
    }
    let mut token = None;
    let mut seen = Vec::new();
    loop {
        let r = query_with(&mut a, "Uni", "PartitionKey eq 'ü'", Some(1), token, None);
        seen.extend(keys(&r).into_iter().map(|k| k.1));
        token = r.continuation;
        if token.is_none() {
            break;
        }
    }
    // UTF-16 order: "it's" < "ä" < "日本" < "😀" (surrogates D83D sort after U+65E5).
    assert_eq!(seen, vec!["it's", "ä", "日本", "😀"]);
}

#[test]
fn property_filters_follow_deletes_overwrites_and_merges() {
    // The scan finds a filter's properties through the table's interned names: check that
    // holds after a name's last carrier is deleted and the name comes back, after overwrites
    // that change a property's type, and after merges.
    let mut a = account_with("Emp");
    insert(
        &mut a,
        "Emp",
        r#"{"PartitionKey":"a","RowKey":"1","Age":3}"#,
    );
    let delete = |a: &mut Account, pk: &str, rk: &str| {
        let r = a.execute(&Request::Delete {
            table: "Emp".into(),
            partition_key: pk.into(),
            row_key: rk.into(),
            if_match: Some("*".into()),
        });
        assert_eq!(r.status, 204);
    };
    delete(&mut a, "a", "1");
    assert_eq!(
        figures(&query(&mut a, "Emp", "Age eq 3")),
        (0, 0, 0, QueryKind::TableScan)
    );
    insert(
        &mut a,
        "Emp",
        r#"{"PartitionKey":"a","RowKey":"1","Age":3,"Name":"x"}"#,
    );
    insert(
        &mut a,
        "Emp",
        r#"{"PartitionKey":"b","RowKey":"1","Name":"y","Age":3}"#,
    );
    insert(
        &mut a,
        "Emp",
        r#"{"PartitionKey":"b","RowKey":"2","Age":"3"}"#,
    );
    let r = query(&mut a, "Emp", "Age eq 3");
    assert_eq!(figures(&r), (3, 2, 2, QueryKind::TableScan));
    assert_eq!(
        keys(&r),
        vec![("a".into(), "1".into()), ("b".into(), "1".into())]
    );
    let r = query(&mut a, "Emp", "Age eq 3 and Name eq 'y'");
    assert_eq!(keys(&r), vec![("b".into(), "1".into())]);
    assert_eq!(
        keys(&query(&mut a, "Emp", "Age eq 3 and Nope eq 1")),
        vec![]
    );
    assert_eq!(keys(&query(&mut a, "Emp", "Nope ne 1")), vec![]);
    assert_eq!(keys(&query(&mut a, "Emp", "Age ne 3")).len(), 1);
    // Overwrite with another type, then merge the old type back in.
    let r = a.execute(&Request::UpsertReplace {
        table: "Emp".into(),
        entity: raw(r#"{"PartitionKey":"a","RowKey":"1","Age":"3"}"#),
    });
    assert_eq!(r.status, 204);
    assert_eq!(
        keys(&query(&mut a, "Emp", "Age eq '3'")),
        vec![("a".into(), "1".into()), ("b".into(), "2".into())]
    );
    let r = a.execute(&Request::UpsertMerge {
        table: "Emp".into(),
        entity: raw(r#"{"PartitionKey":"b","RowKey":"2","Age":4,"Name":"z"}"#),
    });
    assert_eq!(r.status, 204);
    assert_eq!(
        keys(&query(&mut a, "Emp", "Age gt 3 and Name eq 'z' and true")),
        vec![("b".into(), "2".into())]
    );
    assert_eq!(keys(&query(&mut a, "Emp", "Age gt 3 and false")), vec![]);
}

#[test]
fn a_page_that_ends_at_a_partition_boundary_counts_only_scanned_partitions() {
    let mut a = sample();
    // Five rows per partition, Age 1..=5: a page of 5 matches ends exactly after partition a.
    let r = query_with(&mut a, "Emp", "Age ge 1", Some(5), None, None);
    assert_eq!(figures(&r), (5, 5, 1, QueryKind::TableScan));
    assert_eq!(
        r.continuation,
        Some(Continuation {
            next_partition_key: "b".into(),
            next_row_key: "1".into()
        })
    );
    let r = query_with(&mut a, "Emp", "Age ge 1", Some(5), r.continuation, None);
    assert_eq!(figures(&r), (5, 5, 1, QueryKind::TableScan));
    // A budget that runs out mid-partition counts that partition.
    let r = query_with(&mut a, "Emp", "Age eq 9", None, None, Some(7));
    assert_eq!(figures(&r), (7, 0, 2, QueryKind::TableScan));
}

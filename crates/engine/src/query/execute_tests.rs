//! Unit tests of `execute`: the Int32 range check and the scan checks a plan gets.

use super::*;
use crate::query::plan;
use crate::{Account, Entity, Value};

/// Table `tab`: partitions `a` and `b`, rows `r0`..`r9` each, `Name` of `A`..`J` by row.
fn account() -> Account {
    let mut account = Account::default();
    account.create_table("tab").unwrap();
    for pk in ["a", "b"] {
        for i in 0..10u8 {
            let name = char::from(b'A' + i).to_string();
            let e = Entity::new(pk, format!("r{i}")).with("Name", Value::String(name.into()));
            account.insert("tab", e).unwrap();
        }
    }
    account
}

/// The check a page of `filter` on `tab` runs per row, and how many terms it holds.
fn check_of(account: &Account, filter: &str) -> (&'static str, usize) {
    let table = account.table("tab").unwrap();
    let mut p = plan(filter::parse(filter).unwrap());
    intern_names(&mut p.filter, table);
    match Check::new(&p, table) {
        Check::One(_) => ("one", 1),
        Check::All(terms) => ("all", terms.len()),
        Check::Nothing => ("nothing", 0),
        Check::General(_) => ("general", 0),
    }
}

#[test]
fn key_comparisons_that_bound_the_scan_are_not_checked_again() {
    let a = account();
    // The partition is the scan's range: the prefix's two comparisons are all that is left.
    assert_eq!(
        check_of(&a, "PartitionKey eq 'a' and Name ge 'B' and Name lt 'C'"),
        ("all", 2)
    );
    assert_eq!(
        check_of(&a, "PartitionKey eq 'a' and Name eq 'B'"),
        ("one", 1)
    );
    assert_eq!(check_of(&a, "PartitionKey eq 'a'"), ("all", 0));
    assert_eq!(
        check_of(
            &a,
            "PartitionKey eq 'a' and RowKey ge 'r2' and RowKey lt 'r5'"
        ),
        ("all", 0)
    );
    // Without one partition, RowKey bounds nothing and is checked; `ne` bounds nothing.
    assert_eq!(check_of(&a, "RowKey ge 'r2'"), ("general", 0));
    assert_eq!(
        check_of(&a, "PartitionKey ge 'a' and RowKey lt 'r5'"),
        ("general", 0)
    );
    assert_eq!(check_of(&a, "PartitionKey ne 'a'"), ("general", 0));
    assert_eq!(check_of(&a, "PartitionKey eq 5"), ("general", 0));
}

#[test]
fn a_counted_page_counts_what_the_page_does_and_builds_only_what_it_keeps() {
    let a = account();
    let table = a.table("tab").unwrap();
    for filter in [
        "PartitionKey eq 'a' and Name ge 'B' and Name lt 'E'",
        "Name ge 'C'",
        "PartitionKey ge 'a' and RowKey lt 'r5'",
        "RowKey eq 'r9' or Name eq 'A'",
        "PartitionKey gt 'a' and RowKey ge 'r3'",
        "PartitionKey eq 'a' and RowKey gt 'r3' and RowKey le 'r7' and Name ne 'E'",
        "PartitionKey ge 'a' and PartitionKey le 'a' and RowKey lt 'r2'",
        "PartitionKey eq 'b' and PartitionKey ne 'b'",
        "PartitionKey eq 'a' and RowKey eq 'r4'",
        "PartitionKey lt 'b' and Name ge 'J'",
    ] {
        for top in [None, Some(4)] {
            let options = QueryOptions {
                filter: Some(filter.into()),
                top,
                ..QueryOptions::default()
            };
            let p = || plan(filter::parse(filter).unwrap());
            let page = execute_page(table, p(), &options, false).unwrap();
            let counted = count_page(table, p(), &options, 2).unwrap();
            assert_eq!(counted.stats, page.stats, "{filter} {top:?}");
            assert_eq!(counted.continuation, page.continuation, "{filter} {top:?}");
            let kept: Vec<_> = page
                .entities
                .iter()
                .take(2)
                .map(|f| f.to_entity())
                .collect();
            assert_eq!(counted.entities, kept, "{filter} {top:?}");
            assert_eq!(
                counted.last_partition_key.as_deref(),
                page.entities.last().map(|e| e.partition_key.as_str()),
                "{filter} {top:?}"
            );
        }
    }
    // A page that stops in partition `b`: rows A and B of `a`, then row A of `b`.
    let options = QueryOptions {
        filter: Some("Name le 'B'".into()),
        top: Some(3),
        ..QueryOptions::default()
    };
    let counted = count_page(
        table,
        plan(filter::parse("Name le 'B'").unwrap()),
        &options,
        0,
    )
    .unwrap();
    assert!(counted.entities.is_empty());
    assert_eq!((counted.stats.scanned, counted.stats.returned), (11, 3));
    assert_eq!(counted.last_partition_key.as_deref(), Some("b"));
    assert_eq!(
        counted
            .continuation
            .map(|c| (c.next_partition_key, c.next_row_key)),
        Some(("b".into(), "r1".into()))
    );
}

#[test]
fn int_range_agrees_with_the_operator() {
    let samples = [
        i32::MIN,
        i32::MIN + 1,
        -43,
        -42,
        -41,
        -1,
        0,
        1,
        41,
        42,
        43,
        i32::MAX - 1,
        i32::MAX,
    ];
    for op in CmpOp::ALL {
        for l in samples {
            let range = IntRange::new(op, l);
            for v in samples {
                assert_eq!(range.holds(v), op.holds(v.cmp(&l)), "{v} {op:?} {l}");
            }
        }
    }
}

/// Pages `filter` with `$top` `top` to the end; each page's statistics.
fn pages_of(account: &Account, filter: &str, top: u32) -> Vec<QueryStats> {
    let table = account.table("years").unwrap();
    let mut options = QueryOptions {
        filter: Some(filter.into()),
        top: Some(top),
        ..QueryOptions::default()
    };
    let mut pages = Vec::new();
    loop {
        let page =
            execute_page(table, plan(filter::parse(filter).unwrap()), &options, false).unwrap();
        pages.push(page.stats);
        match page.continuation {
            Some(c) => options.continuation = Some(c),
            None => return pages,
        }
    }
}

#[test]
fn partitions_split_by_a_continuation_count_once_over_the_pages() {
    // Three partitions of two entities each, every one with a Year after 2000.
    let mut a = Account::default();
    a.create_table("years").unwrap();
    for pk in ["p1", "p2", "p3"] {
        for (rk, year) in [("r1", 2001), ("r2", 2010)] {
            a.insert(
                "years",
                Entity::new(pk, rk).with("Year", Value::Int32(year)),
            )
            .unwrap();
        }
    }
    // $top 3: page 1 reads p1 and half of p2, page 2 the rest of p2 and all of p3.
    let pages = pages_of(&a, "Year gt 2000", 3);
    let per_page: Vec<_> = pages
        .iter()
        .map(|p| (p.partitions, p.continues_partition))
        .collect();
    assert_eq!(per_page, [(2, true), (2, false)]);
    assert_eq!(
        distinct_partitions(pages.iter().map(|p| (p.partitions, p.continues_partition))),
        3
    );
    // $top 2: each page fills up on a partition's last entity, so the next page starts on
    // a partition of its own; the continuation splits none.
    let pages = pages_of(&a, "Year gt 2000", 2);
    let per_page: Vec<_> = pages
        .iter()
        .map(|p| (p.partitions, p.continues_partition))
        .collect();
    assert_eq!(per_page, [(1, false), (1, false), (1, false)]);
    assert_eq!(
        distinct_partitions(pages.iter().map(|p| (p.partitions, p.continues_partition))),
        3
    );
    // $top 1: every partition split in two, six page-partitions, three partitions.
    let pages = pages_of(&a, "Year gt 2000", 1);
    assert_eq!(pages.iter().map(|p| p.partitions).sum::<u64>(), 6);
    assert_eq!(
        distinct_partitions(pages.iter().map(|p| (p.partitions, p.continues_partition))),
        3
    );
}

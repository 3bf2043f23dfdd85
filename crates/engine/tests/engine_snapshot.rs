#![cfg(not(target_arch = "wasm32"))]
//! Export and import: a round trip keeps every value and ETag; a bad file changes nothing.

mod common;
use common::*;
use tablescope_engine::{Account, Change, Request};

fn populated() -> Account {
    let mut a = account_with("One");
    a.execute(&Request::CreateTable {
        table: "Two".into(),
    });
    insert(
        &mut a,
        "One",
        r#"{"PartitionKey":"ü'%","RowKey":"😀","L@odata.type":"Edm.Int64","L":"9223372036854775807","T@odata.type":"Edm.DateTime","T":"2024-01-01T00:00:00.1234567Z"}"#,
    );
    insert(
        &mut a,
        "Two",
        r#"{"PartitionKey":"p","RowKey":"r","N@odata.type":"Edm.Double","N":"NaN"}"#,
    );
    a
}

#[test]
fn round_trip_is_exact() {
    let a = populated();
    let text = serde_json::to_string(&a.export()).unwrap();
    let mut b = Account::default();
    b.import_json(&text).unwrap();
    assert_eq!(serde_json::to_string(&b.export()).unwrap(), text);
    assert_eq!(
        b.get("One", "ü'%", "😀").unwrap(),
        a.get("One", "ü'%", "😀").unwrap()
    );
    assert_eq!(b.take_changes(), vec![vec![Change::AccountReplaced]]);
    // Later writes still get later Timestamps than anything imported.
    let r = insert(&mut b, "Two", r#"{"PartitionKey":"p","RowKey":"s"}"#);
    assert_eq!(
        r.etag.map(String::from).as_deref(),
        Some("W/\"datetime'2026-01-01T00%3A00%3A00.0000002Z'\"")
    );
}

#[test]
fn bad_imports_name_the_problem_and_change_nothing() {
    let mut a = populated();
    let before = serde_json::to_string(&a.export()).unwrap();
    let cases = [
        ("{", "not valid JSON"),
        (
            r#"{"format":"other","version":1,"tables":[]}"#,
            "not a Tablescope export",
        ),
        (
            r#"{"format":"tablescope-account","version":9,"tables":[]}"#,
            "unsupported export version 9; this Tablescope reads version 1",
        ),
        (
            r#"{"format":"tablescope-account","version":"1","tables":[]}"#,
            "unsupported export version \"1\"; this Tablescope reads version 1",
        ),
        (
            r#"{"format":"tablescope-account","tables":[]}"#,
            "no export version; this Tablescope reads version 1",
        ),
        (
            r#"{"format":"tablescope-account","version":1,"tables":[{"name":"x","entities":[]}]}"#,
            "table 'x'",
        ),
        (
            r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a/b","RowKey":"r"}]}]}"#,
            "table 'Good', entity 0 (PartitionKey 'a/b', RowKey 'r'): PartitionKey may not contain '/'",
        ),
        (
            r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a","RowKey":"r","L@odata.type":"Edm.Int64","L":"x"}]}]}"#,
            "table 'Good', entity 0 (PartitionKey 'a', RowKey 'r'): L: not an Int64",
        ),
        (
            r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a","RowKey":"r"},{"PartitionKey":"a","RowKey":"r"}]}]}"#,
            "appears twice",
        ),
    ];
    for (text, needle) in cases {
        let e = a.import_json(text).unwrap_err();
        let shown = e.to_string();
        assert!(shown.contains(needle), "{needle:?} not in {shown:?}");
        assert_eq!(serde_json::to_string(&a.export()).unwrap(), before);
    }
}

#![cfg(target_arch = "wasm32")]
//! The engine inside wasm, in headless Chromium: Int64 at the edges of its range survives
//! insert, query and read back exactly, and Timestamps come from the browser's clock.

use serde_json::json;
use tablescope::engine::{Account, DateTime, RawEntity, Request, Response};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn browser_account() -> Account {
    let clock = || DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap_or(DateTime::MIN);
    Account::new(Box::new(clock))
}

fn create(a: &mut Account, table: &str) {
    let r = a.execute(&Request::CreateTable {
        table: table.into(),
    });
    assert_eq!(r.status, 201, "{r:?}");
}

fn query(a: &mut Account, table: &str, filter: &str) -> Response {
    a.execute(&Request::Query {
        table: table.into(),
        filter: Some(filter.into()),
        select: None,
        top: None,
        continuation: None,
        page_budget: None,
        trace: false,
    })
}

#[wasm_bindgen_test]
fn int64_extremes_round_trip_exactly() {
    let mut a = browser_account();
    create(&mut a, "Numbers");
    let entity = RawEntity::parse(
        r#"{"PartitionKey":"p","RowKey":"max",
            "Big@odata.type":"Edm.Int64","Big":"9223372036854775807",
            "Small@odata.type":"Edm.Int64","Small":"-9223372036854775808"}"#,
    )
    .unwrap();
    let inserted = a.execute(&Request::Insert {
        table: "Numbers".into(),
        entity,
    });
    assert_eq!(inserted.status, 201, "{inserted:?}");

    let got = a.execute(&Request::Get {
        table: "Numbers".into(),
        partition_key: "p".into(),
        row_key: "max".into(),
        select: None,
    });
    assert_eq!(got.status, 200, "{got:?}");
    let entity = got.entity.unwrap().to_raw();
    assert_eq!(entity.get("Big"), Some(&json!("9223372036854775807")));
    assert_eq!(entity.get("Big@odata.type"), Some(&json!("Edm.Int64")));
    assert_eq!(entity.get("Small"), Some(&json!("-9223372036854775808")));

    // 2^63 - 1 and 2^63 - 2 are the same f64: only exact i64 comparison tells them apart.
    let hit = query(&mut a, "Numbers", "Big eq 9223372036854775807L");
    assert_eq!(hit.entities.map(|e| e.len()), Some(1));
    let miss = query(&mut a, "Numbers", "Big eq 9223372036854775806L");
    assert_eq!(miss.entities.map(|e| e.len()), Some(0));
}

#[wasm_bindgen_test]
fn timestamps_come_from_the_browser_clock() {
    let mut a = browser_account();
    create(&mut a, "Clocked");
    let before = js_sys::Date::now() as i64;
    let entity = RawEntity::parse(r#"{"PartitionKey":"p","RowKey":"r"}"#).unwrap();
    let r = a.execute(&Request::Insert {
        table: "Clocked".into(),
        entity,
    });
    assert_eq!(r.status, 201, "{r:?}");
    let stamp = r
        .entity
        .as_ref()
        .unwrap()
        .to_raw()
        .get("Timestamp")
        .and_then(|v| v.as_str())
        .unwrap()
        .to_string();
    let stamp = DateTime::parse(&stamp).unwrap();
    let before = DateTime::from_unix_millis(before).unwrap();
    let after = DateTime::from_unix_millis(js_sys::Date::now() as i64 + 1).unwrap();
    assert!(
        before <= stamp && stamp <= after,
        "{stamp} not within [{before}, {after}]"
    );
}

#[wasm_bindgen_test]
fn describe_tables_counts_entities_and_partitions() {
    let mut a = browser_account();
    create(&mut a, "Counted");
    for (pk, rk) in [("a", "1"), ("a", "2"), ("b", "1")] {
        let entity =
            RawEntity::parse(&format!(r#"{{"PartitionKey":"{pk}","RowKey":"{rk}"}}"#)).unwrap();
        assert_eq!(
            a.execute(&Request::Insert {
                table: "Counted".into(),
                entity
            })
            .status,
            201
        );
    }
    let infos = a.execute(&Request::DescribeTables {}).table_infos.unwrap();
    assert_eq!(infos.len(), 1);
    assert_eq!(
        (
            infos[0].name.as_str(),
            infos[0].entities,
            infos[0].partitions
        ),
        ("Counted", 3, 2)
    );
}

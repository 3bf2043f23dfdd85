#![cfg(target_arch = "wasm32")]
//! The account's target in real IndexedDB, in headless Chromium: a Cosmos DB for Table account
//! loads back on its target with its order; a storage account's meta record names no target,
//! so a save from before targets existed loads as Table storage.
//!
//! `cargo test --target wasm32-unknown-unknown --test web_persist_target`

use tablescope::engine::{Account, RawEntity, Request, Target};
use tablescope::persist::Persist;
use wasm_bindgen_test::*;

mod web_store;
use web_store::{get_raw, namespace, ok, put_raw, reload, save};

wasm_bindgen_test_configure!(run_in_browser);

fn insert(a: &mut Account, table: &str, pk: &str, rk: &str) {
    let text = format!(r#"{{"PartitionKey":"{pk}","RowKey":"{rk}","N":1}}"#);
    ok(a.execute(&Request::Insert {
        table: table.into(),
        entity: RawEntity::parse(&text).unwrap(),
    }));
}

/// The RowKeys a whole-table query returns, in the order it returns them.
fn row_keys(a: &mut Account, table: &str) -> Vec<String> {
    let r = ok(a.execute(&Request::Query {
        table: table.into(),
        filter: None,
        select: None,
        top: None,
        continuation: None,
        page_budget: None,
        trace: false,
    }));
    r.entities
        .iter()
        .flatten()
        .filter_map(|e| e.keys().map(|(_, rk)| rk.to_string()))
        .collect()
}

/// The meta record as JSON.
async fn meta(ns: &str) -> serde_json::Value {
    get_raw(ns, "meta", "account").await
}

async fn put_meta(ns: &str, value: &str) {
    put_raw(ns, "meta", "account", js_sys::JSON::parse(value).unwrap()).await;
}

#[wasm_bindgen_test]
async fn a_switched_account_loads_on_its_target_with_its_order() {
    let ns = namespace("target");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    assert_eq!(a.target(), Target::TableStorage);
    ok(a.execute(&Request::CreateTable {
        table: "Orders".into(),
    }));
    for rk in ["2", "10", "1"] {
        insert(&mut a, "Orders", "p", rk);
    }
    save(&mut p, &mut a).await;
    assert!(meta(&ns).await.get("target").is_none());
    assert_eq!(row_keys(&mut a, "Orders"), ["1", "10", "2"]);

    let report = a.switch_target(Target::CosmosTable);
    assert_eq!((report.tables, report.entities), (1, 3));
    save(&mut p, &mut a).await;
    assert_eq!(meta(&ns).await["target"], "cosmosTable");
    p.close();

    // Insertion order on Cosmos, kept across the reload.
    let (mut p, mut b) = reload(&ns).await;
    assert_eq!(b.target(), Target::CosmosTable);
    assert_eq!(row_keys(&mut b, "Orders"), ["2", "10", "1"]);
    insert(&mut b, "Orders", "p", "0");
    save(&mut p, &mut b).await;
    p.close();
    let (mut p, mut c) = reload(&ns).await;
    assert_eq!(row_keys(&mut c, "Orders"), ["2", "10", "1", "0"]);

    // And back: key order, and the meta record names no target again.
    c.switch_target(Target::TableStorage);
    save(&mut p, &mut c).await;
    assert!(meta(&ns).await.get("target").is_none());
    p.close();
    let (p, mut d) = reload(&ns).await;
    assert_eq!(d.target(), Target::TableStorage);
    assert_eq!(row_keys(&mut d, "Orders"), ["0", "1", "10", "2"]);
    p.close();
    Persist::delete(&ns).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_meta_record_without_a_target_loads_as_table_storage() {
    let ns = namespace("old-meta");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    ok(a.execute(&Request::CreateTable {
        table: "Old".into(),
    }));
    save(&mut p, &mut a).await;
    p.close();
    put_meta(
        &ns,
        r#"{"format":2,"tables":["Old"],"lastTimestamp":"2024-01-01T00:00:00.0000000Z","seq":1}"#,
    )
    .await;
    let (p, b) = reload(&ns).await;
    assert_eq!(b.target(), Target::TableStorage);
    assert_eq!(
        b.tables().map(|t| t.name.clone()).collect::<Vec<_>>(),
        ["Old"]
    );
    p.close();
    Persist::delete(&ns).await.unwrap();
}

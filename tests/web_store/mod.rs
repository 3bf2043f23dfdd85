//! What the `web_persist*` tests share: a database namespace of their own, saving and
//! reloading through [`Persist`], and raw IndexedDB access that bypasses it (to plant or read
//! a record exactly as stored).
#![allow(dead_code)] // each test file uses its own subset

use tablescope::engine::{Account, Response};
use tablescope::persist::Persist;
use wasm_bindgen::JsValue;

/// A namespace no other test or run uses.
pub fn namespace(test: &str) -> String {
    format!(
        "test-{test}-{}-{}",
        js_sys::Date::now() as u64,
        (js_sys::Math::random() * 1e9) as u64
    )
}

pub fn ok(response: Response) -> Response {
    assert!(response.is_success(), "{response:?}");
    response
}

/// Saves every pending change of the account.
pub async fn save(p: &mut Persist, a: &mut Account) {
    let changes = a.take_changes();
    p.save(a, changes).await.unwrap();
}

/// Opens a new connection on the namespace and loads it.
pub async fn reload(ns: &str) -> (Persist, Account) {
    let mut p = Persist::open(ns).await.unwrap();
    let a = p.load().await.unwrap();
    (p, a)
}

async fn open(ns: &str) -> idb::Database {
    idb::Factory::new()
        .unwrap()
        .open(&format!("tablescope-{ns}"), None)
        .unwrap()
        .await
        .unwrap()
}

/// Writes a raw record into a namespace's database, bypassing Persist.
pub async fn put_raw(ns: &str, store: &str, key: &str, value: JsValue) {
    let db = open(ns).await;
    let tx = db
        .transaction(&[store], idb::TransactionMode::ReadWrite)
        .unwrap();
    tx.object_store(store)
        .unwrap()
        .put(&value, Some(&JsValue::from_str(key)))
        .unwrap();
    assert_eq!(tx.await.unwrap(), idb::TransactionResult::Committed);
    db.close();
}

/// Reads a raw record of a namespace's database as JSON, bypassing Persist.
pub async fn get_raw(ns: &str, store: &str, key: &str) -> serde_json::Value {
    let db = open(ns).await;
    let tx = db
        .transaction(&[store], idb::TransactionMode::ReadOnly)
        .unwrap();
    let value = tx
        .object_store(store)
        .unwrap()
        .get(JsValue::from_str(key))
        .unwrap()
        .await
        .unwrap()
        .unwrap();
    db.close();
    let text = js_sys::JSON::stringify(&value)
        .unwrap()
        .as_string()
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

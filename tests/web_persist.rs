#![cfg(target_arch = "wasm32")]
//! Persistence in real IndexedDB, in headless Chromium: what is saved loads back identical in a
//! new connection; a batch is one transaction; namespaces are isolated; damaged records give a
//! clear error. Every test uses its own database and deletes it at the end.
//!
//! `cargo test --target wasm32-unknown-unknown --test web_persist`; the 100,000-entity
//! benchmark is ignored by default:
//! `cargo test --release --target wasm32-unknown-unknown --test web_persist -- --include-ignored bench`.

use std::cell::RefCell;
use std::rc::Rc;
use tablescope::engine::{Account, BatchRequest, DateTime, RawEntity, Request};
use tablescope::persist::{self, Persist, PersistError, MAX_CHUNK};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

mod web_store;
use web_store::{namespace, ok, put_raw, reload, save};

wasm_bindgen_test_configure!(run_in_browser);

fn raw(text: &str) -> RawEntity {
    RawEntity::parse(text).unwrap()
}

fn create(a: &mut Account, table: &str) {
    ok(a.execute(&Request::CreateTable {
        table: table.into(),
    }));
}

fn insert(a: &mut Account, table: &str, entity: &str) {
    ok(a.execute(&Request::Insert {
        table: table.into(),
        entity: raw(entity),
    }));
}

fn delete(a: &mut Account, table: &str, pk: &str, rk: &str) {
    ok(a.execute(&Request::Delete {
        table: table.into(),
        partition_key: pk.into(),
        row_key: rk.into(),
        if_match: None,
    }));
}

async fn drop_db(p: Persist) {
    let ns = p.namespace().to_string();
    p.close();
    Persist::delete(&ns).await.unwrap();
}

fn export_text(a: &Account) -> String {
    serde_json::to_string(&a.export()).unwrap()
}

const ALL_TYPES: &str = r#"{"PartitionKey":"types","RowKey":"all",
    "S":"text with \"quotes\" and ünïcödé 😀",
    "B":true,
    "I":-2147483648,
    "D":1.5, "Whole":1.0, "Tiny":1e-300,
    "Inf@odata.type":"Edm.Double","Inf":"Infinity",
    "Max@odata.type":"Edm.Int64","Max":"9223372036854775807",
    "Min@odata.type":"Edm.Int64","Min":"-9223372036854775808",
    "When@odata.type":"Edm.DateTime","When":"2024-02-29T23:59:59.1234567Z",
    "G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833",
    "Bin@odata.type":"Edm.Binary","Bin":"AAEC/f7/"}"#;

#[wasm_bindgen_test]
async fn everything_saved_loads_back_identical() {
    let ns = namespace("roundtrip");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    assert_eq!(a.tables().count(), 0);

    create(&mut a, "Types");
    insert(&mut a, "Types", ALL_TYPES);
    save(&mut p, &mut a).await;

    create(&mut a, "Keys");
    for (pk, rk) in [
        ("ünï", "cödé"),
        ("it's", "100%"),
        ("%41", "'quoted'"),
        ("😀", "\u{E000}"),
        ("😀", "😀"),
        ("", ""),
        ("p", "a b c"),
    ] {
        let entity = serde_json::json!({"PartitionKey": pk, "RowKey": rk, "V": 1});
        insert(&mut a, "Keys", &entity.to_string());
        save(&mut p, &mut a).await;
    }
    // DateTimes across the whole range, whole seconds and all seven digits.
    create(&mut a, "Dates");
    let max_ticks = DateTime::MAX.ticks();
    for i in 0..200i64 {
        let ticks = match i {
            0 => 0,
            1 => max_ticks,
            2 => 134_116_992_000_000_000,
            _ => {
                (js_sys::Math::random() * max_ticks as f64) as i64
                    / if i % 3 == 0 { 10_000_000 } else { 1 }
                    * if i % 3 == 0 { 10_000_000 } else { 1 }
            }
        };
        let when = DateTime::from_ticks(ticks).unwrap();
        let entity = serde_json::json!({"PartitionKey": "d", "RowKey": format!("{i:03}"),
            "When@odata.type": "Edm.DateTime", "When": when.to_string()});
        insert(&mut a, "Dates", &entity.to_string());
    }
    save(&mut p, &mut a).await;
    for t in 0..30 {
        let name = format!("Many{t}");
        create(&mut a, &name);
        for r in 0..3 {
            insert(
                &mut a,
                &name,
                &format!(r#"{{"PartitionKey":"p{t}","RowKey":"{r}"}}"#),
            );
        }
    }
    save(&mut p, &mut a).await;

    // A deleted table and a deleted entity stay deleted.
    create(&mut a, "Gone");
    insert(&mut a, "Gone", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    save(&mut p, &mut a).await;
    ok(a.execute(&Request::DeleteTable {
        table: "Gone".into(),
    }));
    delete(&mut a, "Keys", "it's", "100%");
    save(&mut p, &mut a).await;

    let (p2, b) = reload(&ns).await;
    assert_eq!(export_text(&b), export_text(&a));
    assert!(b.table("Gone").is_err());
    assert!(b.get("Keys", "it's", "100%").is_err());
    assert_eq!(b.tables().count(), 33);
    let types = b.get("Types", "types", "all").unwrap();
    let json = serde_json::to_value(&types).unwrap();
    assert_eq!(json["Max"], "9223372036854775807");
    assert_eq!(json["Min"], "-9223372036854775808");
    assert_eq!(json["When"], "2024-02-29T23:59:59.1234567Z");
    // A write after the reload gets a later Timestamp than anything loaded.
    let mut b = b;
    insert(
        &mut b,
        "Types",
        r#"{"PartitionKey":"types","RowKey":"later"}"#,
    );
    let later = b.get("Types", "types", "later").unwrap().timestamp;
    assert!(later > types.timestamp);
    p2.close();
    drop_db(p).await;
}

#[wasm_bindgen_test]
async fn big_partitions_split_into_bounded_chunks_and_shrink_back() {
    let ns = namespace("chunks");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Big");
    for r in 0..600 {
        insert(
            &mut a,
            "Big",
            &format!(r#"{{"PartitionKey":"p","RowKey":"{r:04}","N":{r}}}"#),
        );
    }
    save(&mut p, &mut a).await;
    let records = p.records().await.unwrap();
    assert_eq!(
        records.len(),
        3,
        "600 rows in chunks of at most {MAX_CHUNK}"
    );
    assert_eq!(records[0].0, "Big/p/");
    for (_, value) in &records {
        let rows: Vec<serde_json::Value> = serde_json::from_str(value).unwrap();
        assert!(rows.len() <= MAX_CHUNK && !rows.is_empty());
    }

    // Appends one at a time split the last chunk when it outgrows the bound.
    for r in 600..900 {
        insert(
            &mut a,
            "Big",
            &format!(r#"{{"PartitionKey":"p","RowKey":"{r:04}","N":{r}}}"#),
        );
        save(&mut p, &mut a).await;
    }
    // Deleting the first rows empties the first chunks, which hand their start to the next.
    for r in 0..450 {
        delete(&mut a, "Big", "p", &format!("{r:04}"));
        save(&mut p, &mut a).await;
    }
    let records = p.records().await.unwrap();
    assert_eq!(records.len(), p.chunk_count());
    assert_eq!(records[0].0, "Big/p/");
    let total: usize = records
        .iter()
        .map(|(_, v)| {
            serde_json::from_str::<Vec<serde_json::Value>>(v)
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(total, 450);

    let (p2, b) = reload(&ns).await;
    assert_eq!(export_text(&b), export_text(&a));
    p2.close();

    // Deleting every row leaves no chunk at all.
    for r in 450..900 {
        delete(&mut a, "Big", "p", &format!("{r:04}"));
    }
    save(&mut p, &mut a).await;
    assert!(p.records().await.unwrap().is_empty());
    let (p3, c) = reload(&ns).await;
    assert_eq!(c.table("Big").unwrap().entity_count(), 0);
    p3.close();
    drop_db(p).await;
}

#[wasm_bindgen_test]
async fn a_batch_is_one_transaction() {
    let ns = namespace("batch");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Orders");
    for r in 0..10 {
        insert(
            &mut a,
            "Orders",
            &format!(r#"{{"PartitionKey":"o","RowKey":"{r:03}"}}"#),
        );
    }
    save(&mut p, &mut a).await;
    let before = p.transactions_committed();

    let mut operations: Vec<BatchRequest> = (100..397)
        .step_by(3)
        .map(|r| BatchRequest::Insert {
            entity: raw(&format!(
                r#"{{"PartitionKey":"o","RowKey":"{r:03}","Qty":{r}}}"#
            )),
        })
        .collect();
    operations.push(BatchRequest::Delete {
        partition_key: "o".into(),
        row_key: "005".into(),
        if_match: None,
    });
    ok(a.execute(&Request::Batch {
        table: "Orders".into(),
        operations,
    }));
    let changes = a.take_changes();
    assert_eq!(changes.len(), 1, "one change set for the batch");
    assert_eq!(changes[0].len(), 100);
    p.save(&a, changes).await.unwrap();
    assert_eq!(p.transactions_committed(), before + 1);

    // What is on disk is the state after the whole batch.
    let records = p.records().await.unwrap();
    let stored: Vec<String> = records
        .iter()
        .flat_map(|(_, v)| serde_json::from_str::<Vec<serde_json::Value>>(v).unwrap())
        .map(|e| e["RowKey"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stored.len(), 108);
    assert!(!stored.contains(&"005".to_string()));
    assert!(stored.contains(&"100".to_string()) && stored.contains(&"394".to_string()));

    // Several change sets saved together also go in one transaction.
    for r in 500..505 {
        insert(
            &mut a,
            "Orders",
            &format!(r#"{{"PartitionKey":"x{r}","RowKey":"r"}}"#),
        );
    }
    let changes = a.take_changes();
    assert_eq!(changes.len(), 5);
    p.save(&a, changes).await.unwrap();
    assert_eq!(p.transactions_committed(), before + 2);

    let (p2, b) = reload(&ns).await;
    assert_eq!(export_text(&b), export_text(&a));
    p2.close();
    drop_db(p).await;
}

#[wasm_bindgen_test]
async fn an_import_replaces_everything_on_disk() {
    let ns = namespace("import");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Old");
    insert(&mut a, "Old", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    save(&mut p, &mut a).await;

    let mut source = Account::default();
    create(&mut source, "New");
    insert(&mut source, "New", ALL_TYPES);
    let text = serde_json::to_string(&source.export()).unwrap();
    a.import_json(&text).unwrap();
    save(&mut p, &mut a).await;

    let (p2, b) = reload(&ns).await;
    assert!(b.table("Old").is_err());
    assert_eq!(export_text(&b), export_text(&source));
    let keys: Vec<String> = p2
        .records()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.0)
        .collect();
    assert_eq!(keys, vec!["New/types/".to_string()]);
    p2.close();
    drop_db(p).await;
}

#[wasm_bindgen_test]
async fn namespaces_are_isolated() {
    let (ns_a, ns_b) = (namespace("iso-a"), namespace("iso-b"));
    let mut pa = Persist::open(&ns_a).await.unwrap();
    let mut a = pa.load().await.unwrap();
    create(&mut a, "Mine");
    insert(&mut a, "Mine", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    save(&mut pa, &mut a).await;

    let mut pb = Persist::open(&ns_b).await.unwrap();
    let mut b = pb.load().await.unwrap();
    assert_eq!(b.tables().count(), 0);
    create(&mut b, "Theirs");
    save(&mut pb, &mut b).await;

    let (pa2, a2) = reload(&ns_a).await;
    let names: Vec<&str> = a2.tables().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["Mine"]);
    pa2.close();
    drop_db(pa).await;
    drop_db(pb).await;
}

#[wasm_bindgen_test]
async fn damaged_records_give_a_clear_error() {
    let ns = namespace("corrupt");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Tbl");
    insert(&mut a, "Tbl", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    save(&mut p, &mut a).await;
    p.close();

    put_raw(
        &ns,
        "chunks",
        "Tbl/p/",
        JsValue::from_str("[{\"PartitionKey\":"),
    )
    .await;
    let mut p = Persist::open(&ns).await.unwrap();
    let error = load_error(&mut p).await;
    assert!(
        matches!(&error, PersistError::Corrupt { key, .. } if key == "Tbl/p/"),
        "{error:?}"
    );
    assert!(error.to_string().contains("damaged"), "{error}");

    // An empty chunk, a value that is not a string.
    put_raw(&ns, "chunks", "Tbl/p/", JsValue::from_str("[]")).await;
    let error = load_error(&mut p).await;
    assert!(
        matches!(&error, PersistError::Corrupt { key, detail } if key == "Tbl/p/" && detail.contains("empty")),
        "{error:?}"
    );
    put_raw(&ns, "chunks", "Tbl/p/", JsValue::from_f64(3.0)).await;
    let error = load_error(&mut p).await;
    assert!(
        matches!(&error, PersistError::Corrupt { key, detail } if key == "Tbl/p/" && detail.contains("string")),
        "{error:?}"
    );

    // A chunk of a table that meta does not list.
    let good = r#"[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00Z"}]"#;
    put_raw(&ns, "chunks", "Tbl/p/", JsValue::from_str(good)).await;
    put_raw(&ns, "chunks", "Unl/p/", JsValue::from_str(good)).await;
    let error = load_error(&mut p).await;
    assert!(
        matches!(&error, PersistError::Corrupt { key, detail } if key == "Unl/p/" && detail.contains("meta")),
        "{error:?}"
    );

    // An entity filed under another partition's key.
    put_raw(&ns, "chunks", "Tbl/q/", JsValue::from_str(good)).await;
    let error = load_error(&mut p).await;
    assert!(
        matches!(&error, PersistError::Corrupt { key, detail } if key == "Tbl/q/" && detail.contains("partition")),
        "{error:?}"
    );

    // Recovering skips the damaged chunk, keeps the rest (the unlisted table too), and the
    // next save rewrites the disk without it.
    let (b, damaged) = p.load_recovering(Account::default()).await.unwrap();
    assert!(
        matches!(damaged.as_slice(), [PersistError::Corrupt { key, .. }] if key == "Tbl/q/"),
        "{damaged:?}"
    );
    assert!(b.get("Tbl", "p", "r").is_ok() && b.get("Unl", "p", "r").is_ok());
    p.save(&b, Vec::new()).await.unwrap();
    let (p2, c) = reload(&ns).await;
    assert_eq!(export_text(&c), export_text(&b));
    p2.close();

    // Data from a newer format is refused, not misread.
    let newer = js_sys::JSON::parse(r#"{"format":3,"tables":[],"lastTimestamp":""}"#).unwrap();
    put_raw(&ns, "meta", "account", newer).await;
    let error = load_error(&mut p).await;
    assert!(
        matches!(&error, PersistError::Other(m) if m.contains("format")),
        "{error:?}"
    );
    drop_db(p).await;
}

async fn load_error(p: &mut Persist) -> PersistError {
    match p.load().await {
        Ok(_) => panic!("the load should have failed"),
        Err(e) => e,
    }
}

/// A chunk in the service's JSON form but not as Persist writes it (annotation after the value,
/// escapes, a DateTime with an offset, a null) loads as the engine's decoder reads it.
#[wasm_bindgen_test]
async fn hand_written_chunks_in_the_service_form_load() {
    let ns = namespace("handwritten");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Hand");
    save(&mut p, &mut a).await;
    let chunk = r#"[{"PartitionKey":"p","RowKey":"a\u0041","Timestamp":"2026-01-01T02:00:00+02:00",
        "Big":"42","Big@odata.type":"Edm.Int64","N\u0061me":"x\ny","Gone":null,
        "When@odata.type":"Edm.DateTime","When":"2024-01-01T00:00:00.5+01:00"}]"#;
    put_raw(&ns, "chunks", "Hand/p/", JsValue::from_str(chunk)).await;
    let mut p2 = Persist::open(&ns).await.unwrap();
    let b = p2.load().await.unwrap();
    let e = serde_json::to_value(b.get("Hand", "p", "aA").unwrap()).unwrap();
    assert_eq!(e["Timestamp"], "2026-01-01T00:00:00.0000000Z");
    assert_eq!(e["Big"], "42");
    assert_eq!(e["Name"], "x\ny");
    assert_eq!(e["When"], "2023-12-31T23:00:00.5000000Z");
    assert!(e.get("Gone").is_none());
    p2.close();
    drop_db(p).await;
}

#[wasm_bindgen_test]
async fn storage_estimate_and_persistence_request_answer() {
    let (usage, quota) = persist::estimate().await.unwrap();
    assert!(quota > 0, "quota {quota}");
    assert!(usage <= quota, "usage {usage} of {quota}");
    // Headless Chromium may grant or refuse; it must answer either way.
    let _granted: bool = persist::request_persistent().await;
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn one_writer_lock_per_namespace() {
    let name = format!("tablescope-{}", namespace("lock"));
    let first = persist::lock::try_acquire(&name).await;
    assert!(first.is_some());
    assert!(persist::lock::try_acquire(&name).await.is_none());
    let other = persist::lock::try_acquire(&format!("{name}-other")).await;
    assert!(other.is_some(), "other namespaces are not affected");
    first.unwrap().release();
    other.unwrap().release();
    sleep(20).await;
    let again = persist::lock::try_acquire(&name).await;
    assert!(again.is_some(), "a released lock can be taken again");
    again.unwrap().release();
}

/// The page session: attach loads, record saves after each write, a second writer stays in
/// memory and is told why.
#[wasm_bindgen_test]
async fn the_session_saves_every_recorded_write() {
    let ns = namespace("session");
    let errors: Rc<RefCell<Vec<PersistError>>> = Rc::default();
    let seen = errors.clone();
    let mut a = persist::attach(&ns, Account::default(), move |e| seen.borrow_mut().push(e))
        .await
        .unwrap();
    assert!(persist::is_attached());
    create(&mut a, "Session");
    persist::record(&mut a);
    insert(
        &mut a,
        "Session",
        r#"{"PartitionKey":"p","RowKey":"r","V":1}"#,
    );
    persist::record(&mut a);
    assert!(a.take_changes().is_empty(), "record takes the changes");
    while persist::saves_in_flight() > 0 {
        sleep(5).await;
    }
    let (p, b) = reload(&ns).await;
    assert_eq!(export_text(&b), export_text(&a));
    p.close();

    // Another "tab" attaching the same namespace loads it but does not write.
    let lock = persist::lock::try_acquire(&format!("tablescope-{ns}")).await;
    assert!(lock.is_none(), "the session holds the writer lock");
    persist::detach();
    assert!(!persist::is_attached());
    sleep(20).await;
    let holder = persist::lock::try_acquire(&format!("tablescope-{ns}"))
        .await
        .unwrap();
    let second = errors.clone();
    let c = persist::attach(&ns, Account::default(), move |e| {
        second.borrow_mut().push(e)
    })
    .await
    .unwrap();
    assert_eq!(
        export_text(&c),
        export_text(&a),
        "the stored tables still load"
    );
    assert!(!persist::is_attached());
    assert_eq!(*errors.borrow(), vec![PersistError::InAnotherTab]);
    holder.release();
    Persist::delete(&ns).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_session_can_go_on_past_a_damaged_record() {
    let ns = namespace("recover");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Fine");
    insert(&mut a, "Fine", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    save(&mut p, &mut a).await;
    p.close();
    put_raw(&ns, "chunks", "Fine/q/", JsValue::from_str("not json")).await;

    let refused = persist::attach(&ns, Account::default(), |_| {}).await;
    assert!(matches!(refused, Err(PersistError::Corrupt { .. })));
    assert!(!persist::is_attached());
    let errors: Rc<RefCell<Vec<PersistError>>> = Rc::default();
    let seen = errors.clone();
    let b = persist::attach_recovering(&ns, Account::default(), move |e| seen.borrow_mut().push(e))
        .await
        .unwrap();
    assert!(persist::is_attached());
    assert_eq!(export_text(&b), export_text(&a));
    assert!(
        matches!(errors.borrow().as_slice(), [PersistError::Corrupt { key, .. }] if key == "Fine/q/")
    );
    persist::detach();
    Persist::delete(&ns).await.unwrap();
}

/// When another tab deletes (or upgrades) the database, this connection steps aside: it closes
/// so the other tab is not blocked, and its later saves say why they failed.
#[wasm_bindgen_test]
async fn a_connection_steps_aside_for_another_tabs_upgrade() {
    let ns = namespace("versionchange");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Before");
    save(&mut p, &mut a).await;

    // Deleting waits for every connection to close; p's version-change handler closes it.
    Persist::delete(&ns).await.unwrap();
    create(&mut a, "After");
    let changes = a.take_changes();
    assert_eq!(p.save(&a, changes).await, Err(PersistError::Blocked));
    assert!(PersistError::Blocked.to_string().contains("reload"));
    drop(p);

    let (p2, b) = reload(&ns).await;
    assert_eq!(b.tables().count(), 0, "the database was deleted");
    drop_db(p2).await;
}

#[wasm_bindgen_test]
async fn a_database_from_a_newer_tablescope_is_not_opened() {
    let ns = namespace("newer");
    let factory = idb::Factory::new().unwrap();
    let db = factory
        .open(&format!("tablescope-{ns}"), Some(7))
        .unwrap()
        .await
        .unwrap();
    db.close();
    let error = match Persist::open(&ns).await {
        Ok(_) => panic!("opened a newer database"),
        Err(e) => e,
    };
    assert!(
        matches!(&error, PersistError::Other(m) if m.contains("newer")),
        "{error:?}"
    );
    Persist::delete(&ns).await.unwrap();
}

fn now() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

fn bench_entity(p: usize, r: usize) -> RawEntity {
    raw(&format!(
        r#"{{"PartitionKey":"part{p:03}","RowKey":"row{r:05}","Name":"Customer {p}-{r}","Age":{},
        "Score":{}.25,"Active":true,"Joined@odata.type":"Edm.DateTime","Joined":"2024-05-06T07:08:09.1234567Z",
        "Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833",
        "Balance@odata.type":"Edm.Int64","Balance":"{}"}}"#,
        r % 90,
        r,
        p * 1_000_000 + r
    ))
}

/// 100,000 entities (100 partitions × 1,000): save all, load all, one write after.
#[wasm_bindgen_test]
#[ignore]
async fn bench_100k() {
    let ns = namespace("bench");
    let mut a = Account::default();
    create(&mut a, "Bench");
    for p in 0..100 {
        for r in 0..1000 {
            ok(a.execute(&Request::Insert {
                table: "Bench".into(),
                entity: bench_entity(p, r),
            }));
        }
    }
    let changes = a.take_changes();

    // Incremental path: 100,000 change sets in one transaction.
    let mut p = Persist::open(&ns).await.unwrap();
    p.load().await.unwrap();
    let t0 = now();
    p.save(&a, changes).await.unwrap();
    let save_changes = now() - t0;

    // Full-rewrite path (import, first save): a fresh connection before any load.
    let mut p2 = Persist::open(&ns).await.unwrap();
    let t0 = now();
    p2.save(&a, Vec::new()).await.unwrap();
    let save_full = now() - t0;
    p2.close();

    let t0 = now();
    let (mut p3, mut b) = reload(&ns).await;
    let load = now() - t0;
    assert_eq!(b.table("Bench").unwrap().entity_count(), 100_000);

    let mut single = Vec::new();
    for i in 0..20 {
        let t0 = now();
        ok(b.execute(&Request::UpsertReplace {
            table: "Bench".into(),
            entity: bench_entity(i * 5, 500),
        }));
        save(&mut p3, &mut b).await;
        single.push(now() - t0);
    }
    single.sort_by(f64::total_cmp);
    // Where load time goes: reading the records, and (for comparison) decoding them with the
    // engine's general decoder instead of Persist's direct one.
    let t0 = now();
    let records_read = p3.records().await.unwrap();
    let read = now() - t0;
    let t0 = now();
    let mut members = 0;
    for (_, v) in &records_read {
        let raws: Vec<RawEntity> = serde_json::from_str(v).unwrap();
        members += raws.len();
    }
    let json_only = now() - t0;
    console_log!(
        "reference: serde_json into RawEntity only, {members} entities: {json_only:.0} ms"
    );
    let t0 = now();
    let mut parsed = 0;
    let mut table = tablescope::engine::Table::new("X");
    for (_, v) in &records_read {
        let raws: Vec<RawEntity> = serde_json::from_str(v).unwrap();
        for r in &raws {
            let e = tablescope::engine::json::decode_stored(r).unwrap();
            let ts = e.timestamp.unwrap();
            table.put(e, ts);
            parsed += 1;
        }
    }
    let decode = now() - t0;
    console_log!("reference: read records {read:.0} ms; engine decoder + build {parsed} entities {decode:.0} ms");
    let records = p3.records().await.unwrap().len();
    console_log!(
        "persist bench, 100,000 entities in {records} chunks: save (100,000 change sets) {save_changes:.0} ms; \
         save (full rewrite) {save_full:.0} ms; open + load {load:.0} ms; \
         one write durable: median {:.1} ms, max {:.1} ms",
        single[single.len() / 2],
        single[single.len() - 1]
    );
    p3.close();
    drop_db(p).await;
}

/// A store an older Tablescope left with its clock at the end of the range (a refused import
/// moved it there, and every later write got 9999-12-31T23:59:59.9999999Z): loading gives
/// those entities their own current Timestamps, says so, and writes them to disk at once, so
/// writes work again and an ETag read before the repair no longer matches.
#[wasm_bindgen_test]
async fn a_clock_stuck_at_the_end_of_its_range_is_repaired() {
    const END: &str = "9999-12-31T23:59:59.9999999Z";
    let ns = namespace("stuck-clock");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Stuck");
    save(&mut p, &mut a).await;
    p.close();
    let chunk = format!(
        r#"[{{"PartitionKey":"p","RowKey":"a","Timestamp":"{END}","V":1}},
            {{"PartitionKey":"p","RowKey":"b","Timestamp":"{END}","V":2}},
            {{"PartitionKey":"p","RowKey":"c","Timestamp":"2024-05-06T07:08:09.0000000Z","V":3}}]"#
    );
    put_raw(&ns, "chunks", "Stuck/p/", JsValue::from_str(&chunk)).await;
    let meta = js_sys::JSON::parse(&format!(
        r#"{{"format":1,"tables":["Stuck"],"lastTimestamp":"{END}"}}"#
    ))
    .unwrap();
    put_raw(&ns, "meta", "account", meta).await;

    let errors: Rc<RefCell<Vec<PersistError>>> = Rc::default();
    let seen = errors.clone();
    let clock = || DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap();
    let mut a = persist::attach(&ns, Account::new(Box::new(clock)), move |e| {
        seen.borrow_mut().push(e)
    })
    .await
    .unwrap();
    assert_eq!(*errors.borrow(), vec![PersistError::ClockRepaired(2)]);
    let stamp = |a: &Account, rk: &str| a.get("Stuck", "p", rk).unwrap().timestamp.unwrap();
    let (ta, tb, tc) = (stamp(&a, "a"), stamp(&a, "b"), stamp(&a, "c"));
    assert_eq!(
        tc.to_string_7(),
        "2024-05-06T07:08:09.0000000Z",
        "others keep theirs"
    );
    assert!(ta < tb && tb < DateTime::MAX && ta > tc, "{ta} {tb}");

    // The ETag read before the repair no longer matches; writes get fresh Timestamps.
    let stale = tablescope::engine::etag_for(DateTime::MAX);
    let refused = a.execute(&Request::Replace {
        table: "Stuck".into(),
        entity: raw(r#"{"PartitionKey":"p","RowKey":"a","V":10}"#),
        if_match: Some(stale),
    });
    assert_eq!(refused.status, 412, "{refused:?}");
    let current = tablescope::engine::etag_for(tb);
    let replaced = ok(a.execute(&Request::Replace {
        table: "Stuck".into(),
        entity: raw(r#"{"PartitionKey":"p","RowKey":"b","V":20}"#),
        if_match: Some(current),
    }));
    assert_eq!(replaced.status, 204);
    persist::record(&mut a);
    let tb2 = stamp(&a, "b");
    assert!(tb2 > tb && tb2 < DateTime::MAX);
    while persist::saves_in_flight() > 0 {
        sleep(5).await;
    }
    persist::detach();

    // On disk: the repair and the write, with nothing left to repair.
    let (p, b) = reload(&ns).await;
    assert_eq!(p.restamped(), 0);
    assert_eq!(export_text(&b), export_text(&a));
    assert_eq!(stamp(&b, "a"), ta);
    drop_db(p).await;
}

/// A batch of `n` inserts into one partition, rows `from..from + n`.
fn batch(a: &mut Account, table: &str, pk: &str, from: usize, n: usize) {
    let operations = (from..from + n)
        .map(|r| BatchRequest::Insert {
            entity: raw(&format!(
                r#"{{"PartitionKey":"{pk}","RowKey":"{r:04}","V":{r}}}"#
            )),
        })
        .collect();
    ok(a.execute(&Request::Batch {
        table: table.into(),
        operations,
    }));
}

/// One step of the burst of saves: batches that grow a partition past a chunk and split it,
/// an import, single writes, a deleted table, a reset.
fn burst_step(a: &mut Account, step: usize) {
    match step {
        0 => batch(a, "Tbl", "p", 0, 100),
        1 => batch(a, "Tbl", "p", 100, 100),
        2 => batch(a, "Tbl", "p", 200, 100),
        3 => batch(a, "Tbl", "q", 0, 60),
        4 => {
            let rows: Vec<String> = (0..300)
                .map(|r| format!(r#"{{"PartitionKey":"i","RowKey":"{r:04}","V":{r}}}"#))
                .collect();
            a.import_json(&format!(
                r#"{{"format":"tablescope-account","version":1,"tables":[{{"name":"Imp","entities":[{}]}},{{"name":"Tbl","entities":[]}}]}}"#,
                rows.join(",")
            ))
            .unwrap();
        }
        5 => insert(a, "Imp", r#"{"PartitionKey":"i","RowKey":"0150x","V":-1}"#),
        6 => delete(a, "Imp", "i", "0007"),
        7 => batch(a, "Tbl", "p", 0, 100),
        8 => {
            ok(a.execute(&Request::DeleteTable {
                table: "Imp".into(),
            }));
        }
        9 => {
            create(a, "After");
            batch(a, "After", "a", 0, 30);
        }
        10 => a
            .import_json(r#"{"format":"tablescope-account","version":1,"tables":[]}"#)
            .unwrap(),
        11 => {
            create(a, "Fresh");
            insert(a, "Fresh", r#"{"PartitionKey":"f","RowKey":"1"}"#);
        }
        _ => unreachable!(),
    }
}

const BURST: usize = 12;

/// An abort injected at every transaction of a burst of saves begun back to back (as the UI
/// does: each save starts before the previous one has committed), one position at a time:
/// the saves before it are acknowledged, it and every later one fail and name what is not on
/// disk, the store then loads *without* recovery and holds exactly the acknowledged prefix,
/// and the next save rewrites the store to the state the user sees.
#[wasm_bindgen_test]
async fn an_abort_anywhere_in_a_burst_leaves_a_loadable_prefix() {
    for position in 1..=BURST as u64 {
        let ns = namespace(&format!("burst-{position}"));
        let mut p = Persist::open(&ns).await.unwrap();
        let mut a = p.load().await.unwrap();
        create(&mut a, "Tbl");
        batch(&mut a, "Tbl", "p", 1000, 10);
        save(&mut p, &mut a).await;
        let mut states = vec![export_text(&a)];

        p.abort_transaction(position);
        let mut saving = Vec::new();
        for step in 0..BURST {
            burst_step(&mut a, step);
            states.push(export_text(&a));
            let changes = a.take_changes();
            saving.push(p.begin(&a, changes));
        }
        let mut results = Vec::new();
        for s in saving {
            results.push(s.await);
        }
        let acknowledged = results.iter().take_while(|r| r.is_ok()).count();
        assert_eq!(
            acknowledged as u64,
            position - 1,
            "position {position}: {results:?}"
        );
        assert_eq!(
            results[acknowledged],
            Err(PersistError::Other("the transaction was aborted".into()))
        );
        let stale = PersistError::Other(
            "an earlier save failed, so this one was not written either".into(),
        );
        assert!(
            results
                .iter()
                .skip(acknowledged + 1)
                .all(|r| *r == Err(stale.clone())),
            "position {position}: nothing after the failure commits: {results:?}"
        );
        assert!(
            !p.unsaved().is_empty(),
            "position {position}: the changes not on disk are named"
        );

        // A strict load (no recovery) gives exactly the acknowledged prefix.
        let mut fresh = Persist::open(&ns).await.unwrap();
        let loaded = fresh
            .load()
            .await
            .unwrap_or_else(|e| panic!("position {position}: {e}"));
        assert_eq!(
            export_text(&loaded),
            states[acknowledged],
            "position {position}"
        );
        fresh.close();

        // The next save rewrites everything: the disk holds what the user sees.
        insert(&mut a, "Fresh", r#"{"PartitionKey":"f","RowKey":"2"}"#);
        save(&mut p, &mut a).await;
        assert!(p.unsaved().is_empty());
        let (p2, b) = reload(&ns).await;
        assert_eq!(export_text(&b), export_text(&a), "position {position}");
        p2.close();
        drop_db(p).await;
    }
}

/// Chunks that break the layout's invariants the way older code could leave them after a
/// failed save (a chunk still holding rows past the next chunk's start; a partition whose
/// first chunk does not start at the empty RowKey) load without recovery: the owning chunk's
/// copy of a row wins, a row found only out of place is kept, the user is told, and the store
/// is rewritten at once.
#[wasm_bindgen_test]
async fn overlapping_chunks_are_repaired_on_load() {
    let ns = namespace("overlap");
    let mut p = Persist::open(&ns).await.unwrap();
    let mut a = p.load().await.unwrap();
    create(&mut a, "Ovl");
    save(&mut p, &mut a).await;
    p.close();
    let row = |rk: &str, v: i32| {
        format!(
            r#"{{"PartitionKey":"p","RowKey":"{rk}","Timestamp":"2024-01-01T00:00:00.0000001Z","V":{v}}}"#
        )
    };
    let stale: Vec<String> = (0..10).map(|r| row(&format!("{r:04}"), r)).collect();
    let owner: Vec<String> = [5, 6, 8]
        .iter()
        .map(|r| row(&format!("{r:04}"), r * 10))
        .collect();
    put_raw(
        &ns,
        "chunks",
        "Ovl/p/",
        JsValue::from_str(&format!("[{}]", stale.join(","))),
    )
    .await;
    put_raw(
        &ns,
        "chunks",
        "Ovl/p/0005",
        JsValue::from_str(&format!("[{}]", owner.join(","))),
    )
    .await;
    let q = r#"[{"PartitionKey":"q","RowKey":"m","Timestamp":"2024-01-01T00:00:00.0000002Z"}]"#;
    put_raw(&ns, "chunks", "Ovl/q/m", JsValue::from_str(q)).await;

    let mut strict = Persist::open(&ns).await.unwrap();
    let b = strict.load().await.unwrap();
    assert_eq!(
        strict.repaired(),
        6,
        "5 rows out of place, 1 partition without an empty start"
    );
    strict.close();
    let v = |a: &Account, rk: &str| {
        a.get("Ovl", "p", rk)
            .unwrap()
            .properties
            .iter()
            .find(|(n, _)| &**n == "V")
            .map(|(_, v)| v.clone())
    };
    use tablescope::engine::Value;
    assert_eq!(v(&b, "0004"), Some(Value::Int32(4)));
    assert_eq!(
        v(&b, "0005"),
        Some(Value::Int32(50)),
        "the owning chunk's copy wins"
    );
    assert_eq!(v(&b, "0008"), Some(Value::Int32(80)));
    assert_eq!(
        v(&b, "0007"),
        Some(Value::Int32(7)),
        "a row found only out of place is kept"
    );
    assert_eq!(b.table("Ovl").unwrap().entity_count(), 11);

    let errors: Rc<RefCell<Vec<PersistError>>> = Rc::default();
    let seen = errors.clone();
    let c = persist::attach(&ns, Account::default(), move |e| seen.borrow_mut().push(e))
        .await
        .unwrap();
    assert_eq!(*errors.borrow(), vec![PersistError::ChunksRepaired(6)]);
    while persist::saves_in_flight() > 0 {
        sleep(5).await;
    }
    persist::detach();
    let (p, d) = reload(&ns).await;
    assert_eq!(p.repaired(), 0, "the rewrite left nothing to repair");
    assert_eq!(export_text(&d), export_text(&c));
    assert_eq!(export_text(&d), export_text(&b));
    drop_db(p).await;
}

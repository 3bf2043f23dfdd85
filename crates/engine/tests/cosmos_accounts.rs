#![cfg(not(target_arch = "wasm32"))]
//! A Cosmos DB for Table account as a whole: its target kept in snapshots (and absent from
//! storage's), copies to the other target with what they could not keep, and the index at
//! 100,000 entities.

mod common;
use common::*;
use tablescope_engine::settings::{AccessPolicy, SignedIdentifier};
use tablescope_engine::{
    Account, CopyReport, DateTime, Dropped, Entity, FixedClock, Request, Rule, Target, Value,
};

fn cosmos() -> Account {
    Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()))
}

#[test]
fn snapshots_keep_the_target_only_when_it_is_not_storage() {
    let mut s = account_with("Orders");
    insert(&mut s, "Orders", r#"{"PartitionKey":"p","RowKey":"1"}"#);
    let text = serde_json::to_string(&s.export()).unwrap();
    assert!(!text.contains("target"), "{text}");

    let mut c = cosmos();
    c.execute(&Request::CreateTable {
        table: "Orders".into(),
    });
    for rk in ["b", "a", "c"] {
        insert(
            &mut c,
            "Orders",
            &format!(r#"{{"PartitionKey":"p","RowKey":"{rk}"}}"#),
        );
    }
    let text = serde_json::to_string(&c.export()).unwrap();
    assert!(text.contains(r#""target":"cosmosTable""#), "{text}");

    // Loaded into a storage account, the snapshot makes it a Cosmos account again, in the
    // same order.
    let mut loaded = Account::default();
    loaded.import_json(&text).unwrap();
    assert_eq!(loaded.target(), Target::CosmosTable);
    let rks: Vec<String> = keys(&query(&mut loaded, "Orders", "PartitionKey eq 'p'"))
        .into_iter()
        .map(|(_, rk)| rk)
        .collect();
    assert_eq!(rks, ["b", "a", "c"]);
    // A file without a target loads as storage.
    let mut back = cosmos();
    back.import_json(&serde_json::to_string(&s.export()).unwrap())
        .unwrap();
    assert_eq!(back.target(), Target::TableStorage);
}

#[test]
fn switching_to_cosmos_keeps_the_data_and_names_what_it_cannot_keep() {
    let mut a = account_with("Orders");
    insert(
        &mut a,
        "Orders",
        r#"{"PartitionKey":"p","RowKey":"kept","N":1}"#,
    );
    let long = "k".repeat(256);
    insert(
        &mut a,
        "Orders",
        &format!(r#"{{"PartitionKey":"p","RowKey":"{long}"}}"#),
    );
    insert(
        &mut a,
        "Orders",
        r#"{"PartitionKey":"p","RowKey":"named","Id":5}"#,
    );
    let acl = vec![SignedIdentifier {
        id: "policy".into(),
        access_policy: Some(AccessPolicy {
            start: None,
            expiry: None,
            permission: Some("r".into()),
        }),
    }];
    assert_eq!(
        a.execute(&Request::SetTableAcl {
            table: "Orders".into(),
            identifiers: acl
        })
        .status,
        204
    );
    let before = a.get("Orders", "p", "kept").unwrap();
    let report = a.switch_target(Target::CosmosTable);
    assert_eq!(
        report,
        CopyReport {
            from: Target::TableStorage,
            to: Target::CosmosTable,
            tables: 1,
            entities: 1,
            dropped: vec![
                Dropped::TableAcl {
                    table: "Orders".into(),
                    policies: 1
                },
                Dropped::Entity {
                    table: "Orders".into(),
                    partition_key: "p".into(),
                    row_key: long.clone(),
                    rule: Rule::RowKeyLimit
                },
                Dropped::Entity {
                    table: "Orders".into(),
                    partition_key: "p".into(),
                    row_key: "named".into(),
                    rule: Rule::ReservedPropertyNames
                },
            ]
        }
    );
    assert_eq!(a.target(), Target::CosmosTable);
    // The entity kept its Timestamp and properties, and the index knows it.
    assert_eq!(a.get("Orders", "p", "kept").unwrap(), before);
    let r = query(&mut a, "Orders", "N eq 1");
    assert_eq!(r.stats.unwrap().scanned, 1);
    assert_eq!(r.index.unwrap().entries, 1);
}

#[test]
fn copying_to_storage_keeps_the_first_of_names_equal_but_for_case() {
    let mut c = cosmos();
    for name in ["Orders", "orders"] {
        assert_eq!(
            c.execute(&Request::CreateTable { table: name.into() })
                .status,
            201
        );
        insert(&mut c, name, r#"{"PartitionKey":"p","RowKey":"r"}"#);
    }
    let (copy, report) = c.copy_to(Target::TableStorage, Box::new(FixedClock::default()));
    assert_eq!(copy.target(), Target::TableStorage);
    assert_eq!(c.target(), Target::CosmosTable);
    let first = c.tables().next().unwrap().name.clone();
    let second = c.tables().nth(1).unwrap().name.clone();
    assert_eq!(report.tables, 1);
    assert_eq!(report.entities, 1);
    assert_eq!(
        report.dropped,
        vec![Dropped::TableName {
            table: second,
            kept: first.clone()
        }]
    );
    assert_eq!(
        copy.tables().map(|t| t.name.clone()).collect::<Vec<_>>(),
        [first]
    );
}

/// The benchmark check: a property filter on the Cosmos target at 100,000 entities reads no
/// more entities than it returns; storage reads all of them.
#[test]
fn a_property_filter_at_100_000_entities_reads_only_what_it_returns() {
    let mut s = Account::default();
    let mut c = cosmos();
    for a in [&mut s, &mut c] {
        a.set_change_feed(false);
        a.create_table("Bench").unwrap();
        for i in 0..100_000usize {
            let e = Entity::new(format!("p{:03}", i % 100), format!("r{i:06}"))
                .with("Bucket", Value::Int32((i % 100) as i32))
                .with("Name", Value::string(format!("Customer {i}")));
            a.insert("Bench", e).unwrap();
        }
    }
    for filter in ["Bucket eq 42", "Name eq 'Customer 4242'", "Bucket ge 98"] {
        let (mut scanned_s, mut scanned_c, mut returned_c, mut returned_s) = (0, 0, 0, 0);
        for (a, scanned, returned) in [
            (&mut s, &mut scanned_s, &mut returned_s),
            (&mut c, &mut scanned_c, &mut returned_c),
        ] {
            let mut token = None;
            loop {
                let r = query_with(a, "Bench", filter, None, token, None);
                assert_eq!(r.status, 200);
                let stats = r.stats.unwrap();
                *scanned += stats.scanned;
                *returned += stats.returned;
                token = r.continuation;
                if token.is_none() {
                    break;
                }
            }
        }
        assert_eq!(returned_s, returned_c, "{filter}");
        assert_eq!(scanned_s, 100_000, "{filter}");
        assert_eq!(scanned_c, returned_c, "{filter}");
    }
    assert_eq!(
        c.table("Bench").unwrap().items().unwrap().index_entries(),
        200_000
    );
    let _ = DateTime::MIN;
}

/// Replacing, merging and deleting keep the index exact: each query still reads only its
/// matches, and the entry count follows.
#[test]
fn the_index_follows_updates_and_deletes() {
    let mut c = cosmos();
    c.create_table("Tbl").unwrap();
    for rk in ["a", "b", "c"] {
        insert(
            &mut c,
            "Tbl",
            &format!(r#"{{"PartitionKey":"p","RowKey":"{rk}","B":1}}"#),
        );
    }
    let replace = c.execute(&Request::Replace {
        table: "Tbl".into(),
        entity: raw(r#"{"PartitionKey":"p","RowKey":"a","B":2}"#),
        if_match: None,
    });
    assert_eq!(replace.status, 204);
    let merge = c.execute(&Request::Merge {
        table: "Tbl".into(),
        entity: raw(r#"{"PartitionKey":"p","RowKey":"b","C":"x"}"#),
        if_match: None,
    });
    assert_eq!(merge.status, 204);
    c.delete("Tbl", "p", "c", None).unwrap();
    let read = |c: &mut Account, f: &str| {
        let r = query(c, "Tbl", f);
        let s = r.stats.unwrap();
        (keys(&r), s.scanned)
    };
    let k = |rk: &str| vec![("p".to_string(), rk.to_string())];
    assert_eq!(read(&mut c, "B eq 1"), (k("b"), 1));
    assert_eq!(read(&mut c, "B eq 2"), (k("a"), 1));
    assert_eq!(read(&mut c, "C eq 'x'"), (k("b"), 1));
    // a: B; b: B and C.
    assert_eq!(c.table("Tbl").unwrap().items().unwrap().index_entries(), 3);
    // The order is each entity's last write: b (merged) after a (replaced).
    assert_eq!(
        keys(&query(&mut c, "Tbl", "B ge 0")),
        [k("a"), k("b")].concat()
    );
}

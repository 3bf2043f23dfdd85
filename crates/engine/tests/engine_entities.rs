#![cfg(not(target_arch = "wasm32"))]
//! Entity operations, ETags and Timestamps, and every validation rule of docs/service/data-model.md, docs/service/operations.md.

mod common;
use common::*;
use tablescope_engine::{Account, Request, Value};

fn replace(a: &mut Account, json: &str, if_match: Option<&str>) -> tablescope_engine::Response {
    a.execute(&Request::Replace {
        table: "T1x".into(),
        entity: raw(json),
        if_match: if_match.map(String::from),
    })
}

fn get(a: &Account, pk: &str, rk: &str) -> Option<tablescope_engine::Entity> {
    a.get("T1x", pk, rk).ok()
}

#[test]
fn insert_then_conflict() {
    let mut a = account_with("T1x");
    let r = insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"r","A":1}"#);
    assert_eq!(r.status, 201);
    assert_eq!(
        r.etag.map(String::from).as_deref(),
        Some("W/\"datetime'2026-01-01T00%3A00%3A00Z'\"")
    );
    let r = insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    assert_eq!(r.status, 409);
    let e = r.error.unwrap();
    assert_eq!(
        e.to_string().split(" (").next().unwrap(),
        "409 EntityAlreadyExists: The specified entity already exists."
    );
}

#[test]
fn timestamps_strictly_increase_on_a_standing_clock() {
    let mut a = account_with("T1x");
    let e1 = insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"1"}"#)
        .etag
        .map(String::from)
        .unwrap();
    let e2 = insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"2"}"#)
        .etag
        .map(String::from)
        .unwrap();
    assert_eq!(e1, "W/\"datetime'2026-01-01T00%3A00%3A00Z'\"");
    assert_eq!(e2, "W/\"datetime'2026-01-01T00%3A00%3A00.0000001Z'\"");
}

#[test]
fn if_match_rules() {
    let mut a = account_with("T1x");
    let etag = insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"r","A":1}"#)
        .etag
        .map(String::from)
        .unwrap();
    // Missing entity: 404 wins over a mismatching ETag.
    let r = replace(
        &mut a,
        r#"{"PartitionKey":"p","RowKey":"zz"}"#,
        Some("W/\"datetime'2000-01-01T00%3A00%3A00Z'\""),
    );
    assert_eq!((r.status, code(&r)), (404, Some("ResourceNotFound".into())));
    // Strong and malformed tags: 400 InvalidInput.
    for bad in ["\"abc\"", "abc", "W/abc"] {
        let r = replace(&mut a, r#"{"PartitionKey":"p","RowKey":"r"}"#, Some(bad));
        assert_eq!(
            (r.status, code(&r)),
            (400, Some("InvalidInput".into())),
            "{bad}"
        );
    }
    // A well-formed weak tag that does not match: 412.
    let r = replace(
        &mut a,
        r#"{"PartitionKey":"p","RowKey":"r"}"#,
        Some("W/\"datetime'2000-01-01T00%3A00%3A00Z'\""),
    );
    assert_eq!(
        (r.status, code(&r)),
        (412, Some("UpdateConditionNotSatisfied".into()))
    );
    // The current tag, then the now stale one.
    let r = replace(
        &mut a,
        r#"{"PartitionKey":"p","RowKey":"r","B":2}"#,
        Some(&etag),
    );
    assert_eq!(r.status, 204);
    let r = replace(
        &mut a,
        r#"{"PartitionKey":"p","RowKey":"r","C":3}"#,
        Some(&etag),
    );
    assert_eq!(r.status, 412);
    let r = a.execute(&Request::Delete {
        table: "T1x".into(),
        partition_key: "p".into(),
        row_key: "r".into(),
        if_match: Some(etag),
    });
    assert_eq!(r.status, 412);
    let r = a.execute(&Request::Delete {
        table: "T1x".into(),
        partition_key: "p".into(),
        row_key: "r".into(),
        if_match: Some("*".into()),
    });
    assert_eq!(r.status, 204);
    assert_eq!(get(&a, "p", "r"), None);
}

#[test]
fn replace_removes_merge_keeps_and_ignores_null() {
    let mut a = account_with("T1x");
    insert(
        &mut a,
        "T1x",
        r#"{"PartitionKey":"p","RowKey":"r","A":1,"B":"b"}"#,
    );
    let r = a.execute(&Request::Merge {
        table: "T1x".into(),
        entity: raw(r#"{"PartitionKey":"p","RowKey":"r","A":2,"B":null,"C":true}"#),
        if_match: Some("*".into()),
    });
    assert_eq!(r.status, 204);
    let e = get(&a, "p", "r").unwrap();
    assert_eq!(e.get("A"), Some(&Value::Int32(2)));
    assert_eq!(
        e.get("B"),
        Some(&Value::string("b")),
        "merge with null must not delete"
    );
    assert_eq!(e.get("C"), Some(&Value::Boolean(true)));
    replace(&mut a, r#"{"PartitionKey":"p","RowKey":"r","Z":1}"#, None);
    let e = get(&a, "p", "r").unwrap();
    assert_eq!(e.properties.len(), 1);
    assert_eq!(e.get("Z"), Some(&Value::Int32(1)));
}

#[test]
fn upserts_create_or_overwrite() {
    let mut a = account_with("T1x");
    let up = |a: &mut Account, json: &str, merge: bool| {
        let entity = raw(json);
        let req = if merge {
            Request::UpsertMerge {
                table: "T1x".into(),
                entity,
            }
        } else {
            Request::UpsertReplace {
                table: "T1x".into(),
                entity,
            }
        };
        a.execute(&req).status
    };
    assert_eq!(
        up(&mut a, r#"{"PartitionKey":"p","RowKey":"r","A":1}"#, true),
        204
    );
    assert_eq!(
        up(&mut a, r#"{"PartitionKey":"p","RowKey":"r","B":1}"#, true),
        204
    );
    assert_eq!(get(&a, "p", "r").unwrap().properties.len(), 2);
    assert_eq!(
        up(&mut a, r#"{"PartitionKey":"p","RowKey":"r","C":1}"#, false),
        204
    );
    assert_eq!(get(&a, "p", "r").unwrap().properties.len(), 1);
}

#[test]
fn get_missing_and_select() {
    let mut a = account_with("T1x");
    insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"r","A":1}"#);
    let r = a.execute(&Request::Get {
        table: "T1x".into(),
        partition_key: "p".into(),
        row_key: "x".into(),
        select: None,
    });
    assert_eq!((r.status, code(&r)), (404, Some("ResourceNotFound".into())));
    let r = a.execute(&Request::Get {
        table: "T1x".into(),
        partition_key: "p".into(),
        row_key: "r".into(),
        select: Some(vec!["A".into(), "Missing".into()]),
    });
    let json = serde_json::to_string(&r.entity.unwrap()).unwrap();
    assert!(json.ends_with(r#""A":1,"Missing":null}"#), "{json}");
    assert!(!json.contains("PartitionKey"), "{json}");
}

fn insert_code(json: &str) -> Option<String> {
    let mut a = account_with("T1x");
    code(&insert(&mut a, "T1x", json))
}

#[test]
fn validation_codes() {
    let c = |s: &str| Some(s.to_string());
    assert_eq!(insert_code(r#"{"RowKey":"r"}"#), c("PropertiesNeedValue"));
    assert_eq!(
        insert_code(r#"{"PartitionKey":null,"RowKey":"r"}"#),
        c("PropertiesNeedValue")
    );
    assert_eq!(
        insert_code(r#"{"PartitionKey":"a/b","RowKey":"r"}"#),
        c("OutOfRangeInput")
    );
    assert_eq!(
        insert_code(r#"{"PartitionKey":"p","RowKey":"a\u0001"}"#),
        c("OutOfRangeInput")
    );
    assert_eq!(
        insert_code(&format!(
            r#"{{"PartitionKey":"{}","RowKey":"r"}}"#,
            "k".repeat(1025)
        )),
        c("KeyValueTooLarge")
    );
    assert_eq!(
        insert_code(&format!(
            r#"{{"PartitionKey":"{}","RowKey":"r"}}"#,
            "k".repeat(1024)
        )),
        None
    );
    assert_eq!(
        insert_code(r#"{"PartitionKey":"p","RowKey":"r","1x":1}"#),
        c("PropertyNameInvalid")
    );
    assert_eq!(
        insert_code(&format!(
            r#"{{"PartitionKey":"p","RowKey":"r","{}":1}}"#,
            "n".repeat(256)
        )),
        c("PropertyNameTooLong")
    );
    assert_eq!(
        insert_code(r#"{"PartitionKey":"p","RowKey":"r","A":1,"A":2}"#),
        c("DuplicatePropertiesSpecified")
    );
    assert_eq!(
        insert_code(&format!(
            r#"{{"PartitionKey":"p","RowKey":"r","S":"{}"}}"#,
            "s".repeat(32 * 1024 + 1)
        )),
        c("PropertyValueTooLarge")
    );
    assert_eq!(
        insert_code(&format!(
            r#"{{"PartitionKey":"p","RowKey":"r","S":"{}"}}"#,
            "s".repeat(32 * 1024)
        )),
        None
    );
    assert_eq!(
        insert_code(
            r#"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime","D":"1600-12-31T00:00:00Z"}"#
        ),
        c("OutOfRangeInput")
    );
    assert_eq!(
        insert_code(r#"{"PartitionKey":"p","RowKey":"r","L@odata.type":"Edm.Int64","L":"12x"}"#),
        c("InvalidInput")
    );
    assert_eq!(
        insert_code(r#"{"PartitionKey":"p","RowKey":"r","G@odata.type":"Edm.Guid","G":"nope"}"#),
        c("InvalidInput")
    );
    let many: String = (0..253).map(|i| format!(r#","P{i}":1"#)).collect();
    assert_eq!(
        insert_code(&format!(r#"{{"PartitionKey":"p","RowKey":"r"{many}}}"#)),
        c("TooManyProperties")
    );
    let ok: String = (0..252).map(|i| format!(r#","P{i}":1"#)).collect();
    assert_eq!(
        insert_code(&format!(r#"{{"PartitionKey":"p","RowKey":"r"{ok}}}"#)),
        None
    );
    // 17 strings of 32,768 units: 17 × (8 + 2·3 + 4 + 65,536) bytes > 1 MiB.
    let big: String = (0..17)
        .map(|i| format!(r#","S{i:02}":"{}""#, "x".repeat(32 * 1024)))
        .collect();
    assert_eq!(
        insert_code(&format!(r#"{{"PartitionKey":"p","RowKey":"r"{big}}}"#)),
        c("EntityTooLarge")
    );
}

#[test]
fn client_timestamp_is_ignored_and_keys_round_trip() {
    let mut a = account_with("T1x");
    let r = insert(
        &mut a,
        "T1x",
        r#"{"PartitionKey":"it's 100%, ünï","RowKey":"😀","Timestamp":"2000-01-01T00:00:00Z"}"#,
    );
    assert_eq!(r.status, 201);
    let e = get(&a, "it's 100%, ünï", "😀").unwrap();
    assert_eq!(
        e.timestamp.unwrap().to_string_7(),
        "2026-01-01T00:00:00.0000000Z"
    );
    assert!(e.properties.is_empty());
}

#[test]
fn all_eight_types_round_trip_exactly() {
    let mut a = account_with("T1x");
    let json = r#"{"PartitionKey":"p","RowKey":"r","S":"text","I":-2147483648,"D":0.1,"B":false,
        "L@odata.type":"Edm.Int64","L":"-9223372036854775808",
        "T@odata.type":"Edm.DateTime","T":"9999-12-31T23:59:59.9999999Z",
        "G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833",
        "Y@odata.type":"Edm.Binary","Y":"AAEC/w==",
        "Inf@odata.type":"Edm.Double","Inf":"-Infinity"}"#;
    insert(&mut a, "T1x", json);
    let r = a.execute(&Request::Get {
        table: "T1x".into(),
        partition_key: "p".into(),
        row_key: "r".into(),
        select: None,
    });
    let out = serde_json::to_string(&r.entity.unwrap()).unwrap();
    for part in [
        r#""S":"text""#,
        r#""I":-2147483648"#,
        r#""D":0.1"#,
        r#""B":false"#,
        r#""L@odata.type":"Edm.Int64","L":"-9223372036854775808""#,
        r#""T@odata.type":"Edm.DateTime","T":"9999-12-31T23:59:59.9999999Z""#,
        r#""G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833""#,
        r#""Y@odata.type":"Edm.Binary","Y":"AAEC/w==""#,
        r#""Inf@odata.type":"Edm.Double","Inf":"-Infinity""#,
    ] {
        assert!(out.contains(part), "{part} missing from {out}");
    }
}

#[test]
fn change_feed_names_each_write() {
    use tablescope_engine::Change;
    let mut a = account_with("T1x");
    a.take_changes();
    insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    insert(&mut a, "T1x", r#"{"PartitionKey":"p","RowKey":"r"}"#); // fails: no change
    a.execute(&Request::Delete {
        table: "T1x".into(),
        partition_key: "p".into(),
        row_key: "r".into(),
        if_match: None,
    });
    let changes = a.take_changes();
    assert_eq!(
        changes,
        vec![
            vec![Change::EntityWritten {
                table: "T1x".into(),
                partition_key: "p".into(),
                row_key: "r".into()
            }],
            vec![Change::EntityDeleted {
                table: "T1x".into(),
                partition_key: "p".into(),
                row_key: "r".into()
            }],
        ]
    );
}

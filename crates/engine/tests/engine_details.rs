#![cfg(not(target_arch = "wasm32"))]
//! The engine's explanations are values: each refusal names its variant and carries its data,
//! and its `Display` is the English sentence a report or the service's error shows.

mod common;
use common::*;
use tablescope_engine::csv::{self, Problem};
use tablescope_engine::{
    json, validate, Account, Detail, EdmType, Entity, Error, ErrorCode, FixedClock, JsonExpected,
    JsonFound, JsonProblem, JsonProblemKind, JsonSyntax, Place, RawEntity, Value, ValueProblem,
};

/// The detail of a refusal, and its English.
fn detail(r: Result<(), Error>) -> (Detail, String) {
    let d = *r.unwrap_err().detail.unwrap();
    let text = d.to_string();
    (d, text)
}

#[test]
fn names_keys_and_entities() {
    assert_eq!(
        detail(validate::table_name("ab")),
        (
            Detail::TableNameLength { len: 2 },
            "a table name has 3 to 63 characters; this one has 2".into()
        )
    );
    assert_eq!(
        detail(validate::table_name("tables")).0,
        Detail::TableNameReserved
    );
    assert_eq!(
        detail(validate::key("PartitionKey", "a/b")),
        (
            Detail::KeyChar {
                key: "PartitionKey".into(),
                char: '/'
            },
            "PartitionKey may not contain '/'".into()
        )
    );
    assert_eq!(
        detail(validate::key("RowKey", "a\u{1}")),
        (
            Detail::KeyControl {
                key: "RowKey".into(),
                char: '\u{1}'
            },
            "RowKey may not contain the control character U+0001".into()
        )
    );
    assert_eq!(
        detail(validate::key("RowKey", &"x".repeat(1100))),
        (
            Detail::KeyTooLarge {
                key: "RowKey".into(),
                units: 1100,
                limit: 1024
            },
            "RowKey has 1100 UTF-16 code units; the limit is 1024".into()
        )
    );
    assert_eq!(
        detail(validate::property_name("1x")).0,
        Detail::PropertyNameInvalid { name: "1x".into() }
    );
    let entity = Entity::new("p", "r").with("Timestamp", Value::String("x".into()));
    assert_eq!(
        detail(validate::entity(&entity)),
        (
            Detail::SystemProperty {
                name: "Timestamp".into()
            },
            "'Timestamp' is a system property".into()
        )
    );
}

#[test]
fn entity_json() {
    let decode = |text: &str| json::decode(&RawEntity::parse(text).unwrap()).map(|_| ());
    assert_eq!(
        detail(decode(r#"{"RowKey":"r"}"#)).0,
        Detail::PartitionKeyRequired
    );
    assert_eq!(
        detail(decode(
            r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Int64","A":"x"}"#
        )),
        (
            Detail::Value {
                name: "A".into(),
                problem: ValueProblem::Int64
            },
            "A: not an Int64 (write it as a string)".into()
        )
    );
    assert_eq!(
        detail(decode(
            r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Decimal"}"#
        )),
        (
            Detail::UnknownType {
                name: "A@odata.type".into(),
                kind: "Edm.Decimal".into()
            },
            "A@odata.type: unknown type 'Edm.Decimal'".into()
        )
    );
    let e = RawEntity::parse("[1]").unwrap_err();
    assert!(
        matches!(e.detail.as_deref(), Some(Detail::Json(p)) if p.kind == JsonProblemKind::InvalidType {
            found: JsonFound::Array,
            expected: JsonExpected::Entity
        }),
        "{e:?}"
    );
}

#[test]
fn workspace_files() {
    let import = |text: &str| Account::new(Box::new(FixedClock::default())).import_json(text);
    assert_eq!(
        detail(import(r#"{"format":"other","version":1,"tables":[]}"#)).0,
        Detail::NotExport
    );
    assert_eq!(
        detail(import(
            r#"{"format":"tablescope-account","version":"1","tables":[]}"#
        )),
        (
            Detail::Version {
                version: "\"1\"".into()
            },
            "unsupported export version \"1\"; this Tablescope reads version 1".into()
        )
    );
    assert_eq!(
        detail(import("{")),
        (
            Detail::NotJson(JsonProblem {
                kind: JsonProblemKind::Syntax(JsonSyntax::EofObject),
                line: 1,
                column: 1
            }),
            "not valid JSON: EOF while parsing an object at line 1 column 1".into()
        )
    );
    let file = r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a","RowKey":"r","L@odata.type":"Edm.Int64","L":"x"}]}]}"#;
    assert_eq!(
        detail(import(file)),
        (
            Detail::At {
                place: Place::Entity {
                    table: "Good".into(),
                    index: 0,
                    keys: Some(("a".into(), "r".into()))
                },
                detail: Some(Box::new(Detail::Value {
                    name: "L".into(),
                    problem: ValueProblem::Int64
                }))
            },
            "table 'Good', entity 0 (PartitionKey 'a', RowKey 'r'): L: not an Int64 (write it as a string)"
                .into()
        )
    );
    let file =
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"x","entities":[]}]}"#;
    assert_eq!(
        detail(import(file)).0,
        Detail::At {
            place: Place::Table { table: "x".into() },
            detail: Some(Box::new(Detail::TableNameLength { len: 1 }))
        }
    );
}

#[test]
fn csv_files() {
    let problem = |text: &str| {
        let e = account_with("Things")
            .import_csv("Things", text)
            .unwrap_err();
        (e.line, e.column.clone(), e.problem.clone(), e.to_string())
    };
    assert_eq!(
        problem("PartitionKey,RowKey,N,N@type\r\np,9,x,Edm.Int32\r\n"),
        (
            2,
            Some("N".into()),
            Problem::NotValid {
                text: "x".into(),
                edm: EdmType::Int32
            },
            "line 2, column N: 'x' is not a valid Edm.Int32".into()
        )
    );
    assert_eq!(
        problem("PartitionKey,RowKey\r\np,1\r\np,1,2\r\n").2,
        Problem::FieldCount {
            fields: 3,
            columns: 2
        }
    );
    let (line, _, refused, text) = problem("PartitionKey,RowKey\r\na#b,1\r\n");
    assert_eq!(line, 2);
    let Problem::Refused(e) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(e.code, ErrorCode::OutOfRangeInput);
    assert_eq!(
        e.detail.as_deref(),
        Some(&Detail::KeyChar {
            key: "PartitionKey".into(),
            char: '#'
        })
    );
    assert_eq!(
        text,
        "line 2: OutOfRangeInput: PartitionKey may not contain '#'"
    );
    let e = account_with("Things")
        .import_csv("x", "PartitionKey,RowKey\r\n")
        .unwrap_err();
    assert!(matches!(&e.problem, Problem::TableName { table, .. } if table == "x"));
    assert_eq!(
        e.to_string(),
        "table name 'x': OutOfRangeInput: a table name has 3 to 63 characters; this one has 1"
    );
    assert_eq!(csv::decode("").unwrap_err().problem, Problem::Empty);
}

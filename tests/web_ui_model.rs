#![cfg(target_arch = "wasm32")]
//! The logic behind the playground's forms, run in the browser where the UI runs: typed values
//! (Int64 never through f64), the query builder in both directions, and the batch checks.

use tablescope::engine::filter::CmpOp;
use tablescope::engine::{BatchRequest, EdmType, RawEntity, Value};
use tablescope::ui::model::{self, BinaryEncoding, Builder, BuilderKind, Condition, PropertyDraft};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn draft(name: &str, edm: EdmType, text: &str, binary: BinaryEncoding) -> PropertyDraft {
    PropertyDraft {
        id: 0,
        name: name.into(),
        edm,
        text: text.into(),
        binary,
    }
}

#[wasm_bindgen_test]
fn typed_values_keep_their_full_range_and_precision() {
    let b64 = BinaryEncoding::Base64;
    assert!(matches!(
        model::parse_typed(EdmType::Int64, "9223372036854775807", b64),
        Ok(Value::Int64(i64::MAX))
    ));
    assert!(model::parse_typed(EdmType::Int64, "9223372036854775808", b64).is_err());
    assert!(model::parse_typed(EdmType::Int32, "2147483648", b64).is_err());
    let t = model::parse_typed(EdmType::DateTime, "2024-02-29T12:34:56.1234567Z", b64);
    match t {
        Ok(Value::DateTime(d)) => assert_eq!(d.to_string(), "2024-02-29T12:34:56.1234567Z"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        model::parse_typed(EdmType::Double, "NaN", b64),
        Ok(Value::Double(v)) if v.is_nan()
    ));
    assert!(matches!(
        model::parse_typed(EdmType::Double, "-Infinity", b64),
        Ok(Value::Double(v)) if v == f64::NEG_INFINITY
    ));
    match model::parse_typed(EdmType::Binary, "00ff10", BinaryEncoding::Hex) {
        Ok(Value::Binary(b)) => assert_eq!(&*b, &[0x00, 0xff, 0x10]),
        other => panic!("{other:?}"),
    }
    assert!(model::parse_typed(EdmType::Binary, "0f1", BinaryEncoding::Hex).is_err());
    assert!(model::parse_typed(EdmType::Guid, "not-a-guid", b64).is_err());
}

#[wasm_bindgen_test]
fn build_entity_writes_the_service_json_form() {
    let props = vec![
        draft(
            "L",
            EdmType::Int64,
            "-9223372036854775808",
            BinaryEncoding::Base64,
        ),
        draft("D", EdmType::Double, "Infinity", BinaryEncoding::Base64),
        draft("Y", EdmType::Binary, "0102", BinaryEncoding::Hex),
    ];
    let raw = model::build_entity("p", "r", &props).unwrap();
    let json = serde_json::to_string(&raw).unwrap();
    assert_eq!(
        json,
        r#"{"PartitionKey":"p","RowKey":"r","L@odata.type":"Edm.Int64","L":"-9223372036854775808","D@odata.type":"Edm.Double","D":"Infinity","Y@odata.type":"Edm.Binary","Y":"AQI="}"#
    );
    let bad = vec![
        draft("1x", EdmType::String, "a", BinaryEncoding::Base64),
        draft("Timestamp", EdmType::String, "a", BinaryEncoding::Base64),
        draft("N", EdmType::Int32, "4.5", BinaryEncoding::Base64),
    ];
    let problems = model::build_entity("p", "r", &bad).unwrap_err();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[2].starts_with("N: "), "{problems:?}");
}

#[wasm_bindgen_test]
fn builder_writes_typed_literals_and_reads_them_back() {
    let b = Builder {
        kind: BuilderKind::Partition,
        partition_key: "it's".into(),
        row_key: String::new(),
        row_prefix: "abc".into(),
        conditions: vec![
            Condition {
                id: 1,
                property: "Big".into(),
                op: CmpOp::Ge,
                edm: EdmType::Int64,
                text: "42".into(),
            },
            Condition {
                id: 2,
                property: "When".into(),
                op: CmpOp::Lt,
                edm: EdmType::DateTime,
                text: "2024-01-01T00:00:00.1234567Z".into(),
            },
            Condition {
                id: 3,
                property: "Bytes".into(),
                op: CmpOp::Eq,
                edm: EdmType::Binary,
                text: "0a0b".into(),
            },
        ],
    };
    let text = b.filter().unwrap();
    assert_eq!(
        text,
        "PartitionKey eq 'it''s' and RowKey ge 'abc' and RowKey lt 'abd' and Big ge 42L and When lt datetime'2024-01-01T00:00:00.1234567Z' and Bytes eq X'0a0b'"
    );
    let mut ids = 10;
    let back = Builder::from_filter(&text, &mut ids).unwrap();
    assert_eq!(back.kind, BuilderKind::Partition);
    assert_eq!(back.partition_key, "it's");
    assert_eq!(back.row_prefix, "abc");
    assert_eq!(back.conditions.len(), 3);
    assert_eq!(back.filter().unwrap(), text);

    let point = Builder::from_filter("PartitionKey eq 'a' and RowKey eq 'b'", &mut ids).unwrap();
    assert_eq!(point.kind, BuilderKind::Point);
    // Not expressible: an `or`, a `not`, a RowKey range that is not a prefix.
    assert!(Builder::from_filter("PartitionKey eq 'a' or PartitionKey eq 'b'", &mut ids).is_none());
    assert!(Builder::from_filter("not (Age gt 3)", &mut ids).is_none());
    assert!(Builder::from_filter(
        "PartitionKey eq 'a' and RowKey ge 'a' and RowKey lt 'c'",
        &mut ids
    )
    .is_none());
    assert_eq!(
        model::prefix_successor("ab\u{10FFFF}").as_deref(),
        Some("ac")
    );
}

#[wasm_bindgen_test]
fn syntax_error_spans_split_by_characters() {
    let (a, b, c) = model::split_at_error("Näme eq", 5, 2);
    assert_eq!((a.as_str(), b.as_str(), c.as_str()), ("Näme ", "eq", ""));
    let (_, span, _) = model::split_at_error("x", 1, 0);
    assert_eq!(span, "");
}

fn insert(pk: &str, rk: &str) -> BatchRequest {
    BatchRequest::Insert {
        entity: RawEntity::parse(&format!(r#"{{"PartitionKey":"{pk}","RowKey":"{rk}"}}"#)).unwrap(),
    }
}

#[wasm_bindgen_test]
fn batch_checks_follow_the_service_rules() {
    assert!(model::check_batch(&[insert("p", "1"), insert("p", "2")]).is_empty());
    let problems = model::check_batch(&[insert("p", "1"), insert("q", "2"), insert("p", "1")]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("Operation 1 is in partition"));
    assert!(problems[1].starts_with("Operation 2 repeats"));
    let many: Vec<_> = (0..101).map(|i| insert("p", &i.to_string())).collect();
    assert_eq!(model::check_batch(&many).len(), 1);
    assert_eq!(
        model::failed_index("3:The specified entity already exists."),
        Some(3)
    );
    assert_eq!(
        model::failed_index("The table specified does not exist."),
        None
    );
}

#[wasm_bindgen_test]
fn a_csv_file_name_proposes_a_valid_table_name_or_none() {
    let cases = [
        ("Orders (1).typed.csv", Some("Orders")),
        ("Orders.typed.csv", Some("Orders")),
        ("my-orders 2024.csv", Some("myorders2024")),
        ("2024 Sales.csv", Some("Sales")),
        ("Log (12).csv", Some("Log")),
        ("ab.csv", None),
        ("123.csv", None),
        ("(1).csv", None),
        ("é.csv", None),
    ];
    for (file, want) in cases {
        assert_eq!(model::table_name_from_file(file).as_deref(), want, "{file}");
    }
    let long = format!("{}.csv", "x".repeat(80));
    assert_eq!(
        model::table_name_from_file(&long).map(|n| n.len()),
        Some(63)
    );
}

#[wasm_bindgen_test]
fn a_datetime_with_more_than_seven_fractional_digits_says_what_is_stored() {
    let nine = draft(
        "When",
        EdmType::DateTime,
        "2024-05-06T07:08:09.123456789Z",
        BinaryEncoding::Base64,
    );
    assert_eq!(nine.problem(), None);
    assert_eq!(
        nine.note().as_deref(),
        Some("DateTime keeps 7 fractional digits (100 ns): stored as 2024-05-06T07:08:09.1234567Z")
    );
    let seven = draft(
        "When",
        EdmType::DateTime,
        "2024-05-06T07:08:09.1234567Z",
        BinaryEncoding::Base64,
    );
    assert_eq!(seven.note(), None);
    let text = draft(
        "When",
        EdmType::String,
        "2024-05-06T07:08:09.123456789Z",
        BinaryEncoding::Base64,
    );
    assert_eq!(text.note(), None);
}

#![cfg(target_arch = "wasm32")]
//! The logic behind the playground's forms, run in the browser where the UI runs: typed values
//! (Int64 never through f64), the query builder in both directions, and the batch checks.

use tablescope::engine::filter::CmpOp;
use tablescope::engine::{BatchRequest, EdmType, RawEntity, Value};
use tablescope::ui::state::model::{
    self, BinaryEncoding, Builder, BuilderKind, Condition, Group, Node, PropertyDraft,
};
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
        conditions: Group {
            members: vec![
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
            ]
            .into_iter()
            .map(Node::Condition)
            .collect(),
            ..Group::default()
        },
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
    assert_eq!(back.conditions.members.len(), 3);
    assert_eq!(back.filter().unwrap(), text);

    let point = Builder::from_filter("PartitionKey eq 'a' and RowKey eq 'b'", &mut ids).unwrap();
    assert_eq!(point.kind, BuilderKind::Point);
    // A RowKey range that is not a prefix stays two conditions of the partition query.
    let range = Builder::from_filter(
        "PartitionKey eq 'a' and RowKey ge 'a' and RowKey lt 'c'",
        &mut ids,
    )
    .unwrap();
    assert_eq!(range.kind, BuilderKind::Partition);
    assert_eq!(range.row_prefix, "");
    assert_eq!(range.conditions.members.len(), 2);
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

/// Raw → builder → raw: the builder's filter parses to the same tree as the raw one (so the
/// same normalized form), and reads back into the same builder text.
fn assert_round_trip(raw: &str) {
    use tablescope::engine::filter;
    let mut ids = 0;
    let b = Builder::from_filter(raw, &mut ids)
        .unwrap_or_else(|| panic!("not expressible in the builder: {raw}"));
    let text = b.filter().unwrap_or_else(|e| panic!("{raw}: {e}"));
    let (before, after) = (filter::parse(raw).unwrap(), filter::parse(&text).unwrap());
    assert_eq!(after, before, "{raw} came back as {text}");
    assert_eq!(
        filter::normalize(after).to_string(),
        filter::normalize(before).to_string(),
        "{raw}"
    );
    let again = Builder::from_filter(&text, &mut ids).unwrap();
    assert_eq!(again.filter().unwrap(), text, "{raw}: not stable");
}

#[wasm_bindgen_test]
fn every_and_or_not_filter_round_trips_through_the_builder() {
    for raw in [
        "",
        "a eq 1 or b eq 2 and not (c eq 3)",
        "(a eq 1 or b eq 2) and not c eq 3",
        "a eq 1 and (b eq 2 and c eq 3)",
        "a eq 1 or (b eq 2 or c eq 3)",
        "(a eq 1 or b eq 2) or c eq 3",
        "a eq 1 and b eq 2 or c eq 3 and d eq 4 or e eq 5",
        "not (a eq 1 and b eq 2) or not (c eq 3 or d eq 4)",
        "not ((a eq 1 or b eq 2) and c eq 3)",
        "not not (a eq 1)",
        "not (not (a eq 1) and b eq 2)",
        "PartitionKey eq 'a' or PartitionKey eq 'b'",
        "not (Age gt 3)",
        "30 lt Age",
        "PartitionKey eq 'a'",
        "PartitionKey eq 'a' and RowKey eq 'b'",
        "PartitionKey eq 'a' and RowKey eq 'b' and Age gt 3",
        "RowKey eq 'b' and PartitionKey eq 'a'",
        "Age gt 3 and PartitionKey eq 'a'",
        "PartitionKey eq 'p' and (Age lt 30 or Age gt 60)",
        "PartitionKey eq 'p' and RowKey ge 'abc' and RowKey lt 'abd' and (x eq 'y' or not (z ne 2.5))",
        "PartitionKey eq 'p' and RowKey ge 'abc' and RowKey lt 'abe'",
        "(PartitionKey eq 'p' and Age gt 3) or PartitionKey eq 'q'",
        "PartitionKey eq 'p' and (RowKey eq 'a' or RowKey eq 'b')",
        "Big ge 42L or When lt datetime'2024-01-01T00:00:00.1234567Z' or Bytes eq X'0a0b'",
        "Id eq guid'c9da6455-213d-42c9-9a79-3e9149a57833' and Ok eq true and Off ne false",
        "D eq 1E-300 or D eq -0.5 or D eq 1.7976931348623157E+308 or D eq 0.1 or D eq 3.0",
        "D eq NaN or D lt -INF or D gt INF",
        "Timestamp ge datetime'2024-01-01T00:00:00Z' and (Name eq 'it''s' or Name eq '')",
        "Name eq ' padded ' and Name ne 'ünïcödé 𝄞'",
        "N eq -2147483648 or N eq 2147483647 or L eq -9223372036854775808L",
    ] {
        assert_round_trip(raw);
    }
}

#[wasm_bindgen_test]
fn generated_filters_round_trip_through_the_builder() {
    // A small deterministic generator (an LCG): 600 trees of `and`, `or`, `not` and typed
    // comparisons, up to depth 5, printed as canonical OData.
    use tablescope::engine::filter::{Expr, Target};
    struct Gen(u64);
    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
        fn expr(&mut self, depth: u32) -> Expr {
            let pick = if depth == 0 { 3 } else { self.next(4) };
            match pick {
                0 => Expr::and(self.expr(depth - 1), self.expr(depth - 1)),
                1 => Expr::or(self.expr(depth - 1), self.expr(depth - 1)),
                2 => Expr::negation(self.expr(depth - 1)),
                _ => {
                    let names = ["PartitionKey", "RowKey", "Age", "Name", "Score", "Big"];
                    let name = names[self.next(names.len() as u64) as usize];
                    let value = match (name, self.next(4)) {
                        ("PartitionKey" | "RowKey" | "Name", _) | (_, 0) => {
                            Value::string(format!("v{}'", self.next(5)))
                        }
                        (_, 1) => Value::Int32(self.next(100) as i32 - 50),
                        (_, 2) => Value::Int64(self.next(1 << 40) as i64 * 7919),
                        _ => Value::Double(self.next(1000) as f64 / 7.0),
                    };
                    Expr::compare(
                        Target::from_name(name),
                        CmpOp::ALL[self.next(6) as usize],
                        value,
                    )
                }
            }
        }
    }
    let mut gen = Gen(17);
    for _ in 0..600 {
        let depth = gen.next(6) as u32;
        let text = gen.expr(depth).to_string();
        assert_round_trip(&text);
    }
}

#[wasm_bindgen_test]
fn nested_precedence_reads_into_groups() {
    let mut ids = 0;
    let b = Builder::from_filter("a eq 1 or b eq 2 and not (c eq 3)", &mut ids).unwrap();
    assert_eq!(b.kind, BuilderKind::Table);
    let root = &b.conditions;
    assert_eq!(root.join, model::Join::Or);
    assert_eq!(root.members.len(), 2);
    let Node::Group(and) = &root.members[1] else {
        panic!("the `and` is a group: {root:?}");
    };
    assert_eq!(
        (and.join, and.negated, and.members.len()),
        (model::Join::And, false, 2)
    );
    let Node::Group(not) = &and.members[1] else {
        panic!("the `not` is a group: {and:?}");
    };
    assert!(not.negated);
    assert!(matches!(&not.members[..], [Node::Condition(c)] if c.property == "c" && c.text == "3"));
    // A partition query keeps its key and its `or` group.
    let p =
        Builder::from_filter("PartitionKey eq 'p' and (Age lt 30 or Age gt 60)", &mut ids).unwrap();
    assert_eq!(
        (p.kind, p.partition_key.as_str()),
        (BuilderKind::Partition, "p")
    );
    assert!(matches!(&p.conditions.members[..], [Node::Group(g)] if g.join == model::Join::Or));
    // Only a bare `true`/`false` term stays outside the builder.
    assert!(Builder::from_filter("a eq 1 and true", &mut ids).is_none());
    assert!(Builder::from_filter("a eq", &mut ids).is_none());
}

#![cfg(not(target_arch = "wasm32"))]
//! Filter evaluation (docs/service/queries.md): missing properties, widening, type mismatches, NaN, and the
//! order of every Edm type.

use std::sync::Arc;
use tablescope_engine::filter::{self, CmpOp, Expr, Row};
use tablescope_engine::{DateTime, Guid, Value};

const OPS: [&str; 6] = ["eq", "ne", "gt", "ge", "lt", "le"];

fn timestamp() -> DateTime {
    DateTime::parse("2024-01-01T00:00:00Z").unwrap()
}

/// Evaluates `text` on an entity ("pk", "rk", 2024-01-01, `properties`), after normalizing as
/// the service does; checks that evaluating the raw tree (with its `not`s) agrees.
fn eval_on(text: &str, partition_key: &str, properties: &[(&str, Value)]) -> bool {
    let properties: Vec<(Arc<str>, Value)> = properties
        .iter()
        .map(|(n, v)| (Arc::from(*n), v.clone()))
        .collect();
    let row = Row {
        partition_key,
        row_key: "rk",
        timestamp: timestamp(),
        properties: &properties,
    };
    let raw = filter::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let normalized = filter::normalize(raw.clone());
    let result = filter::eval(&normalized, &row);
    assert_eq!(
        filter::eval(&raw, &row),
        result,
        "raw and normalized disagree on {text:?}"
    );
    result
}

fn check(text: &str, properties: &[(&str, Value)]) -> bool {
    eval_on(text, "pk", properties)
}

/// The results of `{property} {op} {literal}` for the six operators, in `OPS` order.
fn all_ops(property: &str, literal: &str, properties: &[(&str, Value)]) -> [bool; 6] {
    OPS.map(|op| check(&format!("{property} {op} {literal}"), properties))
}

const ONLY_NE: [bool; 6] = [false, true, false, false, false, false];
const NONE: [bool; 6] = [false; 6];

fn datetime(text: &str) -> Value {
    Value::DateTime(DateTime::parse(text).unwrap())
}

fn guid(text: &str) -> Value {
    Value::Guid(Guid::parse(text).unwrap())
}

#[test]
fn missing_property_is_false_under_every_operator() {
    let other = [("Name", Value::string("x"))];
    for literal in [
        "3",
        "3L",
        "3.0",
        "'x'",
        "true",
        "datetime'2024-01-01T00:00:00Z'",
        "X'00'",
    ] {
        assert_eq!(all_ops("Age", literal, &other), NONE, "literal {literal}");
    }
    assert!(!check("IsActive", &other));
}

#[test]
fn not_does_not_make_a_missing_property_match() {
    for op in OPS {
        assert!(
            !check(&format!("not (Age {op} 3)"), &[]),
            "not (Age {op} 3)"
        );
    }
    assert!(!check("not not (Age ne 3)", &[]));
    assert!(!check("not IsActive", &[]));
    let name_y = [("Name", Value::string("y"))];
    // not (a or b) = not a and not b: Age ne 3 is false on the missing Age.
    assert!(!check("not (Age eq 3 or Name eq 'x')", &name_y));
    // not (a and b) = not a or not b: Name ne 'x' holds.
    assert!(check("not (Age eq 3 and Name eq 'x')", &name_y));
}

#[test]
fn int32_literal_widens_to_int64_and_double() {
    assert_eq!(
        all_ops("Big", "5", &[("Big", Value::Int64(5))]),
        [true, false, false, true, false, true]
    );
    assert_eq!(
        all_ops("Big", "5", &[("Big", Value::Int64(6))]),
        [false, true, true, true, false, false]
    );
    assert_eq!(
        all_ops("Score", "5", &[("Score", Value::Double(5.0))]),
        [true, false, false, true, false, true]
    );
    assert_eq!(
        all_ops("Score", "5", &[("Score", Value::Double(4.5))]),
        [false, true, false, false, true, true]
    );
    assert_eq!(
        all_ops("Age", "5", &[("Age", Value::Int32(7))]),
        [false, true, true, true, false, false]
    );
}

#[test]
fn int64_literal_widens_to_double_only() {
    assert_eq!(
        all_ops("Score", "5L", &[("Score", Value::Double(5.0))]),
        [true, false, false, true, false, true]
    );
    assert_eq!(
        all_ops("Score", "5L", &[("Score", Value::Double(5.5))]),
        [false, true, true, true, false, false]
    );
    // An Int64 literal does not compare with an Int32 property.
    assert_eq!(all_ops("Age", "5L", &[("Age", Value::Int32(5))]), ONLY_NE);
}

#[test]
fn double_literal_compares_with_double_only() {
    assert_eq!(all_ops("Age", "5.0", &[("Age", Value::Int32(5))]), ONLY_NE);
    assert_eq!(all_ops("Big", "5.0", &[("Big", Value::Int64(5))]), ONLY_NE);
    assert_eq!(
        all_ops("Score", "5.0", &[("Score", Value::Double(5.0))]),
        [true, false, false, true, false, true]
    );
}

#[test]
fn other_type_mismatches_hold_only_for_ne() {
    assert_eq!(all_ops("Age", "'5'", &[("Age", Value::Int32(5))]), ONLY_NE);
    assert_eq!(
        all_ops("Name", "5", &[("Name", Value::string("5"))]),
        ONLY_NE
    );
    assert_eq!(
        all_ops("Flag", "1", &[("Flag", Value::Boolean(true))]),
        ONLY_NE
    );
    assert_eq!(
        all_ops(
            "When",
            "'2024'",
            &[("When", datetime("2024-01-01T00:00:00Z"))]
        ),
        ONLY_NE
    );
    assert_eq!(
        all_ops("Data", "'0a'", &[("Data", Value::Binary(vec![10].into()))]),
        ONLY_NE
    );
    assert_eq!(
        all_ops(
            "Id",
            "'c9da6455-213d-42c9-9a79-3e9149a57833'",
            &[("Id", guid("c9da6455-213d-42c9-9a79-3e9149a57833"))]
        ),
        ONLY_NE
    );
    assert_eq!(all_ops("PartitionKey", "1", &[]), ONLY_NE);
    assert_eq!(all_ops("RowKey", "true", &[]), ONLY_NE);
    assert_eq!(all_ops("Timestamp", "'2024-01-01T00:00:00Z'", &[]), ONLY_NE);
    // not pushes into the comparison: not (eq) is ne, which holds on a mismatch.
    assert!(check("not (Age eq 'x')", &[("Age", Value::Int32(1))]));
    assert!(!check("not (Age ne 'x')", &[("Age", Value::Int32(1))]));
}

#[test]
fn nan_is_unordered() {
    let nan = [("Score", Value::Double(f64::NAN))];
    assert_eq!(all_ops("Score", "NaN", &nan), ONLY_NE);
    assert_eq!(all_ops("Score", "1.0", &nan), ONLY_NE);
    assert_eq!(all_ops("Score", "1", &nan), ONLY_NE);
    assert_eq!(all_ops("Score", "1L", &nan), ONLY_NE);
    assert_eq!(
        all_ops("Score", "NaN", &[("Score", Value::Double(1.0))]),
        ONLY_NE
    );
    // not (Score gt 1.0) is Score le 1.0, false on NaN.
    assert!(!check("not (Score gt 1.0)", &nan));
    assert!(check("Score lt INF", &[("Score", Value::Double(f64::MAX))]));
    assert!(check(
        "Score eq -INF",
        &[("Score", Value::Double(f64::NEG_INFINITY))]
    ));
}

#[test]
fn datetime_compares_at_100_ns() {
    let when = [("When", datetime("2024-01-01T00:00:00.0000001Z"))];
    let later = "datetime'2024-01-01T00:00:00.0000002Z'";
    assert_eq!(
        all_ops("When", later, &when),
        [false, true, false, false, true, true]
    );
    let same_instant = "datetime'2024-01-01T02:00:00.0000001+02:00'";
    assert_eq!(
        all_ops("When", same_instant, &when),
        [true, false, false, true, false, true]
    );
    assert!(check("Timestamp eq datetime'2024-01-01T00:00:00Z'", &[]));
    assert!(check(
        "Timestamp lt datetime'2024-01-01T00:00:00.0000001Z'",
        &[]
    ));
    assert!(!check("Timestamp lt datetime'2024-01-01T00:00:00Z'", &[]));
}

#[test]
fn int64_uses_the_full_range() {
    let max = [("Big", Value::Int64(i64::MAX))];
    assert_eq!(
        all_ops("Big", "9223372036854775807L", &max),
        [true, false, false, true, false, true]
    );
    assert_eq!(
        all_ops("Big", "9223372036854775806L", &max),
        [false, true, true, true, false, false]
    );
    let below = [("Big", Value::Int64(i64::MAX - 1))];
    assert!(check("Big lt 9223372036854775807L", &below));
    assert!(!check("Big eq 9223372036854775807L", &below));
    assert!(check(
        "Big eq -9223372036854775808L",
        &[("Big", Value::Int64(i64::MIN))]
    ));
    // 2^53 + 1 is not a double; a Double literal does not compare with an Int64 property.
    let odd = [("Big", Value::Int64(9_007_199_254_740_993))];
    assert!(!check("Big eq 9007199254740992.0", &odd));
    assert!(check("Big ne 9007199254740992.0", &odd));
    assert!(check("Big eq 9007199254740993L", &odd));
    assert!(!check("Big eq 9007199254740992L", &odd));
}

#[test]
fn int64_literal_against_double_property_is_exact() {
    let two_pow_53 = Some(Value::Double(9_007_199_254_740_992.0));
    let literal = Value::Int64(9_007_199_254_740_993);
    assert!(!filter::compare(two_pow_53.as_ref(), CmpOp::Eq, &literal));
    assert!(filter::compare(two_pow_53.as_ref(), CmpOp::Ne, &literal));
    assert!(filter::compare(two_pow_53.as_ref(), CmpOp::Lt, &literal));
    // i64::MAX rounds to 2^63 as a double; exactly, 2^63 is greater.
    let two_pow_63 = Some(Value::Double(9_223_372_036_854_775_808.0));
    assert!(filter::compare(
        two_pow_63.as_ref(),
        CmpOp::Gt,
        &Value::Int64(i64::MAX)
    ));
    assert!(!filter::compare(
        two_pow_63.as_ref(),
        CmpOp::Eq,
        &Value::Int64(i64::MAX)
    ));
    assert!(filter::compare(
        Some(&Value::Double(-2.5)),
        CmpOp::Lt,
        &Value::Int64(-2)
    ));
}

#[test]
fn guid_orders_by_canonical_text() {
    let id = [("Id", guid("00000000-0000-0000-0000-00000000000f"))];
    assert!(check(
        "Id lt guid'10000000-0000-0000-0000-000000000000'",
        &id
    ));
    assert!(check(
        "Id gt guid'00000000-0000-0000-0000-00000000000e'",
        &id
    ));
    assert!(check(
        "Id eq guid'00000000-0000-0000-0000-00000000000F'",
        &id
    ));
    // Text order, not the little-endian byte order of .NET's ToByteArray (where 01000000
    // would be stored as 00 00 00 01 and sort first) nor SQL Server's (last group first).
    let a = [("Id", guid("01000000-0000-0000-0000-000000000000"))];
    assert!(check(
        "Id gt guid'00000001-0000-0000-0000-000000000000'",
        &a
    ));
    assert!(check(
        "Id lt guid'10000000-0000-0000-0000-000000000000'",
        &a
    ));
    assert!(check(
        "Id gt guid'00000000-0000-0000-0000-000000000001'",
        &a
    ));
}

#[test]
fn binary_orders_bytewise() {
    let data = [("Data", Value::Binary(vec![0x01, 0x02].into()))];
    assert!(check("Data lt X'02'", &data));
    assert!(check("Data gt X'01'", &data));
    assert!(check("Data lt X'0103'", &data));
    assert!(check("Data eq binary'0102'", &data));
    assert!(check("Data gt X''", &data));
    assert!(check("Data lt X'ff'", &data));
}

#[test]
fn boolean_false_is_less_than_true() {
    let off = [("Flag", Value::Boolean(false))];
    let on = [("Flag", Value::Boolean(true))];
    assert!(check("Flag lt true", &off));
    assert!(check("Flag gt false", &on));
    assert!(!check("Flag gt true", &on));
    assert!(check("Flag", &on));
    assert!(!check("Flag", &off));
    assert!(check("not Flag", &off));
    assert!(!check("not Flag", &on));
}

#[test]
fn strings_compare_by_utf16_code_unit() {
    let emoji = [("Name", Value::string("\u{1F600}"))];
    // U+1F600 is D83D DE00 in UTF-16, below U+E000 (code point order says the opposite).
    assert!(check("Name lt '\u{E000}'", &emoji));
    assert!(!check("Name gt '\u{E000}'", &emoji));
    assert!(eval_on("PartitionKey lt '\u{E000}'", "\u{1F600}", &[]));
    assert!(check("Name lt 'a'", &[("Name", Value::string("B"))]));
    assert!(check("Name gt 'ab'", &[("Name", Value::string("ab\u{0}"))]));
    assert!(check(
        "Name eq 'Zürich'",
        &[("Name", Value::string("Zürich"))]
    ));
    assert!(check("Name eq 'it''s'", &[("Name", Value::string("it's"))]));
}

#[test]
fn keys_and_constants() {
    assert!(check("PartitionKey eq 'pk' and RowKey eq 'rk'", &[]));
    assert!(check("RowKey gt 'ra' and RowKey lt 'rl'", &[]));
    assert!(!check("PartitionKey eq 'PK'", &[]));
    assert!(check("", &[]));
    assert!(check("true", &[]));
    assert!(!check("false", &[]));
    assert!(!check("not true", &[]));
    assert!(check("false or PartitionKey eq 'pk'", &[]));
}

#[test]
fn normalize_applies_de_morgan() {
    let cases = [
        ("not (A eq 1 and B gt 2)", "A ne 1 or B le 2"),
        ("not (A eq 1 or not B lt 2)", "A ne 1 and B lt 2"),
        ("not (A ge 1)", "A lt 1"),
        ("not (A lt 1)", "A ge 1"),
        ("not (A le 1)", "A gt 1"),
        ("not not (A eq 1)", "A eq 1"),
        ("not true", "false"),
        ("not (true and A ge 1)", "false or A lt 1"),
        (
            "not ((A eq 1 or B eq 2) and C eq 3)",
            "A ne 1 and B ne 2 or C ne 3",
        ),
        (
            "A eq 1 and not (B eq 2 or C eq 3)",
            "A eq 1 and (B ne 2 and C ne 3)",
        ),
    ];
    for (input, expected) in cases {
        let normalized = filter::normalize(filter::parse(input).unwrap());
        assert_eq!(normalized.to_string(), expected, "input {input:?}");
        assert!(!has_not(&normalized));
    }
}

fn has_not(e: &Expr) -> bool {
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => has_not(a) || has_not(b),
        Expr::Not(_) => true,
        Expr::Compare { .. } | Expr::Bool(_) => false,
    }
}

#[test]
fn property_lookup_matches_by_pointer_or_by_text() {
    let expr = filter::parse("Age eq 3").unwrap();
    let Expr::Compare {
        target: filter::Target::Property(name),
        ..
    } = &expr
    else {
        panic!("{expr:?}")
    };
    let shared = [(Arc::clone(name), Value::Int32(3))];
    let copied = [(Arc::<str>::from("Age"), Value::Int32(3))];
    let other_case = [(Arc::<str>::from("age"), Value::Int32(3))];
    let row = |properties| Row {
        partition_key: "",
        row_key: "",
        timestamp: DateTime::MIN,
        properties,
    };
    assert!(filter::eval(&expr, &row(&shared)));
    assert!(filter::eval(&expr, &row(&copied)));
    assert!(!filter::eval(&expr, &row(&other_case)));
}

#[test]
fn compatible_lists_the_widenings() {
    use tablescope_engine::EdmType::*;
    assert!(filter::compatible(Int32, Int64));
    assert!(filter::compatible(Int32, Double));
    assert!(filter::compatible(Int64, Double));
    assert!(!filter::compatible(Int64, Int32));
    assert!(!filter::compatible(Double, Int32));
    assert!(!filter::compatible(Double, Int64));
    assert!(filter::compatible(Guid, Guid));
    assert!(!filter::compatible(String, Guid));
    assert!(!filter::compare(None, CmpOp::Ne, &Value::Int32(1)));
}

#![cfg(not(target_arch = "wasm32"))]
//! Property tests: any tree the parser can produce prints to text that parses back to the same
//! tree, and evaluating a tree agrees with evaluating its normalized form.

use proptest::prelude::*;
use std::sync::Arc;
use tablescope_engine::filter::{self, CmpOp, Expr, Row, Target};
use tablescope_engine::{DateTime, Guid, Value};

/// Words a property cannot be called, because the lexer reads them as something else.
const RESERVED: [&str; 11] = [
    "and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "true", "false",
];

fn property_name() -> impl Strategy<Value = Arc<str>> {
    prop_oneof![
        "[A-Za-z_][A-Za-z0-9_]{0,6}",
        Just("Größe".to_string()),
        Just("名前".to_string()),
        Just("X".to_string()),
        Just("datetime".to_string()),
    ]
    .prop_filter("reserved word", |n| {
        !RESERVED.iter().any(|r| r.eq_ignore_ascii_case(n))
            && !matches!(
                n.as_str(),
                "NaN" | "INF" | "PartitionKey" | "RowKey" | "Timestamp"
            )
    })
    .prop_map(Arc::from)
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        Just(Target::PartitionKey),
        Just(Target::RowKey),
        Just(Target::Timestamp),
        property_name().prop_map(Target::Property),
    ]
}

fn double() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_map(|v| if v.is_nan() { f64::NAN } else { v }),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-0.0),
        Just(9_007_199_254_740_992.0),
        Just(5e-324),
    ]
}

fn literal() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<String>().prop_map(Value::string),
        "[a-z' ]{0,5}".prop_map(Value::string),
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
        double().prop_map(Value::Double),
        any::<bool>().prop_map(Value::Boolean),
        (0..=DateTime::MAX.ticks())
            .prop_map(|t| Value::DateTime(DateTime::from_ticks(t).unwrap_or(DateTime::MIN))),
        any::<[u8; 16]>().prop_map(|b| Value::Guid(Guid(b))),
        proptest::collection::vec(any::<u8>(), 0..6).prop_map(|b| Value::Binary(b.into())),
    ]
}

fn op() -> impl Strategy<Value = CmpOp> {
    proptest::sample::select(CmpOp::ALL.to_vec())
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        4 => (target(), op(), literal())
            .prop_map(|(target, op, literal)| Expr::Compare { target, op, literal }),
        1 => any::<bool>().prop_map(Expr::Bool),
    ];
    leaf.prop_recursive(6, 48, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::or(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::and(a, b)),
            inner.prop_map(Expr::negation),
        ]
    })
}

/// A small entity whose properties share names with the generated filters now and then.
fn row_properties() -> impl Strategy<Value = Vec<(Arc<str>, Value)>> {
    let name = prop_oneof![
        Just(Arc::<str>::from("A")),
        Just(Arc::from("a")),
        property_name()
    ];
    proptest::collection::vec((name, literal()), 0..5)
}

fn has_not(e: &Expr) -> bool {
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => has_not(a) || has_not(b),
        Expr::Not(_) => true,
        Expr::Compare { .. } | Expr::Bool(_) => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn print_then_parse_gives_the_same_tree(e in expr()) {
        let text = e.to_string();
        prop_assert_eq!(filter::parse(&text), Ok(e), "printed as {}", text);
    }

    #[test]
    fn normalized_trees_have_no_not_and_evaluate_the_same(
        e in expr(),
        properties in row_properties(),
        partition_key in "[a-c]{0,2}",
        ticks in 0..=DateTime::MAX.ticks(),
    ) {
        let row = Row {
            partition_key: &partition_key,
            row_key: "r",
            timestamp: DateTime::from_ticks(ticks).unwrap_or(DateTime::MIN),
            properties: &properties,
        };
        let normalized = filter::normalize(e.clone());
        prop_assert!(!has_not(&normalized));
        prop_assert_eq!(filter::eval(&e, &row), filter::eval(&normalized, &row));
        // Normalizing twice changes nothing.
        prop_assert_eq!(filter::normalize(normalized.clone()), normalized);
    }
}

//! Any text: `filter::parse` must not panic, and when it accepts the text, printing must
//! round-trip and evaluation (raw and normalized, which must agree) must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;
use tablescope_engine::filter::{self, Expr, Row};
use tablescope_engine::{DateTime, Guid, Value};

fn properties() -> Vec<(Arc<str>, Value)> {
    let when = DateTime::parse("2024-01-01T00:00:00.0000001Z").unwrap_or(DateTime::MIN);
    [
        ("A", Value::Int32(1)),
        ("B", Value::Int64(i64::MAX)),
        ("C", Value::Double(f64::NAN)),
        ("D", Value::Double(2.5)),
        ("Name", Value::string("it's")),
        ("Flag", Value::Boolean(true)),
        ("When", Value::DateTime(when)),
        ("Id", Value::Guid(Guid([0x11; 16]))),
        ("Data", Value::Binary(vec![0x0a, 0x0b].into())),
    ]
    .into_iter()
    .map(|(n, v)| (Arc::from(n), v))
    .collect()
}

fn has_not(e: &Expr) -> bool {
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => has_not(a) || has_not(b),
        Expr::Not(_) => true,
        Expr::Compare { .. } | Expr::Bool(_) => false,
    }
}

fuzz_target!(|text: &str| {
    let Ok(expr) = filter::parse(text) else {
        return;
    };
    let printed = expr.to_string();
    assert_eq!(
        filter::parse(&printed).as_ref(),
        Ok(&expr),
        "{text:?} printed as {printed:?}"
    );
    let _ = filter::to_sexpr(&expr);

    let normalized = filter::normalize(expr.clone());
    assert!(!has_not(&normalized), "{text:?} normalized to {normalized}");
    let properties = properties();
    let row = Row {
        partition_key: "p",
        row_key: "r",
        timestamp: DateTime::MIN,
        properties: &properties,
    };
    assert_eq!(
        filter::eval(&expr, &row),
        filter::eval(&normalized, &row),
        "{text:?}"
    );
});

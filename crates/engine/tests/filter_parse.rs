#![cfg(not(target_arch = "wasm32"))]
//! The `$filter` parser: table-driven (input, s-expression) rows, round trips through the
//! printer, and (input, position, message) rows for bad input.

use tablescope_engine::filter::{
    self, CharHint, CmpOp, Expr, SyntaxError, SyntaxErrorKind, Target, MAX_DEPTH, MAX_NESTING,
};
use tablescope_engine::{Error, ErrorCode, Value};

/// (filter text, expected tree as an s-expression)
const GOOD: &[(&str, &str)] = &[
    // Structure and precedence: or < and < not < parentheses and comparisons.
    ("PartitionKey eq 'a'", "(eq PartitionKey 'a')"),
    (
        "PartitionKey eq 'a' and Age gt 30",
        "(and (eq PartitionKey 'a') (gt Age 30))",
    ),
    (
        "A eq 1 or B eq 2 and C eq 3",
        "(or (eq A 1) (and (eq B 2) (eq C 3)))",
    ),
    (
        "A eq 1 and B eq 2 or C eq 3",
        "(or (and (eq A 1) (eq B 2)) (eq C 3))",
    ),
    (
        "(A eq 1 or B eq 2) and C eq 3",
        "(and (or (eq A 1) (eq B 2)) (eq C 3))",
    ),
    (
        "A eq 1 and B eq 2 and C eq 3",
        "(and (and (eq A 1) (eq B 2)) (eq C 3))",
    ),
    (
        "A eq 1 or B eq 2 or C eq 3",
        "(or (or (eq A 1) (eq B 2)) (eq C 3))",
    ),
    (
        "A eq 1 and (B eq 2 and C eq 3)",
        "(and (eq A 1) (and (eq B 2) (eq C 3)))",
    ),
    ("not A eq 1", "(not (eq A 1))"),
    ("not A eq 1 and B eq 2", "(and (not (eq A 1)) (eq B 2))"),
    ("not (A eq 1 and B eq 2)", "(not (and (eq A 1) (eq B 2)))"),
    ("not not IsActive", "(not (not (eq IsActive true)))"),
    (
        "A eq 1 or not (B eq 2 or C eq 3)",
        "(or (eq A 1) (not (or (eq B 2) (eq C 3))))",
    ),
    ("((Age ge 18))", "(ge Age 18)"),
    (" ( Age\tgt 3 )\n", "(gt Age 3)"),
    (
        "RowKey ge 'a' and RowKey lt 'b'",
        "(and (ge RowKey 'a') (lt RowKey 'b'))",
    ),
    // The constant may stand on the left; the tree always names the property first.
    ("30 lt Age", "(gt Age 30)"),
    ("30 le Age", "(ge Age 30)"),
    ("30 gt Age", "(lt Age 30)"),
    ("30 ge Age", "(le Age 30)"),
    ("5 ne Age", "(ne Age 5)"),
    ("'a' eq PartitionKey", "(eq PartitionKey 'a')"),
    ("true eq IsActive", "(eq IsActive true)"),
    // Bare boolean properties and constant terms.
    ("IsActive", "(eq IsActive true)"),
    (
        "IsActive and Age gt 3",
        "(and (eq IsActive true) (gt Age 3))",
    ),
    ("true", "true"),
    ("FALSE", "false"),
    ("not true", "(not true)"),
    ("", "true"),
    ("   ", "true"),
    ("true or Age eq 1", "(or true (eq Age 1))"),
    // Keywords in any case; property names as written.
    ("Age EQ 3 AND Name Ne 'x'", "(and (eq Age 3) (ne Name 'x'))"),
    (
        "Age Gt 3 oR NOT Age lE 1",
        "(or (gt Age 3) (not (le Age 1)))",
    ),
    ("Flag eq True", "(eq Flag true)"),
    ("age eq 3", "(eq age 3)"),
    // Strings: '' is one quote; any Unicode.
    ("Name eq 'it''s'", "(eq Name 'it''s')"),
    ("Name eq ''", "(eq Name '')"),
    ("Name eq ''''", "(eq Name '''')"),
    ("Stadt eq 'Zürich'", "(eq Stadt 'Zürich')"),
    ("Name eq '😀 日本 and or'", "(eq Name '😀 日本 and or')"),
    ("Größe gt 3", "(gt Größe 3)"),
    ("_x1 eq 1", "(eq _x1 1)"),
    // Integers: Int32 by default, Int64 with L, the full i64 range.
    ("Age eq 007", "(eq Age 7)"),
    ("Age eq -2147483648", "(eq Age -2147483648)"),
    ("Count eq 42L", "(eq Count 42L)"),
    (
        "Count eq -9223372036854775808L",
        "(eq Count -9223372036854775808L)",
    ),
    (
        "Count eq 9223372036854775807l",
        "(eq Count 9223372036854775807L)",
    ),
    // Doubles.
    ("Score eq 4.5", "(eq Score 4.5)"),
    ("Score eq -1.5", "(eq Score -1.5)"),
    ("Score eq 1e10", "(eq Score 10000000000.0)"),
    ("Score eq 2.0d", "(eq Score 2.0)"),
    ("Score eq 2D", "(eq Score 2.0)"),
    ("Score eq 1.5E-3", "(eq Score 0.0015)"),
    ("Score eq -0.0", "(eq Score -0.0)"),
    ("Score eq NaN", "(eq Score NaN)"),
    ("Score lt INF", "(lt Score INF)"),
    ("Score gt -INF", "(gt Score -INF)"),
    // Typed literals.
    (
        "When eq datetime'2024-01-01T00:00:00.1234567Z'",
        "(eq When datetime'2024-01-01T00:00:00.1234567Z')",
    ),
    (
        "When gt DateTime'2024-01-01T02:00:00+02:00'",
        "(gt When datetime'2024-01-01T00:00:00Z')",
    ),
    (
        "Timestamp lt datetime'2024-01-01T00:00:00Z'",
        "(lt Timestamp datetime'2024-01-01T00:00:00Z')",
    ),
    (
        "Id eq guid'C9DA6455-213D-42C9-9A79-3E9149A57833'",
        "(eq Id guid'c9da6455-213d-42c9-9a79-3e9149a57833')",
    ),
    ("Data eq X'0A0B'", "(eq Data X'0a0b')"),
    ("Data eq binary'FF00'", "(eq Data X'ff00')"),
    ("Data eq x''", "(eq Data X'')"),
    // Prefix words without a quote are ordinary property names.
    ("X eq 1", "(eq X 1)"),
    ("datetime eq 1", "(eq datetime 1)"),
];

#[test]
fn good_filters_parse_to_the_expected_tree() {
    for (input, expected) in GOOD {
        let expr = filter::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(filter::to_sexpr(&expr), *expected, "input {input:?}");
    }
}

#[test]
fn printing_parses_back_to_the_same_tree() {
    for (input, _) in GOOD {
        let expr = filter::parse(input).unwrap();
        let printed = expr.to_string();
        assert_eq!(
            filter::parse(&printed),
            Ok(expr),
            "{input:?} printed as {printed:?}"
        );
        // Printing is canonical: printing the reparsed tree gives the same text.
        assert_eq!(filter::parse(&printed).unwrap().to_string(), printed);
    }
}

#[test]
fn canonical_text() {
    let cases = [
        ("30 lt Age", "Age gt 30"),
        ("IsActive", "IsActive eq true"),
        ("not A eq 1", "not (A eq 1)"),
        ("NOT true", "not true"),
        (
            "a eq 1 and (b eq 2 and c eq 3)",
            "a eq 1 and (b eq 2 and c eq 3)",
        ),
        (
            "(a eq 1 and b eq 2) and c eq 3",
            "a eq 1 and b eq 2 and c eq 3",
        ),
        (
            "(a eq 1 or b eq 2) and c eq 3",
            "(a eq 1 or b eq 2) and c eq 3",
        ),
        (
            "a eq 1 or (b eq 2 and c eq 3)",
            "a eq 1 or b eq 2 and c eq 3",
        ),
        ("Name eq 'O''Brien'", "Name eq 'O''Brien'"),
        ("", "true"),
    ];
    for (input, expected) in cases {
        assert_eq!(
            filter::parse(input).unwrap().to_string(),
            expected,
            "input {input:?}"
        );
    }
}

#[test]
fn literal_values_are_typed_exactly() {
    let literal = |text: &str| match filter::parse(&format!("P eq {text}")) {
        Ok(Expr::Compare { literal, .. }) => literal,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(literal("42"), Value::Int32(42));
    assert_eq!(literal("42L"), Value::Int64(42));
    assert_eq!(literal("-9223372036854775808L"), Value::Int64(i64::MIN));
    assert_eq!(
        literal("9007199254740993L"),
        Value::Int64(9_007_199_254_740_993)
    );
    assert_eq!(literal("42.0"), Value::Double(42.0));
    assert_eq!(literal("'it''s'"), Value::string("it's"));
    assert_eq!(literal("X'0a0B'"), Value::Binary(vec![0x0a, 0x0b].into()));
    assert_eq!(literal("FALSE"), Value::Boolean(false));
    assert!(matches!(literal("NaN"), Value::Double(v) if v.is_nan()));
    match literal("datetime'2024-01-01T00:00:00.0000001Z'") {
        Value::DateTime(d) => assert_eq!(d.to_string_7(), "2024-01-01T00:00:00.0000001Z"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        filter::parse("3 gt Age"),
        Ok(Expr::Compare {
            target: Target::Property("Age".into()),
            op: CmpOp::Lt,
            literal: Value::Int32(3)
        })
    );
    assert_eq!(
        filter::parse("RowKey eq 'r'"),
        Ok(Expr::compare(Target::RowKey, CmpOp::Eq, Value::string("r")))
    );
}

/// (bad filter text, expected position in characters, a piece of the message)
const BAD: &[(&str, usize, &str)] = &[
    ("Name eq 'abc", 8, "never closed"),
    ("When eq datetime'2024", 8, "never closed"),
    ("Age gt", 6, "expected a value after 'gt'"),
    ("Age gt  ", 8, "expected a value after 'gt'"),
    ("Age is 3", 4, "unknown operator 'is'"),
    ("Age eq 3)", 8, "no matching '('"),
    (
        "(Age eq 3",
        9,
        "expected ')' to close the '(' at position 0",
    ),
    ("(Age eq 3 Name", 10, "expected 'and', 'or' or ')'"),
    ("1 eq 1", 0, "must compare a property with a constant"),
    ("'a' eq 'b'", 0, "two constants"),
    ("A eq B", 0, "two properties"),
    (
        "Age eq 2147483648",
        7,
        "Int32 literal out of range; add L for Int64",
    ),
    ("Age eq -2147483649", 7, "Int32 literal out of range"),
    (
        "Age eq 99999999999999999999",
        7,
        "out of range even for Int64",
    ),
    (
        "Age eq 9223372036854775808L",
        7,
        "Int64 literal out of range",
    ),
    ("Age gt 1e400", 7, "Double literal out of range"),
    ("Age eq 4.5L", 7, "must be a whole number"),
    ("Age eq 5.", 9, "expected a digit after the decimal point"),
    ("Age eq 5e+", 10, "expected a digit in the exponent"),
    ("Age eq - 3", 7, "expected a digit after '-'"),
    ("Age eq 3abc", 8, "unexpected 'a' right after the number 3"),
    ("When eq datetime'1600-12-31T23:59:59Z'", 8, "out of range"),
    ("When eq datetime'yesterday'", 8, "not a valid datetime"),
    ("Id eq guid'123'", 6, "not a valid guid"),
    ("Data eq X'0A0'", 8, "even number of hex digits"),
    ("Data eq X'0G'", 11, "'G' is not a hex digit"),
    ("Age eq 3 and", 12, "expected a condition after 'and'"),
    ("and Age eq 3", 0, "expected a condition, found 'and'"),
    ("()", 1, "expected a condition after '(', found ')'"),
    ("not", 3, "expected a condition after 'not'"),
    ("Age = 3", 4, "unexpected character '='"),
    ("Age eq 3 && B eq 1", 9, "write 'and'"),
    ("Name eq \"x\"", 8, "single quotes"),
    (
        "Age eq 3 Name eq 'x'",
        9,
        "expected 'and', 'or' or the end of the filter, found 'Name'",
    ),
    ("Age eq eq", 7, "expected a value after 'eq', found 'eq'"),
    ("Age eq (3)", 7, "expected a value after 'eq', found '('"),
    ("'abc'", 0, "on its own is not a condition"),
    (
        "Age 3",
        4,
        "expected an operator (eq, ne, gt, ge, lt, le) between 'Age' and '3'",
    ),
    // Positions count characters, not bytes: "Größe" is 5 characters but 7 bytes.
    (
        "Stadt eq 'Zürich' and Größe is 3",
        28,
        "unknown operator 'is'",
    ),
];

#[test]
fn bad_filters_report_position_and_reason() {
    for (input, position, message) in BAD {
        let error = filter::parse(input).expect_err(input);
        assert_eq!(error.position, *position, "{input:?}: {error}");
        assert!(
            error.kind.to_string().contains(message),
            "{input:?}: {:?} lacks {message:?}",
            error.kind
        );
    }
}

#[test]
fn error_spans_cover_the_offending_token() {
    let span = |input: &str| {
        let e = filter::parse(input).unwrap_err();
        (e.position, e.length)
    };
    assert_eq!(span("Age is 3"), (4, 2));
    assert_eq!(span("Age gt"), (6, 0));
    assert_eq!(span("Name eq 'abc"), (8, 1));
    assert_eq!(span("1 eq 1"), (0, 6));
    assert_eq!(span("Age eq 2147483648"), (7, 10));
}

#[test]
fn syntax_errors_become_invalid_input() {
    let error: Error = filter::parse("1 eq 1").unwrap_err().into();
    assert_eq!(error.code, ErrorCode::InvalidInput);
    assert_eq!(error.status(), 400);
    assert_eq!(
        error.detail.as_ref().map(ToString::to_string).as_deref(),
        Some("position 0: the filter must compare a property with a constant, but this compares two constants")
    );
    let direct = SyntaxError {
        position: 3,
        length: 1,
        kind: SyntaxErrorKind::UnmatchedClose,
    };
    assert_eq!(
        direct.to_string(),
        "position 3: this ')' has no matching '('"
    );
}

#[test]
fn nesting_and_chaining_are_limited() {
    let nested = |n: usize| format!("{}A eq 1{}", "(".repeat(n), ")".repeat(n));
    assert!(matches!(
        filter::parse(&nested(MAX_NESTING)),
        Ok(Expr::Compare { .. })
    ));
    let error = filter::parse(&nested(MAX_NESTING + 1)).unwrap_err();
    assert_eq!(error.position, MAX_NESTING);
    assert!(error.kind.to_string().contains("nests too deeply"));
    // Far beyond the limit fails cleanly instead of overflowing the stack.
    assert!(filter::parse(&nested(100_000)).is_err());
    assert!(filter::parse(&"not ".repeat(100_000)).is_err());

    let chain = |n: usize| vec!["A eq 1"; n].join(" or ");
    assert!(filter::parse(&chain(MAX_DEPTH)).is_ok());
    let error = filter::parse(&chain(MAX_DEPTH + 1)).unwrap_err();
    assert!(error.kind.to_string().contains("too many conditions"));
    assert!(filter::parse(&chain(100_000)).is_err());

    let nots = |n: usize| format!("{}A", "not ".repeat(n));
    assert!(filter::parse(&nots(MAX_DEPTH - 1)).is_ok());
    assert!(filter::parse(&nots(MAX_DEPTH)).is_err());
}

/// The deepest trees the parser accepts still print to text it accepts (the printer adds
/// parentheses, which count towards the nesting limit). Found by the fuzzer.
#[test]
fn deepest_trees_round_trip() {
    let leaf = || Expr::compare(Target::Property("A".into()), CmpOp::Eq, Value::Int32(1));
    let shapes: [fn(Expr, Expr) -> Expr; 3] = [
        |e, _| Expr::negation(e),
        |e, l| Expr::negation(Expr::or(l, e)),
        |e, l| Expr::and(l.clone(), Expr::negation(Expr::or(e, l))),
    ];
    for shape in shapes {
        let mut expr = leaf();
        let mut last_ok = None;
        loop {
            let text = expr.to_string();
            match filter::parse(&text) {
                Ok(parsed) => {
                    assert_eq!(parsed, expr, "{text}");
                    last_ok = Some(text);
                }
                Err(e) => {
                    assert!(
                        e.kind.to_string().contains("too many conditions"),
                        "{text}: {e}"
                    );
                    break;
                }
            }
            expr = shape(expr, leaf());
        }
        assert!(last_ok.is_some());
    }
}

/// The parser says what is wrong as a value: the variant and its data (tokens as described,
/// quoted), so the UI can say it in any language without reading the English back.
#[test]
fn syntax_errors_are_typed() {
    use SyntaxErrorKind::*;
    let kind = |text: &str| filter::parse(text).unwrap_err().kind;
    let some = |s: &str| Some(s.to_string());
    assert_eq!(kind("a eq 1)"), UnmatchedClose);
    assert_eq!(
        kind("a eq 1 b"),
        ExpectedEnd {
            found: "'b'".into()
        }
    );
    assert_eq!(
        kind("a eq 1 and"),
        Condition {
            after: some("'and'"),
            found: None
        }
    );
    assert_eq!(
        kind("and"),
        Condition {
            after: None,
            found: some("'and'")
        }
    );
    assert_eq!(
        kind("(a eq 1 b"),
        Close {
            position: 0,
            found: some("'b'")
        }
    );
    assert_eq!(
        kind("(a eq 1"),
        Close {
            position: 0,
            found: None
        }
    );
    assert_eq!(
        kind("a eq"),
        ValueAfter {
            op: CmpOp::Eq,
            found: None
        }
    );
    assert_eq!(
        kind("a 1"),
        OperatorBetween {
            first: "'a'".into(),
            second: "'1'".into()
        }
    );
    assert_eq!(
        kind("a eq 12x"),
        AfterNumber {
            char: 'x',
            number: "12".into()
        }
    );
    assert_eq!(kind("a eq X'0G'"), HexDigit { char: 'G' });
    assert_eq!(kind("1 eq 2"), TwoConstants);
    assert_eq!(kind("a eq 3000000000"), Int32Range);
    assert_eq!(kind("a = 1"), UnexpectedChar { char: '=' });
    assert_eq!(CharHint::of('='), Some(CharHint::Comparison));
    assert_eq!(CharHint::of('@'), None);
    let chained = vec!["a eq 1"; MAX_DEPTH + 2].join(" and ");
    assert_eq!(kind(&chained), TooManyLevels { max: MAX_DEPTH });
    // `Display` is the English a learner reads.
    assert_eq!(
        kind("a eq 1 && b eq 2").to_string(),
        "unexpected character '&': write 'and'"
    );
}

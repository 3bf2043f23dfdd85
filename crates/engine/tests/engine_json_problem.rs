//! `JsonProblem::from(&serde_json::Error)` reads serde_json's message, the one place that
//! does. Each form it reads is made here by serde_json from a real bad text, and must come
//! back as the typed problem and, through `Display`, as serde_json's words exactly; a
//! serde_json that words a form differently fails here, naming the form.

use serde::Deserialize;
use std::collections::BTreeMap;
use tablescope_engine::{
    DateTime, JsonExpected, JsonFound, JsonProblem, JsonProblemKind, JsonSyntax, RawEntity,
};

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Point {
    x: u32,
    y: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct One {
    a: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Two {
    a: u8,
    b: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Three {
    a: u8,
    b: u8,
    c: u8,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Op {
    Eq,
    Prefix,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Every {
    s: Option<String>,
    b: Option<bool>,
    v: Option<Vec<u8>>,
    m: Option<BTreeMap<String, u8>>,
    p: Option<Point>,
    op: Option<Op>,
    n: Option<f64>,
    pair: Option<(u8, u8)>,
}

/// `text` refused as a `T`: the parser's error.
fn refused<T: for<'de> Deserialize<'de> + std::fmt::Debug>(text: &str) -> serde_json::Error {
    serde_json::from_str::<T>(text).expect_err(text)
}

fn syntax(s: JsonSyntax, line: usize, column: usize) -> JsonProblem {
    JsonProblem {
        kind: JsonProblemKind::Syntax(s),
        line,
        column,
    }
}

fn at(kind: JsonProblemKind, column: usize) -> JsonProblem {
    JsonProblem {
        kind,
        line: 1,
        column,
    }
}

fn names(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

/// Each form: its name, serde_json's error from a real text, the problem it must read as.
fn forms() -> Vec<(&'static str, serde_json::Error, JsonProblem)> {
    use JsonProblemKind::*;
    use JsonSyntax::*;
    let json = refused::<serde_json::Value>;
    let every = refused::<Every>;
    let wrong = |found: JsonFound, expected: JsonExpected, column| {
        at(InvalidType { found, expected }, column)
    };
    vec![
        (
            "EOF while parsing a list",
            json("[1"),
            syntax(EofList, 1, 2),
        ),
        (
            "EOF while parsing an object",
            json("{"),
            syntax(EofObject, 1, 1),
        ),
        (
            "EOF while parsing a string",
            json("\"ab"),
            syntax(EofString, 1, 3),
        ),
        (
            "EOF while parsing a value",
            json(""),
            syntax(EofValue, 1, 0),
        ),
        (
            "expected `:`",
            json("{\"a\" 1}"),
            syntax(ExpectedColon, 1, 6),
        ),
        (
            "expected `,` or `]`",
            json("[1 2]"),
            syntax(ExpectedListEnd, 1, 4),
        ),
        (
            "expected `,` or `}`",
            json("{\"a\":1\n\"b\":2}"),
            syntax(ExpectedObjectEnd, 2, 1),
        ),
        ("expected ident", json("[tru]"), syntax(ExpectedIdent, 1, 5)),
        (
            "expected value",
            json("{\"a\":}"),
            syntax(ExpectedValue, 1, 6),
        ),
        (
            "expected `\"`",
            refused::<BTreeMap<u32, u8>>("{\"1x\":2}"),
            syntax(ExpectedQuote, 1, 4),
        ),
        (
            "invalid escape",
            json("\"\\q\""),
            syntax(InvalidEscape, 1, 3),
        ),
        ("invalid number", json("[-]"), syntax(InvalidNumber, 1, 3)),
        (
            "number out of range",
            json("1e999"),
            syntax(NumberRange, 1, 5),
        ),
        (
            "invalid unicode code point",
            serde_json::from_slice::<serde_json::Value>(b"\"\xff\"").unwrap_err(),
            syntax(InvalidCodePoint, 1, 2),
        ),
        (
            "control character (\\u0000-\\u001F) found while parsing a string",
            json("\"\u{1}\""),
            syntax(ControlCharacter, 1, 2),
        ),
        (
            "key must be a string",
            json("{1:2}"),
            syntax(KeyString, 1, 2),
        ),
        (
            "lone leading surrogate in hex escape",
            json("\"\\ud800\\u0041\""),
            syntax(LoneSurrogate, 1, 13),
        ),
        ("trailing comma", json("[1,]"), syntax(TrailingComma, 1, 4)),
        (
            "trailing characters",
            json("1 x"),
            syntax(TrailingCharacters, 1, 3),
        ),
        (
            "unexpected end of hex escape",
            json("\"\\ud800\""),
            syntax(HexEscapeEnd, 1, 8),
        ),
        (
            "recursion limit exceeded",
            json(&"[".repeat(200)),
            syntax(RecursionLimit, 1, 128),
        ),
        (
            "missing field `…`",
            refused::<Point>("{\"x\":1}"),
            at(MissingField { name: "y".into() }, 7),
        ),
        (
            "unknown field `…`, there are no fields",
            refused::<Empty>("{\"z\":1}"),
            at(
                UnknownField {
                    name: "z".into(),
                    expected: Vec::new(),
                },
                4,
            ),
        ),
        (
            "unknown field `…`, expected `…`",
            refused::<One>("{\"a, expected `b`\":1}"),
            at(
                UnknownField {
                    name: "a, expected `b`".into(),
                    expected: names(&["a"]),
                },
                18,
            ),
        ),
        (
            "unknown field `…`, expected `…` or `…`",
            refused::<Two>("{\"z\":1}"),
            at(
                UnknownField {
                    name: "z".into(),
                    expected: names(&["a", "b"]),
                },
                4,
            ),
        ),
        (
            "unknown field `…`, expected one of `…`, `…`",
            refused::<Three>("{\"z\":1}"),
            at(
                UnknownField {
                    name: "z".into(),
                    expected: names(&["a", "b", "c"]),
                },
                4,
            ),
        ),
        (
            "duplicate field `…`",
            refused::<Point>("{\"x\":1,\"x\":2}"),
            at(DuplicateField { name: "x".into() }, 10),
        ),
        (
            "unknown variant `…`, expected `…` or `…`",
            every("{\"op\":\"eqq\"}"),
            at(
                UnknownVariant {
                    name: "eqq".into(),
                    expected: names(&["eq", "prefix"]),
                },
                11,
            ),
        ),
        (
            "invalid type: string \"…\", expected struct …",
            every("{\"p\":\"x, expected y\"}"),
            wrong(
                JsonFound::String("\"x, expected y\"".into()),
                JsonExpected::Struct("Point".into()),
                20,
            ),
        ),
        (
            "invalid type: integer `…`, expected a string",
            every("{\"s\":-5}"),
            wrong(JsonFound::Integer("-5".into()), JsonExpected::String, 7),
        ),
        (
            "invalid type: floating point `…`, expected a boolean",
            every("{\"b\":1.5}"),
            wrong(JsonFound::Float("1.5".into()), JsonExpected::Boolean, 8),
        ),
        (
            "invalid type: boolean `…`, expected a sequence",
            every("{\"v\":true}"),
            wrong(JsonFound::Boolean(true), JsonExpected::Array, 9),
        ),
        (
            "invalid type: map, expected a sequence",
            every("{\"v\":{}}"),
            wrong(JsonFound::Object, JsonExpected::Array, 5),
        ),
        (
            "invalid type: sequence, expected a map",
            every("{\"m\":[]}"),
            wrong(JsonFound::Array, JsonExpected::Object, 5),
        ),
        (
            "invalid type: null, expected u8",
            every("{\"v\":[null]}"),
            wrong(JsonFound::Null, JsonExpected::Integer("u8".into()), 10),
        ),
        (
            "invalid type: boolean `false`, expected f64",
            every("{\"n\":false}"),
            wrong(
                JsonFound::Boolean(false),
                JsonExpected::Number("f64".into()),
                10,
            ),
        ),
        (
            "invalid type: sequence, expected an entity",
            refused::<RawEntity>("[1]"),
            wrong(JsonFound::Array, JsonExpected::Entity, 0),
        ),
        (
            "invalid value: integer `…`, expected u8",
            every("{\"v\":[300]}"),
            at(
                InvalidValue {
                    found: JsonFound::Integer("300".into()),
                    expected: JsonExpected::Integer("u8".into()),
                },
                9,
            ),
        ),
        (
            "invalid length …, expected …",
            every("{\"pair\":[1]}"),
            at(
                InvalidLength {
                    len: 1,
                    expected: JsonExpected::Other("a tuple of size 2".into()),
                },
                11,
            ),
        ),
    ]
}

#[test]
fn every_form_of_serde_jsons_messages_reads_as_its_problem_and_writes_its_words_again() {
    let mut failures = Vec::new();
    for (form, e, problem) in forms() {
        let read = JsonProblem::from(&e);
        if read != problem {
            failures.push(format!(
                "serde_json's form {form:?} no longer reads as {problem:?}: it wrote {:?}, read as {read:?}",
                e.to_string()
            ));
        }
        if read.to_string() != e.to_string() {
            failures.push(format!(
                "form {form:?}: Display wrote {:?} for serde_json's {:?}",
                read.to_string(),
                e.to_string()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_syntax_problem_has_a_form_above() {
    let pinned: Vec<JsonSyntax> = forms()
        .into_iter()
        .filter_map(|(_, _, p)| match p.kind {
            JsonProblemKind::Syntax(s) => Some(s),
            _ => None,
        })
        .collect();
    for s in JsonSyntax::ALL {
        assert!(pinned.contains(&s), "{s:?} ({:?}) has no form", s.text());
    }
}

#[test]
fn a_types_own_refusal_is_kept_as_written() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Stamp {
        t: DateTime,
    }
    let e = refused::<Stamp>("{\"t\":\"soon\"}");
    let problem = JsonProblem::from(&e);
    assert!(
        matches!(&problem.kind, JsonProblemKind::Other { text } if text.starts_with("\"soon\": ")),
        "{problem:?}"
    );
    assert_eq!((problem.line, problem.column), (1, 12));
    assert_eq!(problem.to_string(), e.to_string());
}

#![cfg(not(target_arch = "wasm32"))]
//! How leniently a typed value is read, one decision per row of docs/service/data-model.md's
//! "How values are read": each form the engine accepts (and what it stores), and each it
//! refuses (and with which code).

use tablescope_engine::json::decode_value;
use tablescope_engine::{EdmType, ErrorCode, Value};

fn read(value: &str, annotation: Option<EdmType>) -> Result<Value, ErrorCode> {
    let json: serde_json::Value = serde_json::from_str(value).unwrap();
    decode_value("P", &json, annotation).map_err(|e| e.code)
}

fn accepted(value: &str, annotation: Option<EdmType>) -> Value {
    read(value, annotation).unwrap_or_else(|e| panic!("{value} as {annotation:?}: {e}"))
}

#[test]
fn booleans_are_json_booleans_or_the_exact_text_when_annotated() {
    assert!(matches!(accepted("true", None), Value::Boolean(true)));
    assert!(matches!(
        accepted("false", Some(EdmType::Boolean)),
        Value::Boolean(false)
    ));
    assert!(matches!(
        accepted(r#""true""#, Some(EdmType::Boolean)),
        Value::Boolean(true)
    ));
    assert!(matches!(
        accepted(r#""false""#, Some(EdmType::Boolean)),
        Value::Boolean(false)
    ));
    // Unannotated text stays text.
    assert!(matches!(accepted(r#""true""#, None), Value::String(s) if &*s == "true"));
    for refused in [r#""True""#, r#""TRUE""#, r#"" true""#, r#""1""#, "1", "0"] {
        assert_eq!(
            read(refused, Some(EdmType::Boolean)),
            Err(ErrorCode::InvalidInput),
            "{refused}"
        );
    }
}

#[test]
fn integers_are_json_integers_or_decimal_text_in_range() {
    assert!(matches!(accepted("5", None), Value::Int32(5)));
    assert!(matches!(
        accepted(r#""5""#, Some(EdmType::Int32)),
        Value::Int32(5)
    ));
    assert!(matches!(
        accepted(r#""-2147483648""#, Some(EdmType::Int32)),
        Value::Int32(i32::MIN)
    ));
    assert!(matches!(
        accepted("9223372036854775807", Some(EdmType::Int64)),
        Value::Int64(i64::MAX)
    ));
    assert!(matches!(
        accepted(r#""-9223372036854775808""#, Some(EdmType::Int64)),
        Value::Int64(i64::MIN)
    ));
    for (refused, edm) in [
        (r#""2147483648""#, EdmType::Int32),
        ("5.0", EdmType::Int32),
        (r#""5.0""#, EdmType::Int32),
        (r#"" 5""#, EdmType::Int32),
        (r#""0x10""#, EdmType::Int64),
        (r#""9223372036854775808""#, EdmType::Int64),
        ("true", EdmType::Int64),
    ] {
        assert_eq!(
            read(refused, Some(edm)),
            Err(ErrorCode::InvalidInput),
            "{refused} as {edm:?}"
        );
    }
    // Unannotated, an integer beyond Int32 must say it is an Int64.
    assert_eq!(read("2147483648", None), Err(ErrorCode::InvalidInput));
}

#[test]
fn doubles_are_numbers_numeric_text_or_the_three_names() {
    assert!(matches!(accepted("1.5", None), Value::Double(v) if v == 1.5));
    assert!(matches!(accepted("2", Some(EdmType::Double)), Value::Double(v) if v == 2.0));
    assert!(matches!(accepted(r#""1e3""#, Some(EdmType::Double)), Value::Double(v) if v == 1000.0));
    assert!(matches!(accepted(r#""NaN""#, Some(EdmType::Double)), Value::Double(v) if v.is_nan()));
    assert!(
        matches!(accepted(r#""-Infinity""#, Some(EdmType::Double)), Value::Double(v) if v == f64::NEG_INFINITY)
    );
    // The largest finite Double reads; one past it is not a finite Double and is refused.
    assert!(
        matches!(accepted(r#""1.7976931348623157e308""#, Some(EdmType::Double)), Value::Double(v) if v == f64::MAX)
    );
    for refused in [r#""1e400""#, r#""inf""#, r#""nan""#, r#""1,5""#, "true"] {
        assert_eq!(
            read(refused, Some(EdmType::Double)),
            Err(ErrorCode::InvalidInput),
            "{refused}"
        );
    }
}

#[test]
fn guids_are_hyphenated_in_any_case_and_answered_in_lower_case() {
    let upper = accepted(
        r#""C9DA6455-213D-42C9-9A79-3E9149A57833""#,
        Some(EdmType::Guid),
    );
    match upper {
        Value::Guid(g) => assert_eq!(g.to_string(), "c9da6455-213d-42c9-9a79-3e9149a57833"),
        other => panic!("{other:?}"),
    }
    for refused in [
        r#""{c9da6455-213d-42c9-9a79-3e9149a57833}""#,
        r#""c9da6455213d42c99a793e9149a57833""#,
        r#""c9da6455-213d-42c9-9a79-3e9149a5783""#,
    ] {
        assert_eq!(
            read(refused, Some(EdmType::Guid)),
            Err(ErrorCode::InvalidInput),
            "{refused}"
        );
    }
}

#[test]
fn binaries_are_padded_standard_base64() {
    assert!(
        matches!(accepted(r#""AQID""#, Some(EdmType::Binary)), Value::Binary(b) if *b == [1, 2, 3])
    );
    assert!(matches!(accepted(r#""""#, Some(EdmType::Binary)), Value::Binary(b) if b.is_empty()));
    for refused in [r#""AQI""#, r#""AQ-_""#, r#""AQID!""#] {
        assert_eq!(
            read(refused, Some(EdmType::Binary)),
            Err(ErrorCode::InvalidInput),
            "{refused}"
        );
    }
}

#[test]
fn strings_are_json_strings_only_when_annotated() {
    assert!(matches!(accepted(r#""3""#, Some(EdmType::String)), Value::String(s) if &*s == "3"));
    for refused in ["3", "true"] {
        assert_eq!(
            read(refused, Some(EdmType::String)),
            Err(ErrorCode::InvalidInput),
            "{refused}"
        );
    }
}

#[test]
fn datetimes_take_any_designator_and_up_to_seven_digits() {
    let utc = |text: &str| match accepted(&format!("\"{text}\""), Some(EdmType::DateTime)) {
        Value::DateTime(d) => d.to_string_7(),
        other => panic!("{other:?}"),
    };
    assert_eq!(utc("2023-01-01T23:00:00"), "2023-01-01T23:00:00.0000000Z");
    assert_eq!(
        utc("2023-01-01T23:00:00+02:00"),
        "2023-01-01T21:00:00.0000000Z"
    );
    assert_eq!(
        utc("2023-01-01T23:00:00.1234567Z"),
        "2023-01-01T23:00:00.1234567Z"
    );
    assert_eq!(utc("2023-01-01T23:00Z"), "2023-01-01T23:00:00.0000000Z");
    assert_eq!(
        read(r#""2023-01-01""#, Some(EdmType::DateTime)),
        Err(ErrorCode::InvalidInput)
    );
    assert_eq!(
        read(r#""2023-02-30T00:00:00Z""#, Some(EdmType::DateTime)),
        Err(ErrorCode::InvalidInput)
    );
    assert_eq!(
        read(r#""1600-12-31T23:59:59Z""#, Some(EdmType::DateTime)),
        Err(ErrorCode::OutOfRangeInput)
    );
}

//! Import and JSON errors in the reader's language: a refused workspace file or entity (the
//! engine's [`Detail`], said by [`error_text::detail`]), a refused CSV file (a [`CsvError`] and
//! its [`Problem`]), and the JSON parser's own messages (serde_json's, "expected value at line
//! 1 column 1"), which reach the reader from an import, the batch stager's typed entity and a
//! design file.
//!
//! The engine's explanations are values, said variant by variant (no catch-all arm: a new one
//! does not compile until it is said). serde_json's messages are text, so each is recognised by
//! its English template (the `en.json` text of the message that says it, as in
//! [`super::error_text`]) and said again through the catalogue; `found` and `expected` are
//! said again as the parser's descriptions of a JSON value.
//!
//! Invariant: in English every sentence comes back exactly as the engine or serde_json wrote
//! it (`tests/web_i18n_import.rs` makes both produce each one); a serde_json message no
//! template matches is shown as written.

use super::error_text::{self, prose, say_refined, template, Template};
use crate::engine::csv::{CsvError, Problem};
use crate::engine::{Detail, Error};
use crate::i18n::msg;

/// serde_json's messages, without their " at line L column C".
const JSON: &[Template] = &[
    template!(json_eof_list),
    template!(json_eof_object),
    template!(json_eof_string),
    template!(json_eof_value),
    template!(json_expected_colon),
    template!(json_expected_list_end),
    template!(json_expected_object_end),
    template!(json_expected_ident),
    template!(json_expected_value),
    template!(json_expected_quote),
    template!(json_invalid_escape),
    template!(json_invalid_number),
    template!(json_number_range),
    template!(json_invalid_code_point),
    template!(json_control_character),
    template!(json_key_string),
    template!(json_lone_surrogate),
    template!(json_trailing_comma),
    template!(json_trailing_characters),
    template!(json_hex_escape_end),
    template!(json_recursion_limit),
    template!(json_missing_field),
    template!(json_unknown_field_none),
    template!(json_unknown_field),
    template!(json_duplicate_field),
    template!(json_invalid_type),
    template!(json_invalid_value),
    template!(json_invalid_length),
    template!(json_unknown_variant),
];

/// How serde describes the JSON value it found (`de::Unexpected`, as serde_json writes it).
/// `null` is JSON's own word and stays.
const FOUND: &[Template] = &[
    template!(json_found_string),
    template!(json_found_integer),
    template!(json_found_float),
    template!(json_found_boolean),
    template!(json_found_sequence),
    template!(json_found_map),
];

/// How serde describes what it expected (`de::Expected`: the derived types' and the engine's
/// own `expecting`). Number types are said in [`expected`].
const WANT: &[Template] = &[
    template!(json_want_string),
    template!(json_want_sequence),
    template!(json_want_map),
    template!(json_want_boolean),
    template!(json_want_struct),
    template!(json_want_enum),
    template!(json_want_entity),
    template!(json_want_one_of),
    template!(json_want_either),
];

/// An import error's explanation (`Error::detail`) in the current language.
pub fn detail(detail: &Detail) -> String {
    error_text::detail(detail)
}

/// What is wrong with a CSV file, in the current language.
pub fn problem(problem: &Problem) -> String {
    match problem {
        Problem::QuoteUnclosed => msg::csv_quote_unclosed(),
        Problem::QuoteDoubled => msg::csv_quote_doubled(),
        Problem::QuoteUnquoted => msg::csv_quote_unquoted(),
        Problem::Empty => msg::csv_empty(),
        Problem::NoPartitionKey => msg::csv_no_partition_key(),
        Problem::NoRowKey => msg::csv_no_row_key(),
        Problem::ColumnTwice => msg::csv_column_twice(),
        Problem::TypeAlone { base } => msg::csv_type_alone(base),
        Problem::FieldCount { fields, columns } => msg::csv_field_count(columns, fields),
        Problem::NotDateTime { text } => msg::csv_not_datetime(text),
        Problem::UnknownType { kind } => msg::csv_unknown_type(kind),
        Problem::NotValid { text, edm } => msg::csv_not_valid(edm.odata_name(), text),
        Problem::KeysTwice { pk, rk } => msg::csv_keys_twice(pk, rk),
        Problem::Refused(e) => e.explain(),
        Problem::TableName { table, error } => msg::csv_table_name(error.explain(), table),
        // The code is API, as the service sends it.
        Problem::NoRoom { pk, rk, why } => {
            format!(
                "OutOfRangeInput: {}",
                msg::csv_keys_context(detail(why), pk, rk)
            )
        }
    }
}

/// A message of serde_json's (`Display` of `serde_json::Error`) in the current language.
pub fn json(text: &str) -> String {
    let at = text.rfind(" at line ").and_then(|i| {
        let (line, column) = text[i + " at line ".len()..].split_once(" column ")?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (digits(line) && digits(column)).then_some((i, line, column))
    });
    match at {
        Some((i, line, column)) => msg::json_at(column, line, json_message(&text[..i])),
        None => json_message(text),
    }
}

fn json_message(text: &str) -> String {
    say_refined(JSON, text, &|name, value| match name {
        "found" => error_text::say(FOUND, &value),
        "expected" => expected(&value),
        _ => prose(name, value),
    })
    .unwrap_or_else(|| text.to_string())
}

/// What serde expected: Rust's number types as "a whole number (u32)".
fn expected(text: &str) -> String {
    match text {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" => msg::json_want_whole(text),
        "f32" | "f64" => msg::json_want_number(text),
        _ => error_text::say(WANT, text),
    }
}

/// An error shown as one line of text (an import's outcome, a shared workspace that did not
/// load), in the current language: the service's code as sent, the explanation translated.
pub trait Explain {
    fn explain(&self) -> String;
}

impl Explain for Error {
    /// `InvalidInput: not valid JSON: …`: the code, then the explanation, or the service's
    /// message when there is none.
    fn explain(&self) -> String {
        match &self.detail {
            Some(d) => format!("{}: {}", self.code, detail(d)),
            None => format!("{}: {}", self.code, self.message),
        }
    }
}

impl Explain for CsvError {
    /// As `CsvError`'s `Display` writes it: the line and column, then what is wrong.
    fn explain(&self) -> String {
        let what = problem(&self.problem);
        match (self.line, &self.column) {
            (0, _) => what,
            (line, Some(column)) => msg::csv_at_column(column, what, line),
            (line, None) => msg::csv_at_line(what, line),
        }
    }
}

impl Explain for String {
    /// Already said (a message of the catalogue's).
    fn explain(&self) -> String {
        self.clone()
    }
}

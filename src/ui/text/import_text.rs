//! Import and JSON errors in the reader's language: a refused workspace file (the engine's
//! `snapshot` sentences), a refused CSV file (`engine::csv`), and the JSON parser's own
//! messages (serde_json's, "expected value at line 1 column 1"), which reach the reader from
//! an import, the batch stager's typed entity and a design file.
//!
//! As in [`super::error_text`], each sentence is recognised by its English template (the
//! `en.json` text of the message that says it) and said again through the catalogue. The
//! sentences nest ("table 'T', entity 3 (…): L: not an Int64", "malformed export: missing
//! field `tables` at line 1 column 40"), so a placeholder named `detail` is said again as an
//! import explanation, `json` as a parser message, `found` and `expected` as the parser's
//! descriptions of a JSON value.
//!
//! Invariant: in English every sentence comes back exactly as the engine or serde_json wrote
//! it (`tests/web_i18n_import.rs` makes both produce each one); a sentence no template matches
//! is shown as written.

use super::error_text::{self, prose, say_refined, template, Template};
use crate::engine::csv::CsvError;
use crate::engine::Error;
use crate::i18n::msg;

/// The engine's import sentences: workspace files (`engine::snapshot`) and CSV records. A
/// template comes before any template that would also match its sentences: the entity with
/// keys before the entity without, which would take the keys into `{index}`; the places
/// ("table 'T', entity 1 (…): …") before "table '{table}' appears twice", whose `{table}`
/// would take a place and the sentence after it.
const IMPORT: &[Template] = &[
    template!(err_import_not_json),
    template!(err_import_malformed),
    template!(err_import_not_export),
    template!(err_import_version),
    template!(err_import_no_version),
    template!(err_import_not_utf8),
    template!(err_import_format),
    template!(err_import_in_entity_keys),
    template!(err_import_in_entity),
    template!(err_import_in_table),
    template!(err_import_table_twice),
    template!(err_import_keys_twice),
    template!(err_clock_full),
    template!(err_clock_full_after),
    template!(csv_quote_unclosed),
    template!(csv_quote_doubled),
    template!(csv_quote_unquoted),
    template!(csv_empty),
    template!(csv_no_partition_key),
    template!(csv_no_row_key),
    template!(csv_column_twice),
    template!(csv_type_alone),
    template!(csv_field_count),
    template!(csv_not_datetime),
    template!(csv_unknown_type),
    template!(csv_not_valid),
    template!(csv_keys_twice),
    template!(csv_keys_context),
    template!(csv_table_name),
];

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

/// An import error's explanation (`Error::detail`, `CsvError::message`) in the current
/// language; what is not an import sentence is said as any explanation is
/// ([`error_text::detail`]).
pub fn detail(text: &str) -> String {
    if let Some(said) = say_refined(IMPORT, text, &nested).or_else(|| error_text::try_detail(text))
    {
        return said;
    }
    // "OutOfRangeInput: …", as the CSV reader quotes an engine refusal: the code is API.
    // (Tried last: a property's name looks like a code too, "Price: not an Int32".)
    match text.split_once(": ").filter(|(code, _)| is_code(code)) {
        Some((code, rest)) => format!("{code}: {}", detail(rest)),
        None => text.to_string(),
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

/// A nested value of an import sentence said again.
fn nested(name: &str, value: String) -> String {
    match name {
        "detail" => detail(&value),
        "json" => json(&value),
        _ => prose(name, value),
    }
}

/// Whether `text` is a service error code (`InvalidInput`, `OutOfRangeInput`).
fn is_code(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_uppercase())
        && text.bytes().all(|b| b.is_ascii_alphanumeric())
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
        let what = detail(&self.message);
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

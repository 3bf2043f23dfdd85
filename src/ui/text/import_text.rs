//! Import and JSON errors in the reader's language: a refused workspace file or entity (the
//! engine's [`Detail`], said by [`error_text::detail`]), a refused CSV file (a [`CsvError`] and
//! its [`Problem`]), and a JSON text that does not read ([`JsonProblem`]: an import's, the
//! batch stager's typed entity's, a design file's).
//!
//! Each is a value, said variant by variant with no catch-all arm: a new one does not compile
//! until it is said. Invariant: in English every sentence is the value's `Display` (serde_json's
//! words, for a JSON problem), but for Rust's number types, said as "a whole number (u32)";
//! `tests/web_i18n_import.rs` makes the engine and serde_json produce each one.

use super::error_text;
use crate::engine::csv::{CsvError, Problem};
use crate::engine::{
    Detail, Error, JsonExpected, JsonFound, JsonProblem, JsonProblemKind, JsonSyntax,
};
use crate::i18n::{self, msg};

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

/// A JSON text's problem (`engine::JsonProblem`: an import's, the batch stager's typed
/// entity's, a design file's) in the current language, with its line and column.
pub fn json(problem: &JsonProblem) -> String {
    let reason = json_kind(&problem.kind);
    match problem.line {
        0 => reason,
        line => msg::json_at(problem.column, line, reason),
    }
}

fn json_kind(kind: &JsonProblemKind) -> String {
    use JsonProblemKind::*;
    match kind {
        Syntax(syntax) => json_syntax(*syntax),
        MissingField { name } => msg::json_missing_field(name),
        UnknownField { name, expected } if expected.is_empty() => {
            msg::json_unknown_field_none(name)
        }
        UnknownField { name, expected } => msg::json_unknown_field(one_of(expected), name),
        DuplicateField { name } => msg::json_duplicate_field(name),
        UnknownVariant { name, expected } => msg::json_unknown_variant(one_of(expected), name),
        InvalidType { found, expected } => {
            msg::json_invalid_type(json_expected(expected), json_found(found))
        }
        InvalidValue { found, expected } => {
            msg::json_invalid_value(json_expected(expected), json_found(found))
        }
        InvalidLength { len, expected } => {
            msg::json_invalid_length(json_expected(expected), i18n::number(*len))
        }
        // A type's own refusal, as serde_json wrote it.
        Other { text } => text.clone(),
    }
}

fn json_syntax(syntax: JsonSyntax) -> String {
    use JsonSyntax::*;
    match syntax {
        EofList => msg::json_eof_list(),
        EofObject => msg::json_eof_object(),
        EofString => msg::json_eof_string(),
        EofValue => msg::json_eof_value(),
        ExpectedColon => msg::json_expected_colon(),
        ExpectedListEnd => msg::json_expected_list_end(),
        ExpectedObjectEnd => msg::json_expected_object_end(),
        ExpectedIdent => msg::json_expected_ident(),
        ExpectedValue => msg::json_expected_value(),
        ExpectedQuote => msg::json_expected_quote(),
        InvalidEscape => msg::json_invalid_escape(),
        InvalidNumber => msg::json_invalid_number(),
        NumberRange => msg::json_number_range(),
        InvalidCodePoint => msg::json_invalid_code_point(),
        ControlCharacter => msg::json_control_character(),
        KeyString => msg::json_key_string(),
        LoneSurrogate => msg::json_lone_surrogate(),
        TrailingComma => msg::json_trailing_comma(),
        TrailingCharacters => msg::json_trailing_characters(),
        HexEscapeEnd => msg::json_hex_escape_end(),
        RecursionLimit => msg::json_recursion_limit(),
    }
}

/// The value found; `null` is JSON's own word and stays.
fn json_found(found: &JsonFound) -> String {
    match found {
        JsonFound::String(quoted) => msg::json_found_string(quoted),
        JsonFound::Integer(n) => msg::json_found_integer(n),
        JsonFound::Float(n) => msg::json_found_float(n),
        JsonFound::Boolean(b) => msg::json_found_boolean(b),
        JsonFound::Null => "null".into(),
        JsonFound::Array => msg::json_found_sequence(),
        JsonFound::Object => msg::json_found_map(),
        JsonFound::Other(text) => text.clone(),
    }
}

/// What the place takes; Rust's number types as "a whole number (u32)".
fn json_expected(expected: &JsonExpected) -> String {
    match expected {
        JsonExpected::String => msg::json_want_string(),
        JsonExpected::Array => msg::json_want_sequence(),
        JsonExpected::Object => msg::json_want_map(),
        JsonExpected::Boolean => msg::json_want_boolean(),
        JsonExpected::Integer(kind) => msg::json_want_whole(kind),
        JsonExpected::Number(kind) => msg::json_want_number(kind),
        JsonExpected::Struct(name) => msg::json_want_struct(name),
        JsonExpected::Entity => msg::json_want_entity(),
        JsonExpected::Other(text) => text.clone(),
    }
}

/// Names the place takes, quoted: "`a`", "`a` or `b`", "one of `a`, `b`, `c`".
fn one_of(names: &[String]) -> String {
    let quoted = |name: &String| format!("`{name}`");
    match names {
        [a] => quoted(a),
        [a, b] => msg::json_want_either(a, b),
        names => msg::json_want_one_of(names.iter().map(quoted).collect::<Vec<_>>().join(", ")),
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

//! The engine's error explanations in the reader's language.
//!
//! A refused request carries the service's error code and message, which are API and stay
//! as sent, and Tablescope's explanation for a learner, which the engine writes in English:
//! `Error::detail` ("a table name has 3 to 63 characters; this one has 2", "position 8:
//! expected a value after 'eq'") and the filter parser's `SyntaxError::message`. This module
//! recognises each explanation by its English template -- the `en.json` text of the message
//! that says it (`i18n::en`), `{name}` where data goes -- and says it again through the
//! catalogue, carrying the data (names, quoted filter text, positions) over unchanged and
//! formatting counts as prose.
//!
//! Invariant: every template here is the engine's sentence word for word, so an English page
//! shows what the engine wrote (`tests/web_i18n_errors.rs` makes the engine produce each one);
//! an explanation no template matches (a newer engine's) is shown as the engine wrote it.

use crate::i18n::{self, msg};

/// A message's English text (its template) and its position in the catalogues. A table of
/// data, not of functions: every message is said by one function ([`i18n::say_text`]), its
/// placeholders filled by name from the values read back out of the English sentence.
pub type Template = (&'static str, u32);

/// The [`Template`] of message `key`.
macro_rules! template {
    ($key:ident) => {
        (crate::i18n::en::$key, crate::i18n::index::$key)
    };
}
pub(crate) use template;

/// The placeholders that hold counts and sizes, formatted as prose numbers ("1.100" in
/// German); the others (positions, typed text, names) are data and kept as written.
/// (`{count}` is a plural message's own: these messages use `{n}`.)
const COUNTS: [&str; 6] = ["len", "limit", "max", "n", "size", "units"];

/// The filter parser's messages (`engine::filter::SyntaxError::message`). A template comes
/// before any template it extends ("expected a condition after {prev}, found {found}" before
/// "expected a condition after {prev}", which would also match it, {prev} taking the rest).
const SYNTAX: &[Template] = &[
    template!(syntax_unmatched_close),
    template!(syntax_expected_end),
    template!(syntax_too_many_levels),
    template!(syntax_too_deep),
    template!(syntax_condition_after_found),
    template!(syntax_condition_found),
    template!(syntax_condition_after),
    template!(syntax_condition),
    template!(syntax_close_found),
    template!(syntax_close),
    template!(syntax_unknown_operator),
    template!(syntax_operator_between),
    template!(syntax_value_after_found),
    template!(syntax_value_after),
    template!(syntax_two_constants),
    template!(syntax_two_properties),
    template!(syntax_lone_constant),
    template!(syntax_unclosed_quote),
    template!(syntax_digit_after_minus),
    template!(syntax_datetime_range),
    template!(syntax_datetime_invalid),
    template!(syntax_guid_invalid),
    template!(syntax_digit_after_point),
    template!(syntax_digit_exponent),
    template!(syntax_int64_whole),
    template!(syntax_after_number),
    template!(syntax_int32_range),
    template!(syntax_number_range),
    template!(syntax_int64_range),
    template!(syntax_double_range),
    template!(syntax_hex_digit),
    template!(syntax_hex_even),
    template!(syntax_char_comparison),
    template!(syntax_char_and),
    template!(syntax_char_or),
    template!(syntax_char_quotes),
    template!(syntax_char),
];

/// The engine's other explanations (`engine::Error::detail`).
const DETAILS: &[Template] = &[
    template!(err_table_name_length),
    template!(err_table_name_chars),
    template!(err_table_name_reserved),
    template!(err_key_control),
    template!(err_key_char),
    template!(err_key_too_large),
    template!(err_property_name_invalid),
    template!(err_property_name_long),
    template!(err_too_many_properties),
    template!(err_system_property),
    template!(err_property_value),
    template!(err_entity_too_large),
    template!(err_batch_too_large),
    template!(err_point_read_alone),
    template!(err_top_must),
    template!(err_top_may),
    template!(err_scan_budget),
    template!(err_filter_no_property),
    template!(err_filter_comparisons),
    template!(err_partition_key_required),
    template!(err_row_key_required),
    template!(err_datetime_range),
    template!(err_value_annotation_string),
    template!(err_value_annotation_type),
    template!(err_value_timestamp_range),
    template!(err_value_timestamp_text),
    template!(err_value_unannotated_int),
    template!(err_value_nested),
    template!(err_value_string),
    template!(err_value_boolean),
    template!(err_value_int32),
    template!(err_value_int64),
    template!(err_value_double),
    template!(err_value_datetime_text),
    template!(err_value_datetime),
    template!(err_value_guid),
    template!(err_value_binary),
];

/// A filter syntax error's message in the current language.
pub fn syntax(message: &str) -> String {
    say(SYNTAX, message)
}

/// An error's explanation (`Error::detail`) in the current language; a filter syntax error
/// ("position 8: …") keeps its position.
pub fn detail(detail: &str) -> String {
    try_detail(detail).unwrap_or_else(|| detail.to_string())
}

/// [`detail`], or `None` when the explanation is not one of the engine's sentences.
pub fn try_detail(detail: &str) -> Option<String> {
    if let Some((position, message)) = detail
        .strip_prefix("position ")
        .and_then(|rest| rest.split_once(": "))
        .filter(|(p, _)| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some(msg::query_syntax_position(syntax(message), position));
    }
    say_refined(DETAILS, detail, &prose)
}

/// An explanation (`Error::detail`) said by the engine's explanation templates, each value
/// passed through `refine` (see [`say_refined`]); `None` when none matches.
pub fn details_refined(text: &str, refine: &dyn Fn(&str, String) -> String) -> Option<String> {
    say_refined(DETAILS, text, refine)
}

/// `text` said in the current language by the first of `templates` it matches; as written
/// when none does.
pub fn say(templates: &[Template], text: &str) -> String {
    say_refined(templates, text, &prose).unwrap_or_else(|| text.to_string())
}

/// `text` said in the current language by the first of `templates` it matches, each value
/// read back out of it passed through `refine(placeholder, value)` first (which may say a
/// nested sentence again, or format a count); `None` when no template matches.
pub fn say_refined(
    templates: &[Template],
    text: &str,
    refine: &dyn Fn(&str, String) -> String,
) -> Option<String> {
    templates.iter().find_map(|&(template, index)| {
        let values = fill_back(template, text)?;
        let args: Vec<(&str, String)> = placeholders(template)
            .into_iter()
            .zip(values)
            .map(|(name, value)| (name, refine(name, value)))
            .collect();
        let args: Vec<(&str, &dyn std::fmt::Display)> = args
            .iter()
            .map(|(name, value)| (*name, value as &dyn std::fmt::Display))
            .collect();
        Some(i18n::say_text(index, template, &args))
    })
}

/// A value as [`say`] fills it in: counts formatted as prose, anything else as written.
pub fn prose(name: &str, value: String) -> String {
    if COUNTS.contains(&name) {
        number(&value)
    } else {
        value
    }
}

/// A count of the engine's sentence, formatted as prose (as written if it is not one).
fn number(text: &str) -> String {
    text.parse::<u64>()
        .map(i18n::number)
        .unwrap_or_else(|_| text.to_string())
}

/// The values of `template`'s `{name}` placeholders, in order, that make it `text`, if it
/// does. Each takes the shortest text after which the rest of the template can still follow
/// (the last takes what is left before the end). A value may be empty: the engine quotes
/// what it was given, and an empty property name is "'' is not a valid property name". A
/// template without placeholders matches only itself.
pub fn fill_back(template: &str, text: &str) -> Option<Vec<String>> {
    let pieces = literal_pieces(template);
    let mut rest = text.strip_prefix(pieces[0])?;
    if pieces.len() == 1 {
        return rest.is_empty().then(Vec::new);
    }
    let mut args = Vec::with_capacity(pieces.len() - 1);
    for (i, piece) in pieces.iter().enumerate().skip(1) {
        let end = if i == pieces.len() - 1 {
            rest.strip_suffix(piece)?.len()
        } else {
            rest.find(piece)?
        };
        args.push(rest[..end].to_string());
        rest = &rest[end + piece.len()..];
    }
    Some(args)
}

/// The names of `template`'s placeholders, in order.
fn placeholders(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        match rest[open..].find('}') {
            Some(close) => {
                names.push(&rest[open + 1..open + close]);
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    names
}

/// `template` split around its `{name}` placeholders.
fn literal_pieces(template: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        match rest[open..].find('}') {
            Some(close) => {
                pieces.push(&rest[..open]);
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    pieces.push(rest);
    pieces
}

//! The engine's explanations in the reader's language.
//!
//! A refused request carries the service's error code and message, which are API and stay
//! as sent, and Tablescope's explanation for a learner: a [`Detail`] (which name, which key,
//! which position), or for a filter the parser's [`SyntaxErrorKind`]. Each is a value with its
//! data as fields; this module says each variant through its catalogue message, the data
//! (names, quoted filter text, positions) carried over unchanged and counts formatted as
//! prose. The matches have no catch-all arm: an explanation the engine adds does not compile
//! until it is said here, so the UI never falls back to English behind the types' back.
//!
//! Invariant: each message's `en.json` text is the variant's `Display`, so an English page
//! shows what the engine writes (its counts as prose, "1,100"); `tests/web_i18n_errors.rs`
//! makes the engine produce each one.

use super::import_text;
use crate::engine::filter::{CharHint, SyntaxErrorKind};
use crate::engine::settings::{CorsList, SettingProblem, CORS_METHODS};
use crate::engine::snapshot::{FORMAT, VERSION};
use crate::engine::{Detail, Place, ValueProblem};
use crate::i18n::{self, msg};

/// A count, formatted as prose.
fn count(n: usize) -> String {
    i18n::number(n)
}

/// A filter syntax error's message in the current language.
pub fn syntax(kind: &SyntaxErrorKind) -> String {
    use SyntaxErrorKind::*;
    match kind {
        UnmatchedClose => msg::syntax_unmatched_close(),
        ExpectedEnd { found } => msg::syntax_expected_end(found),
        TooManyLevels { max } => msg::syntax_too_many_levels(count(*max)),
        TooDeep { max } => msg::syntax_too_deep(count(*max)),
        Condition {
            after: Some(prev),
            found: Some(found),
        } => msg::syntax_condition_after_found(found, prev),
        Condition {
            after: None,
            found: Some(found),
        } => msg::syntax_condition_found(found),
        Condition {
            after: Some(prev),
            found: None,
        } => msg::syntax_condition_after(prev),
        Condition {
            after: None,
            found: None,
        } => msg::syntax_condition(),
        Close {
            position,
            found: Some(found),
        } => msg::syntax_close_found(found, position),
        Close {
            position,
            found: None,
        } => msg::syntax_close(position),
        UnknownOperator { found } => msg::syntax_unknown_operator(found),
        OperatorBetween { first, second } => msg::syntax_operator_between(first, second),
        ValueAfter {
            op,
            found: Some(found),
        } => msg::syntax_value_after_found(found, op.as_str()),
        ValueAfter { op, found: None } => msg::syntax_value_after(op.as_str()),
        TwoConstants => msg::syntax_two_constants(),
        TwoProperties => msg::syntax_two_properties(),
        LoneConstant { found } => msg::syntax_lone_constant(found),
        UnclosedQuote => msg::syntax_unclosed_quote(),
        DigitAfterMinus => msg::syntax_digit_after_minus(),
        DateTimeRange => msg::syntax_datetime_range(),
        DateTimeInvalid => msg::syntax_datetime_invalid(),
        GuidInvalid => msg::syntax_guid_invalid(),
        DigitAfterPoint => msg::syntax_digit_after_point(),
        DigitInExponent => msg::syntax_digit_exponent(),
        Int64Whole => msg::syntax_int64_whole(),
        AfterNumber { char, number } => msg::syntax_after_number(char, number),
        Int32Range => msg::syntax_int32_range(),
        NumberRange => msg::syntax_number_range(),
        Int64Range => msg::syntax_int64_range(),
        DoubleRange => msg::syntax_double_range(),
        HexDigit { char } => msg::syntax_hex_digit(char),
        HexEven => msg::syntax_hex_even(),
        UnexpectedChar { char } => match CharHint::of(*char) {
            Some(CharHint::Comparison) => msg::syntax_char_comparison(char),
            Some(CharHint::And) => msg::syntax_char_and(char),
            Some(CharHint::Or) => msg::syntax_char_or(char),
            Some(CharHint::Quotes) => msg::syntax_char_quotes(char),
            None => msg::syntax_char(char),
        },
    }
}

/// An error's explanation (`Error::detail`) in the current language; a filter syntax error
/// keeps its position.
pub fn detail(detail: &Detail) -> String {
    use Detail::*;
    match detail {
        Syntax(e) => msg::query_syntax_position(syntax(&e.kind), e.position),
        TableNameLength { len } => msg::err_table_name_length(count(*len)),
        TableNameChars => msg::err_table_name_chars(),
        TableNameReserved => msg::err_table_name_reserved(),
        KeyControl { key, char } => msg::err_key_control(format!("{:04X}", u32::from(*char)), key),
        KeyChar { key, char } => msg::err_key_char(char, key),
        KeyTooLarge { key, units, limit } => {
            msg::err_key_too_large(key, count(*limit), count(*units))
        }
        PropertyNameInvalid { name } => msg::err_property_name_invalid(name),
        PropertyNameLong { limit, len } => msg::err_property_name_long(count(*len), count(*limit)),
        TooManyProperties { n, limit } => msg::err_too_many_properties(count(*limit), count(*n)),
        SystemProperty { name } => msg::err_system_property(name),
        PropertyValue { name } => msg::err_property_value(name),
        // The name given twice, which is data.
        DuplicateProperty { name } => name.clone(),
        EntityTooLarge { size, limit } => msg::err_entity_too_large(count(*limit), count(*size)),
        BatchTooLarge { size } => msg::err_batch_too_large(count(*size)),
        PointReadAlone => msg::err_point_read_alone(),
        TopMust { max } => msg::err_top_must(i18n::number(*max)),
        TopMay { max } => msg::err_top_may(i18n::number(*max)),
        ScanBudget => msg::err_scan_budget(),
        FilterNoProperty => msg::err_filter_no_property(),
        FilterComparisons { n, max } => msg::err_filter_comparisons(count(*max), count(*n)),
        PartitionKeyRequired => msg::err_partition_key_required(),
        RowKeyRequired => msg::err_row_key_required(),
        IfMatch { got } => msg::err_if_match(got),
        ClockReached => msg::err_clock_reached(),
        MustBeString { name } => msg::err_value_annotation_string(name),
        UnknownType { name, kind } => msg::err_value_annotation_type(kind, name),
        TimestampRange { text } => msg::err_value_timestamp_range(text),
        TimestampText => msg::err_value_timestamp_text(),
        Value { name, problem } => value(name, *problem),
        Json(problem) => import_text::json(problem),
        NotJson(problem) => msg::err_import_not_json(import_text::json(problem)),
        Malformed(problem) => msg::err_import_malformed(import_text::json(problem)),
        NotExport => msg::err_import_not_export(FORMAT),
        Version { version } => msg::err_import_version(VERSION, version),
        NoVersion => msg::err_import_no_version(VERSION),
        Format => msg::err_import_format(FORMAT, VERSION),
        NotUtf8 { offset } => msg::err_import_not_utf8(offset),
        NotUtf16 { offset } => msg::err_import_not_utf16(offset),
        TableTwice { table } => msg::err_import_table_twice(table),
        KeysTwice { pk, rk } => msg::err_import_keys_twice(pk, rk),
        ClockFull => msg::err_clock_full(),
        ClockFullAfter { at } => msg::err_clock_full_after(at),
        At {
            place,
            detail: Some(inner),
        } => {
            let inner = self::detail(inner);
            match place {
                Place::Table { table } => msg::err_import_in_table(inner, table),
                Place::Entity {
                    table,
                    index,
                    keys: Some((pk, rk)),
                } => msg::err_import_in_entity_keys(inner, index, pk, rk, table),
                Place::Entity {
                    table,
                    index,
                    keys: None,
                } => msg::err_import_in_entity(inner, index, table),
            }
        }
        // A place without an explanation: the engine always gives one, so this stays English.
        At {
            place,
            detail: None,
        } => place.to_string(),
        // Written as text: the protocol layer's (English only), or the UI's own.
        Text(text) => text.clone(),
        Setting(problem) => setting(problem),
    }
}

/// Which rule of the account's settings a document broke (`Detail::Setting`).
pub fn setting(problem: &SettingProblem) -> String {
    use SettingProblem::*;
    match problem {
        TooManyCorsRules { count: n, limit } => {
            msg::err_setting_too_many_cors_rules(count(*limit), count(*n))
        }
        // The method and the list of methods are data, quoted as the engine quotes them.
        CorsMethod { method } => {
            msg::err_setting_cors_method(CORS_METHODS.join(", "), format!("{method:?}"))
        }
        CorsEmpty { list } => msg::err_setting_cors_empty(cors_list(*list)),
        CorsListTooLong {
            list,
            count: n,
            limit,
        } => msg::err_setting_cors_list_too_long(count(*limit), cors_list(*list), count(*n)),
        CorsPrefixes { list, count: n } => {
            msg::err_setting_cors_prefixes(cors_list(*list), count(*n))
        }
        CorsEntryTooLong { list, len } => {
            msg::err_setting_cors_entry_too_long(count(*len), cors_list(*list))
        }
        CorsTooLong { len, limit } => msg::err_setting_cors_too_long(count(*len), count(*limit)),
        RetentionDays { days: Some(days) } => msg::err_setting_retention_days(i18n::number(*days)),
        RetentionDays { days: None } => msg::err_setting_retention_no_days(),
        IncludeApisMissing => msg::err_setting_include_apis(),
        TooManySignedIdentifiers { count: n, limit } => {
            msg::err_setting_too_many_identifiers(count(*limit), count(*n))
        }
        SignedIdentifierId { len } => msg::err_setting_identifier_id(count(*len)),
        SignedIdentifierTwice { id } => msg::err_setting_identifier_twice(format!("{id:?}")),
        Permission { permission } => msg::err_setting_permission(format!("{permission:?}")),
    }
}

/// A CORS rule's list: its element name, said with what it holds.
fn cors_list(list: CorsList) -> String {
    match list {
        CorsList::AllowedOrigins => msg::err_setting_list_allowed_origins(),
        CorsList::AllowedMethods => msg::err_setting_list_allowed_methods(),
        CorsList::AllowedHeaders => msg::err_setting_list_allowed_headers(),
        CorsList::ExposedHeaders => msg::err_setting_list_exposed_headers(),
    }
}

/// What is wrong with property `name`'s value.
fn value(name: &str, problem: ValueProblem) -> String {
    match problem {
        ValueProblem::UnannotatedInt => msg::err_value_unannotated_int(name),
        ValueProblem::Nested => msg::err_value_nested(name),
        ValueProblem::String => msg::err_value_string(name),
        ValueProblem::Boolean => msg::err_value_boolean(name),
        ValueProblem::Int32 => msg::err_value_int32(name),
        ValueProblem::Int64 => msg::err_value_int64(name),
        ValueProblem::Double => msg::err_value_double(name),
        ValueProblem::DateTimeText => msg::err_value_datetime_text(name),
        ValueProblem::DateTime => msg::err_value_datetime(name),
        ValueProblem::DateTimeRange => msg::err_datetime_range(name),
        ValueProblem::Guid => msg::err_value_guid(name),
        ValueProblem::Binary => msg::err_value_binary(name),
    }
}

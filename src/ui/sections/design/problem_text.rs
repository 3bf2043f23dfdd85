//! A design's problems (`design::Issue`: the validator's, a key template's, a distribution's)
//! in the reader's language, variant by variant with no catch-all arm: a new one does not
//! build until it is said. Names are quoted as the English quotes them; a template's field
//! keeps its literal braces as data (`{expr}` takes "{Id}"), since a catalogue text cannot
//! hold them.

use crate::design::{Issue, KEY_TEMPLATE};
use crate::engine::Detail;
use crate::i18n::{self, msg};
use crate::ui::text::{error_text, import_text};

/// A design problem's message in the current language.
pub fn problem(issue: &Issue) -> String {
    use Issue::*;
    let quoted = |name: &str| format!("{name:?}");
    let braced = |body: &str| format!("{{{body}}}");
    match issue {
        Version { version, supported } => msg::design_err_version(supported, version),
        NoName => msg::design_err_no_name(),
        TableName {
            detail: Some(d), ..
        }
        | PropertyName {
            detail: Some(d), ..
        } => error_text::detail(d),
        TableName { name, detail: None } => msg::design_err_table_name(quoted(name)),
        TableTwice { name } => msg::design_err_table_twice(quoted(name)),
        TypeNames { name } => msg::design_err_type_names(quoted(name)),
        TypeTable { name } => msg::design_err_type_table(quoted(name)),
        PatternNames { name } => msg::design_err_pattern_names(quoted(name)),
        Rate => msg::design_err_rate(),
        Count { max } => msg::design_err_count(i18n::number(*max)),
        NoType { name } => msg::design_err_no_type(quoted(name)),
        CopyCycle => msg::design_err_copy_cycle(),
        CopyCount { name, n } => msg::design_err_copy_count(i18n::number(*n), quoted(name)),
        PropertyName { name, detail: None } => msg::design_err_property_name(quoted(name)),
        SystemProperty { name } => msg::design_err_system_property(name),
        PropertyTwice { name } => msg::design_err_property_twice(quoted(name)),
        CopyProperty { name } => msg::design_err_copy_property(quoted(name)),
        TemplateNoProperty { field } => {
            msg::design_err_template_no_property(braced(field), quoted(field))
        }
        FormatNeedsTime { field } => msg::design_err_format_needs_time(braced(field)),
        Uniform { max } => msg::design_err_uniform(i18n::number(*max)),
        Int32Range => msg::design_err_int32_range(),
        Zipf { max } => msg::design_err_zipf(i18n::number(*max)),
        Choice => msg::design_err_choice(),
        ChoiceWeights => msg::design_err_choice_weights(),
        ScaleGrows => msg::design_err_scale_grows(),
        Instant { text } => msg::design_err_instant(quoted(text)),
        TimestampsOrder => msg::design_err_timestamps_order(),
        DistributionKind { kind } => msg::design_err_distribution_kind(kind),
        PkPrefix => msg::design_err_pk_prefix(),
        RkNeedsPk => msg::design_err_rk_needs_pk(),
        RkPrefix { n } => msg::design_err_rk_prefix(i18n::number(*n)),
        Prefix => msg::design_err_prefix(),
        NoProperty { name } => msg::design_err_no_property(quoted(name)),
        OneCondition => msg::design_err_one_condition(),
        FanOut => msg::design_err_fan_out(),
        ResultSize => msg::design_err_result_size(),
        Select => msg::design_err_select(),
        WriteTypes => msg::design_err_write_types(),
        WriteTypeTwice { name } => msg::design_err_write_type_twice(quoted(name)),
        PerCallType { name } => msg::design_err_per_call_type(quoted(name)),
        PerCall { name, max } => msg::design_err_per_call(i18n::number(*max), quoted(name)),
        ThroughField { key, field, fields } => {
            msg::design_err_through_field(quoted(field), fields.join(", "), key)
        }
        ThroughOnProperty => msg::design_err_through_on_property(),
        // Parameters in the order of their names: date, field, max, pad.
        RangeField { field, max } => msg::design_err_range_field(
            "{Field:date}",
            quoted(field),
            i18n::number(*max),
            "{Field:08}",
        ),
        Unbalanced { found, text } => {
            let missing = if *found == '{' { '}' } else { '{' };
            msg::design_err_unbalanced(format!("'{found}'"), format!("'{missing}'"), quoted(text))
        }
        InvertedTicks { body } => msg::design_err_inverted_ticks(braced(body), "{MaxTicks - Name}"),
        HashParen { body } => msg::design_err_hash_paren(braced(body)),
        Bucket { body } => msg::design_err_bucket(braced(body)),
        TemplateProperty { body, name } => {
            msg::design_err_template_property(braced(body), quoted(name))
        }
        Pad { format } => msg::design_err_pad(format!(":{format}")),
        Formats { format } => msg::design_err_formats(format!(":{format}")),
        KeyTemplate(d) => error_text::detail(&key_template(d)),
        NotDesign(p) => msg::design_err_not_design(import_text::json(p)),
        // Written as text by the generator, the evaluator or the projector: English only.
        Text(text) => text.clone(),
    }
}

/// The engine's explanation of a key template's text, the key it names said in the current
/// language.
fn key_template(detail: &Detail) -> Detail {
    let said = |key: &str| match key {
        KEY_TEMPLATE => msg::design_key_template(),
        _ => key.to_string(),
    };
    match detail {
        Detail::KeyControl { key, char } => Detail::KeyControl {
            key: said(key),
            char: *char,
        },
        Detail::KeyChar { key, char } => Detail::KeyChar {
            key: said(key),
            char: *char,
        },
        Detail::KeyTooLarge { key, units, limit } => Detail::KeyTooLarge {
            key: said(key),
            units: *units,
            limit: *limit,
        },
        other => other.clone(),
    }
}

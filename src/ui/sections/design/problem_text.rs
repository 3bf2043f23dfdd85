//! A design's problems (`design::validate`, key templates, distributions) in the
//! reader's language. The engine writes each in English; as in [`crate::ui::text::error_text`], a
//! problem is recognised by its English template (the `en.json` text of the message that
//! says it) and said again through the catalogue, its data (names as the engine quoted them,
//! template fields, counts) kept. A template's literal braces are data (`{expr}` takes
//! "{Id}"), since a catalogue text cannot hold them.
//!
//! Invariant: every template is the engine's sentence word for word (`tests/web_i18n_design.rs`
//! makes the engine produce each one); a problem no template matches is shown as written.

use crate::i18n::msg;
use crate::ui::text::error_text::{self, prose, say_refined, template, Template};

/// A template comes before any template that would also match its sentences: those with an
/// `{expr}: ` field first, whose shorter forms would take the field into `{name}`.
const PROBLEMS: &[Template] = &[
    template!(design_err_version),
    template!(design_err_no_name),
    template!(design_err_table_name),
    template!(design_err_table_twice),
    template!(design_err_type_names),
    template!(design_err_type_table),
    template!(design_err_pattern_names),
    template!(design_err_rate),
    template!(design_err_count),
    template!(design_err_no_type),
    template!(design_err_copy_cycle),
    template!(design_err_copy_count),
    template!(design_err_template_property),
    template!(design_err_property_name),
    template!(design_err_system_property),
    template!(design_err_property_twice),
    template!(design_err_copy_property),
    template!(design_err_template_no_property),
    template!(design_err_no_property),
    template!(design_err_format_needs_time),
    template!(design_err_uniform),
    template!(design_err_int32_range),
    template!(design_err_zipf),
    template!(design_err_choice),
    template!(design_err_instant),
    template!(design_err_timestamps_order),
    template!(design_err_distribution_kind),
    template!(design_err_pk_prefix),
    template!(design_err_rk_needs_pk),
    template!(design_err_rk_prefix),
    template!(design_err_prefix),
    template!(design_err_one_condition),
    template!(design_err_fan_out),
    template!(design_err_result_size),
    template!(design_err_select),
    template!(design_err_write_types),
    template!(design_err_write_copies),
    template!(design_err_unbalanced),
    template!(design_err_inverted_ticks),
    template!(design_err_hash_paren),
    template!(design_err_bucket),
    template!(design_err_pad),
    template!(design_err_formats),
];

/// What the engine calls a key template when it checks one as a key.
const KEY_TEMPLATE: &str = "A key template";

/// A design problem's message in the current language.
pub fn problem(text: &str) -> String {
    say_refined(PROBLEMS, text, &prose)
        // A key template checked as a key: the engine's key sentences, the key named.
        .or_else(|| {
            error_text::details_refined(text, &|name, value| match value.as_str() {
                KEY_TEMPLATE => msg::design_key_template(),
                _ => prose(name, value),
            })
        })
        .unwrap_or_else(|| text.to_string())
}

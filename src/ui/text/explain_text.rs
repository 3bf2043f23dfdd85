//! The engine's explanations in the reader's language.
//!
//! The engine (`crates/engine`) explains a plan in English sentences: the query kind's name,
//! a summary and advice. This module recognises each sentence by the English text of the
//! catalogue message that says it (`{name}` where data goes; `ui::error_text` does the
//! matching) and says it again in the language shown, with the parts that are data (keys,
//! filter text) carried over unchanged and counts formatted as prose. Invariant: each such
//! `en.json` text is the engine's English word for word, so English pages show what the
//! engine wrote (its counts as prose, "1,200"); a sentence no message matches (an engine newer
//! than this list) is shown as the engine wrote it.

use super::error_text::{say, template, Template};
use crate::i18n::msg;

/// The display name of a query kind (the engine's `QueryKind::label`).
pub fn kind_name(label: &str) -> String {
    match label {
        "Point query" => msg::kind_point(),
        "Partition range query" => msg::kind_partition_range(),
        "Partition scan" => msg::kind_partition_scan(),
        "Table range query" => msg::kind_table_range(),
        "Table scan" => msg::kind_table_scan(),
        other => other.to_string(),
    }
}

/// The word before an advice (`warning`, `rewrite`).
pub fn severity(severity: &str) -> String {
    match severity {
        "warning" => msg::scan_severity_warning(),
        "rewrite" => msg::scan_severity_rewrite(),
        other => other.to_string(),
    }
}

/// Each English sentence of the engine, as the English text of the message that says it
/// (`{name}` where data goes; `{n}`, a count, is formatted as prose).
const SENTENCES: &[Template] = &[
    template!(explain_point),
    template!(explain_partition_range),
    template!(explain_partition_scan),
    template!(explain_contradiction),
    template!(explain_table_range),
    template!(explain_table_scan),
    template!(advice_rowkey_alone),
    template!(advice_missing_property),
    template!(advice_type_mismatch),
    template!(advice_or_points),
    template!(advice_or_partitions),
    template!(advice_or_rowkeys),
];

/// `sentence` (a summary or an advice of the engine) in the current language.
pub fn sentence(sentence: &str) -> String {
    say(SENTENCES, sentence)
}

#[cfg(test)]
mod tests {
    use super::super::error_text::fill_back;

    #[test]
    fn reads_values_back_out_of_a_sentence() {
        assert_eq!(
            fill_back("partition {pk} is read.", "partition 'a b' is read."),
            Some(vec!["'a b'".to_string()])
        );
        assert_eq!(
            fill_back(
                "'{name}' holds {held} values in `{expr}`.",
                "'Age' holds Int32 values in `Age eq 'x'`."
            ),
            Some(vec!["Age".into(), "Int32".into(), "Age eq 'x'".into()])
        );
        assert_eq!(fill_back("Run {n} queries.", "Run queries."), None);
        assert_eq!(fill_back("Table scan.", "Table scan: more."), None);
    }
}

//! The engine's explanations in the reader's language.
//!
//! The engine (`crates/engine`) explains a plan in English sentences: the query kind's name,
//! a summary and advice. This module recognises each sentence by its English template and
//! says it again through the catalogue, with the parts that are data (keys, filter text,
//! counts) carried over unchanged. Invariant: every template here is the engine's English
//! word for word, and the `en.json` message it maps to is the same text, so English pages show
//! what the engine wrote (its counts formatted as prose, "1,200"); a sentence no template
//! matches (an engine newer than this list) is shown as the engine wrote it.

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

type Say = fn(&[String]) -> String;

/// Each English sentence of the engine, `{}` where data goes, and how to say it.
const SENTENCES: &[(&str, Say)] = &[
    (
        "Point query: PartitionKey and RowKey name one entity in partition {}, so at most one entity is read.",
        |a| msg::explain_point(&a[0]),
    ),
    (
        "Partition range query: only partition {} is read, and only the rows between the RowKey bounds.",
        |a| msg::explain_partition_range(&a[0]),
    ),
    (
        "Partition scan: every entity in partition {} is read, because no RowKey range narrows it.",
        |a| msg::explain_partition_scan(&a[0]),
    ),
    (
        "The PartitionKey conditions contradict each other, so no partition can match and nothing is read.",
        |_| msg::explain_contradiction(),
    ),
    (
        "Table range query: every entity in the partitions within the PartitionKey range is read.",
        |_| msg::explain_table_range(),
    ),
    (
        "Table scan: every entity in the table is read, because no PartitionKey condition joined by `and` bounds it.",
        |_| msg::explain_table_scan(),
    ),
    (
        "RowKey is unique only within a partition: without PartitionKey eq, the whole table is scanned. Add the PartitionKey to make it a point query.",
        |_| msg::advice_rowkey_alone(),
    ),
    (
        "No entity in this table has a property '{}', so `{}` is false for every entity (a comparison on a missing property is false, `ne` included).",
        |a| msg::advice_missing_property(&a[1], &a[0]),
    ),
    (
        "'{}' holds {} values but is compared with a {} constant in `{}`. Tablescope treats a type mismatch as `ne` true and every other operator false, so this is {} wherever '{}' exists; the real service's behaviour here is undocumented.",
        |a| msg::advice_type_mismatch(&a[3], &a[1], &a[2], &a[0], &a[4]),
    ),
    (
        "An `or` of point lookups is a table scan. Run {} point queries instead: each reads one entity.",
        |a| msg::advice_or_points(number(&a[0])),
    ),
    (
        "An `or` of PartitionKeys is a table scan. Run {} partition queries instead: each reads only its own partition.",
        |a| msg::advice_or_partitions(number(&a[0])),
    ),
    (
        "An `or` of RowKeys scans the whole partition. Run {} point queries instead.",
        |a| msg::advice_or_rowkeys(number(&a[0])),
    ),
];

/// A count of the engine's sentence, formatted for the language (as it was written if it is
/// not a count).
fn number(text: &str) -> String {
    text.parse::<u64>()
        .map(crate::i18n::number)
        .unwrap_or_else(|_| text.to_string())
}

/// `sentence` (a summary or an advice of the engine) in the current language.
pub fn sentence(sentence: &str) -> String {
    SENTENCES
        .iter()
        .find_map(|(template, say)| fill_back(template, sentence).map(|args| say(&args)))
        .unwrap_or_else(|| sentence.to_string())
}

/// The values of `template`'s `{}`s that make it `text`, if it does. Each `{}` takes the
/// shortest text after which the rest of the template can still follow (the last takes what
/// is left before the template's end); a `{}` is never empty.
fn fill_back(template: &str, text: &str) -> Option<Vec<String>> {
    let pieces: Vec<&str> = template.split("{}").collect();
    let mut rest = text.strip_prefix(pieces[0])?;
    let mut args = Vec::with_capacity(pieces.len() - 1);
    for (i, piece) in pieces.iter().enumerate().skip(1) {
        let end = if i == pieces.len() - 1 {
            if !rest.ends_with(piece) {
                return None;
            }
            rest.len() - piece.len()
        } else {
            // Skip the first character: a value is at least one character long.
            let first = rest.chars().next()?.len_utf8();
            first + rest[first..].find(piece)?
        };
        if end == 0 {
            return None;
        }
        args.push(rest[..end].to_string());
        rest = &rest[end + piece.len()..];
    }
    Some(args)
}

#[cfg(test)]
mod tests {
    use super::fill_back;

    #[test]
    fn reads_values_back_out_of_a_sentence() {
        assert_eq!(
            fill_back("partition {} is read.", "partition 'a b' is read."),
            Some(vec!["'a b'".to_string()])
        );
        assert_eq!(
            fill_back(
                "'{}' holds {} values in `{}`.",
                "'Age' holds Int32 values in `Age eq 'x'`."
            ),
            Some(vec!["Age".into(), "Int32".into(), "Age eq 'x'".into()])
        );
        assert_eq!(fill_back("Run {} queries.", "Run queries."), None);
        assert_eq!(fill_back("Table scan.", "Table scan: more."), None);
    }
}

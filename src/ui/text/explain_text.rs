//! The engine's explanations of a query in the reader's language.
//!
//! The engine (`crates/engine`) explains a plan with values: the query's [`QueryKind`], a
//! [`Summary`] of what it reads and [`Advice`](crate::engine::query::Advice) (a [`Severity`]
//! and an [`AdviceKind`]). Each variant is said here through its catalogue message, the parts
//! that are data (keys, filter text, type names) carried over unchanged and counts formatted
//! as prose; the matches have no catch-all arm, so a new variant does not compile until it is
//! said. Invariant: each message's `en.json` text is the variant's `Display`, so English pages
//! show what the engine writes (its counts as prose, "1,200").

use crate::engine::query::{AdviceKind, Severity, Summary};
use crate::engine::QueryKind;
use crate::i18n::{self, msg};

/// The display name of a query kind given by its label (`QueryKind::label`, as the wire log
/// and the code cell carry it); a label that names no kind is shown as written.
pub fn kind_name(label: &str) -> String {
    QueryKind::from_label(label).map_or_else(|| label.to_string(), kind)
}

/// The display name of a query kind.
pub fn kind(kind: QueryKind) -> String {
    match kind {
        QueryKind::Point => msg::kind_point(),
        QueryKind::PartitionRange => msg::kind_partition_range(),
        QueryKind::PartitionScan => msg::kind_partition_scan(),
        QueryKind::TableRange => msg::kind_table_range(),
        QueryKind::TableScan => msg::kind_table_scan(),
    }
}

/// The word before an advice.
pub fn severity(severity: &Severity) -> String {
    match severity {
        Severity::Warning => msg::scan_severity_warning(),
        Severity::Rewrite => msg::scan_severity_rewrite(),
    }
}

/// A sentence of the explain view (Markdown) in the current language.
pub fn sentence(sentence: &impl Sentence) -> String {
    sentence.say()
}

/// A sentence of the engine's explanation, said in the current language.
pub trait Sentence {
    fn say(&self) -> String;
}

impl Sentence for Summary {
    fn say(&self) -> String {
        match self {
            Summary::Point { pk } => msg::explain_point(pk),
            Summary::PartitionRange { pk } => msg::explain_partition_range(pk),
            Summary::PartitionScan { pk } => msg::explain_partition_scan(pk),
            Summary::Contradiction => msg::explain_contradiction(),
            Summary::TableRange => msg::explain_table_range(),
            Summary::TableScan => msg::explain_table_scan(),
        }
    }
}

impl Sentence for AdviceKind {
    fn say(&self) -> String {
        match self {
            AdviceKind::RowKeyAlone => msg::advice_rowkey_alone(),
            AdviceKind::MissingProperty { name, expr } => msg::advice_missing_property(expr, name),
            AdviceKind::TypeMismatch {
                name,
                held,
                literal,
                expr,
                verdict,
            } => msg::advice_type_mismatch(expr, held, literal, name, verdict),
            AdviceKind::OrPoints { n } => msg::advice_or_points(i18n::number(*n)),
            AdviceKind::OrPartitions { n } => msg::advice_or_partitions(i18n::number(*n)),
            AdviceKind::OrRowKeys { n } => msg::advice_or_rowkeys(i18n::number(*n)),
        }
    }
}

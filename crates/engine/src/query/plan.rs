//! The planner: which rows a query must scan, and what kind of query that makes it.
//!
//! The scan range comes only from comparisons on PartitionKey and RowKey joined by top-level
//! `and`s (docs/service/queries.md); every other condition is checked on each scanned entity. RowKey bounds
//! narrow the scan only when the PartitionKey is a single value.

use crate::filter::{self, CmpOp, Expr, Target};
use crate::key::Key;
use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Bound;

/// The five kinds of query, from cheapest to dearest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum QueryKind {
    Point,
    PartitionRange,
    PartitionScan,
    TableRange,
    TableScan,
}

impl QueryKind {
    /// Every kind, cheapest first.
    pub const ALL: [QueryKind; 5] = [
        QueryKind::Point,
        QueryKind::PartitionRange,
        QueryKind::PartitionScan,
        QueryKind::TableRange,
        QueryKind::TableScan,
    ];

    /// The kind whose [`QueryKind::label`] is `label`.
    pub fn from_label(label: &str) -> Option<QueryKind> {
        QueryKind::ALL.into_iter().find(|k| k.label() == label)
    }

    pub fn label(self) -> &'static str {
        match self {
            QueryKind::Point => "Point query",
            QueryKind::PartitionRange => "Partition range query",
            QueryKind::PartitionScan => "Partition scan",
            QueryKind::TableRange => "Table range query",
            QueryKind::TableScan => "Table scan",
        }
    }
}

/// A range of keys: each end open (`Unbounded`) or a key, included or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyBounds {
    pub lower: Bound<Key>,
    pub upper: Bound<Key>,
}

impl Default for KeyBounds {
    fn default() -> Self {
        KeyBounds {
            lower: Bound::Unbounded,
            upper: Bound::Unbounded,
        }
    }
}

impl KeyBounds {
    pub fn is_bounded(&self) -> bool {
        !matches!(
            (&self.lower, &self.upper),
            (Bound::Unbounded, Bound::Unbounded)
        )
    }

    /// The one key the range holds, if it is `[k, k]`.
    pub fn single(&self) -> Option<&Key> {
        match (&self.lower, &self.upper) {
            (Bound::Included(a), Bound::Included(b)) if a == b => Some(a),
            _ => None,
        }
    }

    /// True when no key can lie in the range.
    pub fn is_empty(&self) -> bool {
        match (&self.lower, &self.upper) {
            (Bound::Included(a), Bound::Included(b)) => a > b,
            (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => {
                a >= b
            }
            _ => false,
        }
    }

    pub fn contains(&self, k: &Key) -> bool {
        let above = match &self.lower {
            Bound::Unbounded => true,
            Bound::Included(l) => k >= l,
            Bound::Excluded(l) => k > l,
        };
        let below = match &self.upper {
            Bound::Unbounded => true,
            Bound::Included(u) => k <= u,
            Bound::Excluded(u) => k < u,
        };
        above && below
    }

    /// Narrows the range by one comparison `key op value`.
    fn narrow(&mut self, op: CmpOp, value: &str) {
        let k = Key::new(value);
        match op {
            CmpOp::Eq => {
                self.raise(Bound::Included(k.clone()));
                self.lower_upper(Bound::Included(k));
            }
            CmpOp::Gt => self.raise(Bound::Excluded(k)),
            CmpOp::Ge => self.raise(Bound::Included(k)),
            CmpOp::Lt => self.lower_upper(Bound::Excluded(k)),
            CmpOp::Le => self.lower_upper(Bound::Included(k)),
            CmpOp::Ne => {}
        }
    }

    /// Keeps the tighter of the current lower bound and `b`.
    pub fn raise(&mut self, b: Bound<Key>) {
        let tighter = match (&self.lower, &b) {
            (Bound::Unbounded, _) => true,
            (_, Bound::Unbounded) => false,
            (Bound::Included(a) | Bound::Excluded(a), Bound::Included(n) | Bound::Excluded(n)) => {
                n > a || (n == a && matches!(b, Bound::Excluded(_)))
            }
        };
        if tighter {
            self.lower = b;
        }
    }

    fn lower_upper(&mut self, b: Bound<Key>) {
        let tighter = match (&self.upper, &b) {
            (Bound::Unbounded, _) => true,
            (_, Bound::Unbounded) => false,
            (Bound::Included(a) | Bound::Excluded(a), Bound::Included(n) | Bound::Excluded(n)) => {
                n < a || (n == a && matches!(b, Bound::Excluded(_)))
            }
        };
        if tighter {
            self.upper = b;
        }
    }

    pub fn as_refs(&self) -> (Bound<&Key>, Bound<&Key>) {
        (self.lower.as_ref(), self.upper.as_ref())
    }
}

/// A planned query.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub kind: QueryKind,
    /// The filter with every `not` pushed into the comparisons.
    pub filter: Expr,
    pub partition_keys: KeyBounds,
    /// Applied only when `partition_keys` is a single key.
    pub row_keys: KeyBounds,
    /// The comparisons that bounded the scan, as OData text.
    pub bounded_by: Vec<String>,
    /// The conditions checked on every scanned entity, as OData text.
    pub checked: Vec<String>,
}

impl Plan {
    /// What the query reads, for the explain view.
    pub fn summary(&self) -> Summary {
        let pk = self.partition_keys.single().map(|k| quote(k.as_str()));
        match (self.kind, pk) {
            (QueryKind::Point, Some(pk)) => Summary::Point { pk },
            (QueryKind::PartitionRange, Some(pk)) => Summary::PartitionRange { pk },
            (QueryKind::PartitionScan, Some(pk)) => Summary::PartitionScan { pk },
            (QueryKind::Point | QueryKind::PartitionRange | QueryKind::PartitionScan, None) => {
                Summary::Contradiction
            }
            (QueryKind::TableRange, _) => Summary::TableRange,
            (QueryKind::TableScan, _) => Summary::TableScan,
        }
    }
}

/// What a query reads, for the explain view: its `Display` is one English sentence (Markdown:
/// "`and`"). `pk` is the partition's key as OData text, quoted ("'a b'").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Summary {
    Point {
        pk: String,
    },
    PartitionRange {
        pk: String,
    },
    PartitionScan {
        pk: String,
    },
    /// PartitionKey conditions no partition meets.
    Contradiction,
    TableRange,
    TableScan,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Summary::Point { pk } => write!(
                f,
                "Point query: PartitionKey and RowKey name one entity in partition {pk}, so at most one entity is read."
            ),
            Summary::PartitionRange { pk } => write!(
                f,
                "Partition range query: only partition {pk} is read, and only the rows between the RowKey bounds."
            ),
            Summary::PartitionScan { pk } => write!(
                f,
                "Partition scan: every entity in partition {pk} is read, because no RowKey range narrows it."
            ),
            Summary::Contradiction => f.write_str(
                "The PartitionKey conditions contradict each other, so no partition can match and nothing is read.",
            ),
            Summary::TableRange => f.write_str(
                "Table range query: every entity in the partitions within the PartitionKey range is read.",
            ),
            Summary::TableScan => f.write_str(
                "Table scan: every entity in the table is read, because no PartitionKey condition joined by `and` bounds it.",
            ),
        }
    }
}

/// Written as its English sentence.
impl Serialize for Summary {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Plans a parsed filter.
pub fn plan(filter: Expr) -> Plan {
    let filter = filter::normalize(filter);
    let conjuncts = filter.conjuncts();
    let (mut pk, mut rk) = (KeyBounds::default(), KeyBounds::default());
    let mut pk_terms = Vec::new();
    let mut rk_terms = Vec::new();
    let mut checked = Vec::new();
    let (mut pk_eq, mut rk_eq) = (false, false);
    for term in conjuncts {
        match term {
            Expr::Compare {
                target: Target::PartitionKey,
                op,
                literal: Value::String(s),
            } if *op != CmpOp::Ne => {
                pk.narrow(*op, s);
                pk_eq |= *op == CmpOp::Eq;
                pk_terms.push(term.to_string());
            }
            Expr::Compare {
                target: Target::RowKey,
                op,
                literal: Value::String(s),
            } if *op != CmpOp::Ne => {
                rk.narrow(*op, s);
                rk_eq |= *op == CmpOp::Eq;
                rk_terms.push(term.to_string());
            }
            Expr::Bool(true) => {}
            other => checked.push(other.to_string()),
        }
    }
    // A key is pinned by `eq` (or `ge` and `le` of one value) even if other bounds then make
    // the range empty: such a query is still about that one partition (or row).
    let pk_pinned = pk.single().is_some() || pk_eq;
    let rk_pinned = rk.single().is_some() || rk_eq;
    let kind = match (pk_pinned, rk_pinned, rk.is_bounded()) {
        (true, true, _) => QueryKind::Point,
        (true, false, true) => QueryKind::PartitionRange,
        (true, false, false) => QueryKind::PartitionScan,
        (false, ..) if pk.is_bounded() => QueryKind::TableRange,
        _ => QueryKind::TableScan,
    };
    let mut bounded_by = pk_terms;
    if pk_pinned {
        bounded_by.extend(rk_terms);
    } else {
        // Without a single partition, RowKey conditions do not narrow the scan.
        checked.extend(rk_terms);
        rk = KeyBounds::default();
    }
    Plan {
        kind,
        filter,
        partition_keys: pk,
        row_keys: rk,
        bounded_by,
        checked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(f: &str) -> QueryKind {
        plan(filter::parse(f).unwrap()).kind
    }

    #[test]
    fn kinds_follow_the_spec() {
        assert_eq!(
            kind("PartitionKey eq 'a' and RowKey eq '1'"),
            QueryKind::Point
        );
        assert_eq!(
            kind("PartitionKey eq 'a' and RowKey ge '1' and RowKey lt '5'"),
            QueryKind::PartitionRange
        );
        assert_eq!(
            kind("PartitionKey eq 'a' and Age gt 3"),
            QueryKind::PartitionScan
        );
        assert_eq!(
            kind("PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2')"),
            QueryKind::PartitionScan
        );
        assert_eq!(
            kind("PartitionKey ge 'a' and PartitionKey lt 'c'"),
            QueryKind::TableRange
        );
        assert_eq!(
            kind("PartitionKey eq 'a' or PartitionKey eq 'b'"),
            QueryKind::TableScan
        );
        assert_eq!(kind("RowKey eq '1'"), QueryKind::TableScan);
        assert_eq!(kind(""), QueryKind::TableScan);
        assert_eq!(kind("not (PartitionKey ne 'a')"), QueryKind::PartitionScan);
    }

    #[test]
    fn bounds_tighten() {
        let p = plan(filter::parse("PartitionKey gt 'a' and PartitionKey ge 'b' and PartitionKey lt 'x' and PartitionKey le 'k'").unwrap());
        assert_eq!(p.partition_keys.lower, Bound::Included(Key::new("b")));
        assert_eq!(p.partition_keys.upper, Bound::Included(Key::new("k")));
        let e = plan(filter::parse("PartitionKey eq 'a' and PartitionKey eq 'b'").unwrap());
        assert!(e.partition_keys.is_empty());
    }
}

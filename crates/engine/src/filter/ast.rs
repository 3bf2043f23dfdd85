//! The filter's syntax tree: comparisons joined by `and`, `or` and `not`.
//!
//! Invariant: a [`Expr::Compare`] always names the property first and the constant second;
//! the parser flips `30 lt Age` into `Age gt 30`, so later passes never see a constant on the
//! left.

use crate::value::Value;
use std::cmp::Ordering;
use std::sync::Arc;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

impl CmpOp {
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Gt,
        CmpOp::Ge,
        CmpOp::Lt,
        CmpOp::Le,
    ];

    /// The operator that holds exactly when this one does not, on ordered operands:
    /// `not (x gt 1)` is `x le 1`.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
        }
    }

    /// The operator with its operands swapped: `30 lt Age` is `Age gt 30`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Eq,
            CmpOp::Ne => CmpOp::Ne,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
        }
    }

    /// The OData keyword: `eq`.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
        }
    }

    /// The operator for an OData keyword, any case.
    pub fn from_keyword(word: &str) -> Option<CmpOp> {
        CmpOp::ALL
            .into_iter()
            .find(|op| op.as_str().eq_ignore_ascii_case(word))
    }

    /// Whether `left op right` holds, given how `left` orders against `right`.
    #[inline]
    pub fn holds(self, ordering: Ordering) -> bool {
        match self {
            CmpOp::Eq => ordering == Ordering::Equal,
            CmpOp::Ne => ordering != Ordering::Equal,
            CmpOp::Gt => ordering == Ordering::Greater,
            CmpOp::Ge => ordering != Ordering::Less,
            CmpOp::Lt => ordering == Ordering::Less,
            CmpOp::Le => ordering != Ordering::Greater,
        }
    }
}

/// What a comparison reads: one of the three system properties or a user property.
///
/// User property names never equal a system property's name: [`Target::from_name`] maps those.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    PartitionKey,
    RowKey,
    Timestamp,
    Property(Arc<str>),
}

impl Target {
    /// The target a property name denotes (names are case-sensitive).
    pub fn from_name(name: &str) -> Target {
        match name {
            "PartitionKey" => Target::PartitionKey,
            "RowKey" => Target::RowKey,
            "Timestamp" => Target::Timestamp,
            other => Target::Property(other.into()),
        }
    }

    /// The property name as written in a filter.
    pub fn name(&self) -> &str {
        match self {
            Target::PartitionKey => "PartitionKey",
            Target::RowKey => "RowKey",
            Target::Timestamp => "Timestamp",
            Target::Property(name) => name,
        }
    }
}

/// A parsed `$filter`.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// `target op literal`, property first (see the module invariant).
    Compare {
        target: Target,
        op: CmpOp,
        literal: Value,
    },
    /// A whole term that is just `true` or `false`; an empty filter is `Bool(true)`.
    Bool(bool),
}

impl Expr {
    /// The terms joined by top-level `and`s, left to right (the expression itself if it is
    /// not an `and`).
    pub fn conjuncts(&self) -> Vec<&Expr> {
        self.flatten(|e| match e {
            Expr::And(a, b) => Some((a, b)),
            _ => None,
        })
    }

    /// The terms joined by top-level `or`s, left to right.
    pub fn disjuncts(&self) -> Vec<&Expr> {
        self.flatten(|e| match e {
            Expr::Or(a, b) => Some((a, b)),
            _ => None,
        })
    }

    fn flatten<'a>(
        &'a self,
        split: impl Fn(&'a Expr) -> Option<(&'a Expr, &'a Expr)>,
    ) -> Vec<&'a Expr> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match split(e) {
                Some((a, b)) => {
                    stack.push(b);
                    stack.push(a);
                }
                None => out.push(e),
            }
        }
        out
    }

    pub fn or(left: Expr, right: Expr) -> Expr {
        Expr::Or(Box::new(left), Box::new(right))
    }

    pub fn and(left: Expr, right: Expr) -> Expr {
        Expr::And(Box::new(left), Box::new(right))
    }

    pub fn negation(inner: Expr) -> Expr {
        Expr::Not(Box::new(inner))
    }

    pub fn compare(target: Target, op: CmpOp, literal: Value) -> Expr {
        Expr::Compare {
            target,
            op,
            literal,
        }
    }
}

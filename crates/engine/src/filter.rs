//! The OData `$filter` language (docs/service/queries.md): lexer → parser → normalizer → evaluator.
//!
//! ```
//! use tablescope_engine::filter::{self, Row};
//! use tablescope_engine::{DateTime, Value};
//! use std::sync::Arc;
//!
//! let expr = filter::normalize(filter::parse("PartitionKey eq 'a' and not (Age lt 30)")?);
//! assert_eq!(expr.to_string(), "PartitionKey eq 'a' and Age ge 30");
//!
//! let properties = [(Arc::<str>::from("Age"), Value::Int64(42))];
//! let row = Row {
//!     partition_key: "a",
//!     row_key: "1",
//!     timestamp: DateTime::MIN,
//!     properties: &properties,
//! };
//! assert!(filter::eval(&expr, &row));
//! # Ok::<(), filter::SyntaxError>(())
//! ```
//!
//! - [`parse`] turns text into an [`Expr`] whose comparisons always name the property first.
//! - [`Expr`]'s `Display` prints canonical OData text that parses back to the same tree;
//!   [`to_sexpr`] prints the tree's shape for tests and the explain view.
//! - [`normalize`] pushes every `not` into the comparisons (De Morgan), which is how the
//!   service treats `not` on a missing property; [`eval`] checks one entity.

mod ast;
mod eval;
mod lexer;
mod normalize;
mod parser;
mod print;

pub use ast::{CmpOp, Expr, Target};
pub use eval::{compare, compare_ref, compatible, eval, eval_row, Properties, Row, RowOf};
pub use normalize::normalize;
pub use parser::{parse, MAX_DEPTH, MAX_NESTING};
pub use print::{literal_text, to_sexpr};

use super::error::{Error, ErrorCode};
use std::fmt;

/// Why a filter text does not parse. Positions count characters (not bytes) from 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the offending token starts; the input's length when the filter ended too soon.
    pub position: usize,
    /// How many characters the offending token covers (0 at the end of the input).
    pub length: usize,
    /// What is wrong, for a learner; its `Display` is the English ("expected a value after
    /// 'gt'"), and the UI says it in the reader's language from its fields.
    pub kind: SyntaxErrorKind,
}

impl SyntaxError {
    pub(crate) fn new(position: usize, length: usize, kind: SyntaxErrorKind) -> Self {
        SyntaxError {
            position,
            length,
            kind,
        }
    }
}

/// What is wrong with a filter text. Tokens the user wrote are carried as the parser describes
/// them (`found`, `after`, `first`, `second`): quoted, shortened when long ("'and'").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// A `)` with no `(` before it.
    UnmatchedClose,
    /// A complete filter followed by more text.
    ExpectedEnd {
        found: String,
    },
    /// The tree is deeper than [`MAX_DEPTH`].
    TooManyLevels {
        max: usize,
    },
    /// More than [`MAX_NESTING`] parentheses and `not`s around a condition.
    TooDeep {
        max: usize,
    },
    /// No condition where one must start: after a token (`after`), or at the start; at a
    /// token that cannot start one (`found`), or at the end.
    Condition {
        after: Option<String>,
        found: Option<String>,
    },
    /// A `(` at `position` not closed: by another token (`found`), or by the end.
    Close {
        position: usize,
        found: Option<String>,
    },
    /// A word where an operator goes.
    UnknownOperator {
        found: String,
    },
    /// Two operands without an operator between them.
    OperatorBetween {
        first: String,
        second: String,
    },
    /// No value after an operator: another token (`found`), or the end.
    ValueAfter {
        op: CmpOp,
        found: Option<String>,
    },
    TwoConstants,
    TwoProperties,
    /// A constant other than `true`/`false` alone.
    LoneConstant {
        found: String,
    },
    UnclosedQuote,
    DigitAfterMinus,
    DateTimeRange,
    DateTimeInvalid,
    GuidInvalid,
    DigitAfterPoint,
    DigitInExponent,
    Int64Whole,
    /// A letter or `.` right after a number.
    AfterNumber {
        char: char,
        number: String,
    },
    Int32Range,
    NumberRange,
    Int64Range,
    DoubleRange,
    HexDigit {
        char: char,
    },
    HexEven,
    /// A character no token starts with; [`SyntaxErrorKind::hint`] says what was probably meant.
    UnexpectedChar {
        char: char,
    },
}

/// What an unexpected character was probably meant to be (habits from other languages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharHint {
    /// `=`, `<`, `>`, `!`: comparisons are words.
    Comparison,
    /// `&`: `and`.
    And,
    /// `|`: `or`.
    Or,
    /// `"`: text goes in single quotes.
    Quotes,
}

impl CharHint {
    /// The hint for `c`, if there is one.
    pub fn of(c: char) -> Option<CharHint> {
        match c {
            '=' | '<' | '>' | '!' => Some(CharHint::Comparison),
            '&' => Some(CharHint::And),
            '|' => Some(CharHint::Or),
            '"' => Some(CharHint::Quotes),
            _ => None,
        }
    }
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SyntaxErrorKind::*;
        match self {
            UnmatchedClose => f.write_str("this ')' has no matching '('"),
            ExpectedEnd { found } => write!(
                f,
                "expected 'and', 'or' or the end of the filter, found {found}"
            ),
            TooManyLevels { max } => write!(
                f,
                "the filter nests or chains too many conditions (at most {max} levels)"
            ),
            TooDeep { max } => write!(
                f,
                "the filter nests too deeply (at most {max} parentheses and 'not's)"
            ),
            Condition { after, found } => {
                f.write_str("expected a condition")?;
                if let Some(after) = after {
                    write!(f, " after {after}")?;
                }
                if let Some(found) = found {
                    write!(f, ", found {found}")?;
                }
                Ok(())
            }
            Close {
                position,
                found: Some(found),
            } => write!(
                f,
                "expected 'and', 'or' or ')' to close the '(' at position {position}, found {found}"
            ),
            Close {
                position,
                found: None,
            } => write!(f, "expected ')' to close the '(' at position {position}"),
            UnknownOperator { found } => {
                write!(f, "unknown operator {found}: use eq, ne, gt, ge, lt or le")
            }
            OperatorBetween { first, second } => write!(
                f,
                "expected an operator (eq, ne, gt, ge, lt, le) between {first} and {second}"
            ),
            ValueAfter { op, found } => {
                write!(f, "expected a value after '{}'", op.as_str())?;
                match found {
                    Some(found) => write!(f, ", found {found}"),
                    None => Ok(()),
                }
            }
            TwoConstants => f.write_str(
                "the filter must compare a property with a constant, but this compares two constants",
            ),
            TwoProperties => f.write_str(
                "the filter must compare a property with a constant, but this compares two properties",
            ),
            LoneConstant { found } => write!(
                f,
                "the constant {found} on its own is not a condition; compare it with a property, like Age eq 30"
            ),
            UnclosedQuote => f.write_str("this quoted text is never closed: add a ' at its end"),
            DigitAfterMinus => f.write_str("expected a digit after '-'"),
            DateTimeRange => f.write_str(
                "this datetime is out of range: the service accepts \
                 1601-01-01T00:00:00Z to 9999-12-31T23:59:59.9999999Z",
            ),
            DateTimeInvalid => f.write_str(
                "this is not a valid datetime; write it like datetime'2024-01-31T12:00:00Z'",
            ),
            GuidInvalid => f.write_str(
                "this is not a valid guid; write it like \
                 guid'c9da6455-213d-42c9-9a79-3e9149a57833'",
            ),
            DigitAfterPoint => f.write_str("expected a digit after the decimal point"),
            DigitInExponent => f.write_str("expected a digit in the exponent"),
            Int64Whole => f.write_str("an Int64 literal (ending in L) must be a whole number"),
            AfterNumber { char, number } => {
                write!(f, "unexpected '{char}' right after the number {number}")
            }
            Int32Range => f.write_str("Int32 literal out of range; add L for Int64"),
            NumberRange => {
                f.write_str("number out of range even for Int64 (at most 9223372036854775807)")
            }
            Int64Range => f.write_str(
                "Int64 literal out of range (-9223372036854775808 to 9223372036854775807)",
            ),
            DoubleRange => f.write_str("Double literal out of range (write INF for infinity)"),
            HexDigit { char } => write!(
                f,
                "'{char}' is not a hex digit; binary literals use 0-9 and A-F"
            ),
            HexEven => f.write_str(
                "a binary literal needs an even number of hex digits (two per byte)",
            ),
            UnexpectedChar { char } => {
                write!(f, "unexpected character '{char}'")?;
                f.write_str(match CharHint::of(*char) {
                    Some(CharHint::Comparison) => ": comparisons are written eq, ne, gt, ge, lt, le",
                    Some(CharHint::And) => ": write 'and'",
                    Some(CharHint::Or) => ": write 'or'",
                    Some(CharHint::Quotes) => ": text goes in single quotes, like 'text'",
                    None => "",
                })
            }
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {}: {}", self.position, self.kind)
    }
}

impl std::error::Error for SyntaxError {}

/// The service answers a filter it cannot parse with 400 `InvalidInput`.
impl From<SyntaxError> for Error {
    fn from(e: SyntaxError) -> Self {
        Error::with_detail(ErrorCode::InvalidInput, e)
    }
}

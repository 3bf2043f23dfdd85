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
    /// Plain English for a learner: "expected a value after 'gt'".
    pub message: String,
}

impl SyntaxError {
    pub(crate) fn new(position: usize, length: usize, message: impl Into<String>) -> Self {
        SyntaxError {
            position,
            length,
            message: message.into(),
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {}: {}", self.position, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// The service answers a filter it cannot parse with 400 `InvalidInput`.
impl From<SyntaxError> for Error {
    fn from(e: SyntaxError) -> Self {
        Error::with_detail(ErrorCode::InvalidInput, e.to_string())
    }
}

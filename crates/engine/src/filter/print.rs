//! Printing a tree: canonical OData text (`Display`) and s-expressions ([`to_sexpr`]).
//!
//! The OData text parses back to the same tree: parentheses are written exactly where the
//! tree's shape differs from what precedence and left-associativity would give, `not` always
//! takes parentheses (except before `true`, `false` or another `not`) for readability, and
//! every literal is written in a form the lexer reads back to the same bits.

use super::ast::Expr;
use crate::value::{format_double, Value};
use std::fmt::{self, Display, Formatter, Write};

/// A literal in OData form: `'it''s'`, `30`, `30L`, `4.5`, `NaN`, `true`,
/// `datetime'2024-01-01T00:00:00Z'`, `guid'…'`, `X'0a0b'`.
pub fn literal_text(value: &Value) -> String {
    Literal(value).to_string()
}

/// The tree as an s-expression: `(and (eq PartitionKey 'a') (gt Age 30))`.
pub fn to_sexpr(expr: &Expr) -> String {
    Sexpr(expr).to_string()
}

struct Literal<'a>(&'a Value);

impl Display for Literal<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::String(s) => {
                f.write_char('\'')?;
                for part in s.split_inclusive('\'') {
                    f.write_str(part)?;
                    if part.ends_with('\'') {
                        f.write_char('\'')?;
                    }
                }
                f.write_char('\'')
            }
            Value::Int32(v) => write!(f, "{v}"),
            Value::Int64(v) => write!(f, "{v}L"),
            Value::Double(v) if v.is_nan() => f.write_str("NaN"),
            Value::Double(v) if *v == f64::INFINITY => f.write_str("INF"),
            Value::Double(v) if *v == f64::NEG_INFINITY => f.write_str("-INF"),
            Value::Double(v) => {
                let text = format_double(*v);
                f.write_str(&text)?;
                // The lexer reads a number without a point or exponent as an integer.
                if !text.contains(['.', 'e', 'E']) {
                    f.write_str(".0")?;
                }
                Ok(())
            }
            Value::Boolean(v) => write!(f, "{v}"),
            Value::DateTime(v) => write!(f, "datetime'{v}'"),
            Value::Guid(v) => write!(f, "guid'{v}'"),
            Value::Binary(bytes) => {
                f.write_str("X'")?;
                for b in bytes.iter() {
                    write!(f, "{b:02x}")?;
                }
                f.write_char('\'')
            }
        }
    }
}

/// Binding strength: a child binding less tightly than its parent needs parentheses.
fn precedence(expr: &Expr) -> u8 {
    match expr {
        Expr::Or(..) => 1,
        Expr::And(..) => 2,
        Expr::Not(_) => 3,
        Expr::Compare { .. } | Expr::Bool(_) => 4,
    }
}

/// Writes a child of a binary node of `parent` precedence. Both operators are
/// left-associative, so a right child of equal precedence needs parentheses too.
fn write_operand(f: &mut Formatter<'_>, child: &Expr, parent: u8, right: bool) -> fmt::Result {
    let own = precedence(child);
    if own < parent || (right && own == parent) {
        write!(f, "({child})")
    } else {
        write!(f, "{child}")
    }
}

/// Canonical OData text; `parse(&e.to_string()) == Ok(e)` for every tree `parse` returns.
impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Or(a, b) | Expr::And(a, b) => {
                let own = precedence(self);
                write_operand(f, a, own, false)?;
                f.write_str(if own == 1 { " or " } else { " and " })?;
                write_operand(f, b, own, true)
            }
            Expr::Not(inner) => match **inner {
                Expr::Bool(_) | Expr::Not(_) => write!(f, "not {inner}"),
                _ => write!(f, "not ({inner})"),
            },
            Expr::Compare {
                target,
                op,
                literal,
            } => {
                write!(f, "{} {} {}", target.name(), op.as_str(), Literal(literal))
            }
            Expr::Bool(b) => write!(f, "{b}"),
        }
    }
}

struct Sexpr<'a>(&'a Expr);

impl Display for Sexpr<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expr::Or(a, b) => write!(f, "(or {} {})", Sexpr(a), Sexpr(b)),
            Expr::And(a, b) => write!(f, "(and {} {})", Sexpr(a), Sexpr(b)),
            Expr::Not(inner) => write!(f, "(not {})", Sexpr(inner)),
            Expr::Compare {
                target,
                op,
                literal,
            } => {
                write!(
                    f,
                    "({} {} {})",
                    op.as_str(),
                    target.name(),
                    Literal(literal)
                )
            }
            Expr::Bool(b) => write!(f, "{b}"),
        }
    }
}

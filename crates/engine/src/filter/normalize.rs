//! Pushing `not` into the comparisons, as the service does before it evaluates a filter.
//!
//! `not (a and b)` is `not a or not b`, `not (a or b)` is `not a and not b`, `not (x eq 1)` is
//! `x ne 1`, `not (x gt 1)` is `x le 1`, `not true` is `false`. The result has no `Not`, so a
//! comparison on a missing property stays false under any number of `not`s (docs/service/queries.md).

use super::ast::Expr;

/// The same filter without any `Not` node.
pub fn normalize(expr: Expr) -> Expr {
    push(expr, false)
}

/// `expr`, negated when `negate` is set, with every `Not` pushed down and removed.
fn push(expr: Expr, negate: bool) -> Expr {
    match expr {
        Expr::Or(a, b) => {
            let (a, b) = (push(*a, negate), push(*b, negate));
            if negate {
                Expr::and(a, b)
            } else {
                Expr::or(a, b)
            }
        }
        Expr::And(a, b) => {
            let (a, b) = (push(*a, negate), push(*b, negate));
            if negate {
                Expr::or(a, b)
            } else {
                Expr::and(a, b)
            }
        }
        Expr::Not(inner) => push(*inner, !negate),
        Expr::Compare {
            target,
            op,
            literal,
        } => {
            let op = if negate { op.negate() } else { op };
            Expr::Compare {
                target,
                op,
                literal,
            }
        }
        Expr::Bool(b) => Expr::Bool(b != negate),
    }
}

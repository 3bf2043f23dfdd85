//! The recursive-descent parser: tokens → [`Expr`].
//!
//! Grammar (keywords any case; `or` binds loosest):
//!
//! ```text
//! filter     = [ or_expr ]                      ; empty or blank text means `true`
//! or_expr    = and_expr { "or" and_expr }       ; left-associative
//! and_expr   = unary { "and" unary }            ; left-associative
//! unary      = "not" unary | primary
//! primary    = "(" or_expr ")" | comparison
//! comparison = operand [ cmp_op operand ]
//! operand    = property | literal
//! cmp_op     = "eq" | "ne" | "gt" | "ge" | "lt" | "le"
//! ```
//!
//! A comparison needs exactly one property and one constant; the constant may stand on either
//! side and is moved to the right (`30 lt Age` → `Age gt 30`). An operand on its own is a
//! bare boolean property (`IsActive` → `IsActive eq true`) or the constant `true`/`false`.
//!
//! Trees are at most [`MAX_DEPTH`] deep, so every pass over them (printing, normalizing,
//! evaluating, dropping) can recurse without exhausting the stack, wasm32's small one included;
//! the parser's own recursion is bounded by [`MAX_NESTING`] open parentheses and `not`s.
//! The printer writes at most two of those per tree level, so printed text always reparses.

use super::ast::{CmpOp, Expr, Target};
use super::lexer::{tokenize, Token, TokenKind};
use super::{SyntaxError, SyntaxErrorKind};
use crate::value::Value;

/// The deepest tree [`parse`] builds; deeper filters are refused with a [`SyntaxError`].
pub const MAX_DEPTH: usize = 100;

/// The most parentheses and `not`s a filter may have open at once.
pub const MAX_NESTING: usize = 2 * MAX_DEPTH;

type Result<T> = std::result::Result<T, SyntaxError>;

/// Parses `$filter` text. Empty or whitespace-only text is `Expr::Bool(true)`.
pub fn parse(text: &str) -> Result<Expr> {
    let chars: Vec<char> = text.chars().collect();
    let tokens = tokenize(&chars)?;
    if tokens.is_empty() {
        return Ok(Expr::Bool(true));
    }
    let mut parser = Parser {
        chars: &chars,
        tokens: &tokens,
        pos: 0,
        nesting: 0,
    };
    let node = parser.or_expr()?;
    match parser.peek() {
        None => Ok(node.expr),
        Some(token) if token.kind == TokenKind::RParen => {
            Err(parser.error_at(token, SyntaxErrorKind::UnmatchedClose))
        }
        Some(token) => Err(parser.error_at(
            token,
            SyntaxErrorKind::ExpectedEnd {
                found: parser.describe(token),
            },
        )),
    }
}

/// A subtree and its depth (a comparison has depth 1).
struct Node {
    expr: Expr,
    depth: usize,
}

struct Parser<'a> {
    chars: &'a [char],
    tokens: &'a [Token],
    pos: usize,
    /// Open parentheses and `not`s around the current position.
    nesting: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<&'a Token> {
        let token = self.tokens.get(self.pos)?;
        self.pos += 1;
        Some(token)
    }

    /// The previous token, for "after 'and'" in messages.
    fn previous(&self) -> Option<&'a Token> {
        self.pos.checked_sub(1).and_then(|i| self.tokens.get(i))
    }

    fn eat(&mut self, kind: &TokenKind) -> Option<&'a Token> {
        let token = self.peek().filter(|t| t.kind == *kind)?;
        self.pos += 1;
        Some(token)
    }

    fn or_expr(&mut self) -> Result<Node> {
        let mut left = self.and_expr()?;
        while let Some(or) = self.eat(&TokenKind::Or) {
            let right = self.and_expr()?;
            left = self.join(left, right, or, Expr::Or)?;
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> Result<Node> {
        let mut left = self.unary()?;
        while let Some(and) = self.eat(&TokenKind::And) {
            let right = self.unary()?;
            left = self.join(left, right, and, Expr::And)?;
        }
        Ok(left)
    }

    fn join(
        &self,
        left: Node,
        right: Node,
        token: &Token,
        make: fn(Box<Expr>, Box<Expr>) -> Expr,
    ) -> Result<Node> {
        let depth = 1 + left.depth.max(right.depth);
        self.check_depth(depth, token)?;
        Ok(Node {
            expr: make(Box::new(left.expr), Box::new(right.expr)),
            depth,
        })
    }

    fn check_depth(&self, depth: usize, token: &Token) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(self.error_at(token, SyntaxErrorKind::TooManyLevels { max: MAX_DEPTH }));
        }
        Ok(())
    }

    /// Enters a parenthesis or a `not`.
    fn open(&mut self, token: &Token) -> Result<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error_at(token, SyntaxErrorKind::TooDeep { max: MAX_NESTING }));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Node> {
        let Some(not) = self.eat(&TokenKind::Not) else {
            return self.primary();
        };
        self.open(not)?;
        let inner = self.unary()?;
        self.nesting -= 1;
        let depth = inner.depth + 1;
        self.check_depth(depth, not)?;
        Ok(Node {
            expr: Expr::Not(Box::new(inner.expr)),
            depth,
        })
    }

    fn primary(&mut self) -> Result<Node> {
        let Some(token) = self.next() else {
            return Err(self.error_at_end(SyntaxErrorKind::Condition {
                after: self.after(),
                found: None,
            }));
        };
        match &token.kind {
            TokenKind::LParen => {
                self.open(token)?;
                let inner = self.or_expr()?;
                self.close_paren(token)?;
                self.nesting -= 1;
                Ok(inner)
            }
            TokenKind::Ident(_) | TokenKind::Literal(_) => self.comparison(token),
            _ => {
                self.pos -= 1;
                Err(self.error_at(
                    token,
                    SyntaxErrorKind::Condition {
                        after: self.after(),
                        found: Some(self.describe(token)),
                    },
                ))
            }
        }
    }

    fn close_paren(&mut self, open: &Token) -> Result<()> {
        match self.next() {
            Some(t) if t.kind == TokenKind::RParen => Ok(()),
            Some(t) => Err(self.error_at(
                t,
                SyntaxErrorKind::Close {
                    position: open.start,
                    found: Some(self.describe(t)),
                },
            )),
            None => Err(self.error_at_end(SyntaxErrorKind::Close {
                position: open.start,
                found: None,
            })),
        }
    }

    /// `first [op second]`, with `first` already consumed.
    fn comparison(&mut self, first: &'a Token) -> Result<Node> {
        let Some(next) = self.peek() else {
            return self.lone_operand(first);
        };
        let op = match &next.kind {
            TokenKind::Op(op) => *op,
            TokenKind::Ident(_) => {
                return Err(self.error_at(
                    next,
                    SyntaxErrorKind::UnknownOperator {
                        found: self.describe(next),
                    },
                ));
            }
            TokenKind::Literal(_) => {
                return Err(self.error_at(
                    next,
                    SyntaxErrorKind::OperatorBetween {
                        first: self.describe(first),
                        second: self.describe(next),
                    },
                ));
            }
            _ => return self.lone_operand(first),
        };
        self.pos += 1;
        let second = match self.next() {
            Some(t) if matches!(t.kind, TokenKind::Ident(_) | TokenKind::Literal(_)) => t,
            Some(t) => {
                return Err(self.error_at(
                    t,
                    SyntaxErrorKind::ValueAfter {
                        op,
                        found: Some(self.describe(t)),
                    },
                ))
            }
            None => return Err(self.error_at_end(SyntaxErrorKind::ValueAfter { op, found: None })),
        };
        let expr = match (&first.kind, &second.kind) {
            (TokenKind::Ident(name), TokenKind::Literal(v)) => Expr::Compare {
                target: Target::from_name(name),
                op,
                literal: v.clone(),
            },
            (TokenKind::Literal(v), TokenKind::Ident(name)) => Expr::Compare {
                target: Target::from_name(name),
                op: op.flip(),
                literal: v.clone(),
            },
            (TokenKind::Literal(_), _) => {
                return Err(self.not_property_vs_constant(
                    first,
                    second,
                    SyntaxErrorKind::TwoConstants,
                ))
            }
            _ => {
                return Err(self.not_property_vs_constant(
                    first,
                    second,
                    SyntaxErrorKind::TwoProperties,
                ))
            }
        };
        Ok(Node { expr, depth: 1 })
    }

    /// An operand with no operator: a bare boolean property, or `true`/`false`.
    fn lone_operand(&self, token: &Token) -> Result<Node> {
        let expr = match &token.kind {
            TokenKind::Ident(name) => Expr::Compare {
                target: Target::from_name(name),
                op: CmpOp::Eq,
                literal: Value::Boolean(true),
            },
            TokenKind::Literal(Value::Boolean(b)) => Expr::Bool(*b),
            _ => {
                return Err(self.error_at(
                    token,
                    SyntaxErrorKind::LoneConstant {
                        found: self.describe(token),
                    },
                ))
            }
        };
        Ok(Node { expr, depth: 1 })
    }

    fn not_property_vs_constant(
        &self,
        first: &Token,
        second: &Token,
        kind: SyntaxErrorKind,
    ) -> SyntaxError {
        let end = second.start + second.len;
        SyntaxError::new(first.start, end.saturating_sub(first.start), kind)
    }

    fn error_at(&self, token: &Token, kind: SyntaxErrorKind) -> SyntaxError {
        SyntaxError::new(token.start, token.len, kind)
    }

    fn error_at_end(&self, kind: SyntaxErrorKind) -> SyntaxError {
        SyntaxError::new(self.chars.len(), 0, kind)
    }

    /// The previous token described ("'and'"), or `None` at the start.
    fn after(&self) -> Option<String> {
        self.previous().map(|t| self.describe(t))
    }

    /// A token as the user wrote it, quoted, shortened if long.
    fn describe(&self, token: &Token) -> String {
        const MAX: usize = 30;
        let end = token.start + token.len.min(MAX);
        let text: String = self
            .chars
            .get(token.start..end)
            .unwrap_or_default()
            .iter()
            .collect();
        let more = if token.len > MAX { "…" } else { "" };
        if text.contains('\'') {
            format!("{text}{more}")
        } else {
            format!("'{text}{more}'")
        }
    }
}

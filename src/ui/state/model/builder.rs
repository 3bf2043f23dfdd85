//! The query builder: a point, partition or table query whose conditions form a tree of
//! groups, each joining its members with `and` or `or` and optionally negated with `not`.
//!
//! Invariant (the round trip): every filter made of comparisons joined by `and`, `or` and
//! `not` reads into the builder ([`Builder::from_filter`]), and the builder writes it back
//! ([`Builder::filter`]) as text that parses to the *same tree*: same comparisons, same
//! literals (types included), same grouping. Only a filter with a bare `true`/`false` term
//! stays outside the builder (an empty filter and `true` are the empty builder).

use super::{display_name, edit_text, parse_typed, BinaryEncoding};
use crate::engine::filter::{self, CmpOp, Expr, Target};
use crate::engine::{EdmType, Value};

/// Which kind of query the builder writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BuilderKind {
    /// PartitionKey eq and RowKey eq.
    Point,
    /// PartitionKey eq, optionally a RowKey prefix, plus conditions.
    Partition,
    /// Conditions only.
    #[default]
    Table,
}

/// How a group joins its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Join {
    /// Every member holds.
    #[default]
    And,
    /// At least one member holds.
    Or,
}

impl Join {
    /// The OData keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Join::And => "and",
            Join::Or => "or",
        }
    }

    fn combine(self, left: Expr, right: Expr) -> Expr {
        match self {
            Join::And => Expr::and(left, right),
            Join::Or => Expr::or(left, right),
        }
    }
}

/// One comparison: `Name op literal` (any property, the keys included).
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub id: u64,
    pub property: String,
    pub op: CmpOp,
    pub edm: EdmType,
    pub text: String,
}

/// Members joined by one [`Join`], the whole negated when `negated` is set.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Group {
    pub id: u64,
    pub join: Join,
    pub negated: bool,
    pub members: Vec<Node>,
}

/// A member of a group.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Condition(Condition),
    Group(Group),
}

impl Node {
    pub fn id(&self) -> u64 {
        match self {
            Node::Condition(c) => c.id,
            Node::Group(g) => g.id,
        }
    }

    /// The member as one expression; `None` for an empty group (it adds nothing).
    fn expr(&self) -> Result<Option<Expr>, String> {
        match self {
            Node::Condition(c) => c.expr().map(Some),
            Node::Group(g) => g.expr(),
        }
    }
}

impl Condition {
    /// A blank `eq` condition on a String.
    pub fn blank(id: u64) -> Condition {
        Condition {
            id,
            property: String::new(),
            op: CmpOp::Eq,
            edm: EdmType::String,
            text: String::new(),
        }
    }

    fn expr(&self) -> Result<Expr, String> {
        let value = parse_typed(self.edm, &self.text, BinaryEncoding::Hex)
            .map_err(|e| format!("{}: {e}", display_name(&self.property)))?;
        if self.property.is_empty() {
            return Err(crate::i18n::msg::query_cond_needs_name());
        }
        Ok(Expr::compare(
            Target::from_name(&self.property),
            self.op,
            value,
        ))
    }
}

impl Group {
    /// The members folded left to right with the join (`a and b and c` is `(a and b) and c`,
    /// as the parser reads it), negated if set; `None` when no member adds anything.
    fn expr(&self) -> Result<Option<Expr>, String> {
        let mut out = None;
        for member in &self.members {
            if let Some(e) = member.expr()? {
                out = Some(match out {
                    None => e,
                    Some(left) => self.join.combine(left, e),
                });
            }
        }
        Ok(out.map(|e| if self.negated { Expr::negation(e) } else { e }))
    }

    /// This group or a group inside it, by id.
    pub fn group(&self, id: u64) -> Option<&Group> {
        if self.id == id {
            return Some(self);
        }
        self.members.iter().find_map(|m| match m {
            Node::Group(g) => g.group(id),
            Node::Condition(_) => None,
        })
    }

    pub fn group_mut(&mut self, id: u64) -> Option<&mut Group> {
        if self.id == id {
            return Some(self);
        }
        self.members.iter_mut().find_map(|m| match m {
            Node::Group(g) => g.group_mut(id),
            Node::Condition(_) => None,
        })
    }

    /// The place (from 1) of condition `id` among every condition in this group, in the
    /// order they are drawn (depth first); `None` when it is not here.
    pub fn ordinal(&self, id: u64) -> Option<usize> {
        fn walk(g: &Group, id: u64, seen: &mut usize) -> bool {
            g.members.iter().any(|m| match m {
                Node::Condition(c) => {
                    *seen += 1;
                    c.id == id
                }
                Node::Group(inner) => walk(inner, id, seen),
            })
        }
        let mut seen = 0;
        walk(self, id, &mut seen).then_some(seen)
    }

    /// A condition anywhere in this group, by id.
    pub fn condition(&self, id: u64) -> Option<&Condition> {
        self.members.iter().find_map(|m| match m {
            Node::Condition(c) => (c.id == id).then_some(c),
            Node::Group(g) => g.condition(id),
        })
    }

    pub fn condition_mut(&mut self, id: u64) -> Option<&mut Condition> {
        self.members.iter_mut().find_map(|m| match m {
            Node::Condition(c) => (c.id == id).then_some(c),
            Node::Group(g) => g.condition_mut(id),
        })
    }

    /// Removes the member with this id, wherever it is; whether one was removed.
    pub fn remove(&mut self, id: u64) -> bool {
        let before = self.members.len();
        self.members.retain(|m| m.id() != id);
        before != self.members.len()
            || self.members.iter_mut().any(|m| match m {
                Node::Group(g) => g.remove(id),
                Node::Condition(_) => false,
            })
    }
}

/// What the builder holds; [`Builder::filter`] writes it as OData, [`Builder::from_filter`]
/// reads it back (see the module invariant).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Builder {
    pub kind: BuilderKind,
    pub partition_key: String,
    pub row_key: String,
    /// RowKey starts with (partition queries only; empty for none).
    pub row_prefix: String,
    /// The conditions' root group (its id is 0 in a default builder; never negated by the
    /// panel, which offers `not` on inner groups).
    pub conditions: Group,
}

/// `'text'` with quotes doubled.
pub fn quote(s: &str) -> String {
    filter::literal_text(&Value::string(s))
}

/// The smallest string greater than every string starting with `prefix`, for
/// `RowKey ge 'abc' and RowKey lt 'abd'`; `None` when there is none (prefix of U+10FFFF only).
pub fn prefix_successor(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last as u32 + 1 {
            0xD800 => Some('\u{E000}'),
            n => char::from_u32(n),
        };
        if let Some(c) = next {
            chars.push(c);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

fn key(target: Target, op: CmpOp, text: &str) -> Expr {
    Expr::compare(target, op, Value::string(text))
}

impl Builder {
    /// The `$filter` text, or why a condition cannot be written.
    pub fn filter(&self) -> Result<String, String> {
        let mut keys = Vec::new();
        if matches!(self.kind, BuilderKind::Point | BuilderKind::Partition) {
            keys.push(key(Target::PartitionKey, CmpOp::Eq, &self.partition_key));
        }
        if self.kind == BuilderKind::Point {
            keys.push(key(Target::RowKey, CmpOp::Eq, &self.row_key));
        }
        if self.kind == BuilderKind::Partition && !self.row_prefix.is_empty() {
            keys.push(key(Target::RowKey, CmpOp::Ge, &self.row_prefix));
            if let Some(end) = prefix_successor(&self.row_prefix) {
                keys.push(key(Target::RowKey, CmpOp::Lt, &end));
            }
        }
        let mut out = keys.into_iter().reduce(Expr::and);
        if self.kind != BuilderKind::Point {
            let root = &self.conditions;
            let and = |left: Option<Expr>, e: Expr| {
                Some(match left {
                    Some(k) => Expr::and(k, e),
                    None => e,
                })
            };
            if out.is_some() && root.join == Join::And && !root.negated {
                // An `and` root continues the keys' chain: `PartitionKey eq 'a' and x and y`.
                for member in &root.members {
                    if let Some(e) = member.expr()? {
                        out = and(out, e);
                    }
                }
            } else if let Some(e) = root.expr()? {
                out = and(out, e);
            }
        }
        Ok(out.map(|e| e.to_string()).unwrap_or_default())
    }

    /// The builder for a filter of comparisons joined by `and`, `or` and `not`; `None` for
    /// any other filter (the raw text is then kept as written). A filter that starts with
    /// the builder's key comparisons, in the order it writes them, is a point or partition
    /// query; any other is a table query whose conditions hold the whole tree.
    pub fn from_filter(text: &str, next_id: &mut u64) -> Option<Builder> {
        let expr = filter::parse(text).ok()?;
        let mut b = Builder::default();
        if matches!(expr, Expr::Bool(true)) {
            return Some(b);
        }
        let terms = spine(&expr, Join::And);
        let key_text = |e: &Expr, want: Target, want_op: CmpOp| match e {
            Expr::Compare {
                target,
                op,
                literal: Value::String(s),
            } if *target == want && *op == want_op => Some(s.to_string()),
            _ => None,
        };
        let pk = terms
            .first()
            .and_then(|t| key_text(t, Target::PartitionKey, CmpOp::Eq));
        if let (Some(p), [_, rk]) = (&pk, terms.as_slice()) {
            if let Some(r) = key_text(rk, Target::RowKey, CmpOp::Eq) {
                b.kind = BuilderKind::Point;
                b.partition_key = p.clone();
                b.row_key = r;
                return Some(b);
            }
        }
        if let Some(p) = pk {
            let mut rest = &terms[1..];
            if let [ge, lt, ..] = rest {
                let ge = key_text(ge, Target::RowKey, CmpOp::Ge);
                let lt = key_text(lt, Target::RowKey, CmpOp::Lt);
                if let (Some(ge), Some(lt)) = (ge, lt) {
                    if prefix_successor(&ge).as_deref() == Some(lt.as_str()) {
                        b.row_prefix = ge;
                        rest = &rest[2..];
                    }
                }
            }
            b.kind = BuilderKind::Partition;
            b.partition_key = p;
            b.conditions.members = nodes(rest, next_id)?;
            return Some(b);
        }
        b.kind = BuilderKind::Table;
        b.conditions = match &expr {
            Expr::Or(..) => Group {
                join: Join::Or,
                members: nodes(&spine(&expr, Join::Or), next_id)?,
                ..Group::default()
            },
            _ => Group {
                members: nodes(&terms, next_id)?,
                ..Group::default()
            },
        };
        Some(b)
    }
}

/// The terms of a chain of `join`s, left to right. Only the left operand is followed: the
/// parser reads `a and b and c` as `(a and b) and c`, so a right operand with the same join
/// was written in parentheses and stays one term (a group of its own).
fn spine(expr: &Expr, join: Join) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut at = expr;
    loop {
        match (at, join) {
            (Expr::And(a, b), Join::And) | (Expr::Or(a, b), Join::Or) => {
                out.push(&**b);
                at = a;
            }
            _ => {
                out.push(at);
                break;
            }
        }
    }
    out.reverse();
    out
}

fn nodes(terms: &[&Expr], next_id: &mut u64) -> Option<Vec<Node>> {
    terms.iter().map(|t| node_of(t, next_id)).collect()
}

/// One term as a builder member; `None` for a bare `true`/`false`. (Depth is bounded by the
/// parser's nesting limit.)
fn node_of(expr: &Expr, next_id: &mut u64) -> Option<Node> {
    match expr {
        Expr::Compare {
            target,
            op,
            literal,
        } => Some(Node::Condition(Condition {
            id: next(next_id),
            property: target.name().to_string(),
            op: *op,
            edm: literal.edm_type(),
            text: edit_text(literal, BinaryEncoding::Hex),
        })),
        Expr::And(..) | Expr::Or(..) => Some(Node::Group(group_of(expr, false, next_id)?)),
        Expr::Not(inner) => Some(Node::Group(match **inner {
            Expr::And(..) | Expr::Or(..) => group_of(inner, true, next_id)?,
            _ => Group {
                members: vec![node_of(inner, next_id)?],
                negated: true,
                id: next(next_id),
                join: Join::And,
            },
        })),
        Expr::Bool(_) => None,
    }
}

fn next(next_id: &mut u64) -> u64 {
    *next_id += 1;
    *next_id
}

/// An `and` or `or` node as a group of its chain's terms.
fn group_of(expr: &Expr, negated: bool, next_id: &mut u64) -> Option<Group> {
    let join = match expr {
        Expr::Or(..) => Join::Or,
        _ => Join::And,
    };
    let members = nodes(&spine(expr, join), next_id)?;
    Some(Group {
        id: next(next_id),
        join,
        negated,
        members,
    })
}

/// Splits `text` at a syntax error's character span: (before, the offending span, after).
/// An error at the end gives an empty span (the caret goes after the text).
pub fn split_at_error(text: &str, position: usize, length: usize) -> (String, String, String) {
    let chars: Vec<char> = text.chars().collect();
    let start = position.min(chars.len());
    let end = (position + length).min(chars.len());
    (
        chars[..start].iter().collect(),
        chars[start..end].iter().collect(),
        chars[end..].iter().collect(),
    )
}

//! Evaluating a filter on one entity (docs/service/queries.md#evaluation).
//!
//! This is the inner loop of every scan, so it allocates nothing: keys are compared as `&str`,
//! properties are found by a linear scan of the row's (short) property list.

use super::ast::{CmpOp, Expr, Target};
use crate::datetime::DateTime;
use crate::key::cmp_utf16;
use crate::record::{Record, ValueRef};
use crate::value::{EdmType, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// The entity a filter is checked against, its user properties a list of (name, value) pairs.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    pub partition_key: &'a str,
    pub row_key: &'a str,
    pub timestamp: DateTime,
    /// User properties only (no PartitionKey, RowKey or Timestamp).
    pub properties: &'a [(Arc<str>, Value)],
}

/// Where a row's user properties are: a list of pairs, or a stored [`Record`]. An enum, not
/// a trait: the evaluator is compiled once (a generic one was instantiated per form, which
/// the wasm's size pays for), and a scan's hot filters never reach it (see `query::execute`).
#[derive(Debug, Clone, Copy)]
pub enum Properties<'a> {
    List(&'a [(Arc<str>, Value)]),
    Record(&'a Record),
}

impl<'a> Properties<'a> {
    /// The value of the named property: interned names usually match by pointer, else by text.
    #[inline]
    fn property(self, name: &Arc<str>) -> Option<ValueRef<'a>> {
        match self {
            Properties::List(list) => list
                .iter()
                .find(|(n, _)| Arc::ptr_eq(n, name) || **n == **name)
                .map(|(_, v)| ValueRef::from(v)),
            Properties::Record(record) => record.find(name),
        }
    }
}

/// A row as [`eval_row`] takes it: keys, Timestamp and the user properties in either form.
#[derive(Debug, Clone, Copy)]
pub struct RowOf<'a> {
    pub partition_key: &'a str,
    pub row_key: &'a str,
    pub timestamp: DateTime,
    pub properties: Properties<'a>,
}

/// Whether `row` matches `expr`.
///
/// Meant for a [`normalize`](super::normalize)d tree. A `Not` met here is evaluated the way
/// `normalize` would rewrite it, never by negating the result, so a comparison on a missing
/// property is false under `not` too.
pub fn eval(expr: &Expr, row: &Row) -> bool {
    eval_row(
        expr,
        &RowOf {
            partition_key: row.partition_key,
            row_key: row.row_key,
            timestamp: row.timestamp,
            properties: Properties::List(row.properties),
        },
    )
}

/// [`eval`] on a row whose properties are in either form.
pub fn eval_row(expr: &Expr, row: &RowOf) -> bool {
    match expr {
        Expr::Or(a, b) => eval_row(a, row) || eval_row(b, row),
        Expr::And(a, b) => eval_row(a, row) && eval_row(b, row),
        Expr::Not(inner) => eval_negated(inner, row),
        Expr::Compare {
            target,
            op,
            literal,
        } => compare_target(target, *op, literal, row),
        Expr::Bool(b) => *b,
    }
}

/// `not expr`, by De Morgan: the same answer as `eval(&normalize(not expr))`.
fn eval_negated(expr: &Expr, row: &RowOf) -> bool {
    match expr {
        Expr::Or(a, b) => eval_negated(a, row) && eval_negated(b, row),
        Expr::And(a, b) => eval_negated(a, row) || eval_negated(b, row),
        Expr::Not(inner) => eval_row(inner, row),
        Expr::Compare {
            target,
            op,
            literal,
        } => compare_target(target, op.negate(), literal, row),
        // A constant has no property to be missing: negating it is what normalize does too.
        Expr::Bool(b) => !*b,
    }
}

#[inline]
fn compare_target(target: &Target, op: CmpOp, literal: &Value, row: &RowOf) -> bool {
    match target {
        Target::PartitionKey => compare_str(row.partition_key, op, literal),
        Target::RowKey => compare_str(row.row_key, op, literal),
        Target::Timestamp => match literal {
            Value::DateTime(l) => op.holds(row.timestamp.cmp(l)),
            _ => op == CmpOp::Ne,
        },
        Target::Property(name) => compare_ref(row.properties.property(name), op, literal),
    }
}

/// Compares a key (always a string) without building a [`Value`].
fn compare_str(key: &str, op: CmpOp, literal: &Value) -> bool {
    match literal {
        Value::String(l) => compare_strs(key, op, l),
        _ => op == CmpOp::Ne,
    }
}

fn compare_strs(a: &str, op: CmpOp, b: &str) -> bool {
    match op {
        // Equal in UTF-16 order means equal bytes; skip the ordering walk.
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        _ => op.holds(cmp_utf16(a, b)),
    }
}

/// The single-comparison rule: `target_value op literal`, where `None` is a missing property.
///
/// - Missing: false for every operator, `ne` included.
/// - Comparable types (see [`compatible`]): compared by value; a NaN makes them unordered,
///   where only `ne` holds.
/// - Any other pair of types: `ne` holds, every other operator is false.
#[inline]
pub fn compare(target_value: Option<&Value>, op: CmpOp, literal: &Value) -> bool {
    compare_ref(target_value.map(ValueRef::from), op, literal)
}

/// [`compare`] on a borrowed value (a stored [`Record`]'s).
#[inline]
pub fn compare_ref(target_value: Option<ValueRef>, op: CmpOp, literal: &Value) -> bool {
    let Some(value) = target_value else {
        return false;
    };
    // The common same-type cases first, without going through an Ordering of any pair.
    match (value, literal) {
        (ValueRef::String(a), Value::String(b)) => return compare_strs(a, op, b),
        (ValueRef::Int32(a), Value::Int32(b)) => return op.holds(a.cmp(b)),
        (ValueRef::Int64(a), Value::Int64(b)) => return op.holds(a.cmp(b)),
        _ => {}
    }
    match ordering(value, literal) {
        Some(ordering) => op.holds(ordering),
        None => op == CmpOp::Ne,
    }
}

/// Whether a literal of one type compares with a property of another, by value: equal types,
/// plus widening of an Int32 literal to Int64 and Double and of an Int64 literal to Double.
pub fn compatible(literal: EdmType, property: EdmType) -> bool {
    match literal {
        EdmType::Int32 => matches!(property, EdmType::Int32 | EdmType::Int64 | EdmType::Double),
        EdmType::Int64 => matches!(property, EdmType::Int64 | EdmType::Double),
        _ => literal == property,
    }
}

/// How the property's value orders against the literal; `None` if they do not compare
/// (types not [`compatible`]) or a NaN makes them unordered.
fn ordering(value: ValueRef, literal: &Value) -> Option<Ordering> {
    match (value, literal) {
        (ValueRef::Int64(v), Value::Int32(l)) => Some(v.cmp(&i64::from(*l))),
        (ValueRef::Double(v), Value::Int32(l)) => v.partial_cmp(&f64::from(*l)),
        (ValueRef::Double(v), Value::Int64(l)) => cmp_f64_i64(v, *l),
        (value, literal) => compare_same_type_ref(value, ValueRef::from(literal)),
    }
}

/// [`compare_same_type`](crate::value::compare_same_type) on borrowed values.
fn compare_same_type_ref(a: ValueRef, b: ValueRef) -> Option<Ordering> {
    match (a, b) {
        (ValueRef::String(a), ValueRef::String(b)) => Some(cmp_utf16(a, b)),
        (ValueRef::Int32(a), ValueRef::Int32(b)) => Some(a.cmp(&b)),
        (ValueRef::Int64(a), ValueRef::Int64(b)) => Some(a.cmp(&b)),
        (ValueRef::Double(a), ValueRef::Double(b)) => a.partial_cmp(&b),
        (ValueRef::Boolean(a), ValueRef::Boolean(b)) => Some(a.cmp(&b)),
        (ValueRef::DateTime(a), ValueRef::DateTime(b)) => Some(a.cmp(&b)),
        (ValueRef::Guid(a), ValueRef::Guid(b)) => Some(a.cmp(&b)),
        (ValueRef::Binary(a), ValueRef::Binary(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// Orders a double against an i64 exactly, with no rounding of the integer to 53 bits.
fn cmp_f64_i64(f: f64, i: i64) -> Option<Ordering> {
    // 2^63 is exactly representable; every i64 is below it and at or above -2^63.
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() {
        return None;
    }
    if f >= TWO_POW_63 {
        return Some(Ordering::Greater);
    }
    if f < -TWO_POW_63 {
        return Some(Ordering::Less);
    }
    // Now |f| < 2^63 (or f = -2^63): its integral part is an exact i64.
    let whole = f.trunc();
    let by_whole = (whole as i64).cmp(&i);
    if by_whole != Ordering::Equal {
        // |fraction| < 1, so it cannot bridge a gap of at least one between integers.
        return Some(by_whole);
    }
    (f - whole).partial_cmp(&0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_against_int64_is_exact() {
        let big = 9_007_199_254_740_993_i64; // 2^53 + 1, not a double
        assert_eq!(
            cmp_f64_i64(9_007_199_254_740_992.0, big),
            Some(Ordering::Less)
        );
        assert_eq!(
            cmp_f64_i64(9_007_199_254_740_994.0, big),
            Some(Ordering::Greater)
        );
        assert_eq!(
            cmp_f64_i64(9_223_372_036_854_775_808.0, i64::MAX),
            Some(Ordering::Greater)
        );
        assert_eq!(
            cmp_f64_i64(-9_223_372_036_854_775_808.0, i64::MIN),
            Some(Ordering::Equal)
        );
        assert_eq!(cmp_f64_i64(-2.5, -2), Some(Ordering::Less));
        assert_eq!(cmp_f64_i64(-2.5, -3), Some(Ordering::Greater));
        assert_eq!(cmp_f64_i64(2.5, 2), Some(Ordering::Greater));
        assert_eq!(cmp_f64_i64(-0.0, 0), Some(Ordering::Equal));
        assert_eq!(
            cmp_f64_i64(f64::NEG_INFINITY, i64::MIN),
            Some(Ordering::Less)
        );
        assert_eq!(cmp_f64_i64(f64::NAN, 0), None);
    }
}

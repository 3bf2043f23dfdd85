//! Advice for the explain view: warnings about a filter, and the rewrites the design guide
//! suggests when a query scans far more than it needs to.

use super::plan::{Plan, QueryKind};
use crate::filter::{CmpOp, Expr, Target};
use crate::table::Table;
use crate::value::{EdmType, Value};
use serde::Serialize;
use std::fmt;

/// One piece of advice: a message and, where one exists, a better query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Advice {
    pub severity: Severity,
    pub message: AdviceKind,
    /// Filters to run instead (several for "run these point queries separately").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewrite: Vec<String>,
}

/// How to take an advice; `Display` is its word (`warning`, `rewrite`), a CSS class too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    /// The filter may not mean what it says.
    Warning,
    /// A cheaper query does the same.
    Rewrite,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Rewrite => "rewrite",
        })
    }
}

/// What an advice says; its `Display` is the English (Markdown: "`expr`"). Comparisons
/// (`expr`) are OData text; type names (`held`, `literal`) are the EDM short names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdviceKind {
    /// A RowKey lookup without the PartitionKey: a table scan.
    RowKeyAlone,
    /// A comparison on a property no entity has.
    MissingProperty { name: String, expr: String },
    /// A comparison whose constant's type matches no value the property holds (`held`, joined
    /// by "/"); `verdict` is what the comparison is wherever the property exists.
    TypeMismatch {
        name: String,
        held: String,
        literal: String,
        expr: String,
        verdict: bool,
    },
    /// An `or` of `n` point lookups.
    OrPoints { n: usize },
    /// An `or` of `n` partitions.
    OrPartitions { n: usize },
    /// An `or` of `n` RowKeys in one partition.
    OrRowKeys { n: usize },
}

impl fmt::Display for AdviceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdviceKind::RowKeyAlone => f.write_str("RowKey is unique only within a partition: without PartitionKey eq, the whole table is scanned. Add the PartitionKey to make it a point query."),
            AdviceKind::MissingProperty { name, expr } => write!(f, "No entity in this table has a property '{name}', so `{expr}` is false for every entity (a comparison on a missing property is false, `ne` included)."),
            AdviceKind::TypeMismatch { name, held, literal, expr, verdict } => write!(f, "'{name}' holds {held} values but is compared with a {literal} constant in `{expr}`. Tablescope treats a type mismatch as `ne` true and every other operator false, so this is {verdict} wherever '{name}' exists; the real service's behaviour here is undocumented."),
            AdviceKind::OrPoints { n } => write!(f, "An `or` of point lookups is a table scan. Run {n} point queries instead: each reads one entity."),
            AdviceKind::OrPartitions { n } => write!(f, "An `or` of PartitionKeys is a table scan. Run {n} partition queries instead: each reads only its own partition."),
            AdviceKind::OrRowKeys { n } => write!(f, "An `or` of RowKeys scans the whole partition. Run {n} point queries instead."),
        }
    }
}

/// Written as its English sentence.
impl Serialize for AdviceKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn warning(message: AdviceKind) -> Advice {
    Advice {
        severity: Severity::Warning,
        message,
        rewrite: Vec::new(),
    }
}

/// Warnings and rewrites for a plan over a table.
pub fn advise(plan: &Plan, table: &Table) -> Vec<Advice> {
    let mut out = Vec::new();
    type_warnings(&plan.filter, table, &mut out);
    or_of_keys(plan, &mut out);
    if plan.kind == QueryKind::TableScan && plan.checked.iter().any(|c| c.starts_with("RowKey eq "))
    {
        out.push(Advice {
            severity: Severity::Rewrite,
            message: AdviceKind::RowKeyAlone,
            rewrite: Vec::new(),
        });
    }
    out
}

/// Comparisons whose constant's type matches no value the column holds.
fn type_warnings(e: &Expr, table: &Table, out: &mut Vec<Advice>) {
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => {
            type_warnings(a, table, out);
            type_warnings(b, table, out);
        }
        Expr::Not(a) => type_warnings(a, table, out),
        Expr::Compare {
            target: Target::Property(name),
            op,
            literal,
        } => {
            let Some(stats) = table.columns().get(&**name) else {
                let msg = AdviceKind::MissingProperty {
                    name: name.to_string(),
                    expr: e.to_string(),
                };
                if !out.iter().any(|a| a.message == msg) {
                    out.push(warning(msg));
                }
                return;
            };
            let comparable = comparable_types(literal);
            if !stats.types().iter().any(|t| comparable.contains(t)) {
                let held: Vec<&str> = stats.types().iter().map(|t| t.short_name()).collect();
                out.push(warning(AdviceKind::TypeMismatch {
                    name: name.to_string(),
                    held: held.join("/"),
                    literal: literal.edm_type().short_name().to_string(),
                    expr: e.to_string(),
                    verdict: *op == CmpOp::Ne,
                }));
            }
        }
        _ => {}
    }
}

/// The property types a constant compares with (docs/service/queries.md#widening).
fn comparable_types(literal: &Value) -> &'static [EdmType] {
    match literal {
        Value::Int32(_) => &[EdmType::Int32, EdmType::Int64, EdmType::Double],
        Value::Int64(_) => &[EdmType::Int64, EdmType::Double],
        Value::Double(_) => &[EdmType::Double],
        Value::String(_) => &[EdmType::String],
        Value::Boolean(_) => &[EdmType::Boolean],
        Value::DateTime(_) => &[EdmType::DateTime],
        Value::Guid(_) => &[EdmType::Guid],
        Value::Binary(_) => &[EdmType::Binary],
    }
}

/// `or`s of key lookups: the guide's advice is separate point (or partition) queries.
fn or_of_keys(plan: &Plan, out: &mut Vec<Advice>) {
    let branches = plan.filter.disjuncts();
    if branches.len() > 1 {
        let points: Option<Vec<String>> = branches.iter().map(|b| point_of(b)).collect();
        if let Some(rewrite) = points {
            out.push(Advice {
                severity: Severity::Rewrite,
                message: AdviceKind::OrPoints { n: rewrite.len() },
                rewrite,
            });
            return;
        }
        let partitions: Option<Vec<String>> = branches.iter().map(|b| partition_of(b)).collect();
        if let Some(rewrite) = partitions {
            out.push(Advice {
                severity: Severity::Rewrite,
                message: AdviceKind::OrPartitions { n: rewrite.len() },
                rewrite,
            });
        }
        return;
    }
    // PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2'): a partition scan.
    if plan.kind == QueryKind::PartitionScan {
        if let (Some(pk), Some(or)) = (plan.partition_keys.single(), plan.checked.first()) {
            if plan.checked.len() == 1 {
                if let Ok(e) = crate::filter::parse(or) {
                    let rks = e.disjuncts();
                    let row_keys: Option<Vec<String>> = rks
                        .iter()
                        .map(|b| match b {
                            Expr::Compare {
                                target: Target::RowKey,
                                op: CmpOp::Eq,
                                literal: Value::String(_),
                            } => Some(b.to_string()),
                            _ => None,
                        })
                        .collect();
                    if let Some(rks) = row_keys.filter(|r| r.len() > 1) {
                        let pk_text = Expr::Compare {
                            target: Target::PartitionKey,
                            op: CmpOp::Eq,
                            literal: Value::string(pk.as_str()),
                        };
                        out.push(Advice {
                            severity: Severity::Rewrite,
                            message: AdviceKind::OrRowKeys { n: rks.len() },
                            rewrite: rks.iter().map(|rk| format!("{pk_text} and {rk}")).collect(),
                        });
                    }
                }
            }
        }
    }
}

fn key_eq(e: &Expr, want: &Target) -> bool {
    matches!(e, Expr::Compare { target, op: CmpOp::Eq, literal: Value::String(_) } if target == want)
}

fn point_of(e: &Expr) -> Option<String> {
    match e {
        Expr::And(a, b)
            if (key_eq(a, &Target::PartitionKey) && key_eq(b, &Target::RowKey))
                || (key_eq(a, &Target::RowKey) && key_eq(b, &Target::PartitionKey)) =>
        {
            Some(e.to_string())
        }
        _ => None,
    }
}

fn partition_of(e: &Expr) -> Option<String> {
    e.conjuncts()
        .iter()
        .any(|t| key_eq(t, &Target::PartitionKey))
        .then(|| e.to_string())
}

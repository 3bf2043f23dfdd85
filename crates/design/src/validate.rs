//! Strict validation of a design's meaning: every name resolves, every template parses and
//! names properties of its type with fitting formats, every distribution fits its type, and
//! every pattern is one the evaluator and projector model. All problems are reported, each
//! with the path of the element to fix, as an [`Issue`].

use super::model::{
    ConditionOp, Design, Distribution, EntityType, Pattern, PropertyType, ReadPattern,
    WritePattern, VERSION,
};
use super::sample::{parse_instant, root_of};
use super::template::{Expr, Format, Template};
use super::{DesignError, Issue, Problem};
use std::collections::BTreeSet;
use tablescope_engine::validate as service;

/// Largest number of categories of a Zipf distribution (its table is held in memory).
pub const MAX_ZIPF: u64 = 1_000_000;
/// Largest number of values of a uniform distribution.
pub const MAX_UNIFORM: i64 = 1_000_000_000;
/// Most entities of one type a write call may write (a batch takes 100 operations; the review
/// says when a write needs more).
pub const MAX_PER_CALL: u32 = 1_000;
/// Most values (or days) a RowKey range spans.
pub const MAX_SPAN: u32 = 100_000;
/// Largest entity count per type the generator accepts (the projector takes any size).
pub const MAX_COUNT: u64 = 10_000_000;

struct Check {
    problems: Vec<Problem>,
}

impl Check {
    fn fail(&mut self, path: impl Into<String>, issue: Issue) {
        self.problems.push(Problem {
            path: path.into(),
            issue,
        });
    }
}

/// Checks a whole design.
pub fn design(d: &Design) -> Result<(), DesignError> {
    let mut c = Check {
        problems: Vec::new(),
    };
    if d.version != VERSION {
        c.fail(
            "version",
            Issue::Version {
                version: d.version,
                supported: VERSION,
            },
        );
    }
    if d.name.trim().is_empty() {
        c.fail("name", Issue::NoName);
    }
    let mut tables = BTreeSet::new();
    for (i, t) in d.tables.iter().enumerate() {
        if let Err(e) = service::table_name(t) {
            c.fail(
                format!("tables[{i}]"),
                Issue::TableName {
                    name: t.clone(),
                    detail: e.detail.map(|d| *d),
                },
            );
        }
        if !tables.insert(t.to_lowercase()) {
            c.fail(
                format!("tables[{i}]"),
                Issue::TableTwice { name: t.clone() },
            );
        }
    }
    let mut names = BTreeSet::new();
    for (i, ty) in d.entity_types.iter().enumerate() {
        let path = format!("entityTypes[{i}]");
        if !names.insert(ty.name.as_str()) || ty.name.trim().is_empty() {
            c.fail(
                &path,
                Issue::TypeNames {
                    name: ty.name.clone(),
                },
            );
        }
        if !tables.contains(&ty.table.to_lowercase()) {
            c.fail(
                format!("{path}.table"),
                Issue::TypeTable {
                    name: ty.table.clone(),
                },
            );
        }
        entity_type(&mut c, d, ty, &path);
    }
    let mut patterns = BTreeSet::new();
    for (i, p) in d.patterns.iter().enumerate() {
        let path = format!("patterns[{i}]");
        if !patterns.insert(p.name()) || p.name().trim().is_empty() {
            c.fail(
                &path,
                Issue::PatternNames {
                    name: p.name().to_string(),
                },
            );
        }
        if !(p.rate().is_finite() && p.rate() >= 0.0) {
            c.fail(format!("{path}.rate"), Issue::Rate);
        }
        match p {
            Pattern::Read(r) => read(&mut c, d, r, &path),
            Pattern::Write(w) => write(&mut c, d, w, &path),
        }
    }
    if c.problems.is_empty() {
        Ok(())
    } else {
        Err(DesignError {
            problems: c.problems,
        })
    }
}

fn entity_type(c: &mut Check, d: &Design, ty: &EntityType, path: &str) {
    if ty.count > MAX_COUNT {
        c.fail(format!("{path}.count"), Issue::Count { max: MAX_COUNT });
    }
    if let Some(src) = &ty.copy_of {
        match d.entity_type(src) {
            None => c.fail(
                format!("{path}.copyOf"),
                Issue::NoType { name: src.clone() },
            ),
            Some(_) => {
                let root = root_of(d, ty);
                if root.copy_of.is_some() || std::ptr::eq(root, ty) {
                    c.fail(format!("{path}.copyOf"), Issue::CopyCycle);
                } else if root.count != ty.count {
                    c.fail(
                        format!("{path}.count"),
                        Issue::CopyCount {
                            name: root.name.clone(),
                            n: root.count,
                        },
                    );
                }
            }
        }
    }
    let root = root_of(d, ty);
    let mut seen = BTreeSet::new();
    for (j, p) in ty.properties.iter().enumerate() {
        let pp = format!("{path}.properties[{j}]");
        if let Err(e) = service::property_name(&p.name) {
            c.fail(
                &pp,
                Issue::PropertyName {
                    name: p.name.clone(),
                    detail: e.detail.map(|d| *d),
                },
            );
        }
        if matches!(p.name.as_str(), "PartitionKey" | "RowKey" | "Timestamp") {
            c.fail(
                &pp,
                Issue::SystemProperty {
                    name: p.name.clone(),
                },
            );
        }
        if !seen.insert(p.name.as_str()) {
            c.fail(
                &pp,
                Issue::PropertyTwice {
                    name: p.name.clone(),
                },
            );
        }
        if !std::ptr::eq(root, ty) && root.property(&p.name) != Some(p) {
            c.fail(
                &pp,
                Issue::CopyProperty {
                    name: root.name.clone(),
                },
            );
        }
        distribution(c, &p.distribution, p.edm_type, &pp);
        if p.scale == super::model::Scale::Grows && !super::scale::can_grow(&p.distribution) {
            c.fail(format!("{pp}.scale"), Issue::ScaleGrows);
        }
    }
    for (which, text) in [("partitionKey", &ty.partition_key), ("rowKey", &ty.row_key)] {
        match Template::parse(text) {
            Err(e) => c.fail(format!("{path}.{which}"), e),
            Ok(t) => {
                for f in t.fields() {
                    let name = f.expr.property();
                    let Some(def) = ty.property(name) else {
                        c.fail(
                            format!("{path}.{which}"),
                            Issue::TemplateNoProperty {
                                field: name.to_string(),
                            },
                        );
                        continue;
                    };
                    let timed = matches!(def.distribution, Distribution::Timestamps { .. });
                    let numeric = matches!(
                        def.distribution,
                        Distribution::Sequential { .. }
                            | Distribution::Uniform { .. }
                            | Distribution::Zipf { .. }
                    );
                    let bad = match (&f.expr, f.format) {
                        (Expr::Inverted(_), _) => !(timed || numeric),
                        (Expr::Property(_), Format::Date) => !timed,
                        (Expr::Property(_), Format::Ticks) => !(timed || numeric),
                        _ => false,
                    };
                    if bad {
                        c.fail(
                            format!("{path}.{which}"),
                            Issue::FormatNeedsTime {
                                field: name.to_string(),
                            },
                        );
                    }
                }
            }
        }
    }
}

fn distribution(c: &mut Check, dist: &Distribution, ty: PropertyType, path: &str) {
    use PropertyType as T;
    let fits = match dist {
        Distribution::Sequential { .. } => {
            matches!(ty, T::String | T::Int32 | T::Int64 | T::Double)
        }
        Distribution::Uniform { min, max } => {
            if min > max || max.saturating_sub(*min) >= MAX_UNIFORM {
                c.fail(
                    format!("{path}.distribution"),
                    Issue::Uniform { max: MAX_UNIFORM },
                );
            }
            if ty == T::Int32 && (*min < i64::from(i32::MIN) || *max > i64::from(i32::MAX)) {
                c.fail(format!("{path}.distribution"), Issue::Int32Range);
            }
            match ty {
                T::Boolean => *min >= 0 && *max <= 1,
                _ => matches!(ty, T::String | T::Int32 | T::Int64 | T::Double),
            }
        }
        Distribution::Zipf { n, s } => {
            if !((1..=MAX_ZIPF).contains(n) && s.is_finite() && *s > 0.0 && *s <= 10.0) {
                c.fail(
                    format!("{path}.distribution"),
                    Issue::Zipf { max: MAX_ZIPF },
                );
            }
            matches!(ty, T::String | T::Int32 | T::Int64 | T::Double)
        }
        Distribution::Choice { values, weights } => {
            if values.is_empty() || values.len() > 100_000 {
                c.fail(format!("{path}.distribution"), Issue::Choice);
            }
            if let Some(w) = weights {
                let sane = w.len() == values.len()
                    && w.iter().all(|x| x.is_finite() && *x >= 0.0)
                    && w.iter().sum::<f64>() > 0.0;
                if !sane {
                    c.fail(format!("{path}.distribution"), Issue::ChoiceWeights);
                }
            }
            ty == T::String
        }
        Distribution::Timestamps { from, to } => {
            match (parse_instant(from), parse_instant(to)) {
                (Ok(a), Ok(b)) if a < b => {}
                (Err(e), _) | (_, Err(e)) => c.fail(format!("{path}.distribution"), e),
                _ => c.fail(format!("{path}.distribution"), Issue::TimestampsOrder),
            }
            matches!(ty, T::DateTime | T::String | T::Int64)
        }
        Distribution::Random => matches!(ty, T::Guid | T::String),
    };
    if !fits {
        c.fail(
            format!("{path}.type"),
            Issue::DistributionKind {
                kind: format!("{ty:?}"),
            },
        );
    }
}

fn read(c: &mut Check, d: &Design, r: &ReadPattern, path: &str) {
    let Some(ty) = d.entity_type(&r.entity_type) else {
        c.fail(
            format!("{path}.entityType"),
            Issue::NoType {
                name: r.entity_type.clone(),
            },
        );
        return;
    };
    let on = |name: &str| r.conditions.iter().find(|c| c.on == name);
    let pk_eq = on("PartitionKey").is_some_and(|c| c.op == ConditionOp::Eq);
    for (j, cond) in r.conditions.iter().enumerate() {
        let cp = format!("{path}.conditions[{j}]");
        match (cond.on.as_str(), &cond.op) {
            ("PartitionKey", ConditionOp::Prefix { .. } | ConditionOp::Range { .. }) => {
                c.fail(&cp, Issue::PkPrefix)
            }
            ("RowKey", ConditionOp::Range { field, span }) => {
                if !pk_eq {
                    c.fail(&cp, Issue::RkNeedsPk);
                }
                if !rangeable(ty, field) || !(1..=MAX_SPAN).contains(span) {
                    c.fail(
                        &cp,
                        Issue::RangeField {
                            field: field.clone(),
                            max: MAX_SPAN,
                        },
                    );
                }
            }
            (key @ ("PartitionKey" | "RowKey"), ConditionOp::Through { field }) => {
                if key == "RowKey" && !pk_eq {
                    c.fail(&cp, Issue::RkNeedsPk);
                }
                let template = if key == "RowKey" {
                    &ty.row_key
                } else {
                    &ty.partition_key
                };
                let fields: Vec<String> = Template::parse(template)
                    .map(|t| {
                        t.field_properties()
                            .into_iter()
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                if !fields.contains(field) {
                    c.fail(
                        &cp,
                        Issue::ThroughField {
                            key: key.to_string(),
                            field: field.clone(),
                            fields,
                        },
                    );
                }
            }
            ("RowKey", op) => {
                if !pk_eq {
                    c.fail(&cp, Issue::RkNeedsPk);
                }
                if let ConditionOp::Prefix { length } = op {
                    let head = Template::parse(&ty.row_key)
                        .map(|t| t.literal_head().chars().count())
                        .unwrap_or(0);
                    if *length as usize > head || *length == 0 {
                        c.fail(&cp, Issue::RkPrefix { n: head });
                    }
                }
            }
            ("PartitionKey", _) => {}
            (name, op) => match ty.property(name) {
                None => c.fail(
                    &cp,
                    Issue::NoProperty {
                        name: name.to_string(),
                    },
                ),
                Some(def) => {
                    let categories = super::sample::categories(def).map_or(0, |c| c.k());
                    match op {
                        ConditionOp::Prefix { length } => {
                            let fits = def.edm_type == PropertyType::String
                                && (1..=100_000).contains(&categories)
                                && *length > 0;
                            if !fits {
                                c.fail(&cp, Issue::Prefix);
                            }
                        }
                        ConditionOp::Through { .. } | ConditionOp::Range { .. } => {
                            c.fail(&cp, Issue::ThroughOnProperty)
                        }
                        ConditionOp::Eq => {}
                    }
                }
            },
        }
    }
    if r.conditions
        .iter()
        .filter(|c| c.on == "PartitionKey")
        .count()
        > 1
        || r.conditions.iter().filter(|c| c.on == "RowKey").count() > 1
    {
        c.fail(format!("{path}.conditions"), Issue::OneCondition);
    }
    if r.fan_out {
        let hashed = Template::parse(&ty.partition_key)
            .map(|t| t.fields().any(|f| matches!(f.expr, Expr::Hash { .. })))
            .unwrap_or(false);
        if !pk_eq || !hashed {
            c.fail(format!("{path}.fanOut"), Issue::FanOut);
        }
    }
    if r.result_size == Some(0) {
        c.fail(format!("{path}.resultSize"), Issue::ResultSize);
    }
    if let Some(needs) = &r.needs {
        for n in needs {
            if ty.property(n).is_none()
                && !matches!(n.as_str(), "PartitionKey" | "RowKey" | "Timestamp")
            {
                c.fail(
                    format!("{path}.needs"),
                    Issue::NoProperty { name: n.clone() },
                );
            }
        }
    } else if r.select {
        c.fail(format!("{path}.select"), Issue::Select);
    }
}

/// Whether a RowKey range can step field `field`: its first field on that property is a
/// zero-padded number of a uniform or Zipf property (text order is number order), or a date.
fn rangeable(ty: &EntityType, field: &str) -> bool {
    let Ok(t) = Template::parse(&ty.row_key) else {
        return false;
    };
    let Some(f) = t.fields().find(|f| f.expr.property() == field) else {
        return false;
    };
    let Some(def) = ty.property(field) else {
        return false;
    };
    match (&f.expr, f.format, &def.distribution) {
        (Expr::Property(_), Format::Pad(_), Distribution::Uniform { min, .. }) => *min >= 0,
        (Expr::Property(_), Format::Pad(_), Distribution::Zipf { .. }) => true,
        (Expr::Property(_), Format::Date, Distribution::Timestamps { .. }) => true,
        _ => false,
    }
}

fn write(c: &mut Check, d: &Design, w: &WritePattern, path: &str) {
    if w.entity_types.is_empty() || w.entity_types.len() > tablescope_engine::MAX_OPERATIONS {
        c.fail(format!("{path}.entityTypes"), Issue::WriteTypes);
    }
    let mut seen = BTreeSet::new();
    for (j, t) in w.entity_types.iter().enumerate() {
        if d.entity_type(t).is_none() {
            c.fail(
                format!("{path}.entityTypes[{j}]"),
                Issue::NoType { name: t.clone() },
            );
        }
        if !seen.insert(t.as_str()) {
            c.fail(
                format!("{path}.entityTypes[{j}]"),
                Issue::WriteTypeTwice { name: t.clone() },
            );
        }
    }
    for (name, n) in &w.per_call {
        if !w.entity_types.contains(name) {
            c.fail(
                format!("{path}.perCall"),
                Issue::PerCallType { name: name.clone() },
            );
        }
        if !(1..=MAX_PER_CALL).contains(n) {
            c.fail(
                format!("{path}.perCall"),
                Issue::PerCall {
                    name: name.clone(),
                    max: MAX_PER_CALL,
                },
            );
        }
    }
}

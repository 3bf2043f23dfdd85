//! Strict validation of a design's meaning: every name resolves, every template parses and
//! names properties of its type with fitting formats, every distribution fits its type, and
//! every pattern is one the evaluator and projector model. All problems are reported, each
//! with the path of the element to fix. The English messages of this file live here only.

use super::model::{
    ConditionOp, Design, Distribution, EntityType, Pattern, PropertyType, ReadPattern,
    WritePattern, VERSION,
};
use super::sample::{parse_instant, root_of};
use super::template::{Expr, Format, Template};
use super::{DesignError, Problem};
use std::collections::BTreeSet;
use tablescope_engine::validate as service;

/// Largest number of categories of a Zipf distribution (its table is held in memory).
pub const MAX_ZIPF: u64 = 1_000_000;
/// Largest number of values of a uniform distribution.
pub const MAX_UNIFORM: i64 = 1_000_000_000;
/// Largest entity count per type the generator accepts (the projector takes any size).
pub const MAX_COUNT: u64 = 10_000_000;

struct Check {
    problems: Vec<Problem>,
}

impl Check {
    fn fail(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            path: path.into(),
            message: message.into(),
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
            format!(
                "version {} is not one this build reads ({VERSION})",
                d.version
            ),
        );
    }
    if d.name.trim().is_empty() {
        c.fail("name", "a design needs a name");
    }
    let mut tables = BTreeSet::new();
    for (i, t) in d.tables.iter().enumerate() {
        if let Err(e) = service::table_name(t) {
            c.fail(
                format!("tables[{i}]"),
                e.detail
                    .map_or_else(|| format!("{t:?} is not a table name"), |d| d.to_string()),
            );
        }
        if !tables.insert(t.to_lowercase()) {
            c.fail(
                format!("tables[{i}]"),
                format!("table {t:?} is listed twice"),
            );
        }
    }
    let mut names = BTreeSet::new();
    for (i, ty) in d.entity_types.iter().enumerate() {
        let path = format!("entityTypes[{i}]");
        if !names.insert(ty.name.as_str()) || ty.name.trim().is_empty() {
            c.fail(
                &path,
                format!(
                    "entity type names must be unique and non-empty: {:?}",
                    ty.name
                ),
            );
        }
        if !tables.contains(&ty.table.to_lowercase()) {
            c.fail(
                format!("{path}.table"),
                format!("table {:?} is not among the design's tables", ty.table),
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
                format!("pattern names must be unique and non-empty: {:?}", p.name()),
            );
        }
        if !(p.rate().is_finite() && p.rate() >= 0.0) {
            c.fail(
                format!("{path}.rate"),
                "a rate is a number of calls per second, 0 or more",
            );
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
        c.fail(format!("{path}.count"), format!("the generator writes at most {MAX_COUNT} entities per type; project larger sizes instead"));
    }
    if let Some(src) = &ty.copy_of {
        match d.entity_type(src) {
            None => c.fail(format!("{path}.copyOf"), format!("no entity type {src:?}")),
            Some(_) => {
                let root = root_of(d, ty);
                if root.copy_of.is_some() || std::ptr::eq(root, ty) {
                    c.fail(format!("{path}.copyOf"), "copies form a cycle");
                } else if root.count != ty.count {
                    c.fail(
                        format!("{path}.count"),
                        format!(
                            "a copy has one entity per entity of {:?}: count must be {}",
                            root.name, root.count
                        ),
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
                e.detail.map_or_else(
                    || format!("{:?} is not a property name", p.name),
                    |d| d.to_string(),
                ),
            );
        }
        if matches!(p.name.as_str(), "PartitionKey" | "RowKey" | "Timestamp") {
            c.fail(
                &pp,
                format!(
                    "{} is a system property; the keys come from the templates",
                    p.name
                ),
            );
        }
        if !seen.insert(p.name.as_str()) {
            c.fail(&pp, format!("property {:?} is declared twice", p.name));
        }
        if !std::ptr::eq(root, ty) && root.property(&p.name) != Some(p) {
            c.fail(
                &pp,
                format!(
                    "a copy's property must be declared exactly as in {:?}",
                    root.name
                ),
            );
        }
        distribution(c, &p.distribution, p.edm_type, &pp);
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
                            format!("{{{name}}}: the type has no property {name:?}"),
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
                        c.fail(format!("{path}.{which}"), format!("{{{name}}}: that format needs a timestamp (or, for ticks, a number)"));
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
                    format!("uniform needs min <= max and at most {MAX_UNIFORM} values"),
                );
            }
            if ty == T::Int32 && (*min < i64::from(i32::MIN) || *max > i64::from(i32::MAX)) {
                c.fail(
                    format!("{path}.distribution"),
                    "the range does not fit Int32",
                );
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
                    format!("Zipf needs 1 <= n <= {MAX_ZIPF} and 0 < s <= 10"),
                );
            }
            matches!(ty, T::String | T::Int32 | T::Int64 | T::Double)
        }
        Distribution::Choice { values } => {
            if values.is_empty() || values.len() > 100_000 {
                c.fail(
                    format!("{path}.distribution"),
                    "a choice lists 1 to 100000 values",
                );
            }
            ty == T::String
        }
        Distribution::Timestamps { from, to } => {
            match (parse_instant(from), parse_instant(to)) {
                (Ok(a), Ok(b)) if a < b => {}
                (Err(e), _) | (_, Err(e)) => c.fail(format!("{path}.distribution"), e),
                _ => c.fail(format!("{path}.distribution"), "timestamps need from < to"),
            }
            matches!(ty, T::DateTime | T::String | T::Int64)
        }
        Distribution::Random => matches!(ty, T::Guid | T::String),
    };
    if !fits {
        c.fail(
            format!("{path}.type"),
            format!("a {ty:?} property cannot take this distribution"),
        );
    }
}

fn read(c: &mut Check, d: &Design, r: &ReadPattern, path: &str) {
    let Some(ty) = d.entity_type(&r.entity_type) else {
        c.fail(
            format!("{path}.entityType"),
            format!("no entity type {:?}", r.entity_type),
        );
        return;
    };
    let on = |name: &str| r.conditions.iter().find(|c| c.on == name);
    let pk_eq = on("PartitionKey").is_some_and(|c| c.op == ConditionOp::Eq);
    for (j, cond) in r.conditions.iter().enumerate() {
        let cp = format!("{path}.conditions[{j}]");
        match (cond.on.as_str(), cond.op) {
            ("PartitionKey", ConditionOp::Prefix { .. }) => c.fail(&cp, "a PartitionKey prefix is a table range query; the projector models PartitionKey only as equal"),
            ("RowKey", op) => {
                if !pk_eq {
                    c.fail(&cp, "RowKey conditions are modelled within one partition: add PartitionKey eq");
                }
                if let ConditionOp::Prefix { length } = op {
                    let head = Template::parse(&ty.row_key).map(|t| t.literal_head().chars().count()).unwrap_or(0);
                    if length as usize > head || length == 0 {
                        c.fail(&cp, format!("a RowKey prefix is modelled within the template's leading text ({head} characters)"));
                    }
                }
            }
            ("PartitionKey", ConditionOp::Eq) => {}
            (name, op) => match ty.property(name) {
                None => c.fail(&cp, format!("the type has no property {name:?}")),
                Some(def) => {
                    let categories = super::sample::categories(def).map_or(0, |c| c.k());
                    if let ConditionOp::Prefix { length } = op {
                        let fits = def.edm_type == PropertyType::String
                            && (1..=100_000).contains(&categories)
                            && length > 0;
                        if !fits {
                            c.fail(&cp, "a prefix is modelled on String properties with a uniform, Zipf or choice distribution of at most 100000 values, with length 1 or more");
                        }
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
        c.fail(
            format!("{path}.conditions"),
            "at most one condition on each key",
        );
    }
    if r.fan_out {
        let hashed = Template::parse(&ty.partition_key)
            .map(|t| t.fields().any(|f| matches!(f.expr, Expr::Hash { .. })))
            .unwrap_or(false);
        if !pk_eq || !hashed {
            c.fail(format!("{path}.fanOut"), "fan-out queries every bucket of a PartitionKey with a hash(…) field: it needs PartitionKey eq and such a template");
        }
    }
    if r.result_size == Some(0) {
        c.fail(
            format!("{path}.resultSize"),
            "a result size is 1 or more (leave it out for all)",
        );
    }
    if let Some(needs) = &r.needs {
        for n in needs {
            if ty.property(n).is_none()
                && !matches!(n.as_str(), "PartitionKey" | "RowKey" | "Timestamp")
            {
                c.fail(
                    format!("{path}.needs"),
                    format!("the type has no property {n:?}"),
                );
            }
        }
    } else if r.select {
        c.fail(
            format!("{path}.select"),
            "$select needs the list of needed properties",
        );
    }
}

fn write(c: &mut Check, d: &Design, w: &WritePattern, path: &str) {
    if w.entity_types.is_empty() || w.entity_types.len() > tablescope_engine::MAX_OPERATIONS {
        c.fail(
            format!("{path}.entityTypes"),
            "a write names 1 to 100 entity types",
        );
    }
    let mut roots = BTreeSet::new();
    for (j, t) in w.entity_types.iter().enumerate() {
        match d.entity_type(t) {
            None => c.fail(
                format!("{path}.entityTypes[{j}]"),
                format!("no entity type {t:?}"),
            ),
            Some(ty) => {
                roots.insert(root_of(d, ty).name.as_str());
            }
        }
    }
    if roots.len() > 1 {
        c.fail(
            format!("{path}.entityTypes"),
            "the types of one write are copies of one entity (copyOf), so they describe one change",
        );
    }
}

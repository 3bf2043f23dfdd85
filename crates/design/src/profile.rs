//! The generated data against the design: for every property with a categorical
//! distribution (uniform, Zipf, choice), how many distinct values the tables hold and how
//! often the most frequent declared value occurs, read from the tables themselves (a scan
//! with `$select`, one page per step), beside what the design declares at that size.
//!
//! With it, a measured selectivity that differs from the projected one by more than
//! sampling error is explained ([`agreement`]): the data has fewer values of a property
//! than declared, or a value's share is not the declared one.

use super::distribution::Categories;
use super::evaluate::{Data, Evaluation};
use super::figures::Figures;
use super::model::{Design, Pattern};
use super::project::Projection;
use super::sample::{categories, value_of};
use super::template::{Raw, Template};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tablescope_engine::query::{Continuation, QueryOptions};

/// Distinct values tracked per property; past it the count reads "at least".
const MAX_TRACKED: usize = 200_000;

/// One categorical property in the data and in the design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PropertyProfile {
    pub entity_type: String,
    pub property: String,
    /// Entities of the table that have the property.
    pub entities: u64,
    /// Distinct values the design gives that many entities (every value with a share of at
    /// least one entity).
    pub declared_values: u64,
    /// Distinct values in the data (at least this many when `capped`).
    pub values: u64,
    pub capped: bool,
    /// The declared most frequent value, its declared share and its share in the data.
    pub top: String,
    pub top_declared: f64,
    pub top_measured: f64,
}

impl PropertyProfile {
    /// Whether the data departs from the declaration by more than sampling error: fewer
    /// values, or the top value's share more than four standard deviations off.
    pub fn departs(&self) -> bool {
        self.values < self.declared_values || self.share_departs()
    }

    fn share_departs(&self) -> bool {
        let n = self.entities.max(1) as f64;
        let sd = (self.top_declared * (1.0 - self.top_declared) / n).sqrt();
        (self.top_measured - self.top_declared).abs() > 4.0 * sd + 0.5 / n
    }
}

/// The data's profile: one row per categorical property of every type that is not a copy.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub properties: Vec<PropertyProfile>,
}

impl Profile {
    pub fn get(&self, entity_type: &str, property: &str) -> Option<&PropertyProfile> {
        self.properties
            .iter()
            .find(|p| p.entity_type == entity_type && p.property == property)
    }
}

/// What one property is counted against.
struct Tracked {
    entity_type: String,
    property: String,
    table: String,
    categories: Categories,
    n: u64,
    top: String,
    counts: HashMap<String, u64>,
    capped: bool,
    entities: u64,
}

/// The profile being read: one query page per [`ProfileRun::step`].
pub struct ProfileRun {
    tracked: Vec<Tracked>,
    /// Tables still to read, with the properties each selects.
    tables: Vec<(String, Vec<String>)>,
    at: usize,
    continuation: Option<Continuation>,
}

impl ProfileRun {
    pub fn new(design: &Design) -> ProfileRun {
        let mut tracked = Vec::new();
        for ty in design.entity_types.iter().filter(|t| t.copy_of.is_none()) {
            for def in &ty.properties {
                let Some(c) = categories(def) else { continue };
                let heaviest = c.heaviest();
                let first = match def.distribution {
                    super::model::Distribution::Uniform { min, .. } => min,
                    super::model::Distribution::Zipf { .. } => 1,
                    _ => 0,
                };
                tracked.push(Tracked {
                    entity_type: ty.name.clone(),
                    property: def.name.clone(),
                    table: ty.table.clone(),
                    top: value_of(def, &Raw::Ord(first + heaviest as i64)).display_text(),
                    categories: c,
                    n: ty.count,
                    counts: HashMap::new(),
                    capped: false,
                    entities: 0,
                });
            }
        }
        let mut tables: Vec<(String, Vec<String>)> = Vec::new();
        for t in &tracked {
            match tables.iter_mut().find(|(name, _)| *name == t.table) {
                Some((_, props)) if !props.contains(&t.property) => props.push(t.property.clone()),
                Some(_) => {}
                None => tables.push((t.table.clone(), vec![t.property.clone()])),
            }
        }
        ProfileRun {
            tracked,
            tables,
            at: 0,
            continuation: None,
        }
    }

    /// Reads one page; `Ok(true)` once every table is read.
    pub fn step<D: Data + ?Sized>(&mut self, data: &D) -> Result<bool, String> {
        let Some((table, select)) = self.tables.get(self.at) else {
            return Ok(true);
        };
        let options = QueryOptions {
            filter: Some("PartitionKey ge ''".into()),
            select: Some(select.clone()),
            top: None,
            continuation: self.continuation.take(),
            page_budget: None,
        };
        let page = data.page(table, &options)?;
        for t in self.tracked.iter_mut().filter(|t| t.table == *table) {
            for e in &page.entities {
                let Some((_, v)) = e.properties.iter().find(|(n, _)| **n == *t.property) else {
                    continue;
                };
                t.entities += 1;
                let text = v.display_text();
                let room = t.counts.len() < MAX_TRACKED;
                match t.counts.get_mut(&text) {
                    Some(c) => *c += 1,
                    None if room => {
                        t.counts.insert(text, 1);
                    }
                    None => t.capped = true,
                }
            }
        }
        match page.continuation {
            Some(c) => self.continuation = Some(c),
            None => self.at += 1,
        }
        Ok(self.at >= self.tables.len())
    }

    pub fn profile(&self) -> Profile {
        Profile {
            properties: self
                .tracked
                .iter()
                .map(|t| {
                    let declared_values =
                        (0..t.categories.k()).filter(|a| t.categories.count(t.n, *a) > 0);
                    PropertyProfile {
                        entity_type: t.entity_type.clone(),
                        property: t.property.clone(),
                        entities: t.entities,
                        declared_values: declared_values.count() as u64,
                        values: t.counts.len() as u64,
                        capped: t.capped,
                        top_declared: t.categories.weight(t.categories.heaviest()),
                        top_measured: t.counts.get(&t.top).copied().unwrap_or(0) as f64
                            / t.entities.max(1) as f64,
                        top: t.top.clone(),
                    }
                })
                .collect(),
        }
    }
}

/// Reads the whole profile at once (natively, and in tests).
pub fn profile<D: Data + ?Sized>(design: &Design, data: &D) -> Result<Profile, String> {
    let mut run = ProfileRun::new(design);
    while !run.step(data)? {}
    Ok(run.profile())
}

/// Why a measured selectivity is not the projected one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Difference {
    /// The data has fewer distinct values of a property than the design declares.
    FewerValues {
        property: String,
        values: u64,
        declared: u64,
    },
    /// A value's share in the data is not its declared share.
    Share {
        property: String,
        value: String,
        measured: f64,
        declared: f64,
    },
    /// The properties' values are as declared; they combine differently in the data (data
    /// generated from an earlier version of the design, or edited since).
    Combination,
}

/// One read pattern's selectivity: the share of its type's entities a call returns,
/// measured and projected at the size generated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Selectivity {
    pub pattern: String,
    pub measured: f64,
    pub projected: f64,
    /// The projected share's sampling error (one standard deviation of the measured mean).
    pub sampling_sd: f64,
    /// Empty when measured and projected agree within four standard deviations (and 1%).
    pub differences: Vec<Difference>,
}

/// Every read pattern's selectivity, measured against projected at the size generated, each
/// difference beyond sampling error named from the profile.
pub fn agreement(
    design: &Design,
    measured: &Evaluation,
    projected: &Projection,
    profile: &Profile,
) -> Vec<Selectivity> {
    let mut out = Vec::new();
    for ((pattern, m), p) in design
        .patterns
        .iter()
        .zip(&measured.patterns)
        .zip(&projected.patterns)
    {
        let Pattern::Read(r) = pattern else { continue };
        let Some(ty) = design.entity_type(&r.entity_type) else {
            continue;
        };
        let n = ty.count.max(1) as f64;
        let share = |f: &Figures| f.returned.mean / n;
        let (ms, ps) = (share(m), share(&p.figures));
        let sd = p.figures.returned_sampling_sd / n;
        let tolerance = (4.0 * sd).max(0.01 * ps.abs()).max(0.5 / n);
        let mut differences = Vec::new();
        if (ms - ps).abs() > tolerance {
            let root = super::sample::root_of(design, ty);
            let mut properties: Vec<String> = r
                .conditions
                .iter()
                .filter(|c| c.on != "PartitionKey" && c.on != "RowKey")
                .map(|c| c.on.clone())
                .collect();
            if r.conditions.iter().any(|c| c.on == "PartitionKey") {
                if let Ok(t) = Template::parse(&ty.partition_key) {
                    properties.extend(t.fields().map(|f| f.expr.property().to_string()));
                }
            }
            for prop in properties {
                let Some(pp) = profile.get(&root.name, &prop) else {
                    continue;
                };
                if pp.values < pp.declared_values {
                    differences.push(Difference::FewerValues {
                        property: prop.clone(),
                        values: pp.values,
                        declared: pp.declared_values,
                    });
                } else if pp.share_departs() {
                    differences.push(Difference::Share {
                        property: prop.clone(),
                        value: pp.top.clone(),
                        measured: pp.top_measured,
                        declared: pp.top_declared,
                    });
                }
            }
            if differences.is_empty() {
                differences.push(Difference::Combination);
            }
        }
        out.push(Selectivity {
            pattern: r.name.clone(),
            measured: ms,
            projected: ps,
            sampling_sd: sd,
            differences,
        });
    }
    out
}

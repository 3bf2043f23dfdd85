//! The projector: every pattern's figures at a target size (10⁹ entities and beyond) without
//! storing anything, then the load each partition and the account receive against the
//! service's targets, the hottest partition, and a monthly cost.
//!
//! It draws the same parameters the evaluator draws (the entities at the same stratified
//! positions, as the generator would write them at that size) and counts what each request
//! would scan with [`super::count`]; so at sizes that can be generated, projection and
//! measurement agree (tested within 1%).

use super::count::{Ask, Counter};
use super::evaluate::{fits_batch, read_draws, write_entities, write_requests};
use super::figures::{json_bytes, positions, EvalOptions, Figures, Kind, Spread};
use super::model::{ConditionOp, Design, Pattern, ReadPattern, WriteOp, WritePattern};
use super::price::{Prices, SECONDS_PER_MONTH};
use super::query::requests;
use super::sample::{root_of, Drawn, TypeModel};
use super::scale::{scaled_design, scaling, PropertyScaling};
use super::DesignError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use tablescope_engine::query::page_count;
use tablescope_engine::throughput::{ACCOUNT_TARGET, PARTITION_TARGET};
use tablescope_engine::DateTime;

/// Entities per type to project to, and the draws per pattern (the evaluator's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    pub counts: Vec<(String, u64)>,
    #[serde(default)]
    pub draws: EvalOptions,
}

impl Target {
    /// The design's own counts (what the generator writes).
    pub fn of_design(d: &Design) -> Target {
        Target {
            counts: d
                .entity_types
                .iter()
                .map(|t| (t.name.clone(), t.count))
                .collect(),
            draws: EvalOptions::default(),
        }
    }

    /// The design's counts scaled so that all types together hold about `total` entities
    /// (copies keep their source's count).
    pub fn scaled(d: &Design, total: u64) -> Target {
        let sum: u64 = d.entity_types.iter().map(|t| t.count).sum();
        let factor = total as f64 / sum.max(1) as f64;
        Target {
            counts: d
                .entity_types
                .iter()
                .map(|t| {
                    let root = root_of(d, t);
                    (t.name.clone(), (root.count as f64 * factor).round() as u64)
                })
                .collect(),
            draws: EvalOptions::default(),
        }
    }

    pub fn count(&self, ty: &str) -> u64 {
        self.counts
            .iter()
            .find(|(n, _)| n == ty)
            .map_or(0, |(_, c)| *c)
    }
}

/// The partition of one table that takes the most entities per second.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HotPartition {
    pub table: String,
    pub partition_key: String,
    pub entities_per_sec: f64,
    /// Its load against the 2,000 entities/s partition target.
    pub of_target: f64,
}

/// One pattern at the target size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Projected {
    pub figures: Figures,
    pub rate: f64,
    /// Entities per second this pattern costs the account (scanned or written).
    pub entities_per_sec: f64,
    pub hottest: Option<HotPartition>,
    pub transactions_per_month: f64,
}

/// A monthly cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    pub transactions_per_month: f64,
    pub stored_gb: f64,
    pub transactions: f64,
    pub storage: f64,
    pub total: f64,
    pub currency: String,
}

/// The whole design at the target size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Projection {
    pub counts: Vec<(String, u64)>,
    pub patterns: Vec<Projected>,
    pub account_entities_per_sec: f64,
    /// Account load against the 20,000 entities/s target.
    pub account_of_target: f64,
    /// The partition with the most load over all patterns, and its share of the account's.
    pub hottest: Option<HotPartition>,
    pub hottest_share: f64,
    pub stored_bytes: f64,
    pub cost: Cost,
    pub prices: Prices,
    /// Every property's values at the target size: which grew with the entity count and
    /// which kept their declared range.
    #[serde(default)]
    pub scaling: Vec<PropertyScaling>,
}

/// Projects `design` to `target`.
pub fn project(
    design: &Design,
    target: &Target,
    prices: &Prices,
) -> Result<Projection, DesignError> {
    super::validate::design(design)?;
    // Growing properties take their range at the target; fixed ones keep the declared one.
    let scaled = scaled_design(design, target);
    let models = scaled
        .entity_types
        .iter()
        .map(|t| TypeModel::new(&scaled, t, target.count(&t.name)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| DesignError::new("entityTypes", e))?;
    let p = Projector {
        models,
        counter: Counter::default(),
        options: target.draws,
    };
    let mut patterns = Vec::with_capacity(design.patterns.len());
    for (i, pattern) in design.patterns.iter().enumerate() {
        let projected = match pattern {
            Pattern::Read(r) => p.read(r),
            Pattern::Write(w) => p.write(w),
        };
        patterns.push(projected.map_err(|e| DesignError::new(format!("patterns[{i}]"), e))?);
    }
    let mut projection = p.totals(patterns, prices);
    projection.scaling = scaling(design, target);
    Ok(projection)
}

struct Projector<'d> {
    models: Vec<TypeModel<'d>>,
    counter: Counter,
    options: EvalOptions,
}

/// One call's figures, summed over its requests.
#[derive(Default)]
struct Call {
    pages: f64,
    scanned: f64,
    returned: f64,
    partitions: f64,
    /// The sampling variance of `returned` (a combination of independent properties).
    variance: f64,
}

/// A per-call figure list, collected over draws.
#[derive(Default)]
struct Calls {
    requests: Vec<f64>,
    scanned: Vec<f64>,
    returned: Vec<f64>,
    partitions: Vec<f64>,
    bytes: Vec<f64>,
    bytes_selected: Vec<f64>,
    returned_variance: Vec<f64>,
}

impl<'d> Projector<'d> {
    fn model(&self, name: &str) -> Result<&TypeModel<'d>, String> {
        self.models
            .iter()
            .find(|m| m.ty.name == name)
            .ok_or_else(|| format!("no entity type {name:?}"))
    }

    /// Types stored in the same partitions as `m`'s: copies of one root under the same
    /// PartitionKey template, in the same table.
    fn sharing(&self, m: &TypeModel) -> Vec<&TypeModel<'d>> {
        self.models
            .iter()
            .filter(|u| {
                u.ty.table.eq_ignore_ascii_case(&m.ty.table)
                    && u.root.name == m.root.name
                    && u.ty.partition_key == m.ty.partition_key
            })
            .collect()
    }

    fn in_table<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a TypeModel<'d>> + 'a {
        self.models
            .iter()
            .filter(move |u| u.ty.table.eq_ignore_ascii_case(table))
    }

    fn read(&self, r: &ReadPattern) -> Result<Projected, String> {
        let m = self.model(&r.entity_type)?;
        let cond = |name: &str| r.conditions.iter().find(|c| c.on == name).map(|c| &c.op);
        // A PartitionKey prefix through a field reads every partition that shares it.
        let pk_through = match cond("PartitionKey") {
            Some(ConditionOp::Through { field }) => Some(field.as_str()),
            _ => None,
        };
        let pk = cond("PartitionKey").is_some() && pk_through.is_none();
        let rk = cond("RowKey");
        let rk_through = match rk {
            Some(ConditionOp::Through { field }) => Some(field.as_str()),
            _ => None,
        };
        let rk_range = match rk {
            Some(ConditionOp::Range { field, span }) => Some((field.as_str(), *span)),
            _ => None,
        };
        let props: Vec<(&str, ConditionOp)> = r
            .conditions
            .iter()
            .filter(|c| c.on != "PartitionKey" && c.on != "RowKey")
            .map(|c| (c.on.as_str(), c.op.clone()))
            .collect();
        let kind = match (pk, rk) {
            (true, Some(ConditionOp::Eq)) => Kind::Point,
            (true, Some(_)) => Kind::PartitionRange,
            (true, None) => Kind::PartitionScan,
            (false, _) if pk_through.is_some() => Kind::TableRange,
            (false, _) => Kind::TableScan,
        };
        let select = r.needs.as_deref();
        let mut calls = Calls::default();
        let mut hottest: Option<HotPartition> = None;
        let mut example = String::new();
        let rate = r.rate;
        let draws = positions(m.n, read_draws(r, &self.options)).len().max(1);
        // A PartitionKey range's mean share of the type: the share of calls that reach one of
        // its partitions.
        let mut range_share = 0.0;
        for pos in positions(m.n, read_draws(r, &self.options)) {
            if m.n == 0 {
                break;
            }
            let d = m.at_position(pos);
            let entity = sized(&d);
            let (full, sel) = (
                json_bytes(&entity, None) as f64,
                json_bytes(&entity, select) as f64,
            );
            let mut call = Call::default();
            // The share of calls that read this drawn entity's partition (or partition set).
            let call_share = if pk {
                let ask = Ask {
                    all_buckets: r.fan_out,
                    ..Ask::partition(true)
                };
                self.counter.count(m, &d, &ask) / m.n as f64
            } else {
                1.0
            };
            for planned in requests(m, r, &d) {
                if example.is_empty() {
                    example = planned.filter.clone();
                }
                let mut variance = 0.0;
                let (scanned, returned, partitions) = if pk {
                    let ask = Ask {
                        bucket: planned.bucket,
                        rk_through,
                        rk_range,
                        ..Ask::partition(true)
                    };
                    let (c, v) = self.counter.count_spread(m, &d, &ask);
                    let sharing = self.sharing(m);
                    let range: Vec<_> = match rk {
                        Some(ConditionOp::Eq) => vec![],
                        Some(ConditionOp::Prefix { length }) => {
                            let prefix: String = d.row_key.chars().take(*length as usize).collect();
                            sharing
                                .into_iter()
                                .filter(|u| u.row_key.literal_head().starts_with(&prefix))
                                .collect()
                        }
                        // Types whose RowKey starts the same way through the field hold the
                        // same values there (copies of one entity).
                        Some(ConditionOp::Through { field } | ConditionOp::Range { field, .. }) => {
                            let own = m.row_key.through(field);
                            sharing
                                .into_iter()
                                .filter(|u| u.row_key.through(field) == own)
                                .collect()
                        }
                        None => sharing,
                    };
                    if rk == Some(&ConditionOp::Eq) {
                        let found = if c > 0.0 { 1.0 } else { 0.0 };
                        (found, found, 1.0)
                    } else {
                        let matches = if props.is_empty() {
                            variance = v * (range.len() as f64).powi(2);
                            c
                        } else {
                            let ask = Ask {
                                bucket: planned.bucket,
                                conditions: &props,
                                rk_through,
                                rk_range,
                                ..Ask::partition(true)
                            };
                            let (matches, v) = self.counter.count_spread(m, &d, &ask);
                            variance = v;
                            matches
                        };
                        let holders = range
                            .iter()
                            .filter(|u| props.iter().all(|(p, _)| u.ty.property(p).is_some()))
                            .count();
                        if !props.is_empty() {
                            variance *= (holders as f64).powi(2);
                        }
                        (c * range.len() as f64, matches * holders as f64, 1.0)
                    }
                } else if let Some(through) = pk_through {
                    let (scanned, returned, partitions, v) = self.pk_range(m, &d, through, &props);
                    variance = v;
                    range_share += scanned / m.n as f64 / draws as f64;
                    (scanned, returned, partitions)
                } else {
                    let scanned: f64 = self.in_table(&m.ty.table).map(|u| u.n as f64).sum();
                    let returned = if props.is_empty() {
                        scanned
                    } else {
                        let ask = Ask {
                            conditions: &props,
                            ..Ask::partition(false)
                        };
                        let holders = self
                            .in_table(&m.ty.table)
                            .filter(|u| {
                                u.root.name == m.root.name
                                    && props.iter().all(|(p, _)| u.ty.property(p).is_some())
                            })
                            .count();
                        let (matches, v) = self.counter.count_spread(m, &d, &ask);
                        variance = v * (holders as f64).powi(2);
                        matches * holders as f64
                    };
                    let partitions = self.table_partitions(&m.ty.table);
                    (scanned, returned, partitions)
                };
                let (scanned, returned) = match r.result_size.map(f64::from) {
                    Some(need) if returned > need => (scanned * need / returned, need),
                    _ => (scanned, returned),
                };
                // A page ends at 1,000 returned or at the scan budget (the engine's model,
                // the pages the Query section and the evaluator count).
                let by_returned = match r.result_size {
                    Some(_) => super::count::expected_pages(returned, 0.0),
                    None => super::count::expected_pages(returned, variance),
                };
                let pages = by_returned.max(page_count(scanned, 0.0));
                call.pages += pages;
                call.scanned += scanned;
                call.returned += returned;
                if r.result_size.is_none() {
                    call.variance += variance;
                }
                call.partitions += if scanned > 0.0 || !pk {
                    partitions
                } else {
                    0.0
                };
                let load = rate * call_share * scanned;
                let key = planned.partition_key.clone();
                if pk && hottest.as_ref().is_none_or(|h| load > h.entities_per_sec) {
                    hottest = Some(hot(&m.ty.table, key.unwrap_or_default(), load));
                }
            }
            calls.requests.push(call.pages);
            calls.scanned.push(call.scanned);
            calls.returned.push(call.returned);
            calls.returned_variance.push(call.variance);
            calls.partitions.push(call.partitions);
            calls.bytes.push(call.returned * full);
            calls
                .bytes_selected
                .push(call.returned * if r.needs.is_some() { sel } else { full });
        }
        if !pk {
            let reach = if pk_through.is_some() {
                range_share
            } else {
                1.0
            };
            hottest = self
                .largest_partition(m)
                .map(|(key, c)| hot(&m.ty.table, key, rate * c * reach));
        }
        let figures = finish(r.name.clone(), kind, calls, 0.0, None, example);
        Ok(Projected {
            entities_per_sec: rate * figures.scanned.mean,
            transactions_per_month: rate * figures.requests.mean * SECONDS_PER_MONTH,
            figures,
            rate,
            hottest,
        })
    }

    fn write(&self, w: &WritePattern) -> Result<Projected, String> {
        let models = w
            .entity_types
            .iter()
            .map(|t| self.model(t))
            .collect::<Result<Vec<_>, _>>()?;
        let n = models.first().map_or(0, |m| m.n);
        let mut calls = Calls::default();
        let mut all_batchable = true;
        let mut hottest: Option<HotPartition> = None;
        for (j, pos) in positions(n.max(1), self.options.draws)
            .into_iter()
            .enumerate()
        {
            let mut per_partition: BTreeMap<(String, String), (f64, f64)> = BTreeMap::new();
            for e in write_entities(&models, w, j as u64, pos) {
                let Some(m) = models.get(e.model) else {
                    continue;
                };
                let d = e.drawn;
                let share = if w.op == WriteOp::Insert || n == 0 {
                    self.insert_share(m, &d)
                } else {
                    let ask = Ask::partition(true);
                    self.counter.count(m, &d, &ask) / n.max(1) as f64
                };
                let slot = per_partition
                    .entry((m.ty.table.clone(), d.partition_key.clone()))
                    .or_insert((0.0, share));
                slot.0 += 1.0;
            }
            let batchable = fits_batch(w, per_partition.len());
            all_batchable &= batchable;
            for ((table, key), (entities, share)) in per_partition.iter() {
                let load = w.rate * share * (entities + if w.read_first { 1.0 } else { 0.0 });
                if hottest.as_ref().is_none_or(|h| load > h.entities_per_sec) {
                    hottest = Some(hot(table, key.clone(), load));
                }
            }
            let written = w.operations() as f64;
            calls.requests.push(write_requests(w, batchable));
            calls
                .scanned
                .push(written + if w.read_first { 1.0 } else { 0.0 });
            calls.returned.push(if w.read_first { 1.0 } else { 0.0 });
            calls.partitions.push(per_partition.len() as f64);
            calls.bytes.push(0.0);
            calls.bytes_selected.push(0.0);
        }
        let figures = finish(
            w.name.clone(),
            Kind::Write,
            calls,
            w.operations() as f64,
            Some(all_batchable),
            String::new(),
        );
        Ok(Projected {
            entities_per_sec: w.rate * figures.scanned.mean,
            transactions_per_month: w.rate * figures.requests.mean * SECONDS_PER_MONTH,
            figures,
            rate: w.rate,
            hottest,
        })
    }

    /// A PartitionKey range through `through` for the drawn entity: scanned and returned
    /// entities, partitions read, and the variance of returned.
    fn pk_range(
        &self,
        m: &TypeModel,
        d: &Drawn,
        through: &str,
        props: &[(&str, ConditionOp)],
    ) -> (f64, f64, f64, f64) {
        let own = m.partition_key.through(through);
        // Copies of one entity whose PartitionKey starts the same way hold the same values.
        let range: Vec<_> = self
            .in_table(&m.ty.table)
            .filter(|u| u.root.name == m.root.name && u.partition_key.through(through) == own)
            .collect();
        let ask = Ask {
            pk_through: Some(through),
            ..Ask::partition(true)
        };
        let (c, v) = self.counter.count_spread(m, d, &ask);
        let n = m.n.max(1) as f64;
        let partitions = (self.counter.partitions(m) * c / n).clamp(1.0, c.max(1.0));
        if props.is_empty() {
            let k = range.len() as f64;
            return (c * k, c * k, partitions, v * k * k);
        }
        let ask = Ask {
            pk_through: Some(through),
            conditions: props,
            ..Ask::partition(true)
        };
        let (matches, v) = self.counter.count_spread(m, d, &ask);
        let holders = range
            .iter()
            .filter(|u| props.iter().all(|(p, _)| u.ty.property(p).is_some()))
            .count() as f64;
        (
            c * range.len() as f64,
            matches * holders,
            partitions,
            v * holders * holders,
        )
    }

    /// The share of new entities that land in `d`'s partition: every part of the key drawn
    /// by its weight, except time, which is "now" for every new entity, and unique parts,
    /// which give each new entity a partition of its own (share 0).
    fn insert_share(&self, m: &TypeModel, d: &Drawn) -> f64 {
        use super::sample::Source;
        use super::template::{Expr, Format};
        let mut share = 1.0;
        for f in m.partition_key.fields() {
            let prop = f.expr.property();
            let at = m.ty.properties.iter().position(|p| p.name == prop);
            let source = at.and_then(|i| m.sources.get(i));
            share *= match (&f.expr, source) {
                (Expr::Hash { buckets, .. }, _) => {
                    let text = at
                        .and_then(|i| d.value_at(i))
                        .map(tablescope_engine::Value::display_text)
                        .unwrap_or_default();
                    let b = super::permute::fnv1a(&text) % buckets;
                    self.counter.bucket_share(m, prop, *buckets, b)
                }
                (_, Some(Source::Chain { level, .. })) => {
                    match (m.chain.levels.get(*level), d.categories.get(*level)) {
                        (Some(l), Some(a)) => l.weight(*a),
                        _ => 1.0,
                    }
                }
                (Expr::Property(_), Some(Source::Timestamps { .. }))
                    if f.format == Format::Date =>
                {
                    1.0
                }
                _ => 0.0,
            };
        }
        share
    }

    /// The largest partition of a type: its key and entity count.
    fn largest_partition(&self, m: &TypeModel) -> Option<(String, f64)> {
        if m.n == 0 {
            return None;
        }
        // An entity with the heaviest category of every property the key uses.
        let used: BTreeSet<usize> = m
            .partition_key
            .fields()
            .filter_map(|f| m.level_of(f.expr.property()))
            .collect();
        let mut categories = m.categories_of(0);
        for (i, level) in m.chain.levels.iter().enumerate() {
            if let (true, Some(slot)) = (used.contains(&i), categories.get_mut(i)) {
                *slot = level.heaviest();
            }
        }
        let d = m.with_categories(0, categories);
        let ask = Ask::partition(true);
        let count: f64 = self.sharing(m).len() as f64 * self.counter.count(m, &d, &ask);
        Some((d.partition_key, count))
    }

    fn table_partitions(&self, table: &str) -> f64 {
        let mut seen = BTreeSet::new();
        let mut total = 0.0;
        for u in self.in_table(table) {
            if seen.insert((u.root.name.clone(), u.ty.partition_key.clone())) {
                total += self.counter.partitions(u);
            }
        }
        total
    }

    fn totals(self, patterns: Vec<Projected>, prices: &Prices) -> Projection {
        let account: f64 = patterns.iter().map(|p| p.entities_per_sec).sum();
        // Keyed by the table's name in lower case (table names are case-insensitive), said as
        // the design first spells it.
        let mut by_key: BTreeMap<(String, String), (&str, f64)> = BTreeMap::new();
        for h in patterns.iter().filter_map(|p| p.hottest.as_ref()) {
            by_key
                .entry((h.table.to_lowercase(), h.partition_key.clone()))
                .or_insert((h.table.as_str(), 0.0))
                .1 += h.entities_per_sec;
        }
        let hottest = by_key
            .into_iter()
            .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
            .map(|((_, key), (table, load))| hot(table, key, load));
        let stored_bytes: f64 = self
            .models
            .iter()
            .map(|m| {
                let sizes: Vec<f64> = positions(m.n, 8)
                    .into_iter()
                    .filter(|_| m.n > 0)
                    .map(|p| {
                        tablescope_engine::validate::entity_size(&m.at_position(p).to_entity())
                            as f64
                    })
                    .collect();
                m.n as f64 * Spread::of(&sizes).mean
            })
            .sum();
        let transactions_per_month: f64 = patterns.iter().map(|p| p.transactions_per_month).sum();
        let cost = prices.cost(transactions_per_month, stored_bytes);
        Projection {
            counts: self
                .models
                .iter()
                .map(|m| (m.ty.name.clone(), m.n))
                .collect(),
            account_entities_per_sec: account,
            account_of_target: account / f64::from(ACCOUNT_TARGET),
            hottest_share: match &hottest {
                Some(h) if account > 0.0 => h.entities_per_sec / account,
                _ => 0.0,
            },
            hottest,
            stored_bytes,
            cost,
            prices: prices.clone(),
            patterns,
            scaling: Vec::new(),
        }
    }
}

fn hot(table: &str, partition_key: String, load: f64) -> HotPartition {
    HotPartition {
        table: table.to_string(),
        partition_key,
        entities_per_sec: load,
        of_target: load / f64::from(PARTITION_TARGET),
    }
}

/// The drawn entity as a response returns it (with an ETag and a 7-digit Timestamp), for
/// its JSON size.
fn sized(d: &Drawn) -> tablescope_engine::Entity {
    let mut e = d.to_entity();
    e.timestamp = DateTime::parse("2026-01-01T00:00:00.1234567Z").ok();
    e
}

fn finish(
    pattern: String,
    kind: Kind,
    calls: Calls,
    written: f64,
    batchable: Option<bool>,
    example_filter: String,
) -> Figures {
    Figures {
        pattern,
        kind,
        draws: calls.requests.len() as u32,
        requests: Spread::of(&calls.requests),
        scanned: Spread::of(&calls.scanned),
        returned: Spread::of(&calls.returned),
        returned_sampling_sd: match calls.returned_variance.len() {
            0 => 0.0,
            draws => calls.returned_variance.iter().sum::<f64>().sqrt() / draws as f64,
        },
        partitions: Spread::of(&calls.partitions),
        payload_bytes: Spread::of(&calls.bytes),
        payload_bytes_selected: Spread::of(&calls.bytes_selected),
        written,
        batchable,
        example_filter,
    }
}

//! The evaluator: runs every access pattern on the generated data through the engine's query
//! API, with parameters drawn from the data, and reports what each call scanned, returned,
//! paged and touched. Writes are planned on the drawn entities (their keys and partitions,
//! and whether the entities they must change exist) without changing the data.

use super::figures::{positions, EvalOptions, Figures, Kind, Spread};
use super::model::{Design, Pattern, ReadPattern, WriteOp, WritePattern};
use super::read_run::ReadRun;
use super::sample::{Drawn, TypeModel};
use super::DesignError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use tablescope_engine::query::{
    count_page, execute_page, plan, Continuation, Plan, QueryOptions, QueryStats,
};
use tablescope_engine::Table;
use tablescope_engine::{filter, Account, Entity, Found};

/// Every pattern's measured figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// Entities per type the measurement ran on.
    pub counts: Vec<(String, u64)>,
    pub patterns: Vec<Figures>,
}

/// What the evaluator reads: the generated data, in an [`Account`] (natively) or behind the
/// browser's bridge to the playground's account (the Design section's own wasm).
pub trait Data {
    /// Whether the account has `table`.
    fn has_table(&self, table: &str) -> bool;
    /// One page of a query on `table` (`options.filter` is always set).
    fn page(&self, table: &str, options: &QueryOptions) -> Result<DataPage, String>;
    /// Whether `table` holds the entity with these keys.
    fn contains(&self, table: &str, partition_key: &str, row_key: &str) -> bool;
    /// One page of which the evaluator measures only the first `keep` entities and counts
    /// the rest: an implementation may leave the others out (its counts, continuation and
    /// `last_partition_key` stay those of the whole page). By default the whole page.
    fn counted_page(
        &self,
        table: &str,
        options: &QueryOptions,
        keep: usize,
    ) -> Result<DataPage, String> {
        let _ = keep;
        self.page(table, options)
    }
}

/// What the evaluator needs of a query page.
#[derive(Debug, Clone, PartialEq)]
pub struct DataPage {
    pub entities: Vec<Entity>,
    pub continuation: Option<Continuation>,
    pub stats: QueryStats,
    /// The PartitionKey of the page's last returned entity (whether in `entities` or not).
    pub last_partition_key: Option<String>,
}

/// `table` of `account` and the plan of `options`' filter, for a page on it.
fn planned<'a>(
    account: &'a Account,
    table: &str,
    options: &QueryOptions,
) -> Result<(&'a Table, Plan), String> {
    let table = account.table(table).map_err(|e| e.to_string())?;
    let expr =
        filter::parse(options.filter.as_deref().unwrap_or_default()).map_err(|e| e.to_string())?;
    Ok((table, plan(expr)))
}

impl Data for Account {
    fn has_table(&self, table: &str) -> bool {
        self.table(table).is_ok()
    }

    fn page(&self, table: &str, options: &QueryOptions) -> Result<DataPage, String> {
        let (table, plan) = planned(self, table, options)?;
        let page = execute_page(table, plan, options, false).map_err(|e| e.to_string())?;
        Ok(DataPage {
            last_partition_key: page
                .entities
                .last()
                .map(|e| e.partition_key.as_str().to_string()),
            entities: page.entities.iter().map(Found::to_entity).collect(),
            continuation: page.continuation,
            stats: page.stats,
        })
    }

    fn counted_page(
        &self,
        table: &str,
        options: &QueryOptions,
        keep: usize,
    ) -> Result<DataPage, String> {
        let (table, plan) = planned(self, table, options)?;
        let page = count_page(table, plan, options, keep).map_err(|e| e.to_string())?;
        Ok(DataPage {
            entities: page.entities,
            continuation: page.continuation,
            stats: page.stats,
            last_partition_key: page.last_partition_key,
        })
    }

    fn contains(&self, table: &str, partition_key: &str, row_key: &str) -> bool {
        self.table(table)
            .ok()
            .and_then(|t| t.get(partition_key, row_key))
            .is_some()
    }
}

/// Runs every pattern of `design` against `account`, which holds the design's generated data.
pub fn evaluate<D: Data + ?Sized>(
    design: &Design,
    account: &D,
    options: &EvalOptions,
) -> Result<Evaluation, DesignError> {
    super::validate::design(design)?;
    let patterns = (0..design.patterns.len())
        .map(|i| pattern(design, account, i, options))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Evaluation {
        counts: design
            .entity_types
            .iter()
            .map(|t| (t.name.clone(), t.count))
            .collect(),
        patterns,
    })
}

/// Runs pattern `index` only: a caller that must stay responsive (the browser) evaluates
/// one pattern per turn and can stop between them, or steps a [`PatternRun`].
pub fn evaluate_pattern<D: Data + ?Sized>(
    design: &Design,
    account: &D,
    index: usize,
    options: &EvalOptions,
) -> Result<Figures, DesignError> {
    super::validate::design(design)?;
    pattern(design, account, index, options)
}

fn pattern<D: Data + ?Sized>(
    design: &Design,
    account: &D,
    i: usize,
    options: &EvalOptions,
) -> Result<Figures, DesignError> {
    let mut run = PatternRun::start(design, account, i, options)?;
    loop {
        if let Some(f) = run.step(account)? {
            return Ok(f);
        }
    }
}

/// One pattern's evaluation in steps: a read sends one query page per [`PatternRun::step`]
/// (see `read_run`); a write, whose draws are point lookups, is done when started. Stepped
/// to the end it gives what [`evaluate_pattern`] gives.
pub struct PatternRun {
    index: usize,
    state: RunState,
}

enum RunState {
    Read(Box<ReadRun>),
    Done(Option<Figures>),
}

impl PatternRun {
    /// Validates `design` and plans pattern `index`.
    pub fn new<D: Data + ?Sized>(
        design: &Design,
        data: &D,
        index: usize,
        options: &EvalOptions,
    ) -> Result<PatternRun, DesignError> {
        super::validate::design(design)?;
        PatternRun::start(design, data, index, options)
    }

    fn start<D: Data + ?Sized>(
        design: &Design,
        data: &D,
        i: usize,
        options: &EvalOptions,
    ) -> Result<PatternRun, DesignError> {
        let at = |e: String| DesignError::new(format!("patterns[{i}]"), e);
        let state = match design.patterns.get(i) {
            Some(Pattern::Read(r)) => RunState::Read(Box::new(
                ReadRun::new(design, data, r, options).map_err(at)?,
            )),
            Some(Pattern::Write(w)) => {
                RunState::Done(Some(write(design, data, w, options).map_err(at)?))
            }
            None => {
                return Err(at(format!(
                    "the design has {} patterns",
                    design.patterns.len()
                )))
            }
        };
        Ok(PatternRun { index: i, state })
    }

    /// Requests done and planned, for progress.
    pub fn progress(&self) -> (usize, usize) {
        match &self.state {
            RunState::Read(r) => r.progress(),
            RunState::Done(_) => (1, 1),
        }
    }

    /// One page more; the figures once the pattern is done.
    pub fn step<D: Data + ?Sized>(&mut self, data: &D) -> Result<Option<Figures>, DesignError> {
        let at = |e: String| DesignError::new(format!("patterns[{}]", self.index), e);
        match &mut self.state {
            RunState::Read(r) => {
                if r.step(data).map_err(at)? {
                    Ok(r.figures())
                } else {
                    Ok(None)
                }
            }
            RunState::Done(f) => Ok(f.take()),
        }
    }
}

/// Draws a read pattern makes.
pub fn read_draws(r: &ReadPattern, options: &EvalOptions) -> u32 {
    if r.conditions.iter().any(|c| c.on == "PartitionKey") {
        options.draws
    } else {
        options.table_draws
    }
}

/// One call's (or request's) measured figures.
#[derive(Default, Clone)]
pub(super) struct Call {
    pub(super) requests: f64,
    pub(super) scanned: f64,
    pub(super) returned: f64,
    pub(super) partitions: f64,
    pub(super) bytes: f64,
    pub(super) bytes_selected: f64,
}

impl Call {
    pub(super) fn add(&mut self, other: &Call) {
        self.requests += other.requests;
        self.scanned += other.scanned;
        self.returned += other.returned;
        self.partitions += other.partitions;
        self.bytes += other.bytes;
        self.bytes_selected += other.bytes_selected;
    }
}

pub(super) fn figures(
    pattern: String,
    kind: Kind,
    calls: Vec<Call>,
    written: f64,
    batchable: Option<bool>,
    example_filter: String,
) -> Figures {
    let pick = |f: fn(&Call) -> f64| Spread::of(&calls.iter().map(f).collect::<Vec<_>>());
    Figures {
        pattern,
        kind,
        draws: calls.len() as u32,
        requests: pick(|c| c.requests),
        scanned: pick(|c| c.scanned),
        returned: pick(|c| c.returned),
        returned_sampling_sd: 0.0,
        partitions: pick(|c| c.partitions),
        payload_bytes: pick(|c| c.bytes),
        payload_bytes_selected: pick(|c| c.bytes_selected),
        written,
        batchable,
        example_filter,
    }
}

/// Requests one write call sends: one batch when it may, else one per entity, plus the read
/// of a read-then-write.
pub fn write_requests(w: &WritePattern, batchable: bool) -> f64 {
    let writes = if w.batch && batchable {
        1.0
    } else {
        w.operations() as f64
    };
    writes + if w.read_first { 1.0 } else { 0.0 }
}

/// Whether one call of `w` fits one entity group transaction: its entities in `partitions`
/// partitions (one is needed) and no more than 100 operations.
pub fn fits_batch(w: &WritePattern, partitions: usize) -> bool {
    partitions == 1 && w.operations() <= tablescope_engine::MAX_OPERATIONS as u64
}

/// One entity a write call writes: the index of its type's model and the entity.
pub(super) struct Written {
    pub(super) model: usize,
    pub(super) drawn: Drawn,
    /// Whether the entity was drawn from the data (an update's, a delete's) rather than bound
    /// to the call's first entity.
    pub(super) own: bool,
}

/// The entities call `j` of `w` writes, at draw position `pos`: the first type's entity, and
/// for every type its `perCall` entities; a copy of the first type's entity holds its values,
/// another type takes the first entity's values for the properties it shares by name.
pub(super) fn write_entities(
    models: &[&TypeModel],
    w: &WritePattern,
    j: u64,
    pos: u64,
) -> Vec<Written> {
    let n = models.first().map_or(0, |m| m.n);
    let mut out: Vec<Written> = Vec::new();
    let mut first: Option<Drawn> = None;
    for (t, m) in models.iter().enumerate() {
        let per = u64::from(w.per_call_of(&m.ty.name));
        for k in 0..per {
            let drawn = if w.op == WriteOp::Insert || m.n == 0 || n == 0 {
                m.fresh(
                    j * per + k,
                    pos.min(n.saturating_sub(1)).min(m.n.saturating_sub(1)),
                )
            } else {
                m.at_position((pos + k) % m.n)
            };
            let bound = match (&first, models.first()) {
                (Some(fd), Some(fm)) if fm.root.name != m.root.name => {
                    Some(m.bind(drawn.clone(), fm, fd))
                }
                _ => None,
            };
            if first.is_none() {
                first = Some(drawn.clone());
            }
            out.push(Written {
                model: t,
                own: bound.is_none(),
                drawn: bound.unwrap_or(drawn),
            });
        }
    }
    out
}

fn write<D: Data + ?Sized>(
    design: &Design,
    account: &D,
    w: &WritePattern,
    options: &EvalOptions,
) -> Result<Figures, String> {
    let models = w
        .entity_types
        .iter()
        .map(|name| {
            let ty = design
                .entity_type(name)
                .ok_or_else(|| format!("no entity type {name:?}"))?;
            TypeModel::new(design, ty, ty.count)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let n = models.first().map_or(0, |m| m.n);
    let mut calls = Vec::new();
    let mut all_batchable = true;
    let operations = w.operations() as f64;
    let models: Vec<&TypeModel> = models.iter().collect();
    for (j, pos) in positions(n.max(1), options.draws).into_iter().enumerate() {
        let mut partitions = BTreeSet::new();
        for e in write_entities(&models, w, j as u64, pos) {
            let Some(m) = models.get(e.model) else {
                continue;
            };
            let d = e.drawn;
            if w.op != WriteOp::Insert && n > 0 && e.own {
                let exists = account.contains(&m.ty.table, &d.partition_key, &d.row_key);
                if !exists && matches!(w.op, WriteOp::Update | WriteOp::Delete) {
                    return Err(format!(
                        "the entity ({:?}, {:?}) of {:?} to change is not in the data: generate it first",
                        d.partition_key, d.row_key, m.ty.name
                    ));
                }
            }
            partitions.insert((m.ty.table.to_lowercase(), d.partition_key));
        }
        let batchable = fits_batch(w, partitions.len());
        all_batchable &= batchable;
        calls.push(Call {
            requests: write_requests(w, batchable),
            scanned: operations + if w.read_first { 1.0 } else { 0.0 },
            returned: if w.read_first { 1.0 } else { 0.0 },
            partitions: partitions.len() as f64,
            bytes: 0.0,
            bytes_selected: 0.0,
        });
    }
    Ok(figures(
        w.name.clone(),
        Kind::Write,
        calls,
        operations,
        Some(all_batchable),
        String::new(),
    ))
}

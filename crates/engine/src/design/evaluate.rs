//! The evaluator: runs every access pattern on the generated data through the engine's query
//! API, with parameters drawn from the data, and reports what each call scanned, returned,
//! paged and touched. Writes are planned on the drawn entities (their keys and partitions,
//! and whether the entities they must change exist) without changing the data.

use super::figures::{json_bytes, positions, EvalOptions, Figures, Kind, Spread};
use super::model::{Design, Pattern, ReadPattern, WriteOp, WritePattern};
use super::query::{requests, select};
use super::sample::TypeModel;
use super::DesignError;
use crate::query::{execute_page, plan, Continuation, QueryOptions, QueryStats, MAX_PAGE};
use crate::{filter, Account, Entity};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

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
}

/// What the evaluator needs of a query page.
#[derive(Debug, Clone, PartialEq)]
pub struct DataPage {
    pub entities: Vec<Entity>,
    pub continuation: Option<Continuation>,
    pub stats: QueryStats,
}

impl Data for Account {
    fn has_table(&self, table: &str) -> bool {
        self.table(table).is_ok()
    }

    fn page(&self, table: &str, options: &QueryOptions) -> Result<DataPage, String> {
        let table = self.table(table).map_err(|e| e.to_string())?;
        let expr = filter::parse(options.filter.as_deref().unwrap_or_default())
            .map_err(|e| e.to_string())?;
        let page = execute_page(table, plan(expr), options, false).map_err(|e| e.to_string())?;
        Ok(DataPage {
            entities: page.entities,
            continuation: page.continuation,
            stats: page.stats,
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
/// one pattern per turn and can stop between them.
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
    let at = |e: String| DesignError::new(format!("patterns[{i}]"), e);
    match design.patterns.get(i) {
        Some(Pattern::Read(r)) => read(design, account, r, options).map_err(at),
        Some(Pattern::Write(w)) => write(design, account, w, options).map_err(at),
        None => Err(at(format!(
            "the design has {} patterns",
            design.patterns.len()
        ))),
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
struct Call {
    requests: f64,
    scanned: f64,
    returned: f64,
    partitions: f64,
    bytes: f64,
    bytes_selected: f64,
}

fn read<D: Data + ?Sized>(
    design: &Design,
    account: &D,
    r: &ReadPattern,
    options: &EvalOptions,
) -> Result<Figures, String> {
    let ty = design
        .entity_type(&r.entity_type)
        .ok_or_else(|| format!("no entity type {:?}", r.entity_type))?;
    if ty.count == 0 {
        return Err(format!(
            "entity type {:?} has no entities to draw parameters from",
            ty.name
        ));
    }
    if !account.has_table(&ty.table) {
        return Err(format!(
            "table {:?} does not exist: generate the data first",
            ty.table
        ));
    }
    let table = ty.table.as_str();
    let model = TypeModel::new(design, ty, ty.count)?;
    let needs = r.needs.clone();
    let sent_select = select(r);
    let mut calls = Vec::new();
    let mut kind = Kind::TableScan;
    let mut example = String::new();
    let mut seen: HashMap<String, (Call, Kind)> = HashMap::new();
    for pos in positions(ty.count, read_draws(r, options)) {
        let drawn = model.at_position(pos);
        let mut call = Call::default();
        for planned in requests(&model, r, &drawn) {
            if example.is_empty() {
                example = planned.filter.clone();
            }
            // Draws that bind the same parameters send the same request: run it once.
            let (one, k) = match seen.get(&planned.filter) {
                Some(done) => done.clone(),
                None => {
                    let done = request(
                        account,
                        table,
                        &planned.filter,
                        r,
                        needs.as_deref(),
                        sent_select.is_some(),
                    )?;
                    seen.insert(planned.filter.clone(), done.clone());
                    done
                }
            };
            if call.requests == 0.0 {
                kind = k;
            }
            call.add(&one);
        }
        calls.push(call);
    }
    Ok(figures(r.name.clone(), kind, calls, 0.0, None, example))
}

impl Call {
    fn add(&mut self, other: &Call) {
        self.requests += other.requests;
        self.scanned += other.scanned;
        self.returned += other.returned;
        self.partitions += other.partitions;
        self.bytes += other.bytes;
        self.bytes_selected += other.bytes_selected;
    }
}

/// Sends one request of a read, page after page until it has what the pattern needs.
fn request<D: Data + ?Sized>(
    account: &D,
    table: &str,
    filter_text: &str,
    r: &ReadPattern,
    needs: Option<&[String]>,
    selects: bool,
) -> Result<(Call, Kind), String> {
    let mut call = Call::default();
    let mut kind = Kind::TableScan;
    let need = r.result_size.map_or(u64::MAX, u64::from);
    let mut got = 0u64;
    let mut continuation = None;
    let mut per_entity = None;
    loop {
        let top = r
            .result_size
            .map(|_| (need - got).min(u64::from(MAX_PAGE)) as u32);
        // The first page returns whole entities (their JSON sizes are measured on it);
        // later pages only need counting, so they project to one key.
        let opts = QueryOptions {
            filter: Some(filter_text.to_string()),
            select: per_entity.is_some().then(|| vec!["RowKey".to_string()]),
            top,
            continuation: continuation.take(),
            page_budget: None,
        };
        let page = account.page(table, &opts)?;
        if call.requests == 0.0 {
            kind = page.stats.kind.into();
        }
        call.requests += 1.0;
        call.scanned += page.stats.scanned as f64;
        call.returned += page.stats.returned as f64;
        call.partitions += page.stats.partitions as f64;
        if per_entity.is_none() && !page.entities.is_empty() {
            // Sizes vary only in digits and chosen texts: 100 entities measure them.
            let sample = page.entities.get(..100).unwrap_or(&page.entities);
            let n = sample.len() as f64;
            let full: usize = sample.iter().map(|e| json_bytes(e, None)).sum();
            let sel: usize = sample.iter().map(|e| json_bytes(e, needs)).sum();
            per_entity = Some((full as f64 / n, sel as f64 / n));
        }
        got += page.stats.returned;
        match page.continuation {
            Some(c) if got < need => {
                // A page that stops inside a partition counts it again on the next.
                if page
                    .entities
                    .last()
                    .is_some_and(|e| e.partition_key == c.next_partition_key)
                {
                    call.partitions -= 1.0;
                }
                continuation = Some(c);
            }
            _ => break,
        }
    }
    if let Some((full, sel)) = per_entity {
        call.bytes = full * got as f64;
        call.bytes_selected = if selects || needs.is_some() {
            sel
        } else {
            full
        } * got as f64;
    }
    Ok((call, kind))
}

fn figures(
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
        w.entity_types.len() as f64
    };
    writes + if w.read_first { 1.0 } else { 0.0 }
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
    for (j, pos) in positions(n.max(1), options.draws).into_iter().enumerate() {
        let mut partitions = BTreeSet::new();
        for m in &models {
            let drawn = if w.op == WriteOp::Insert || n == 0 {
                m.fresh(j as u64, pos.min(n.saturating_sub(1)))
            } else {
                let d = m.at_position(pos);
                let exists = account.contains(&m.ty.table, &d.partition_key, &d.row_key);
                if !exists && matches!(w.op, WriteOp::Update | WriteOp::Delete) {
                    return Err(format!(
                        "the entity ({:?}, {:?}) of {:?} to change is not in the data: generate it first",
                        d.partition_key, d.row_key, m.ty.name
                    ));
                }
                d
            };
            partitions.insert((m.ty.table.to_lowercase(), drawn.partition_key));
        }
        let batchable = partitions.len() == 1;
        all_batchable &= batchable;
        let written = models.len() as f64;
        calls.push(Call {
            requests: write_requests(w, batchable),
            scanned: written + if w.read_first { 1.0 } else { 0.0 },
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
        models.len() as f64,
        Some(all_batchable),
        String::new(),
    ))
}

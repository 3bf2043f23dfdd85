//! A read pattern's evaluation in steps of one query page, so a caller that must stay
//! responsive (the browser's Design section) can pause between pages: a pattern that scans a
//! whole table at 10⁶ entities is a hundred pages of the scan budget or more, far too long
//! for one task.
//!
//! Invariant: stepping a [`ReadRun`] to the end gives exactly the figures the evaluation
//! gave in one go: the same requests (planned for every draw first, each distinct `$filter`
//! sent once), the same pages, counted the same way.

use super::evaluate::{Call, Data};
use super::figures::{json_bytes, positions, EvalOptions, Kind};
use super::model::{Design, ReadPattern};
use super::query::{requests, select};
use super::sample::TypeModel;
use std::collections::HashMap;
use tablescope_engine::query::{Continuation, QueryOptions, MAX_PAGE, PAGE_SCAN_BUDGET};

/// Entities of a request's first page whose JSON sizes are measured: sizes vary only in
/// digits and chosen texts, so 100 measure them.
const SAMPLE: usize = 100;

/// A read pattern being evaluated: its planned requests, the ones done, and the one under way.
pub struct ReadRun {
    name: String,
    table: String,
    pattern: ReadPattern,
    needs: Option<Vec<String>>,
    selects: bool,
    /// Per draw, the `$filter` of each request it sends.
    draws: Vec<Vec<String>>,
    /// The distinct filters, in the order first sent.
    distinct: Vec<String>,
    done: HashMap<String, (Call, Kind)>,
    /// The request under way: an index into `distinct`, and its progress.
    at: usize,
    current: Option<Request>,
}

/// One request's pages so far.
#[derive(Default)]
struct Request {
    call: Call,
    kind: Option<Kind>,
    got: u64,
    continuation: Option<Continuation>,
    /// Mean JSON bytes per entity, whole and with the pattern's needs, from the first page.
    per_entity: Option<(f64, f64)>,
}

impl ReadRun {
    /// Plans the requests of every draw of `r` on `design`'s data (`Err` in words).
    pub fn new<D: Data + ?Sized>(
        design: &Design,
        data: &D,
        r: &ReadPattern,
        options: &EvalOptions,
    ) -> Result<ReadRun, String> {
        let ty = design
            .entity_type(&r.entity_type)
            .ok_or_else(|| format!("no entity type {:?}", r.entity_type))?;
        if ty.count == 0 {
            return Err(format!(
                "entity type {:?} has no entities to draw parameters from",
                ty.name
            ));
        }
        if !data.has_table(&ty.table) {
            return Err(format!(
                "table {:?} does not exist: generate the data first",
                ty.table
            ));
        }
        let model = TypeModel::new(design, ty, ty.count)?;
        let mut draws = Vec::new();
        let mut distinct: Vec<String> = Vec::new();
        let mut known = std::collections::HashSet::new();
        for pos in positions(ty.count, super::evaluate::read_draws(r, options)) {
            let drawn = model.at_position(pos);
            let filters: Vec<String> = requests(&model, r, &drawn)
                .into_iter()
                .map(|p| p.filter)
                .collect();
            for f in &filters {
                if known.insert(f.clone()) {
                    distinct.push(f.clone());
                }
            }
            draws.push(filters);
        }
        Ok(ReadRun {
            name: r.name.clone(),
            table: ty.table.clone(),
            pattern: r.clone(),
            needs: r.needs.clone(),
            selects: select(r).is_some(),
            draws,
            distinct,
            done: HashMap::new(),
            at: 0,
            current: None,
        })
    }

    /// Requests done and planned (distinct ones), for progress.
    pub fn progress(&self) -> (usize, usize) {
        (self.at, self.distinct.len())
    }

    /// Sends one page; `Ok(true)` once every request is done.
    pub fn step<D: Data + ?Sized>(&mut self, data: &D) -> Result<bool, String> {
        let Some(filter) = self.distinct.get(self.at) else {
            return Ok(true);
        };
        let mut req = self.current.take().unwrap_or_default();
        let need = self.pattern.result_size.map_or(u64::MAX, u64::from);
        let top = self
            .pattern
            .result_size
            .map(|_| (need - req.got).min(u64::from(MAX_PAGE)) as u32);
        // The first page's entities are measured; later pages are only counted.
        let keep = if req.per_entity.is_none() { SAMPLE } else { 0 };
        let opts = QueryOptions {
            filter: Some(filter.clone()),
            select: None,
            top,
            continuation: req.continuation.take(),
            // Paged as the Query section pages: a page also ends at the scan budget.
            page_budget: Some(PAGE_SCAN_BUDGET),
        };
        let page = data.counted_page(&self.table, &opts, keep)?;
        if req.kind.is_none() {
            req.kind = Some(page.stats.kind.into());
        }
        req.call.requests += 1.0;
        req.call.scanned += page.stats.scanned as f64;
        req.call.returned += page.stats.returned as f64;
        req.call.partitions += page.stats.partitions as f64;
        if req.per_entity.is_none() && !page.entities.is_empty() {
            let sample = page.entities.get(..SAMPLE).unwrap_or(&page.entities);
            let n = sample.len() as f64;
            let full: usize = sample.iter().map(|e| json_bytes(e, None)).sum();
            let sel: usize = sample
                .iter()
                .map(|e| json_bytes(e, self.needs.as_deref()))
                .sum();
            req.per_entity = Some((full as f64 / n, sel as f64 / n));
        }
        req.got += page.stats.returned;
        match page.continuation {
            Some(c) if req.got < need => {
                // A page that stops inside a partition counts it again on the next.
                if page.last_partition_key.as_deref() == Some(c.next_partition_key.as_str()) {
                    req.call.partitions -= 1.0;
                }
                req.continuation = Some(c);
                self.current = Some(req);
                Ok(false)
            }
            _ => {
                if let Some((full, sel)) = req.per_entity {
                    req.call.bytes = full * req.got as f64;
                    req.call.bytes_selected = if self.selects || self.needs.is_some() {
                        sel
                    } else {
                        full
                    } * req.got as f64;
                }
                let kind = req.kind.unwrap_or(Kind::TableScan);
                self.done.insert(filter.clone(), (req.call, kind));
                self.at += 1;
                Ok(self.at == self.distinct.len())
            }
        }
    }

    /// The pattern's figures once every request is done (`None` before).
    pub fn figures(&self) -> Option<super::figures::Figures> {
        if self.at < self.distinct.len() {
            return None;
        }
        let mut calls = Vec::with_capacity(self.draws.len());
        let mut kind = Kind::TableScan;
        let mut example = String::new();
        for filters in &self.draws {
            let mut call = Call::default();
            for f in filters {
                if example.is_empty() {
                    example = f.clone();
                }
                let (one, k) = self.done.get(f)?;
                if call.requests == 0.0 {
                    kind = *k;
                }
                call.add(one);
            }
            calls.push(call);
        }
        Some(super::evaluate::figures(
            self.name.clone(),
            kind,
            calls,
            0.0,
            None,
            example,
        ))
    }
}

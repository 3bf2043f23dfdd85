//! Executes one page of a query, doing exactly the work the plan says.
//!
//! A page ends at `$top` (at most 1000) entities, or when its scan budget is spent, or when
//! the scan range is exhausted. In the first two cases, if any entity is left in the range,
//! the continuation names it (inclusive): the next page starts there. So a page may be short,
//! or empty, and still carry a continuation.

use super::int_range::IntRange;
use super::plan::{Plan, QueryKind};
use crate::entity::Entity;
use crate::error::{Error, ErrorCode, Result};
use crate::filter::{self, CmpOp, RowOf};
use crate::found::Found;
use crate::key::Key;
use crate::record::{Record, Shape};
use crate::table::{Stored, Table};
use crate::value::{EdmType, Value};
use serde::{Deserialize, Serialize};
use std::ops::Bound;
use std::sync::Arc;

/// The service's largest page.
pub const MAX_PAGE: u32 = 1000;

/// The scan budget the playground pages by: entities one page may scan, modelling the
/// service's 5 seconds of work per page. The Query section's default, and the budget the
/// Design section's evaluator sends and its projector counts with, so both count the same
/// pages for the same query.
pub const PAGE_SCAN_BUDGET: u64 = 10_000;

/// The pages of a run that scans `scanned` entities and returns `returned`, its matches
/// spread evenly over the scan: a page ends at [`MAX_PAGE`] returned or
/// [`PAGE_SCAN_BUDGET`] scanned, whichever comes first, and a run has at least one page.
pub fn page_count(scanned: f64, returned: f64) -> f64 {
    let by_returned = (returned / f64::from(MAX_PAGE)).ceil();
    let by_scan = (scanned / PAGE_SCAN_BUDGET as f64).ceil();
    by_returned.max(by_scan).max(1.0)
}

/// NextPartitionKey and NextRowKey: the next entity to read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Continuation {
    pub next_partition_key: String,
    pub next_row_key: String,
}

/// `$filter`, `$select`, `$top`, a continuation, and the page's scan budget.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryOptions {
    pub filter: Option<String>,
    pub select: Option<Vec<String>>,
    pub top: Option<u32>,
    pub continuation: Option<Continuation>,
    /// Entities the page may scan before it stops (models the service's 5 s per page).
    pub page_budget: Option<u64>,
}

impl QueryOptions {
    /// The names `$select` lists, when it projects (an empty list does not).
    pub fn projection(&self) -> Option<&[String]> {
        self.select.as_deref().filter(|s| !s.is_empty())
    }
}

/// What a page cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryStats {
    pub scanned: u64,
    pub returned: u64,
    /// Partitions from which at least one entity was scanned.
    pub partitions: u64,
    pub kind: QueryKind,
    /// The continuation resumes inside a partition this page scanned: the next page scans
    /// that partition too, so a count of partitions over a query's pages counts it once
    /// ([`distinct_partitions`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continues_partition: bool,
}

/// The distinct partitions a query's pages scanned, from each page's `(partitions,
/// continues_partition)` in order: a partition a continuation splits between two pages is
/// counted on both pages, once here (pages scan in key order, so only such a partition can be
/// scanned by two pages).
pub fn distinct_partitions(pages: impl IntoIterator<Item = (u64, bool)>) -> u64 {
    let mut total = 0;
    let mut carried = false;
    for (partitions, continues) in pages {
        total += partitions;
        if carried && partitions > 0 {
            total -= 1;
        }
        carried = continues;
    }
    total
}

/// One page of results.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryPage {
    /// Entities in PartitionKey, RowKey order, as stored: `$select` applies when they
    /// become entities or JSON ([`Found::to_entity`]).
    pub entities: Vec<Found>,
    pub continuation: Option<Continuation>,
    pub stats: QueryStats,
    pub plan: Plan,
    /// Keys of every scanned entity, when asked for (the partition map draws them).
    pub scanned_keys: Option<Vec<(String, String)>>,
    /// On a Cosmos DB for Table table: what the page read from the property index.
    pub index: Option<crate::target::IndexRead>,
    /// On a Cosmos DB for Table table: the page's estimated request units.
    pub ru: Option<crate::target::RuEstimate>,
}

/// Runs one page of `plan` over `table`. `trace` records the keys of scanned entities.
pub fn execute_page(
    table: &Table,
    plan: Plan,
    options: &QueryOptions,
    trace: bool,
) -> Result<QueryPage> {
    if let Some(items) = table.items() {
        return crate::target::query::execute_page(table, items, plan, options, trace);
    }
    run_page::<false>(table, plan, options, trace, usize::MAX).map(|(page, _)| page)
}

/// A page for a caller that only counts (the Design section's evaluator): the same scan, the
/// same counts and continuation as [`execute_page`], but only the first `keep` entities that
/// match are built (`$select` applied), plus the PartitionKey of the last entity returned.
#[derive(Debug, Clone, PartialEq)]
pub struct CountedPage {
    /// The first `keep` entities of the page (fewer if it returned fewer).
    pub entities: Vec<Entity>,
    pub continuation: Option<Continuation>,
    pub stats: QueryStats,
    /// The PartitionKey of the page's last returned entity, kept or not.
    pub last_partition_key: Option<String>,
}

/// Runs one page of `plan` over `table`, building only its first `keep` entities.
pub fn count_page(
    table: &Table,
    plan: Plan,
    options: &QueryOptions,
    keep: usize,
) -> Result<CountedPage> {
    let (page, last_partition_key) = run_page::<true>(table, plan, options, false, keep)?;
    Ok(CountedPage {
        entities: page.entities.iter().map(Found::to_entity).collect(),
        continuation: page.continuation,
        stats: page.stats,
        last_partition_key,
    })
}

/// [`execute_page`]; `COUNTING` (a separate copy, so the playground's start, which runs
/// only `execute_page`, carries none of it) builds at most `keep` entities and names the
/// PartitionKey of the last entity returned.
fn run_page<const COUNTING: bool>(
    table: &Table,
    plan: Plan,
    options: &QueryOptions,
    trace: bool,
    keep: usize,
) -> Result<(QueryPage, Option<String>)> {
    let limit = options.top.unwrap_or(MAX_PAGE);
    if limit > MAX_PAGE {
        return Err(Error::with_detail(
            ErrorCode::InvalidInput,
            crate::Detail::TopMay {
                max: u64::from(MAX_PAGE),
            },
        ));
    }
    if options.page_budget == Some(0) {
        return Err(Error::with_detail(
            ErrorCode::InvalidInput,
            crate::Detail::ScanBudget,
        ));
    }
    let budget = options.page_budget.unwrap_or(u64::MAX);
    let select: Option<Arc<[String]>> = options.projection().map(Arc::from);

    let mut pk_range = plan.partition_keys.clone();
    let start = options
        .continuation
        .as_ref()
        .map(|c| (Key::new(&c.next_partition_key), Key::new(&c.next_row_key)));
    if let Some((pk, _)) = &start {
        pk_range.raise(Bound::Included(pk.clone()));
    }
    let mut plan = plan;
    intern_names(&mut plan.filter, table);
    let mut page = QueryPage {
        entities: Vec::new(),
        continuation: None,
        stats: QueryStats {
            scanned: 0,
            returned: 0,
            partitions: 0,
            kind: plan.kind,
            continues_partition: false,
        },
        plan,
        scanned_keys: trace.then(Vec::new),
        index: None,
        ru: None,
    };
    if pk_range.is_empty() {
        return Ok((page, None));
    }
    // The page's room is reserved once: grown a doubling at a time, a full page was copied
    // about twice over (in wasm, a tenth of a partition query's time). A page that returns
    // far less gives the room back at the end.
    let room = match page.plan.kind {
        QueryKind::Point => 1,
        _ => (limit as usize).min(keep),
    };
    page.entities.reserve_exact(room);
    let mut last_partition_key: Option<&Key> = None;
    let mut check = Check::new(&page.plan, table);
    'partitions: for (pk, partition) in
        table.partition_range(pk_range.lower.as_ref(), pk_range.upper.as_ref())
    {
        let mut rk_range = page.plan.row_keys.clone();
        if let Some((start_pk, start_rk)) = &start {
            if start_pk == pk {
                rk_range.raise(Bound::Included(start_rk.clone()));
            }
        }
        if rk_range.is_empty() {
            continue;
        }
        let (scanned_before, returned_before) = (page.stats.scanned, page.stats.returned);
        let mut sink = Sink {
            limit: u64::from(limit),
            budget,
            keep,
            select: select.as_ref(),
            entities: &mut page.entities,
            stats: &mut page.stats,
            scanned_keys: &mut page.scanned_keys,
        };
        // The single property comparison, untraced, gets a loop of its own with the check
        // inlined.
        page.continuation = match &mut check {
            // One loop, so its closure is inlined (two loops sharing one closure made it a
            // call per row); an unbounded range walks the rows like `iter()`.
            Check::One(term) if !trace => {
                let rows = partition.rows.range_slices(rk_range.as_refs());
                scan_rows::<false, COUNTING>(rows, pk, &mut sink, |_, stored| {
                    term.holds(&stored.properties)
                })
            }
            check => {
                let pk_str = pk.as_str();
                let matches = |rk: &Key, stored: &Stored| check.matches(pk_str, rk, stored);
                let rows = partition.rows.range_slices(rk_range.as_refs());
                scan_rows::<true, COUNTING>(rows, pk, &mut sink, matches)
            }
        };
        // A partition counts once at least one of its entities was scanned.
        if page.stats.scanned > scanned_before {
            page.stats.partitions += 1;
        }
        if COUNTING && page.stats.returned > returned_before {
            last_partition_key = Some(pk);
        }
        if page.continuation.is_some() {
            // The continuation names a row of `pk`: it splits the partition when this page
            // scanned some of it (else the page filled up on the partition before).
            page.stats.continues_partition = page.stats.scanned > scanned_before;
            break 'partitions;
        }
    }
    if page.entities.len() < page.entities.capacity() / 2 {
        page.entities.shrink_to_fit();
    }
    let last = last_partition_key.map(|k| k.as_str().to_string());
    Ok((page, last))
}

/// Where a page's results go while a partition's rows are scanned.
struct Sink<'s> {
    limit: u64,
    budget: u64,
    /// Entities built at most; those past it are only counted.
    keep: usize,
    select: Option<&'s Arc<[String]>>,
    entities: &'s mut Vec<Found>,
    stats: &'s mut QueryStats,
    scanned_keys: &'s mut Option<Vec<(String, String)>>,
}

/// Scans rows of partition `pk` in order, keeping those `matches` accepts; returns the
/// continuation (the first row not scanned) if the page fills up or spends its budget before
/// the rows run out. `TRACE` false skips recording scanned keys (the caller knows there is no
/// trace). The rows come as runs of consecutive rows ([`crate::RowMap::range_slices`]), each
/// walked as a slice.
#[inline(always)]
fn scan_rows<'t, const TRACE: bool, const COUNTING: bool>(
    runs: impl Iterator<Item = &'t [(Key, Stored)]>,
    pk: &Key,
    sink: &mut Sink,
    mut matches: impl FnMut(&Key, &Stored) -> bool,
) -> Option<Continuation> {
    // The page stops at the first row met once the page is full or the budget spent: `stop`
    // is the scanned count at which that happens (so each row tests one counter). The counts
    // live in locals during the loop and are written back on the way out.
    let (mut scanned, mut returned) = (sink.stats.scanned, sink.stats.returned);
    let mut stop = if returned >= sink.limit {
        scanned
    } else {
        sink.budget
    };
    let mut continuation = None;
    'runs: for run in runs {
        for (rk, stored) in run {
            if scanned >= stop {
                continuation = Some(Continuation {
                    next_partition_key: pk.as_str().to_string(),
                    next_row_key: rk.as_str().to_string(),
                });
                break 'runs;
            }
            scanned += 1;
            if TRACE {
                if let Some(keys) = sink.scanned_keys {
                    keys.push((pk.as_str().to_string(), rk.as_str().to_string()));
                }
            }
            if matches(rk, stored) {
                if !COUNTING || sink.entities.len() < sink.keep {
                    sink.entities.push(Found::new(pk, rk, stored, sink.select));
                }
                returned += 1;
                if returned >= sink.limit {
                    stop = scanned;
                }
            }
        }
    }
    sink.stats.scanned = scanned;
    sink.stats.returned = returned;
    continuation
}

/// Points the filter's property names at the table's own interned names, so the evaluator's
/// pointer-equality check finds a property without comparing text.
pub(crate) fn intern_names(e: &mut filter::Expr, table: &Table) {
    use filter::{Expr, Target};
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => {
            intern_names(a, table);
            intern_names(b, table);
        }
        Expr::Not(a) => intern_names(a, table),
        Expr::Compare {
            target: Target::Property(name),
            ..
        } => {
            if let Some((interned, _)) = table.columns().get_key_value(name) {
                *name = interned.clone();
            }
        }
        _ => {}
    }
}

/// The filter in the form the scan loop checks fastest. A scan's filter is usually a few
/// comparisons of user properties with literals joined by `and`; those are checked without
/// walking the tree, without decoding the keys, and reading each property at the offset its
/// record's shape gives (found once per shape, see [`Term`]).
pub(crate) enum Check<'p> {
    /// One user property compared with a literal; the name is the table's interned one.
    One(Term<'p>),
    /// Every term must hold (none for an empty filter); names interned as in `One`.
    All(Vec<Term<'p>>),
    /// A term on a property no stored entity carries (or a `false` term): nothing matches.
    Nothing,
    /// Any other filter: the general evaluator.
    General(&'p filter::Expr),
}

impl<'p> Check<'p> {
    /// Expects the filter's names already [`intern_names`]d.
    ///
    /// The key comparisons that bound the scan are left out: every row the scan reaches
    /// satisfies them (the partition range holds exactly the PartitionKeys that satisfy
    /// every `PartitionKey op 'text'` but `ne`, and the RowKey range, applied when the plan
    /// pins one partition, likewise for RowKey). So `PartitionKey eq 'a' and Name ge 'B'
    /// and Name lt 'C'` checks two terms per row, not the general tree.
    pub(crate) fn new(plan: &'p Plan, table: &Table) -> Check<'p> {
        use filter::{Expr, Target};
        let expr = &plan.filter;
        let pinned = matches!(
            plan.kind,
            QueryKind::Point | QueryKind::PartitionRange | QueryKind::PartitionScan
        );
        let mut terms = Vec::new();
        for term in expr.conjuncts() {
            match term {
                Expr::Bool(true) => {}
                Expr::Compare {
                    target: Target::PartitionKey,
                    op,
                    literal: Value::String(_),
                } if *op != CmpOp::Ne => {}
                Expr::Compare {
                    target: Target::RowKey,
                    op,
                    literal: Value::String(_),
                } if *op != CmpOp::Ne && pinned => {}
                Expr::Bool(false) => return Check::Nothing,
                Expr::Compare {
                    target: Target::Property(name),
                    op,
                    literal,
                } => {
                    // Interned means every stored entity carrying this name holds this very
                    // allocation (the table's invariant); not interned means none carries it,
                    // and a comparison on a missing property is false whatever the operator.
                    match table.columns().get_key_value(name) {
                        Some((interned, _)) if Arc::ptr_eq(interned, name) => {
                            terms.push(Term::new(name, *op, literal));
                        }
                        Some(_) => return Check::General(expr),
                        None => return Check::Nothing,
                    }
                }
                _ => return Check::General(expr),
            }
        }
        if terms.len() == 1 {
            if let Some(term) = terms.pop() {
                return Check::One(term);
            }
        }
        Check::All(terms)
    }

    #[inline]
    pub(crate) fn matches(&mut self, pk: &str, rk: &Key, stored: &Stored) -> bool {
        match self {
            Check::One(term) => term.holds(&stored.properties),
            Check::All(terms) => terms.iter_mut().all(|t| t.holds(&stored.properties)),
            Check::Nothing => false,
            Check::General(expr) => {
                let row = RowOf {
                    partition_key: pk,
                    row_key: rk.as_str(),
                    timestamp: stored.timestamp,
                    properties: filter::Properties::Record(&stored.properties),
                };
                filter::eval_row(expr, &row)
            }
        }
    }
}

/// `name op literal` on stored records, `name` interned. Where the property sits in a record
/// depends only on the record's shape, so the position is looked up once per shape met (a
/// table's entities mostly share one) and kept with the shape's address (the table is
/// borrowed for the whole page, so no shape is freed or reused meanwhile).
pub(crate) struct Term<'p> {
    name: &'p Arc<str>,
    op: CmpOp,
    literal: &'p Value,
    /// With an Int32 literal (the usual bucket or counter filter): one range test.
    int_range: Option<IntRange>,
    /// The shape last met, and where the property is in it.
    shape: *const Shape,
    slot: Slot,
}

#[derive(Debug, Clone, Copy)]
enum Slot {
    /// The shape has no such property: the comparison is false whatever the operator.
    Missing,
    /// An Int32 property at this byte offset, and the literal is an Int32 too.
    Int32At(usize),
    /// Any other: the property's position, compared through the general comparison.
    At(usize),
}

impl<'p> Term<'p> {
    fn new(name: &'p Arc<str>, op: CmpOp, literal: &'p Value) -> Term<'p> {
        Term {
            name,
            op,
            literal,
            int_range: match literal {
                Value::Int32(l) => Some(IntRange::new(op, *l)),
                _ => None,
            },
            shape: std::ptr::null(),
            slot: Slot::Missing,
        }
    }

    #[inline(always)]
    fn holds(&mut self, record: &Record) -> bool {
        let shape = record.shape();
        if Arc::as_ptr(shape) != self.shape {
            self.shape = Arc::as_ptr(shape);
            self.slot = match shape.position(self.name) {
                None => Slot::Missing,
                Some(i)
                    if self.int_range.is_some()
                        && shape.types().get(i) == Some(&EdmType::Int32) =>
                {
                    Slot::Int32At(shape.offset(i))
                }
                Some(i) => Slot::At(i),
            };
        }
        match (self.slot, self.int_range) {
            (Slot::Int32At(at), Some(range)) => range.holds(record.int32_at(at)),
            (Slot::Missing, _) => false,
            (Slot::At(i), _) | (Slot::Int32At(i), None) => {
                filter::compare_ref(Some(record.value_at(i)), self.op, self.literal)
            }
        }
    }
}

#[cfg(test)]
#[path = "execute_tests.rs"]
mod tests;

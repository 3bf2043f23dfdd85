//! One page of a query on a Cosmos DB for Table table: results in the container's order
//! ([`Rule::InsertionOrder`]), a filter on a property answered from the index
//! ([`Rule::AutomaticIndex`]): only the entities the index names are read, every one checked
//! against the whole filter. Continuations in Cosmos's form ([`super::CosmosToken`]);
//! `$top` not capped ([`Rule::TopUncapped`]).
//!
//! [`Rule::InsertionOrder`]: super::Rule::InsertionOrder
//! [`Rule::AutomaticIndex`]: super::Rule::AutomaticIndex
//! [`Rule::TopUncapped`]: super::Rule::TopUncapped

use super::items::{IndexRead, Items, Pos, Positions};
use super::ru::RuEstimate;
use super::token::CosmosToken;
use crate::datetime::DateTime;
use crate::error::{Error, ErrorCode, Result};
use crate::found::Found;
use crate::key::Key;
use crate::query::{
    Check, Continuation, Plan, QueryKind, QueryOptions, QueryPage, QueryStats, MAX_PAGE,
};
use crate::record::Shape;
use crate::row_map::RowMap;
use crate::table::{Stored, Table};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Runs one page of `plan` over a Cosmos table whose bookkeeping is `items`.
pub(crate) fn execute_page(
    table: &Table,
    items: &Items,
    plan: Plan,
    options: &QueryOptions,
    trace: bool,
) -> Result<QueryPage> {
    if options.page_budget == Some(0) {
        return Err(Error::with_detail(
            ErrorCode::InvalidInput,
            crate::Detail::ScanBudget,
        ));
    }
    let start = options
        .continuation
        .as_ref()
        .map(CosmosToken::from_continuation)
        .transpose()?
        .map(|t| t.next);
    let mut plan = plan;
    crate::query::intern_names(&mut plan.filter, table);
    let mut read = IndexRead::default();
    let lookup = items.lookup(table, &plan.filter, &mut read);
    let mut check = Check::new(&plan, table);
    let mut page = Page {
        limit: u64::from(options.top.unwrap_or(MAX_PAGE)),
        budget: options.page_budget.unwrap_or(u64::MAX),
        select: options.projection().map(Arc::from),
        // Room for a full page at once, as storage's pages reserve it (given back below
        // when the page returned far less).
        entities: Vec::with_capacity(match plan.kind {
            QueryKind::Point => 1,
            _ => options.top.unwrap_or(MAX_PAGE).min(MAX_PAGE) as usize,
        }),
        stats: QueryStats {
            scanned: 0,
            returned: 0,
            partitions: 0,
            kind: plan.kind,
            continues_partition: false,
        },
        scanned_keys: trace.then(Vec::new),
        last_partition: None,
        read_ru: 0.0,
        names: None,
        seen: std::collections::BTreeSet::new(),
    };
    let continuation = if plan.partition_keys.is_empty() {
        None
    } else {
        let from = start.clone().unwrap_or_else(first_pos);
        let bounded = |p: &At| in_bounds(&plan, p.partition_key, p.row_key);
        match (&lookup, plan.partition_keys.single()) {
            // One comparison, one set (an `eq`): walked in place from the start.
            (Some(sets), _) if sets.len() == 1 && sets[0].len() == 1 => {
                let positions = sets[0][0].from(&from).inspect(|_| read.entries += 1);
                page.run(table, &mut check, positions.map(At::of).filter(bounded))
            }
            (Some(sets), _) => {
                let candidates = candidates(sets, &from, &mut read);
                page.run(
                    table,
                    &mut check,
                    candidates.iter().map(At::of).filter(bounded),
                )
            }
            // A token from another partition starts nowhere in this one.
            (None, Some(pk)) if start.as_ref().is_some_and(|s| &s.partition_key != pk) => None,
            (None, Some(pk)) => match items.partition(pk) {
                Some(rows) => {
                    let rows = rows.range((from.timestamp, from.row_key.clone())..);
                    let rows = rows.map(|(timestamp, rk)| At {
                        timestamp: *timestamp,
                        partition_key: pk,
                        row_key: rk,
                        stored: None,
                    });
                    page.run(table, &mut check, rows.filter(bounded))
                }
                // The partition's rows are in its order: walked in place.
                None => {
                    let rows = table.partitions().get(pk).into_iter();
                    let rows = rows.flat_map(|p| from_position(pk, &p.rows, &from));
                    let rows = rows.filter(|p| plan.row_keys.contains(p.row_key));
                    page.run(table, &mut check, rows)
                }
            },
            (None, None) => match items.order(table) {
                Some(order) => {
                    let positions = order.range(from.clone()..).map(At::of);
                    page.run(table, &mut check, positions.filter(bounded))
                }
                // The table's rows are in its order: each partition walked in place.
                None => {
                    let partitions = table.partitions().iter();
                    let partitions = partitions.filter(|(pk, _)| plan.partition_keys.contains(pk));
                    let rows = partitions.flat_map(|(pk, p)| from_position(pk, &p.rows, &from));
                    page.run(table, &mut check, rows.filter(bounded))
                }
            },
        }
    };
    // Pages walk insertion order here, so a partition may also come back on a later page
    // than the next one: the count over pages is exact only where partitions were written
    // one after another (see `query::distinct_partitions`).
    if let Some(next) = continuation.as_ref().map(CosmosToken::from_continuation) {
        page.stats.continues_partition = page.seen.contains(&next?.next.partition_key);
    }
    if page.entities.len() < page.entities.capacity() / 2 {
        page.entities.shrink_to_fit();
    }
    Ok(QueryPage {
        entities: page.entities,
        continuation,
        stats: page.stats,
        plan,
        scanned_keys: page.scanned_keys,
        index: Some(read),
        ru: Some(RuEstimate::query_of(page.read_ru)),
    })
}

/// The positions from `from` on that every conjunct's sets hold (their union per conjunct,
/// intersected), in order; counts the entries visited in `read`.
fn candidates(sets: &[Vec<&Positions>], from: &Pos, read: &mut IndexRead) -> BTreeSet<Pos> {
    let mut result: Option<BTreeSet<Pos>> = None;
    for conjunct in sets {
        let mut union = BTreeSet::new();
        for set in conjunct {
            for p in set.from(from) {
                read.entries += 1;
                if result.as_ref().is_none_or(|r| r.contains(p)) {
                    union.insert(p.clone());
                }
            }
        }
        result = Some(union);
    }
    result.unwrap_or_default()
}

fn first_pos() -> Pos {
    Pos {
        timestamp: DateTime::MIN,
        partition_key: Key::new(""),
        row_key: Key::new(""),
    }
}

/// Whether the plan's key bounds admit the entity with these keys.
fn in_bounds(plan: &Plan, pk: &Key, rk: &Key) -> bool {
    plan.partition_keys.contains(pk)
        && (plan.partition_keys.single().is_none() || plan.row_keys.contains(rk))
}

/// The rows of partition `pk` at or after `from` in the container's order, when the
/// partition's rows are in that order: those from the first at or after `from` on.
fn from_position<'a>(
    pk: &'a Key,
    rows: &'a RowMap,
    from: &'a Pos,
) -> impl Iterator<Item = At<'a>> + 'a {
    let start = (from.timestamp, &from.partition_key, &from.row_key);
    let at_or_after = move |(rk, s): &(Key, Stored)| (s.timestamp, pk, rk) >= start;
    // Rows before `from` in key order can be after it in the container's order only where
    // the key order is not that order, so the first row at or after `from` starts the rest.
    rows.from_first_where(at_or_after)
        .map(move |(rk, stored)| At {
            timestamp: stored.timestamp,
            partition_key: pk,
            row_key: rk,
            stored: Some(stored),
        })
}

/// A position to read, borrowed, with its row when the walk already holds it.
struct At<'a> {
    timestamp: DateTime,
    partition_key: &'a Key,
    row_key: &'a Key,
    stored: Option<&'a Stored>,
}

impl<'a> At<'a> {
    fn of(p: &'a Pos) -> At<'a> {
        At {
            timestamp: p.timestamp,
            partition_key: &p.partition_key,
            row_key: &p.row_key,
            stored: None,
        }
    }

    fn to_pos(&self) -> Pos {
        Pos {
            timestamp: self.timestamp,
            partition_key: self.partition_key.clone(),
            row_key: self.row_key.clone(),
        }
    }
}

struct Page {
    limit: u64,
    budget: u64,
    select: Option<Arc<[String]>>,
    entities: Vec<Found>,
    stats: QueryStats,
    scanned_keys: Option<Vec<(String, String)>>,
    last_partition: Option<Key>,
    /// The read estimate of every entity read, summed ([`super::ru::read_ru`]).
    read_ru: f64,
    /// The last shape read and the bytes of its names ([`super::ru::names_len`]).
    names: Option<(Arc<Shape>, usize)>,
    /// Partitions read from so far (the figure counts each once, as storage's does).
    seen: std::collections::BTreeSet<Key>,
}

impl Page {
    /// Reads the entities at `positions` in order until the page is full or its budget spent;
    /// returns the continuation at the first position not read, if any.
    fn run<'a>(
        &mut self,
        table: &'a Table,
        check: &mut Check,
        positions: impl Iterator<Item = At<'a>>,
    ) -> Option<Continuation> {
        let partitions = table.partitions();
        // The partition of the last entity looked up: the next is often in it too.
        let mut partition: Option<(&Key, &crate::table::Partition)> = None;
        for p in positions {
            if self.stats.returned >= self.limit || self.stats.scanned >= self.budget {
                return Some(CosmosToken { next: p.to_pos() }.to_continuation());
            }
            let stored = match p.stored {
                Some(stored) => stored,
                None => {
                    if partition.is_none_or(|(k, _)| k != p.partition_key) {
                        partition = partitions.get_key_value(p.partition_key);
                    }
                    let found = partition.and_then(|(_, part)| part.rows.get(p.row_key));
                    let Some(stored) = found else {
                        continue;
                    };
                    stored
                }
            };
            self.stats.scanned += 1;
            let shape = stored.properties.shape();
            let names = match &self.names {
                Some((last, len)) if Arc::ptr_eq(last, shape) => *len,
                _ => {
                    let len = super::ru::names_len(shape);
                    self.names = Some((shape.clone(), len));
                    len
                }
            };
            let (pk, rk) = (p.partition_key.as_str(), p.row_key.as_str());
            self.read_ru += super::ru::item_read_ru(pk, rk, names, &stored.properties);
            if self.last_partition.as_ref() != Some(p.partition_key) {
                if self.seen.insert(p.partition_key.clone()) {
                    self.stats.partitions += 1;
                }
                self.last_partition = Some(p.partition_key.clone());
            }
            if let Some(keys) = &mut self.scanned_keys {
                keys.push((p.partition_key.as_str().into(), p.row_key.as_str().into()));
            }
            if check.matches(p.partition_key.as_str(), p.row_key, stored) {
                self.stats.returned += 1;
                self.entities.push(Found::new(
                    p.partition_key,
                    p.row_key,
                    stored,
                    self.select.as_ref(),
                ));
            }
        }
        None
    }
}

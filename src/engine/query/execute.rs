//! Executes one page of a query, doing exactly the work the plan says.
//!
//! A page ends at `$top` (at most 1000) entities, or when its scan budget is spent, or when
//! the scan range is exhausted. In the first two cases, if any entity is left in the range,
//! the continuation names it (inclusive): the next page starts there. So a page may be short,
//! or empty, and still carry a continuation.

use super::plan::{Plan, QueryKind};
use crate::engine::entity::Entity;
use crate::engine::error::{Error, ErrorCode, Result};
use crate::engine::filter::{self, Row};
use crate::engine::key::Key;
use crate::engine::table::{Stored, Table};
use serde::{Deserialize, Serialize};
use std::ops::Bound;

/// The service's largest page.
pub const MAX_PAGE: u32 = 1000;

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

/// What a page cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryStats {
    pub scanned: u64,
    pub returned: u64,
    /// Partitions from which at least one entity was scanned.
    pub partitions: u64,
    pub kind: QueryKind,
}

/// One page of results.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryPage {
    /// Entities in PartitionKey, RowKey order, holding only the selected properties.
    pub entities: Vec<Entity>,
    pub continuation: Option<Continuation>,
    pub stats: QueryStats,
    pub plan: Plan,
    /// Keys of every scanned entity, when asked for (the partition map draws them).
    pub scanned_keys: Option<Vec<(String, String)>>,
}

/// Runs one page of `plan` over `table`. `trace` records the keys of scanned entities.
pub fn execute_page(
    table: &Table,
    plan: Plan,
    options: &QueryOptions,
    trace: bool,
) -> Result<QueryPage> {
    let limit = options.top.unwrap_or(MAX_PAGE);
    if limit > MAX_PAGE {
        return Err(Error::with_detail(
            ErrorCode::InvalidInput,
            format!("$top may be at most {MAX_PAGE}"),
        ));
    }
    if options.page_budget == Some(0) {
        return Err(Error::with_detail(
            ErrorCode::InvalidInput,
            "the page's scan budget must be at least 1",
        ));
    }
    let budget = options.page_budget.unwrap_or(u64::MAX);
    let select = options.select.as_deref().filter(|s| !s.is_empty());

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
        },
        plan,
        scanned_keys: trace.then(Vec::new),
    };
    if pk_range.is_empty() {
        return Ok(page);
    }
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
        let mut touched = false;
        for (rk, stored) in partition.rows.range::<Key, _>(rk_range.as_refs()) {
            if page.stats.returned >= u64::from(limit) || page.stats.scanned >= budget {
                page.continuation = Some(Continuation {
                    next_partition_key: pk.as_str().to_string(),
                    next_row_key: rk.as_str().to_string(),
                });
                break 'partitions;
            }
            page.stats.scanned += 1;
            if !touched {
                touched = true;
                page.stats.partitions += 1;
            }
            if let Some(keys) = &mut page.scanned_keys {
                keys.push((pk.as_str().to_string(), rk.as_str().to_string()));
            }
            if matches(&page.plan, pk, rk, stored) {
                page.entities.push(project(pk, rk, stored, select));
                page.stats.returned += 1;
            }
        }
    }
    Ok(page)
}

/// Points the filter's property names at the table's own interned names, so the evaluator's
/// pointer-equality check finds a property without comparing text.
fn intern_names(e: &mut filter::Expr, table: &Table) {
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

fn matches(plan: &Plan, pk: &Key, rk: &Key, stored: &Stored) -> bool {
    let row = Row {
        partition_key: pk.as_str(),
        row_key: rk.as_str(),
        timestamp: stored.timestamp,
        properties: &stored.properties,
    };
    filter::eval(&plan.filter, &row)
}

/// The entity with only the selected properties (keys and Timestamp always kept: the JSON
/// form decides which system properties to show).
fn project(pk: &Key, rk: &Key, stored: &Stored, select: Option<&[String]>) -> Entity {
    let properties = match select {
        None => stored.properties.to_vec(),
        Some(names) => stored
            .properties
            .iter()
            .filter(|(n, _)| names.iter().any(|s| s.as_str() == &**n))
            .cloned()
            .collect(),
    };
    Entity {
        partition_key: pk.as_str().to_string(),
        row_key: rk.as_str().to_string(),
        timestamp: Some(stored.timestamp),
        properties,
    }
}

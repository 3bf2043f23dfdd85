//! The partition map: a table's partitions as rows of cells, each cell one entity (or, for
//! large tables, a bucket of consecutive entities), coloured by what the last query did:
//! returned (green), scanned but filtered out (amber), untouched (grey). "Scanned 10,000,
//! returned 5" becomes a picture.
//!
//! Reusable: give [`PartitionMap`] the table's keys ([`MapRows`], e.g. from
//! [`rows_of`]) and a query's scanned and returned keys; it aggregates on its own.

use crate::engine::{cmp_utf16, Request, Response, Table};
use crate::i18n::{msg, number, t};
use leptos::prelude::*;
use std::collections::HashMap;

/// The lessons' and the partition map's stylesheet (www/teach.css). Not part of the page load:
/// the playground adds it when the Learn section or a partition map is first shown
/// (`dynamic::stylesheet`), and a docs embed's start script adds it before the lesson mounts.
pub const STYLESHEET: &str = "teach.css";

/// A table's keys: each partition's key with its RowKeys, both in the service's order.
pub type MapRows = Vec<(String, Vec<String>)>;

/// (PartitionKey, RowKey) pairs.
pub type Keys = Vec<(String, String)>;

/// At most this many cells are drawn; beyond it, a cell stands for a bucket of entities.
pub const MAX_CELLS: usize = 1_500;
/// At most about this many rows are drawn; past it, untouched partitions share rows (bands).
pub const MAX_PARTITIONS: usize = 60;

/// The keys of a table, in order.
pub fn rows_of(table: &Table) -> MapRows {
    table
        .partitions()
        .iter()
        .map(|(pk, p)| {
            (
                pk.as_str().to_string(),
                p.rows.keys().map(|rk| rk.as_str().to_string()).collect(),
            )
        })
        .collect()
}

/// The request to read for a query page's map: the same page with `trace` on and without
/// `$select`, so the answer lists every scanned key and each returned entity carries its keys
/// (a query only reads, so it is the same page). `None` for anything but a query.
pub fn map_request(request: &Request) -> Option<Request> {
    let mut request = request.clone();
    let Request::Query { select, trace, .. } = &mut request else {
        return None;
    };
    *select = None;
    *trace = true;
    Some(request)
}

/// The keys a page read as [`map_request`] asks scanned, and the keys it returned.
pub fn page_keys(response: &Response) -> (Keys, Keys) {
    let returned = response
        .entities
        .iter()
        .flatten()
        .filter_map(|e| {
            let (pk, rk) = e.keys()?;
            Some((pk.to_string(), rk.to_string()))
        })
        .collect();
    (response.scanned_keys.clone().unwrap_or_default(), returned)
}

/// One drawn cell: `rows` entities, of which `scanned` were scanned and `returned` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    pub rows: u32,
    pub scanned: u32,
    pub returned: u32,
}

impl Cell {
    /// `returned`, `scanned` or `untouched`: what most deserves attention in the cell.
    pub fn state(&self) -> &'static str {
        if self.returned > 0 {
            "returned"
        } else if self.scanned > 0 {
            "scanned"
        } else {
            "untouched"
        }
    }

    /// The share of the cell's entities in its state, in percent (100 for single-entity
    /// cells). Integers only: formatting floats would pull more code into the wasm.
    pub fn percent(&self) -> u32 {
        let n = match self.state() {
            "returned" => self.returned,
            "scanned" => self.scanned,
            _ => return 100,
        };
        n * 100 / self.rows.max(1)
    }
}

/// One drawn row: a single partition, or, in a table of more than [`MAX_PARTITIONS`]
/// partitions, a band of consecutive partitions drawn as one (`last_key` is then the band's
/// last PartitionKey and `partitions` its size).
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionRow {
    pub partition_key: String,
    pub last_key: Option<String>,
    pub partitions: usize,
    pub entities: usize,
    pub scanned: usize,
    pub returned: usize,
    pub cells: Vec<Cell>,
}

/// Everything the map draws.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapData {
    /// Every partition of the table, in key order, alone or in a band.
    pub partitions: Vec<PartitionRow>,
    /// Entities per cell (1 when the table is small).
    pub bucket: usize,
    pub entities: usize,
    pub scanned: usize,
    pub returned: usize,
}

/// Lays out the map: marks each scanned and returned key at its position in its partition.
/// Keys not in `rows` (e.g. deleted since) are ignored.
///
/// Invariant: every partition of `rows` is drawn, in key order, so a scanned or returned entity
/// is always visible, whichever partition holds it. Up to [`MAX_PARTITIONS`] partitions each
/// get a row; beyond that the partitions the query touched get rows of their own (those that
/// returned entities first, when there are too many) and the others are drawn in bands of
/// consecutive partitions.
pub fn layout(
    rows: &MapRows,
    scanned: &[(String, String)],
    returned: &[(String, String)],
) -> MapData {
    let entities: usize = rows.iter().map(|(_, r)| r.len()).sum();
    let bucket = entities.div_ceil(MAX_CELLS).max(1);
    // Partitions by key; inside one, a RowKey is found by binary search, as `rows` holds
    // each partition's RowKeys in the service's order (UTF-16 ordinal).
    let index: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(p, (pk, _))| (pk.as_str(), p))
        .collect();
    let position = |(pk, rk): &(String, String)| {
        let &p = index.get(pk.as_str())?;
        let i = rows.get(p)?.1.binary_search_by(|k| cmp_utf16(k, rk)).ok()?;
        Some((p, i))
    };
    let scanned: Vec<(usize, usize)> = scanned.iter().filter_map(position).collect();
    let returned: Vec<(usize, usize)> = returned.iter().filter_map(position).collect();
    let mut touched = vec![(0usize, 0usize); rows.len()];
    for &(p, _) in &scanned {
        touched[p].0 += 1;
    }
    for &(p, _) in &returned {
        touched[p].1 += 1;
    }
    let groups = group_partitions(&touched);

    // Each partition's drawn row and the offset of its first entity in that row.
    let mut place = vec![(0usize, 0usize); rows.len()];
    let mut partitions: Vec<PartitionRow> = Vec::with_capacity(groups.len());
    for group in &groups {
        let mut offset = 0;
        for p in group.clone() {
            place[p] = (partitions.len(), offset);
            offset += rows[p].1.len();
        }
        let key = |p: usize| rows[p].0.clone();
        partitions.push(PartitionRow {
            partition_key: key(group.start),
            last_key: (group.len() > 1).then(|| key(group.end - 1)),
            partitions: group.len(),
            entities: offset,
            scanned: 0,
            returned: 0,
            cells: (0..offset.div_ceil(bucket))
                .map(|c| Cell {
                    rows: (offset - c * bucket).min(bucket) as u32,
                    ..Cell::default()
                })
                .collect(),
        });
    }
    let mut mark = |keys: &[(usize, usize)], returned: bool| {
        for &(p, i) in keys {
            let (r, offset) = place[p];
            let Some(row) = partitions.get_mut(r) else {
                continue;
            };
            let Some(cell) = row.cells.get_mut((offset + i) / bucket) else {
                continue;
            };
            if returned {
                row.returned += 1;
                cell.returned += 1;
            } else {
                row.scanned += 1;
                cell.scanned += 1;
            }
        }
    };
    mark(&scanned, false);
    mark(&returned, true);
    MapData {
        partitions,
        bucket,
        entities,
        scanned: scanned.len(),
        returned: returned.len(),
    }
}

/// The drawn rows as ranges of partition indexes, in order, covering every partition once.
/// `touched[p]` is (scanned, returned) in partition `p`.
fn group_partitions(touched: &[(usize, usize)]) -> Vec<std::ops::Range<usize>> {
    let n = touched.len();
    if n <= MAX_PARTITIONS {
        return (0..n).map(|p| p..p + 1).collect();
    }
    // Rows of their own: every touched partition when they are few, else those that returned
    // entities, at most half the rows either way.
    let own_budget = MAX_PARTITIONS / 2;
    let touched_count = touched.iter().filter(|t| t.0 + t.1 > 0).count();
    let own: Vec<bool> = if touched_count <= own_budget {
        touched.iter().map(|t| t.0 + t.1 > 0).collect()
    } else {
        let mut left = own_budget;
        touched
            .iter()
            .map(|t| {
                let mine = t.1 > 0 && left > 0;
                left -= usize::from(mine);
                mine
            })
            .collect()
    };
    let own_count = own.iter().filter(|o| **o).count();
    let band = (n - own_count).div_ceil(MAX_PARTITIONS - own_count).max(1);
    let mut groups = Vec::new();
    let mut p = 0;
    while p < n {
        if own[p] {
            groups.push(p..p + 1);
            p += 1;
            continue;
        }
        let start = p;
        while p < n && !own[p] && p - start < band {
            p += 1;
        }
        groups.push(start..p);
    }
    groups
}

/// The map of one table for one query.
#[component]
pub fn PartitionMap(
    /// The table's keys (every partition with its RowKeys, in order).
    #[prop(into)]
    rows: Signal<MapRows>,
    /// The (PartitionKey, RowKey) of every entity the query scanned (`Response::scanned_keys`).
    #[prop(into)]
    scanned: Signal<Vec<(String, String)>>,
    /// The keys of the entities it returned.
    #[prop(into)]
    returned: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    let data =
        Memo::new(move |_| rows.with(|r| scanned.with(|s| returned.with(|ret| layout(r, s, ret)))));
    view! { <MapView data=data /> }
}

/// The map drawn from a finished [`layout`] (for callers that lay it out themselves).
#[component]
pub fn MapView(#[prop(into)] data: Signal<MapData>) -> impl IntoView {
    // The map's CSS comes with the lessons' (teach.css), loaded when a map is first drawn.
    crate::ui::kit::dynamic::stylesheet(STYLESHEET);
    move || {
        let d = data.get();
        let unit = if d.bucket == 1 {
            msg::map_unit_one()
        } else {
            msg::map_unit_many(number(d.bucket))
        };
        let summary = msg::map_summary(
            msg::count_entities(d.entities),
            number(d.returned),
            number(d.scanned),
        );
        view! {
            <figure
                class="partition-map"
                data-bucket=d.bucket
                data-scanned=d.scanned
                data-returned=d.returned
            >
                <figcaption>
                    <strong class="map-summary">{summary}</strong>
                    <span class="map-legend">
                        <span class="legend-item">
                            <span class="swatch returned"></span>
                            {t(msg::map_returned)}
                        </span>
                        <span class="legend-item">
                            <span class="swatch scanned"></span>
                            {t(msg::map_filtered)}
                        </span>
                        <span class="legend-item">
                            <span class="swatch untouched"></span>
                            {t(msg::map_not_read)}
                        </span>
                    </span>
                    <span class="map-unit">{unit}</span>
                </figcaption>
                <div class="map-rows">
                    {d.partitions.into_iter().map(partition_row).collect_view()}
                </div>
            </figure>
        }
    }
}

fn partition_row(p: PartitionRow) -> impl IntoView {
    let label = match &p.last_key {
        Some(last) => format!("{} … {}", p.partition_key, last),
        None => p.partition_key.clone(),
    };
    let title = match &p.last_key {
        Some(_) => msg::map_row_title_many(
            msg::count_entities(p.entities),
            &label,
            msg::count_partitions(p.partitions),
            number(p.returned),
            number(p.scanned),
        ),
        None => msg::map_row_title(
            msg::count_entities(p.entities),
            &p.partition_key,
            number(p.returned),
            number(p.scanned),
        ),
    };
    view! {
        <div
            class="map-partition"
            data-partition=p.partition_key.clone()
            data-partitions=p.partitions
            title=title
        >
            <span class="map-pk" dir="ltr">{label}</span>
            <span class="map-cells">
                {p
                    .cells
                    .into_iter()
                    .map(|c| {
                        let style = format!("--p:{}", c.percent());
                        view! { <i class="map-cell" data-state=c.state() style=style></i> }
                    })
                    .collect_view()}
            </span>
        </div>
    }
}

//! The partition map: a table's partitions as rows of cells, each cell one entity (or, for
//! large tables, a bucket of consecutive entities), coloured by what the last query did:
//! returned (green), scanned but filtered out (amber), untouched (grey). "Scanned 10,000,
//! returned 5" becomes a picture.
//!
//! Reusable: give [`PartitionMap`] the table's keys ([`MapRows`], e.g. from
//! [`rows_of`]) and a query's scanned and returned keys; it aggregates on its own.

use crate::engine::{cmp_utf16, Request, Response, Table};
use leptos::prelude::*;
use std::collections::HashMap;

/// A table's keys: each partition's key with its RowKeys, both in the service's order.
pub type MapRows = Vec<(String, Vec<String>)>;

/// (PartitionKey, RowKey) pairs.
pub type Keys = Vec<(String, String)>;

/// At most this many cells are drawn; beyond it, a cell stands for a bucket of entities.
pub const MAX_CELLS: usize = 1_500;
/// At most this many partitions are drawn as rows; the rest are summed in one line.
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

/// One partition's drawn row.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionRow {
    pub partition_key: String,
    pub entities: usize,
    pub scanned: usize,
    pub returned: usize,
    pub cells: Vec<Cell>,
}

/// Everything the map draws.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapData {
    pub partitions: Vec<PartitionRow>,
    /// Entities per cell (1 when the table is small).
    pub bucket: usize,
    pub entities: usize,
    pub scanned: usize,
    pub returned: usize,
    /// Partitions not drawn, and what was scanned and returned in them.
    pub hidden_partitions: usize,
    pub hidden_scanned: usize,
    pub hidden_returned: usize,
}

/// Lays out the map: marks each scanned and returned key at its position in its partition.
/// Keys not in `rows` (e.g. deleted since) are ignored.
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
    let mut partitions: Vec<PartitionRow> = rows
        .iter()
        .map(|(pk, rks)| PartitionRow {
            partition_key: pk.clone(),
            entities: rks.len(),
            scanned: 0,
            returned: 0,
            cells: (0..rks.len().div_ceil(bucket))
                .map(|c| Cell {
                    rows: (rks.len() - c * bucket).min(bucket) as u32,
                    ..Cell::default()
                })
                .collect(),
        })
        .collect();
    let mut mark = |keys: &[(String, String)], returned: bool| {
        let mut total = 0;
        for (pk, rk) in keys {
            let Some(&p) = index.get(pk.as_str()) else {
                continue;
            };
            let Ok(i) = rows[p].1.binary_search_by(|k| cmp_utf16(k, rk)) else {
                continue;
            };
            let Some(row) = partitions.get_mut(p) else {
                continue;
            };
            let Some(cell) = row.cells.get_mut(i / bucket) else {
                continue;
            };
            total += 1;
            if returned {
                row.returned += 1;
                cell.returned += 1;
            } else {
                row.scanned += 1;
                cell.scanned += 1;
            }
        }
        total
    };
    let scanned_total = mark(scanned, false);
    let returned_total = mark(returned, true);
    let mut data = MapData {
        bucket,
        entities,
        scanned: scanned_total,
        returned: returned_total,
        ..MapData::default()
    };
    if partitions.len() > MAX_PARTITIONS {
        for hidden in partitions.split_off(MAX_PARTITIONS) {
            data.hidden_partitions += 1;
            data.hidden_scanned += hidden.scanned;
            data.hidden_returned += hidden.returned;
        }
    }
    data.partitions = partitions;
    data
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
    move || {
        let d = data.get();
        let unit = if d.bucket == 1 {
            "Each square is one entity.".to_string()
        } else {
            format!(
                "Each square is {} consecutive entities, shaded by the share scanned or returned.",
                d.bucket
            )
        };
        let summary = format!(
            "{} of {} scanned, {} returned",
            fmt_count(d.scanned),
            plural(d.entities, "entity", "entities"),
            fmt_count(d.returned)
        );
        let hidden = (d.hidden_partitions > 0).then(|| {
            format!(
                "… and {} more ({} scanned, {} returned there).",
                plural(d.hidden_partitions, "partition", "partitions"),
                fmt_count(d.hidden_scanned),
                fmt_count(d.hidden_returned)
            )
        });
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
                            "returned"
                        </span>
                        <span class="legend-item">
                            <span class="swatch scanned"></span>
                            "scanned, filtered out"
                        </span>
                        <span class="legend-item">
                            <span class="swatch untouched"></span>
                            "not read"
                        </span>
                    </span>
                    <span class="map-unit">{unit}</span>
                </figcaption>
                <div class="map-rows">
                    {d.partitions.into_iter().map(partition_row).collect_view()}
                </div>
                {hidden.map(|h| view! { <p class="map-hidden">{h}</p> })}
            </figure>
        }
    }
}

fn partition_row(p: PartitionRow) -> impl IntoView {
    let title = format!(
        "{}: {} ({} scanned, {} returned)",
        p.partition_key,
        plural(p.entities, "entity", "entities"),
        p.scanned,
        p.returned
    );
    view! {
        <div class="map-partition" data-partition=p.partition_key.clone() title=title>
            <span class="map-pk">{p.partition_key.clone()}</span>
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

/// `12,345`.
pub fn fmt_count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", fmt_count(n), if n == 1 { one } else { many })
}

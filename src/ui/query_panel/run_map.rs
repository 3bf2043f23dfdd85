//! The partition map of the current run in the query panel: which entities the run's pages
//! scanned and which they returned, drawn over the table's partitions.
//!
//! Tracing records every scanned key, so it is opt-out: the learner can switch the map off
//! for very large scans.

use crate::engine::{Account, Request, Response};
use crate::ui::teach::{returned_keys, rows_of, MapRows, PartitionMap};
use leptos::prelude::*;

/// What the map draws for one run: the table's keys when its latest page ran, and the keys
/// scanned and returned over all its pages so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunTrace {
    pub rows: MapRows,
    pub scanned: Vec<(String, String)>,
    pub returned: Vec<(String, String)>,
}

impl RunTrace {
    /// Adds one page: `response` is the page as run (with `trace` on); `returned` are the
    /// keys it returned.
    pub fn add_page(
        &mut self,
        rows: MapRows,
        response: &Response,
        returned: Vec<(String, String)>,
    ) {
        self.rows = rows;
        self.scanned
            .extend(response.scanned_keys.iter().flatten().cloned());
        self.returned.extend(returned);
    }
}

/// The keys a traced page returned. With `$select` the entities may lack their keys, so the
/// same page is read again without it (a query only reads: the page is the same).
pub fn page_keys(
    read: impl Fn(&Request) -> Response,
    request: &Request,
    response: &Response,
) -> Vec<(String, String)> {
    match request {
        Request::Query {
            select: Some(_), ..
        } => {
            let mut whole = request.clone();
            if let Request::Query { select, .. } = &mut whole {
                *select = None;
            }
            returned_keys(&read(&whole))
        }
        _ => returned_keys(response),
    }
}

/// The keys of `table` in `account`, in the service's order (empty when it is gone).
pub fn table_rows(account: &Account, table: &str) -> MapRows {
    account.table(table).map(rows_of).unwrap_or_default()
}

/// The map panel: a switch, and the map of the current run while the switch is on.
#[component]
pub fn RunMap(
    /// Whether runs record their scanned keys and the map is drawn.
    enabled: RwSignal<bool>,
    trace: RwSignal<Option<RunTrace>>,
) -> impl IntoView {
    let rows = Signal::derive(move || trace.with(|t| t.as_ref().map(|t| t.rows.clone())));
    let scanned = Signal::derive(move || {
        trace.with(|t| t.as_ref().map(|t| t.scanned.clone()).unwrap_or_default())
    });
    let returned = Signal::derive(move || {
        trace.with(|t| t.as_ref().map(|t| t.returned.clone()).unwrap_or_default())
    });
    view! {
        <section class="panel run-map" aria-labelledby="run-map-heading">
            <div class="run-map-head">
                <h2 id="run-map-heading">"Partition map"</h2>
                <label class="inline-check">
                    <input
                        type="checkbox"
                        id="run-map-enabled"
                        prop:checked=move || enabled.get()
                        on:change=move |ev| enabled.set(event_target_checked(&ev))
                    />
                    "Draw what each run scanned"
                </label>
            </div>
            {move || {
                if !enabled.get() {
                    return view! {
                        <p class="muted">"Off: runs do not record their scanned keys. Switch it on and run the query again."</p>
                    }
                    .into_any();
                }
                match rows.get() {
                    Some(rows) => view! {
                        <PartitionMap rows=Signal::stored(rows) scanned=scanned returned=returned />
                    }
                    .into_any(),
                    None => view! { <p class="muted">"Run the query again to draw its map."</p> }.into_any(),
                }
            }}
        </section>
    }
}

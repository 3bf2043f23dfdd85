//! The partition map of the current run in the query panel: which entities the run's pages
//! scanned and which they returned, drawn over the table's partitions.
//!
//! Tracing records every scanned key, so it is opt-out: the learner can switch the map off
//! for very large scans. Only the laid-out map (at most a few thousand cells) is reactive; the
//! keys stay out of signals, so a 100,000-entity scan is not copied on every read.

use crate::engine::{Request, Response};
use crate::i18n::{msg, t};
use crate::ui::state::AppState;
use crate::ui::widgets::partition_map::{
    layout, map_request, page_keys, rows_of, MapData, MapRows, MapView,
};
use leptos::prelude::*;

/// The keys a run's pages scanned and returned so far.
#[derive(Debug, Clone, Default, PartialEq)]
struct RunKeys {
    scanned: Vec<(String, String)>,
    returned: Vec<(String, String)>,
}

/// A table's keys as of one revision of the account.
struct CachedRows {
    table: String,
    revision: u64,
    rows: MapRows,
}

/// The map's state, shared by the query panel (which records pages) and [`RunMap`].
#[derive(Clone, Copy)]
pub struct RunMapState {
    /// Whether runs record their scanned keys and the map is drawn.
    pub enabled: RwSignal<bool>,
    data: RwSignal<Option<MapData>>,
    keys: StoredValue<RunKeys>,
    /// Invariant: when set, `rows` are the keys of `table` at `revision`, so a run on an
    /// unchanged table does not list its keys again.
    rows: StoredValue<Option<CachedRows>, LocalStorage>,
}

impl RunMapState {
    pub fn new() -> Self {
        RunMapState {
            enabled: RwSignal::new(true),
            data: RwSignal::new(None),
            keys: StoredValue::new(RunKeys::default()),
            rows: StoredValue::new_local(None),
        }
    }

    /// Whether the next run should trace its scanned keys.
    pub fn tracing(&self) -> bool {
        self.enabled.get_untracked()
    }

    /// Adds a page run with `trace` on to the map (`first`: the run's first page, which
    /// starts a new map). `request` is the page's request, `response` its answer.
    pub fn record(&self, state: AppState, request: &Request, response: &Response, first: bool) {
        let Request::Query { table, select, .. } = request else {
            return;
        };
        // With $select the entities may lack their keys: the page is read again for the map.
        let (scanned, returned) = match (select, map_request(request)) {
            (Some(_), Some(whole)) => page_keys(&state.read(&whole)),
            _ => page_keys(response),
        };
        self.keys.update_value(|k| {
            if first {
                *k = RunKeys::default();
            }
            k.scanned.extend(scanned);
            k.returned.extend(returned);
        });
        let revision = state.revision();
        self.rows.update_value(|cached| {
            let fresh = cached
                .as_ref()
                .is_some_and(|c| c.table == *table && c.revision == revision);
            if !fresh {
                let rows = state
                    .inspect(|a| a.table(table).map(rows_of).unwrap_or_default())
                    .unwrap_or_default();
                *cached = Some(CachedRows {
                    table: table.clone(),
                    revision,
                    rows,
                });
            }
        });
        let data = self.rows.with_value(|cached| {
            let rows = cached.as_ref().map(|c| &c.rows);
            self.keys
                .with_value(|k| rows.map(|rows| layout(rows, &k.scanned, &k.returned)))
        });
        self.data.set(data);
    }

    /// Forgets the map (a run without tracing, or one that failed).
    pub fn clear(&self) {
        self.keys.set_value(RunKeys::default());
        self.data.set(None);
    }
}

/// The map panel: a switch, and the map of the current run while the switch is on.
#[component]
pub fn RunMap(map: RunMapState) -> impl IntoView {
    let enabled = map.enabled;
    view! {
        <section class="panel run-map" aria-labelledby="run-map-heading">
            <div class="run-map-head">
                <h2 id="run-map-heading">{t(msg::query_map_heading)}</h2>
                <label class="inline-check">
                    <input
                        type="checkbox"
                        id="run-map-enabled"
                        prop:checked=move || enabled.get()
                        on:change=move |ev| enabled.set(event_target_checked(&ev))
                    />
                    {t(msg::query_map_enable)}
                </label>
            </div>
            {move || {
                if !enabled.get() {
                    return view! {
                        <p class="muted">{t(msg::query_map_off)}</p>
                    }
                    .into_any();
                }
                match map.data.get() {
                    Some(data) => view! { <MapView data=Signal::stored(data) /> }.into_any(),
                    None => view! { <p class="muted">{t(msg::query_map_run_again)}</p> }.into_any(),
                }
            }}
        </section>
    }
}

//! "Try your own query": a `$filter` box under a lesson's steps that runs on the lesson's own
//! account, so a reader of a docs embed can change the query and see what it costs, with the
//! same figures and partition map as the steps.

use crate::engine::scenario::Runner;
use crate::engine::{Error, Request};
use crate::i18n::{msg, t};
use crate::ui::widgets::error_notice::ErrorNotice;
use crate::ui::widgets::partition_map::{page_keys, rows_of, PartitionMap};
use leptos::prelude::*;

/// What one try showed: the first page's figures and the map.
#[derive(Debug, Clone, PartialEq)]
struct Tried {
    kind: &'static str,
    scanned: u64,
    returned: u64,
    partitions: u64,
    more: bool,
    summary: String,
    rows: Vec<(String, Vec<String>)>,
    scanned_keys: Vec<(String, String)>,
    returned_keys: Vec<(String, String)>,
}

/// The query box. `revision` changes whenever the lesson's steps run or reset, so the table
/// list follows the lesson's account.
#[component]
pub fn TryQuery(
    runner: StoredValue<Runner, LocalStorage>,
    #[prop(into)] revision: Signal<usize>,
) -> impl IntoView {
    let tables = move || {
        revision.track();
        runner
            .try_with_value(|r| {
                r.account
                    .tables()
                    .map(|t| t.name.clone())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    let chosen = RwSignal::new(String::new());
    let filter = RwSignal::new(String::new());
    let error = RwSignal::new(None::<Error>);
    let tried = RwSignal::new(None::<Tried>);
    // The chosen table, or the lesson's first one until the reader picks.
    let table = move || {
        let c = chosen.get();
        let names = tables();
        if names.contains(&c) {
            c
        } else {
            names.first().cloned().unwrap_or_default()
        }
    };
    let run = move || {
        let name = table();
        let request = Request::Query {
            table: name.clone(),
            filter: Some(filter.get_untracked()).filter(|f| !f.trim().is_empty()),
            select: None,
            top: None,
            continuation: None,
            page_budget: None,
            trace: true,
        };
        let outcome = runner.try_update_value(|r| {
            let response = r.account.execute(&request);
            if let Some(e) = response.error.clone() {
                return Err(e);
            }
            let stats = response.stats;
            // Run with `trace` on and no `$select`: the page is its own map.
            let (scanned_keys, returned_keys) = page_keys(&response);
            Ok(Tried {
                kind: stats.map_or("", |s| s.kind.label()),
                scanned: stats.map_or(0, |s| s.scanned),
                returned: stats.map_or(0, |s| s.returned),
                partitions: stats.map_or(0, |s| s.partitions),
                more: response.continuation.is_some(),
                summary: response
                    .explain
                    .as_ref()
                    .map(|e| e.summary.to_string())
                    .unwrap_or_default(),
                rows: r.account.table(&name).map(rows_of).unwrap_or_default(),
                scanned_keys,
                returned_keys,
            })
        });
        match outcome {
            Some(Ok(t)) => {
                error.set(None);
                tried.set(Some(t));
            }
            Some(Err(e)) => {
                tried.set(None);
                error.set(Some(e));
            }
            None => {}
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run();
        }
    };
    view! {
        <section class="try-query" aria-label=t(msg::try_heading) hidden=move || tables().is_empty()>
            <h4>{t(msg::try_heading)}</h4>
            <p class="hint">{t(msg::try_hint)}</p>
            <div class="try-form" on:keydown=on_key>
                <label class="try-table">
                    {t(msg::try_table)}
                    <select
                        class="try-table-select"
                        prop:value=table
                        on:change=move |ev| chosen.set(event_target_value(&ev))
                    >
                        {move || {
                            tables().into_iter()
                                .map(|name| view! { <option value=name.clone()>{name.clone()}</option> })
                                .collect_view()
                        }}
                    </select>
                </label>
                <input
                    type="text"
                    class="try-filter"
                    aria-label="$filter"
                    dir="ltr"
                    placeholder=t(filter_placeholder)
                    prop:value=move || filter.get()
                    on:input=move |ev| filter.set(event_target_value(&ev))
                />
                <button type="button" class="primary try-run" on:click=move |_| run()>
                    {t(msg::try_run)}
                </button>
            </div>
            <ErrorNotice error=error />
            {move || {
                tried
                    .get()
                    .map(|t| {
                        let figures = format!(
                            "{}: scanned {}, returned {}, {} partition{} touched{}",
                            t.kind,
                            t.scanned,
                            t.returned,
                            t.partitions,
                            if t.partitions == 1 { "" } else { "s" },
                            if t.more { "; the first page only (a continuation token follows)" } else { "" },
                        );
                        view! {
                            <div class="try-result" data-kind=t.kind data-scanned=t.scanned data-returned=t.returned>
                                <p class="try-figures"><strong>{figures}</strong></p>
                                <p class="try-summary">{t.summary}</p>
                                <PartitionMap
                                    rows=Signal::stored(t.rows)
                                    scanned=Signal::stored(t.scanned_keys)
                                    returned=Signal::stored(t.returned_keys)
                                />
                            </div>
                        }
                    })
            }}
        </section>
    }
}

/// The filter field's example (a filter: data, never translated).
fn filter_placeholder() -> String {
    msg::try_placeholder("PartitionKey eq 'Books'")
}

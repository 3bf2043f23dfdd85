//! The runs of this session on the connection, newest first: each query (with the pages read
//! since by Next page) and each comparison, with what it read, how long it took, and a button
//! that puts its table and options back in the editor.
//!
//! Invariants: a run's figures are those of the requests it made (the service reports no
//! scanned count, so there is none here); the list keeps the last [`KEPT`] runs, in memory
//! only; a run's table, filter and options are the user's text, shown as text.

use super::query::Options;
use super::remote::Failure;
use crate::i18n::{self, msg, t};
use leptos::prelude::*;

/// Runs kept, the newest.
const KEPT: usize = 50;

#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// 1 for the session's first run.
    pub number: usize,
    pub table: String,
    pub options: Options,
    /// Pages and entities read from the connection.
    pub pages: usize,
    pub entities: usize,
    /// A comparison's number of differences (`None`: a query, or a side failed).
    pub differences: Option<usize>,
    /// What stopped the run: the service's status and code, or no answer.
    pub failure: Option<Failure>,
    /// Time spent waiting for the run's requests, in milliseconds.
    pub millis: f64,
}

/// The session's runs, and the recording of new ones.
#[derive(Debug, Clone, Copy)]
pub struct Runs(RwSignal<Vec<RunRecord>>);

impl Runs {
    pub fn new() -> Runs {
        Runs(RwSignal::new(Vec::new()))
    }

    /// Records a run (its `number` is assigned here) and returns that number.
    pub fn add(self, mut run: RunRecord) -> usize {
        let mut number = 0;
        self.0.update(|runs| {
            number = runs.last().map_or(1, |r| r.number + 1);
            run.number = number;
            runs.push(run);
            if runs.len() > KEPT {
                runs.remove(0);
            }
        });
        number
    }

    /// Adds a page read by Next page to run `number`.
    pub fn add_page(self, number: usize, entities: usize, millis: f64, failure: Option<Failure>) {
        self.0.update(|runs| {
            if let Some(r) = runs.iter_mut().find(|r| r.number == number) {
                if failure.is_none() {
                    r.pages += 1;
                    r.entities += entities;
                }
                r.millis += millis;
                r.failure = failure;
            }
        });
    }
}

/// The history table; `on_use` puts a run's query back in the editor.
#[component]
pub fn History(runs: Runs, on_use: Callback<RunRecord>) -> impl IntoView {
    let list = runs.0;
    view! {
        <section class="connect-history" aria-labelledby="connect-history-heading" hidden=move || list.with(Vec::is_empty)>
            <h4 id="connect-history-heading">{t(msg::connect_history_heading)}</h4>
            <div class="compare-scroll">
                <table class="compare connect-runs">
                    <thead>
                        <tr>
                            <th scope="col">"#"</th>
                            <th scope="col">{t(msg::history_table)}</th>
                            <th scope="col"><bdi>"$filter"</bdi></th>
                            <th scope="col">{t(msg::scan_pages)}</th>
                            <th scope="col">{t(msg::scan_returned)}</th>
                            <th scope="col">{t(msg::connect_history_differences)}</th>
                            <th scope="col">{t(msg::connect_history_time)}</th>
                            <th scope="col">{t(msg::connect_history_use)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || list.get().into_iter().rev().map(|r| row(r, on_use)).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

fn row(r: RunRecord, on_use: Callback<RunRecord>) -> impl IntoView {
    let number = r.number;
    let figures = match &r.failure {
        None => (
            i18n::number(r.pages as f64),
            i18n::number(r.entities as f64),
        ),
        Some(f) => (String::new(), failure_text(f)),
    };
    let differences = r
        .differences
        .map(|d| i18n::number(d as f64))
        .unwrap_or_default();
    let millis = i18n::number(r.millis.round());
    let (table, filter) = (r.table.clone(), r.options.filter.clone());
    view! {
        <tr class="connect-run" data-run=number.to_string()>
            <td>{number}</td>
            <td dir="auto">{table}</td>
            <td dir="ltr"><code>{filter}</code></td>
            <td>{figures.0}</td>
            <td class:failed=r.failure.is_some()>{figures.1}</td>
            <td>{differences}</td>
            <td>{millis}</td>
            <td>
                <button
                    type="button"
                    class="connect-run-use"
                    aria-label=move || msg::connect_history_use_run(i18n::number(number as f64))
                    on:click=move |_| on_use.run(r.clone())
                >
                    {t(msg::connect_history_use)}
                </button>
            </td>
        </tr>
    }
}

/// A failed run's cell: the service's status and code, or that nothing answered.
fn failure_text(f: &Failure) -> String {
    match f {
        Failure::Service { status, code, .. } => format!("{status} {code}"),
        Failure::Unreachable { .. } => msg::connect_history_unreachable(),
        Failure::Malformed { status, .. } => msg::connect_history_malformed(status),
    }
}

//! What a query run cost: the scan meter (scanned vs returned), the plan's explanation and its
//! advice, and the in-memory history of runs with a side-by-side comparison.

use super::teach::markdown::MarkdownInline;
use crate::engine::Explain;
use leptos::prelude::*;

/// One page of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPage {
    pub scanned: u64,
    pub returned: u64,
    pub partitions: u64,
    /// The continuation token this page returned, as text.
    pub token: Option<String>,
}

/// A query run: its first page and every page fetched after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub id: u64,
    pub table: String,
    pub filter: String,
    pub kind: String,
    pub explain: Option<Explain>,
    pub pages: Vec<RunPage>,
    /// From the run's request to the next painted frame, for its latest page.
    pub render_ms: Option<f64>,
}

impl Run {
    pub fn scanned(&self) -> u64 {
        self.pages.iter().map(|p| p.scanned).sum()
    }

    pub fn returned(&self) -> u64 {
        self.pages.iter().map(|p| p.returned).sum()
    }

    /// Partitions touched, summed over pages (a partition split across two pages counts in
    /// both, as each page reads from it).
    pub fn partitions(&self) -> u64 {
        self.pages.iter().map(|p| p.partitions).sum()
    }

    /// Scanned far more than returned (at least 10, and 5 times as many): worth a warning.
    pub fn wasteful(&self) -> bool {
        let (s, r) = (self.scanned(), self.returned());
        s >= 10 && s >= 5 * r.max(1)
    }
}

/// Scanned vs returned as numbers and a bar, the kind, the explanation and advice.
#[component]
pub fn ScanMeter(
    run: Run,
    /// Loads an advised rewrite into the `$filter` editor.
    on_rewrite: Callback<String>,
) -> impl IntoView {
    let scanned = run.scanned();
    let returned = run.returned();
    let share = if scanned == 0 {
        0.0
    } else {
        (returned as f64 / scanned as f64 * 100.0).min(100.0)
    };
    let explain = run.explain.clone();
    let wasteful = run.wasteful();
    let pages = run.pages.clone();
    view! {
        <section class="panel scan-meter" aria-labelledby="meter-heading" data-kind=run.kind.clone()>
            <h2 id="meter-heading">"Scan meter"</h2>
            <dl class="figures">
                <div><dt>"Kind"</dt><dd class="fig-kind">{run.kind.clone()}</dd></div>
                <div><dt>"Scanned"</dt><dd class="fig-scanned">{scanned}</dd></div>
                <div><dt>"Returned"</dt><dd class="fig-returned">{returned}</dd></div>
                <div><dt>"Partitions"</dt><dd class="fig-partitions">{run.partitions()}</dd></div>
                <div><dt>"Pages"</dt><dd class="fig-pages">{run.pages.len()}</dd></div>
            </dl>
            <div
                class="meter"
                role="meter"
                aria-label="Returned out of scanned"
                aria-valuemin="0"
                aria-valuemax=scanned
                aria-valuenow=returned
            >
                <div class="meter-returned" style=format!("width:{}%", share.round() as i64)></div>
            </div>
            <p class="meter-legend">
                {format!("{returned} returned of {scanned} scanned")}
                {run.render_ms.map(|ms| format!(" · ran and rendered in {} ms", ms.round() as i64))}
            </p>
            {wasteful
                .then(|| {
                    view! {
                        <p class="scan-warning" role="note">
                            {format!(
                                "This query scanned {scanned} entities to return {returned}. The service's targets count scanned entities (2,000/s per partition), so this costs as much as reading all of them.",
                            )}
                        </p>
                    }
                })}
            {explain
                .map(|e| {
                    view! {
                        <div class="explain">
                            <p class="explain-summary"><MarkdownInline text=e.summary.clone() /></p>
                            <p class="explain-filter">
                                "Normalized: " <code>{if e.filter.is_empty() { "(none)".to_string() } else { e.filter.clone() }}</code>
                            </p>
                            <ExplainList title="Bounded by (sets the scan range)" items=e.bounded_by.clone() class="bounded-by" />
                            <ExplainList title="Checked on each scanned entity" items=e.checked.clone() class="checked" />
                            <ul class="advice">
                                {e.advice
                                    .into_iter()
                                    .map(|a| {
                                        view! {
                                            <li class=format!("advice-item advice-{}", a.severity)>
                                                <strong>{a.severity.clone()}": "</strong>
                                                <span><MarkdownInline text=a.message.clone() /></span>
                                                <div class="rewrites">
                                                    {a.rewrite
                                                        .into_iter()
                                                        .map(|r| {
                                                            let text = r.clone();
                                                            view! {
                                                                <button
                                                                    type="button"
                                                                    class="rewrite"
                                                                    title="Load into the $filter editor"
                                                                    on:click=move |_| on_rewrite.run(text.clone())
                                                                >
                                                                    <code>{r}</code>
                                                                </button>
                                                            }
                                                        })
                                                        .collect_view()}
                                                </div>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        </div>
                    }
                })}
            <ol class="pages" aria-label="Pages">
                {pages
                    .into_iter()
                    .enumerate()
                    .map(|(i, p)| {
                        view! {
                            <li class="page-item">
                                {format!("Page {}: scanned {}, returned {}. ", i + 1, p.scanned, p.returned)}
                                <span class="token">
                                    {p.token.unwrap_or_else(|| "no continuation token: the query is complete".into())}
                                </span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn ExplainList(title: &'static str, items: Vec<String>, class: &'static str) -> impl IntoView {
    view! {
        <div class=format!("explain-list {class}")>
            <span class="explain-title">{title}</span>
            {if items.is_empty() {
                view! { <span class="muted">" nothing"</span> }.into_any()
            } else {
                view! {
                    <ul>{items.into_iter().map(|i| view! { <li><code>{i}</code></li> }).collect_view()}</ul>
                }
                .into_any()
            }}
        </div>
    }
}

/// Every run of this session; pick two to compare their figures side by side.
#[component]
pub fn History(history: RwSignal<Vec<Run>>) -> impl IntoView {
    let a = RwSignal::new(None::<u64>);
    let b = RwSignal::new(None::<u64>);
    let find =
        move |id: Option<u64>| history.with(|h| h.iter().find(|r| Some(r.id) == id).cloned());
    // Until the learner picks, compare the run before the latest (A) with the latest (B).
    let nth_last = move |n: usize| {
        history.with(|h| h.len().checked_sub(n).and_then(|i| h.get(i)).map(|r| r.id))
    };
    let chosen_a = move || a.get().or_else(|| nth_last(2));
    let chosen_b = move || b.get().or_else(|| nth_last(1));
    // The options, the chosen run marked `selected` (set as each option is created, so it
    // holds even though the list re-renders after every run).
    let options = move |chosen: Option<u64>| {
        history.with(|h| {
            h.iter()
                .enumerate()
                .map(|(i, r)| {
                    let label = format!("#{} {} — {}", i + 1, r.kind, short(&r.filter));
                    view! {
                        <option value=r.id.to_string() selected=chosen == Some(r.id)>
                            {label}
                        </option>
                    }
                })
                .collect_view()
        })
    };
    let pick = move |target: RwSignal<Option<u64>>| {
        move |ev: leptos::ev::Event| target.set(event_target_value(&ev).parse().ok())
    };
    view! {
            <section class="panel history" aria-labelledby="history-heading" hidden=move || history.with(Vec::is_empty)>
                <h2 id="history-heading">"Run history"</h2>
                <div class="compare-pickers">
                    <div class="field">
                        <label for="compare-a">"Compare"</label>
                        <select id="compare-a" on:change=pick(a)>
                            <option value="">"choose a run…"</option>
                            {move || options(chosen_a())}
                        </select>
                    </div>
                    <div class="field">
                        <label for="compare-b">"with"</label>
                        <select id="compare-b" on:change=pick(b)>
                            <option value="">"choose a run…"</option>
                            {move || options(chosen_b())}
                        </select>
                    </div>
                </div>
                <div class="compare-scroll">
                    <table class="compare">
                        <thead>
                            <tr>
                                <th scope="col">"Figure"</th>
                                <th scope="col">"A"</th>
                                <th scope="col">"B"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || {
                                let (ra, rb) = (find(chosen_a()), find(chosen_b()));
                                let row = |name: &'static str, f: &dyn Fn(&Run) -> String| {
                                    let va = ra.as_ref().map(f).unwrap_or_default();
                                    let vb = rb.as_ref().map(f).unwrap_or_default();
                                    view! {
                                        <tr>
                                            <th scope="row">{name}</th>
                                            <td>{va}</td>
                                            <td>{vb}</td>
                                        </tr>
                                    }
                                };
                                view! {
                                    {row("Table", &|r| r.table.clone())}
                                    {row("$filter", &|r| r.filter.clone())}
                                    {row("Kind", &|r| r.kind.clone())}
                                    {row("Scanned", &|r| r.scanned().to_string())}
                                    {row("Returned", &|r| r.returned().to_string())}
                                    {row("Partitions", &|r| r.partitions().to_string())}
                                    {row("Pages", &|r| r.pages.len().to_string())}
                                }
                            }}
                        </tbody>
                    </table>
                </div>
            </section>
    }
}

fn short(filter: &str) -> String {
    if filter.is_empty() {
        return "(all)".into();
    }
    let mut s: String = filter.chars().take(48).collect();
    if filter.chars().count() > 48 {
        s.push('…');
    }
    s
}

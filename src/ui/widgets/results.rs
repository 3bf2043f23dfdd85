//! What a query run cost: the scan meter (scanned vs returned), the plan's explanation and its
//! advice, and the in-memory history of runs with a side-by-side comparison.

use crate::i18n::{msg, number, t};
use crate::ui::state::workspace::runs::Run;
use crate::ui::text::explain_text;
use crate::ui::widgets::markdown::MarkdownInline;
use leptos::prelude::*;

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
    let (kind, partitions, page_count) = (run.kind.clone(), run.partitions(), run.pages.len());
    let ru = run.ru();
    view! {
        <section class="panel scan-meter" aria-labelledby="meter-heading" data-kind=run.kind.clone()>
            <h2 id="meter-heading">{t(msg::scan_heading)}</h2>
            <dl class="figures">
                <div><dt>{t(msg::scan_kind)}</dt><dd class="fig-kind">{move || explain_text::kind_name(&kind)}</dd></div>
                <div><dt>{t(msg::scan_scanned)}</dt><dd class="fig-scanned">{move || number(scanned)}</dd></div>
                <div><dt>{t(msg::scan_returned)}</dt><dd class="fig-returned">{move || number(returned)}</dd></div>
                <div><dt>{t(msg::scan_partitions)}</dt><dd class="fig-partitions">{move || number(partitions)}</dd></div>
                <div><dt>{t(msg::scan_pages)}</dt><dd class="fig-pages">{move || number(page_count)}</dd></div>
            </dl>
            <div
                class="meter"
                role="meter"
                aria-label=t(msg::scan_meter_label)
                aria-valuemin="0"
                aria-valuemax=scanned
                aria-valuenow=returned
            >
                <div class="meter-returned" style=format!("width:{}%", share.round() as i64)></div>
            </div>
            {ru.map(|ru| view! { <crate::ui::widgets::ru::RuEstimate ru=ru /> })}
            <p class="meter-legend">
                {move || msg::scan_legend(number(returned), number(scanned))}
                {run.render_ms.map(|ms| move || msg::scan_rendered(number(ms.round() as i64)))}
            </p>
            {wasteful
                .then(|| {
                    view! {
                        <p class="scan-warning" role="note">
                            {move || msg::scan_warning(scanned, number(2000), number(returned))}
                        </p>
                    }
                })}
            {explain
                .map(|e| {
                    let summary = e.summary.clone();
                    view! {
                        <div class="explain">
                            <p class="explain-summary">{move || view! { <MarkdownInline text=explain_text::sentence(&summary) /> }}</p>
                            <p class="explain-filter">
                                {t(msg::scan_normalized)} <code dir="ltr">{if e.filter.is_empty() { msg::scan_none() } else { e.filter.clone() }}</code>
                            </p>
                            <ExplainList title=msg::scan_bounded_by items=e.bounded_by.clone() class="bounded-by" />
                            <ExplainList title=msg::scan_checked items=e.checked.clone() class="checked" />
                            <ul class="advice">
                                {e.advice
                                    .into_iter()
                                    .map(|a| {
                                        let (severity, message) = (a.severity.clone(), a.message.clone());
                                        view! {
                                            <li class=format!("advice-item advice-{}", a.severity)>
                                                <strong>{move || explain_text::severity(&severity)}": "</strong>
                                                <span>{move || view! { <MarkdownInline text=explain_text::sentence(&message) /> }}</span>
                                                <div class="rewrites">
                                                    {a.rewrite
                                                        .into_iter()
                                                        .map(|r| {
                                                            let text = r.clone();
                                                            view! {
                                                                <button
                                                                    type="button"
                                                                    class="rewrite"
                                                                    title=t(msg::scan_rewrite_title)
                                                                    on:click=move |_| on_rewrite.run(text.clone())
                                                                >
                                                                    <code dir="ltr">{r}</code>
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
            <ol class="pages" aria-label=t(msg::scan_pages_label)>
                {pages
                    .into_iter()
                    .enumerate()
                    .map(|(i, p)| {
                        view! {
                            <li class="page-item">
                                {move || msg::scan_page(number(i + 1), number(p.returned), number(p.scanned))}
                                {match p.token {
                                    Some(token) => view! { <span class="token" dir="ltr">{token}</span> }.into_any(),
                                    None => view! { <span class="token">{t(msg::scan_no_token)}</span> }.into_any(),
                                }}
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn ExplainList(title: fn() -> String, items: Vec<String>, class: &'static str) -> impl IntoView {
    view! {
        <div class=format!("explain-list {class}")>
            <span class="explain-title">{move || title()}</span>
            {if items.is_empty() {
                view! { <span class="muted">{t(msg::scan_nothing)}</span> }.into_any()
            } else {
                view! {
                    <ul>{items.into_iter().map(|i| view! { <li><code dir="ltr">{i}</code></li> }).collect_view()}</ul>
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
                    let label = format!(
                        "#{} {} — {}",
                        i + 1,
                        explain_text::kind_name(&r.kind),
                        short(&r.filter)
                    );
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
                <h2 id="history-heading">{t(msg::history_heading)}</h2>
                <div class="compare-pickers">
                    <div class="field">
                        <label for="compare-a">{t(msg::history_compare)}</label>
                        <select id="compare-a" on:change=pick(a)>
                            <option value="">{t(msg::history_choose)}</option>
                            {move || options(chosen_a())}
                        </select>
                    </div>
                    <div class="field">
                        <label for="compare-b">{t(msg::history_with)}</label>
                        <select id="compare-b" on:change=pick(b)>
                            <option value="">{t(msg::history_choose)}</option>
                            {move || options(chosen_b())}
                        </select>
                    </div>
                </div>
                <div class="compare-scroll">
                    <table class="compare">
                        <thead>
                            <tr>
                                <th scope="col">{t(msg::history_figure)}</th>
                                <th scope="col">"A"</th>
                                <th scope="col">"B"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || {
                                let (ra, rb) = (find(chosen_a()), find(chosen_b()));
                                let row = |name: String, f: &dyn Fn(&Run) -> String| {
                                    let va = ra.as_ref().map(f).unwrap_or_default();
                                    let vb = rb.as_ref().map(f).unwrap_or_default();
                                    view! {
                                        <tr>
                                            <th scope="row"><bdi>{name}</bdi></th>
                                            <td>{va}</td>
                                            <td>{vb}</td>
                                        </tr>
                                    }
                                };
                                view! {
                                    {row(msg::history_table(), &|r| r.table.clone())}
                                    {row("$filter".into(), &|r| r.filter.clone())}
                                    {row(msg::scan_kind(), &|r| explain_text::kind_name(&r.kind))}
                                    {row(msg::scan_scanned(), &|r| number(r.scanned()))}
                                    {row(msg::scan_returned(), &|r| number(r.returned()))}
                                    {row(msg::scan_partitions(), &|r| number(r.partitions()))}
                                    {row(msg::scan_pages(), &|r| number(r.pages.len()))}
                                    {(ra.as_ref().and_then(Run::ru).is_some() || rb.as_ref().and_then(Run::ru).is_some())
                                        .then(|| row(msg::ru_estimate_label(), &|r| r.ru().map(|ru| msg::ru_estimate_value(number(ru))).unwrap_or_default()))}
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
        return msg::history_all();
    }
    let mut s: String = filter.chars().take(48).collect();
    if filter.chars().count() > 48 {
        s.push('…');
    }
    s
}

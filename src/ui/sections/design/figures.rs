//! Every access pattern evaluated on the generated data (the engine runs it with parameters
//! drawn from the data), its figures per call, its `$filter` and SDK code; then the
//! projection to production scale (`project`), and the projection checked against the
//! measurement at the size generated.

use super::bridge::Bridge;
use super::doc::Ctx;
use super::fmt;
use super::remote::Reader;
use crate::design::{
    agreement, project, Design, EvalOptions, Evaluation, Figures, Pattern, PatternRun, Selectivity,
    Spread, Target,
};
use crate::engine::Request;
use crate::i18n::{msg, t};
use leptos::prelude::*;

#[component]
pub fn FiguresPanel() -> impl IntoView {
    let ctx = Ctx::expect();
    let running = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let evaluate = move |_| {
        if running.get_untracked() {
            return;
        }
        let d = ctx.design.get_untracked();
        // The playground's account, read through the bridge (the section is its own wasm).
        let reader = match Bridge::get().and_then(Reader::new) {
            Ok(r) => r,
            Err(e) => {
                problem.set(Some(e));
                return;
            }
        };
        if let Err(p) = check_data(&reader, &d) {
            problem.set(Some(p));
            return;
        }
        problem.set(None);
        running.set(true);
        leptos::task::spawn_local(async move {
            let options = EvalOptions::default();
            let mut patterns = Vec::with_capacity(d.patterns.len());
            let fail = |e: String| {
                problem.try_set(Some(e));
                running.try_set(false);
            };
            let now = crate::ui::kit::dom::now;
            let started = now();
            // The data's values first: the comparison names its differences from them.
            match super::profile::read(&reader, &d).await {
                Ok(p) => ctx.profile.set(Some((d.clone(), p))),
                Err(e) => return fail(e),
            }
            // A query page per step, as many steps per task as fit in SLICE_MS, so the page
            // paints and takes input between them (a table scan at 10⁶ is a thousand pages).
            let mut slice_start = started;
            for i in 0..d.patterns.len() {
                let mut run = match PatternRun::new(&d, &reader, i, &options) {
                    Ok(r) => r,
                    Err(e) => return fail(e.to_string()),
                };
                let figures = loop {
                    match run.step(&reader) {
                        Ok(Some(f)) => break f,
                        Ok(None) => {}
                        Err(e) => return fail(e.to_string()),
                    }
                    if now() - slice_start >= super::run::SLICE_MS {
                        super::run::pause().await;
                        slice_start = now();
                    }
                };
                patterns.push(figures);
            }
            expose_time(now() - started);
            let counts = d
                .entity_types
                .iter()
                .map(|t| (t.name.clone(), t.count))
                .collect();
            ctx.evaluation
                .set(Some((d, Evaluation { counts, patterns })));
            running.set(false);
        });
    };
    let measured = move || {
        ctx.evaluation
            .with(|e| e.as_ref().map(|(d, e)| (d.clone(), e.patterns.clone())))
    };
    view! {
        <section class="panel design-evaluate" aria-labelledby="design-evaluate-heading">
            <h2 id="design-evaluate-heading">{t(msg::design_evaluate_heading)}</h2>
            <p class="hint">{t(msg::design_evaluate_hint)}</p>
            <button type="button" class="primary evaluate" prop:disabled=move || running.get() on:click=evaluate>
                {t(msg::design_evaluate)}
            </button>
            <p class="field-error evaluate-problem" role="alert">{move || problem.get()}</p>
            {move || measured().map(|(d, rows)| view! {
                <div class="compare-scroll" tabindex="0">
                    <table class="compare measured">
                        <caption>{msg::design_measured_at(fmt::num(d.entity_types.iter().map(|t| t.count).sum::<u64>() as f64))}</caption>
                        {header()}
                        <tbody>{rows.iter().enumerate().map(|(i, f)| row(i, f, false)).collect_view()}</tbody>
                    </table>
                </div>
                <PatternCode d=d rows=rows />
            })}
        </section>
        <super::project::ProjectionPanel />
        <VersusPanel />
    }
}

/// The design's tables must hold exactly what the generator writes for it.
fn check_data(reader: &Reader, d: &Design) -> Result<(), String> {
    let tables = reader.tables();
    for table in &d.tables {
        let want: u64 = d
            .entity_types
            .iter()
            .filter(|t| t.table.eq_ignore_ascii_case(table))
            .map(|t| t.count)
            .sum();
        let have = tables
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(table))
            .map_or(0, |(_, n)| *n);
        if have != want {
            return Err(msg::design_evaluate_mismatch(
                fmt::num(have as f64),
                table,
                fmt::num(want as f64),
            ));
        }
    }
    Ok(())
}

/// The figure table's head: each pattern with its kind, then its figures per call.
pub fn header() -> impl IntoView {
    view! {
        <thead>
            <tr>
                <th scope="col">{t(msg::design_col_pattern)}</th>
                <th scope="col">{fmt::heading(msg::design_col_scanned)}</th>
                <th scope="col">{fmt::heading(msg::design_col_returned)}</th>
                <th scope="col">{fmt::heading(msg::design_col_pages)}</th>
                <th scope="col">{fmt::heading(msg::design_col_bytes)}</th>
                <th scope="col">{fmt::heading(msg::design_col_bytes_select)}</th>
                <th scope="col">{fmt::heading(msg::design_col_partitions)}</th>
                <th scope="col">{fmt::heading(msg::design_col_batch)}</th>
            </tr>
        </thead>
    }
}

/// A pattern's name heading its row, its kind below it (`f-kind`).
pub fn pattern_cell(f: &Figures) -> impl IntoView {
    view! {
        <th scope="row"><span class="f-name">{f.pattern.clone()}</span>" "<span class="f-kind">{fmt::kind(f.kind)}</span></th>
    }
}

/// One pattern's figures (mean / worst per call). With `short`, figures from a million on
/// in the language's short form, the exact ones in the cell's title (see [`figure`]).
pub fn row(i: usize, f: &Figures, short: bool) -> impl IntoView {
    let batch = match f.batchable {
        Some(true) => msg::design_yes(),
        Some(false) => msg::design_no(),
        None => String::new(),
    };
    let cell = |class: &'static str, s: &Spread| {
        if short {
            figure(class, fmt::spread_short(s), fmt::spread(s))
        } else {
            view! { <td class=class>{fmt::spread(s)}</td> }.into_any()
        }
    };
    view! {
        <tr data-pattern=i>
            {pattern_cell(f)}
            {cell("f-scanned", &f.scanned)}
            {cell("f-returned", &f.returned)}
            {cell("f-pages", &f.requests)}
            {cell("f-bytes", &f.payload_bytes)}
            {cell("f-bytes-select", &f.payload_bytes_selected)}
            {cell("f-partitions", &f.partitions)}
            <td class="f-batch">{batch}</td>
        </tr>
    }
}

/// A figure cell showing `shown`, with `exact` as its title when the two differ.
pub fn figure(class: &'static str, shown: String, exact: String) -> AnyView {
    let title = (shown != exact).then_some(exact);
    view! { <td class=class title=title>{shown}</td> }.into_any()
}

/// Each read pattern's `$filter` as sent, and as SDK code.
#[component]
fn PatternCode(d: Design, rows: Vec<Figures>) -> impl IntoView {
    let reads: Vec<(usize, String, Option<Vec<String>>, String)> = d
        .patterns
        .iter()
        .zip(&rows)
        .enumerate()
        .filter_map(|(i, (p, f))| match p {
            Pattern::Read(r) => {
                let table = d.entity_type(&r.entity_type)?.table.clone();
                let select = r.select.then(|| r.needs.clone()).flatten();
                Some((i, table, select, f.example_filter.clone()))
            }
            Pattern::Write(_) => None,
        })
        .collect();
    view! {
        <h3>{t(msg::design_code_heading)}</h3>
        <ul class="design-code">
            {reads.into_iter().map(|(i, table, select, filter)| {
                let name = rows.get(i).map(|f| f.pattern.clone()).unwrap_or_default();
                let request = Request::Query {
                    table, filter: Some(filter.clone()), select, top: None,
                    continuation: None, page_budget: None, trace: false,
                };
                view! {
                    <li data-pattern=i>
                        <span>{name}</span>
                        <pre dir="ltr" class="pattern-filter"><code>{filter}</code></pre>
                        <crate::ui::widgets::show_code::ShowCode what="design-pattern"
                            request=Callback::new(move |()| Ok(request.clone())) />
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// The projection at the size generated against the measurement: scanned, returned and
/// pages per call, and how far apart they are.
#[component]
fn VersusPanel() -> impl IntoView {
    let ctx = Ctx::expect();
    let rows = Memo::new(move |_| {
        ctx.evaluation.with(|e| {
            let (d, ev) = e.as_ref()?;
            let p = ctx
                .prices
                .with(|p| project(d, &Target::of_design(d), p))
                .ok()?;
            let total: u64 = d.entity_types.iter().map(|t| t.count).sum();
            let selectivity = ctx.profile.with(|pr| match pr {
                Some((pd, profile)) if pd == d => agreement(d, ev, &p, profile),
                _ => Vec::new(),
            });
            let rows: Vec<(String, [(f64, f64); 3], Option<Selectivity>)> = ev
                .patterns
                .iter()
                .zip(&p.patterns)
                .map(|(m, p)| {
                    let p = &p.figures;
                    (
                        m.pattern.clone(),
                        [
                            (p.scanned.mean, m.scanned.mean),
                            (p.returned.mean, m.returned.mean),
                            (p.requests.mean, m.requests.mean),
                        ],
                        selectivity.iter().find(|s| s.pattern == m.pattern).cloned(),
                    )
                })
                .collect();
            Some((total, rows))
        })
    });
    view! {
        {move || rows.get().map(|(total, rows)| view! {
            <section class="panel design-versus" aria-labelledby="design-versus-heading">
                <h2 id="design-versus-heading">{msg::design_versus_heading(fmt::num(total as f64))}</h2>
                <div class="compare-scroll" tabindex="0">
                    <table class="compare versus">
                        <thead><tr>
                            <th scope="col">{t(msg::design_col_pattern)}</th>
                            <th scope="col">{fmt::heading(msg::design_col_scanned)}</th>
                            <th scope="col">{fmt::heading(msg::design_col_returned)}</th>
                            <th scope="col">{fmt::heading(msg::design_col_pages)}</th>
                            <th scope="col">{t(msg::design_col_gap)}</th>
                            <th scope="col">{t(msg::design_col_selectivity)}</th>
                            <th scope="col">{t(msg::design_col_why)}</th>
                        </tr></thead>
                        <tbody>
                            {rows.into_iter().enumerate().map(|(i, (name, pairs, sel))| {
                                let gap = pairs.iter().map(|(p, m)| (p - m).abs() / m.abs().max(1e-9)).fold(0.0, f64::max);
                                let cell = |(p, m): (f64, f64)| format!("{} / {}", fmt::num(p), fmt::num(m));
                                view! {
                                    <tr data-pattern=i>
                                        <th scope="row">{name}</th>
                                        <td class="v-scanned">{cell(pairs[0])}</td>
                                        <td class="v-returned">{cell(pairs[1])}</td>
                                        <td class="v-pages">{cell(pairs[2])}</td>
                                        <td class="v-gap">{fmt::percent(gap)}</td>
                                        {selectivity_cells(sel)}
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="field-note">{t(msg::design_versus_note)}</p>
            </section>
        })}
    }
}

/// A read's selectivity, projected / measured, and why they differ (empty for a write).
fn selectivity_cells(sel: Option<Selectivity>) -> impl IntoView {
    let Some(s) = sel else {
        return view! { <td class="v-selectivity"></td><td class="v-why"></td> }.into_any();
    };
    let shares = format!(
        "{} / {}",
        fmt::percent(s.projected),
        fmt::percent(s.measured)
    );
    let why = if s.differences.is_empty() {
        msg::design_why_agree(fmt::percent(4.0 * s.sampling_sd))
    } else {
        s.differences
            .iter()
            .map(super::profile::difference)
            .collect::<Vec<_>>()
            .join("; ")
    };
    let differs = !s.differences.is_empty();
    view! {
        <td class="v-selectivity">{shares}</td>
        <td class="v-why" class:differs=differs>{why}</td>
    }
    .into_any()
}

/// With `?perf=1`: `window.__tablescopeDesignEvaluateMs`, the evaluation's time from the
/// click to the last pattern's figures (for `scripts/bench/design-evaluate.mjs`).
fn expose_time(ms: f64) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if crate::ui::state::perf::requested(&window) {
        let _ = js_sys::Reflect::set(&window, &"__tablescopeDesignEvaluateMs".into(), &ms.into());
    }
}

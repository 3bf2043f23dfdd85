//! The starter gallery (the guide's own examples as designs) and two designs side by side
//! at the same target size: every projected figure, the checklist, and the throughput
//! simulator fed with each design's write patterns.

use super::doc::Ctx;
use super::fmt;
use super::review::{grade_text, rule_id, rule_name};
use crate::design::gallery::{localize, Translations};
use crate::design::{compare, workload, Design, Rule, Side};
use crate::engine::throughput::simulate;
use crate::i18n::{msg, t};
use leptos::prelude::*;

/// Seconds of traffic the simulator plays per write pattern.
const SIMULATED_SECONDS: u32 = 10;

/// The starter gallery: the engine's gallery files (`crates/design/src/gallery/`),
/// which Trunk copies to `designs/`. They are fetched when first used rather than compiled
/// in (`design::gallery`): text in the wasm would be part of the page's first download.
pub const GALLERY: [&str; 5] = [
    "employees-by-department",
    "email-index",
    "log-tail",
    "date-keyed-hot-partition",
    "date-keyed-bucketed",
];

/// A gallery design, read and checked like any imported design, its name and its patterns'
/// names in the language shown (`designs/translations.json`; English, the file's own, when
/// the translations cannot be read: the design still opens).
pub async fn load(id: &str) -> Result<Design, String> {
    let text = crate::ui::kit::fetch::text(&format!("designs/{id}.json")).await?;
    let mut design = Design::from_json(&text).map_err(|e| e.to_string())?;
    let lang = crate::i18n::lang();
    if lang != crate::i18n::Lang::En {
        match crate::ui::kit::fetch::text("designs/translations.json")
            .await
            .and_then(|t| serde_json::from_str::<Translations>(&t).map_err(|e| e.to_string()))
        {
            Ok(translations) => localize(&mut design, id, lang.code(), &translations),
            Err(e) => web_sys::console::warn_1(&format!("designs/translations.json: {e}").into()),
        }
    }
    Ok(design)
}

fn gallery_label(id: &str) -> String {
    match id {
        "employees-by-department" => msg::design_gallery_employees(),
        "email-index" => msg::design_gallery_email(),
        "log-tail" => msg::design_gallery_log_tail(),
        "date-keyed-hot-partition" => msg::design_gallery_hot(),
        "date-keyed-bucketed" => msg::design_gallery_bucketed(),
        other => other.to_string(),
    }
}

#[component]
pub fn Gallery() -> impl IntoView {
    let ctx = Ctx::expect();
    view! {
        <div class="design-gallery">
            <h3>{t(msg::design_gallery_heading)}</h3>
            <div class="rewrites">
                {GALLERY.into_iter().map(|id| {
                    view! {
                        <button type="button" class="rewrite gallery-open" data-gallery=id on:click=move |_| {
                            leptos::task::spawn_local(async move {
                                match load(id).await {
                                    Ok(d) => ctx.open(d),
                                    Err(e) => ctx.notice.set(Some(e)),
                                }
                            });
                        }>{move || gallery_label(id)}</button>
                    }
                }).collect_view()}
            </div>
        </div>
    }
}

/// A side's design: the one being edited, or a gallery design once fetched.
fn side_design(ctx: Ctx, cache: RwSignal<Vec<(String, Design)>>, choice: &str) -> Option<Design> {
    if choice == "current" {
        Some(ctx.design.get())
    } else {
        cache.with(|c| {
            c.iter()
                .find(|(id, _)| id == choice)
                .map(|(_, d)| d.clone())
        })
    }
}

#[component]
pub fn ComparePanel() -> impl IntoView {
    let ctx = Ctx::expect();
    let left = RwSignal::new("current".to_string());
    let right = RwSignal::new("date-keyed-bucketed".to_string());
    let choices = move || {
        let mut c = vec![("current".to_string(), msg::design_compare_current())];
        c.extend(GALLERY.iter().map(|id| (id.to_string(), gallery_label(id))));
        c
    };
    // Gallery designs fetched so far; a side that names one not yet here fetches it.
    let cache = RwSignal::new(Vec::<(String, Design)>::new());
    Effect::new(move |_| {
        for id in [left.get(), right.get()] {
            let known =
                id == "current" || cache.with_untracked(|c| c.iter().any(|(i, _)| *i == id));
            if !known {
                leptos::task::spawn_local(async move {
                    match load(&id).await {
                        Ok(d) => cache.update(|c| {
                            if !c.iter().any(|(i, _)| *i == id) {
                                c.push((id, d));
                            }
                        }),
                        Err(e) => ctx.notice.set(Some(e)),
                    }
                });
            }
        }
    });
    let result = Memo::new(move |_| {
        let (l, r) = (
            side_design(ctx, cache, &left.get())?,
            side_design(ctx, cache, &right.get())?,
        );
        let total = ctx.target_total()?;
        let cmp = ctx
            .prices
            .with(|p| compare(&l, &r, total, p))
            .map_err(|e| e.to_string());
        Some(cmp.map(|c| (l, r, c)))
    });
    view! {
        <section class="panel design-compare" aria-labelledby="design-compare-heading">
            <h2 id="design-compare-heading">{t(msg::design_compare_heading)}</h2>
            <div class="compare-pickers">
                {super::form::select(msg::design_compare_left, "compare-left", choices, move || left.get(), move |v| left.set(v))}
                {super::form::select(msg::design_compare_right, "compare-right", choices, move || right.get(), move |v| right.set(v))}
            </div>
            {move || match result.get() {
                None => None,
                Some(Err(e)) => Some(view! { <p class="field-error" role="alert">{e}</p> }.into_any()),
                Some(Ok((l, r, c))) => Some(table(&l, &r, &c.left, &c.right).into_any()),
            }}
        </section>
    }
}

fn table(ld: &Design, rd: &Design, l: &Side, r: &Side) -> impl IntoView {
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    let mut push =
        |id: &str, label: String, a: String, b: String| rows.push((id.to_string(), label, a, b));
    push("name", msg::design_name(), l.name.clone(), r.name.clone());
    let account = |s: &Side| {
        format!(
            "{} ({})",
            fmt::num(s.projection.account_entities_per_sec),
            fmt::percent(s.projection.account_of_target)
        )
    };
    push(
        "account",
        msg::design_account_load(),
        account(l),
        account(r),
    );
    // The hottest partition's load as a share of its own 2,000/s target, and as a share of
    // the account's load: each percentage says what it is a share of.
    let hot = |s: &Side| {
        s.projection.hottest.as_ref().map_or_else(String::new, |h| {
            msg::design_compare_hot(
                &h.partition_key,
                fmt::num(h.entities_per_sec),
                fmt::percent(s.projection.hottest_share),
                fmt::percent(h.of_target),
            )
        })
    };
    push("hottest", msg::design_col_hot(), hot(l), hot(r));
    let cost = |s: &Side| fmt::money(s.projection.cost.total, &s.projection.cost.currency);
    push("cost", msg::design_cost_total(), cost(l), cost(r));
    let n = l.projection.patterns.len().max(r.projection.patterns.len());
    for i in 0..n {
        let cell = |s: &Side| {
            s.projection.patterns.get(i).map_or_else(String::new, |p| {
                let f = &p.figures;
                msg::design_compare_pattern(
                    fmt::kind(f.kind),
                    &f.pattern,
                    fmt::spread(&f.requests),
                    fmt::spread(&f.returned),
                    fmt::spread(&f.scanned),
                )
            })
        };
        push(
            &format!("pattern-{i}"),
            msg::design_compare_pattern_n(i + 1),
            cell(l),
            cell(r),
        );
    }
    for rule in Rule::ALL {
        let g = |s: &Side| {
            s.findings
                .iter()
                .find(|f| f.rule == rule)
                .map_or_else(String::new, |f| grade_text(f.grade))
        };
        push(
            &format!("rule-{}", rule_id(rule)),
            rule_name(rule),
            g(l),
            g(r),
        );
    }
    push(
        "simulator",
        msg::design_simulator(),
        simulated(ld),
        simulated(rd),
    );
    view! {
        <div class="compare-scroll" tabindex="0">
            <table class="compare design-comparison">
                <thead><tr>
                    <th scope="col">{t(msg::design_compare_figure)}</th>
                    <th scope="col">{l.name.clone()}</th>
                    <th scope="col">{r.name.clone()}</th>
                </tr></thead>
                <tbody>
                    {rows.into_iter().map(|(id, label, a, b)| view! {
                        <tr data-row=id><th scope="row">{label}</th><td class="left">{a}</td><td class="right">{b}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// Each write pattern through the throughput simulator for [`SIMULATED_SECONDS`]: writes
/// offered and 503 answers.
fn simulated(d: &Design) -> String {
    (0..d.patterns.len())
        .filter_map(|i| {
            let w = workload(d, i, SIMULATED_SECONDS)?;
            let report = simulate(&w);
            Some(msg::design_simulated(
                d.patterns.get(i).map_or("", |p| p.name()),
                fmt::num(report.offered as f64),
                fmt::num(report.throttled_responses as f64),
            ))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

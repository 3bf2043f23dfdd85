//! The throughput simulator view: one workload replayed against two key designs side by side,
//! with each design's per-partition load second by second and its totals, on Table storage
//! or on Cosmos DB for Table with a provisioned throughput.

use crate::engine::throughput::{
    self, KeyDesign, Provisioned, Report, Retry, Workload, MIN_RU_PER_SECOND, PARTITION_TARGET,
};
use crate::engine::Target;
use crate::i18n::{msg, number, t};
use crate::ui::text::target_text::service_name;
use leptos::prelude::*;

/// The most RU/s the form accepts (a container's default maximum).
const MAX_RU: u32 = 1_000_000;

/// Partitions drawn in a design's heatmap (the busiest ones).
const HEATMAP_ROWS: usize = 12;

/// The form's values.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Inputs {
    ops_per_second: u32,
    seconds: u32,
    spike_seconds: u32,
    retry: bool,
    base_delay_ms: u32,
    max_retries: u32,
    /// `Some`: on Cosmos DB for Table with this many RU/s.
    cosmos_ru: Option<u32>,
}

impl Inputs {
    fn workload(&self, design: KeyDesign) -> Workload {
        Workload {
            ops_per_second: self.ops_per_second.clamp(1, 50_000),
            seconds: self.seconds.clamp(1, 120),
            active_seconds: (self.spike_seconds > 0).then_some(self.spike_seconds),
            design,
            retry: self.retry.then_some(Retry {
                max_retries: self.max_retries.min(20),
                base_delay_ms: self.base_delay_ms.clamp(10, 60_000),
                max_delay_ms: Retry::default().max_delay_ms,
            }),
            seed: 42,
            cosmos: self.cosmos_ru.map(|ru| Provisioned {
                ru_per_second: ru.clamp(MIN_RU_PER_SECOND, MAX_RU),
            }),
        }
    }
}

fn design_of(kind: &str, buckets: u32) -> KeyDesign {
    match kind {
        "hashed" => KeyDesign::HashedPrefix {
            buckets: buckets.clamp(1, 1_000),
        },
        "unique" => KeyDesign::UniquePartition,
        _ => KeyDesign::DatePartition,
    }
}

/// The simulator: workload form, then the two designs' reports side by side.
#[component]
pub fn SimulatorPanel() -> impl IntoView {
    let ops = RwSignal::new(5_000u32);
    let seconds = RwSignal::new(10u32);
    let spike = RwSignal::new(0u32);
    let retry = RwSignal::new(true);
    let base_delay = RwSignal::new(100u32);
    let max_retries = RwSignal::new(4u32);
    let design_a = RwSignal::new("date".to_string());
    let buckets_a = RwSignal::new(10u32);
    let design_b = RwSignal::new("hashed".to_string());
    let buckets_b = RwSignal::new(10u32);
    let cosmos = RwSignal::new(false);
    let ru = RwSignal::new(10_000u32);
    let reports = RwSignal::new(None::<(Report, Report)>);
    let run = move || {
        let inputs = Inputs {
            ops_per_second: ops.get_untracked(),
            seconds: seconds.get_untracked(),
            spike_seconds: spike.get_untracked(),
            retry: retry.get_untracked(),
            base_delay_ms: base_delay.get_untracked(),
            max_retries: max_retries.get_untracked(),
            cosmos_ru: cosmos.get_untracked().then(|| ru.get_untracked()),
        };
        let a = throughput::simulate(&inputs.workload(design_of(
            &design_a.get_untracked(),
            buckets_a.get_untracked(),
        )));
        let b = throughput::simulate(&inputs.workload(design_of(
            &design_b.get_untracked(),
            buckets_b.get_untracked(),
        )));
        reports.set(Some((a, b)));
    };
    run();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        run();
    };
    view! {
        <section class="panel simulator-panel" aria-labelledby="simulator-heading">
            <h2 id="simulator-heading">{t(msg::sim_heading)}</h2>
            <p class="hint">
                {t(intro)}
            </p>
            <form class="sim-form" on:submit=submit>
                <label class="field" for="sim-service">
                    <span>{t(msg::sim_service)}</span>
                    <select
                        id="sim-service"
                        prop:value=move || if cosmos.get() { "cosmos" } else { "storage" }
                        on:change=move |ev| cosmos.set(event_target_value(&ev) == "cosmos")
                    >
                        <option value="storage">{move || service_name(Target::TableStorage)}</option>
                        <option value="cosmos">{move || service_name(Target::CosmosTable)}</option>
                    </select>
                </label>
                <Show when=move || cosmos.get()>
                    <NumberField id="sim-ru" label=msg::sim_provisioned value=ru max=MAX_RU />
                </Show>
                <NumberField id="sim-ops" label=msg::sim_writes_per_second value=ops max=50_000 />
                <NumberField id="sim-seconds" label=msg::sim_duration value=seconds max=120 />
                <NumberField id="sim-spike" label=msg::sim_spike value=spike max=120 />
                <label class="check">
                    <input
                        id="sim-retry"
                        type="checkbox"
                        prop:checked=retry
                        on:change=move |ev| retry.set(event_target_checked(&ev))
                    />
                    {t(msg::sim_retry)}
                </label>
                <NumberField id="sim-delay" label=msg::sim_base_delay value=base_delay max=60_000 />
                <NumberField id="sim-retries" label=msg::sim_max_retries value=max_retries max=20 />
                <DesignField id="sim-design-a" label=msg::sim_design_a kind=design_a buckets=buckets_a />
                <DesignField id="sim-design-b" label=msg::sim_design_b kind=design_b buckets=buckets_b />
                <button type="submit" class="primary sim-run">{t(msg::sim_simulate)}</button>
            </form>
            {move || {
                // The reports render again in a new language.
                crate::i18n::lang();
                reports
                    .get()
                    .map(|(a, b)| {
                        view! {
                            <div class="sim-results">
                                <DesignReport side="a" report=a />
                                <DesignReport side="b" report=b />
                            </div>
                        }
                    })
            }}
        </section>
    }
}

#[component]
fn NumberField(
    id: &'static str,
    label: fn() -> String,
    value: RwSignal<u32>,
    max: u32,
) -> impl IntoView {
    view! {
        <label class="field" for=id>
            <span>{t(label)}</span>
            <input
                id=id
                type="number"
                min="0"
                max=max
                inputmode="numeric"
                prop:value=move || value.get().to_string()
                on:input=move |ev| {
                    if let Ok(n) = event_target_value(&ev).trim().parse::<u32>() {
                        value.set(n.min(max));
                    }
                }
            />
        </label>
    }
}

#[component]
fn DesignField(
    id: &'static str,
    label: fn() -> String,
    kind: RwSignal<String>,
    buckets: RwSignal<u32>,
) -> impl IntoView {
    let buckets_id = format!("{id}-buckets");
    view! {
        <fieldset class="design-field">
            <legend>{t(label)}</legend>
            <select
                id=id
                aria-label=move || msg::sim_design_label(label())
                prop:value=move || kind.get()
                on:change=move |ev| kind.set(event_target_value(&ev))
            >
                <option value="date">{t(msg::sim_kind_date)}</option>
                <option value="hashed">{t(msg::sim_kind_hashed)}</option>
                <option value="unique">{t(msg::sim_kind_unique)}</option>
            </select>
            <Show when=move || kind.with(|k| k == "hashed")>
                <label class="field inline" for=buckets_id.clone()>
                    <span>{t(msg::sim_buckets)}</span>
                    <input
                        id=buckets_id.clone()
                        type="number"
                        min="1"
                        max="1000"
                        prop:value=move || buckets.get().to_string()
                        on:input=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<u32>() {
                                buckets.set(n.clamp(1, 1_000));
                            }
                        }
                    />
                </label>
            </Show>
        </fieldset>
    }
}

#[component]
fn DesignReport(side: &'static str, report: Report) -> impl IntoView {
    let healthy = report.throttled_responses == 0;
    let total = |label: fn() -> String, field: &'static str, value: u64| {
        view! {
            <div class="fig" data-field=field>
                <dt>{t(label)}</dt>
                <dd>{number(value)}</dd>
            </div>
        }
    };
    view! {
        <div class="sim-design" data-design=side data-healthy=healthy.to_string()>
            <h3>{design_name(&report.design)}</h3>
            <dl class="step-figures sim-totals">
                {total(msg::sim_offered, "offered", report.offered)}
                {total(msg::sim_succeeded, "succeeded", report.succeeded)}
                {total(
                    if report.cosmos.is_some() { msg::sim_throttled_429 } else { msg::sim_throttled },
                    "throttled",
                    report.throttled_responses,
                )}
                {total(msg::sim_failed, "failed", report.failed)}
                {total(msg::sim_retries, "retries", report.retries)}
                <div class="fig" data-field="delay">
                    <dt>{t(msg::sim_mean_delay)}</dt>
                    <dd>{msg::sim_ms(number(report.mean_retry_delay_ms))}</dd>
                </div>
            </dl>
            <p class="hint sim-counting">
                {t(if report.cosmos.is_some() { msg::sim_counting_429 } else { msg::sim_counting })}
            </p>
            {cosmos_facts(&report)}
            <BusiestChart report=report.clone() />
            <Heatmap report=report />
        </div>
    }
}

/// The busiest partition, second by second: attempted (bars), throttled (red part of each
/// bar), and the 2,000/s target (dashed line).
#[component]
fn BusiestChart(report: Report) -> impl IntoView {
    let Some(busiest) = report.partitions.first().cloned() else {
        return view! { <p class="hint">{t(msg::sim_no_writes)}</p> }.into_any();
    };
    let seconds = busiest.attempted.len().max(1);
    let peak = busiest
        .attempted
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(capacity(&report) + capacity(&report) / 4);
    // Integer geometry (no float formatting in the wasm): 600 × 240 user units.
    let (w, h) = (600u32, 240u32);
    let y = |v: u32| h - (u64::from(v) * u64::from(h) / u64::from(peak)) as u32;
    let bar_w = (w / seconds as u32).max(1);
    let bars = busiest
        .attempted
        .iter()
        .zip(&busiest.throttled)
        .enumerate()
        .map(|(s, (&a, &t))| {
            let x = s as u32 * bar_w + 1;
            let width = bar_w.saturating_sub(2).max(1);
            let title = msg::sim_second_title(number(a), number(s + 1), number(t));
            view! {
                <g>
                    <title>{title}</title>
                    <rect class="bar-ok" x=x y=y(a - t) width=width height=h - y(a - t) />
                    <rect class="bar-throttled" x=x y=y(a) width=width height=y(a - t) - y(a) />
                </g>
            }
        })
        .collect_view();
    let line = y(capacity(&report));
    let caption = msg::sim_busiest(&busiest.partition_key, number(seconds));
    view! {
        <figure class="sim-chart">
            <svg viewBox=format!("0 0 {w} {}", h + 4) role="img" aria-label=caption.clone()>
                {bars}
                <line class="target-line" x1="0" x2=w y1=line y2=line />
                <text class="target-label" x=w - 4 y=line.saturating_sub(5) text-anchor="end">
                    {format!("{}/s", number(capacity(&report)))}
                </text>
            </svg>
            <figcaption>
                {caption}
                <span class="map-legend">
                    <span class="swatch ok"></span>
                    {t(msg::sim_served)}
                    <span class="swatch throttled"></span>
                    {t(msg::sim_throttled_legend)}
                </span>
            </figcaption>
        </figure>
    }
    .into_any()
}

/// Partitions × seconds: each cell shaded by its load against the 2,000/s target, red where
/// requests were throttled.
#[component]
fn Heatmap(report: Report) -> impl IntoView {
    let more = report.partitions.len().saturating_sub(HEATMAP_ROWS);
    let capacity = capacity(&report);
    let rows = report
        .partitions
        .into_iter()
        .take(HEATMAP_ROWS)
        .map(|p| {
            let cells = p
                .attempted
                .iter()
                .zip(&p.throttled)
                .enumerate()
                .map(|(s, (&a, &t))| {
                    let load = (a.saturating_mul(100) / capacity).min(100);
                    let state = if t > 0 { "throttled" } else { "ok" };
                    let title = msg::sim_cell_title(number(a), &p.partition_key, number(s + 1), number(t));
                    view! {
                        <i class="heat-cell" data-state=state style=format!("--p:{load}") title=title></i>
                    }
                })
                .collect_view();
            view! {
                <div class="heat-row">
                    <span class="heat-pk">{p.partition_key.clone()}</span>
                    <span class="heat-cells">{cells}</span>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="sim-heatmap" aria-label=t(msg::sim_heatmap)>
            {rows}
            {(more > 0).then(|| view! { <p class="hint">{msg::sim_more(more)}</p> })}
        </div>
    }
}

/// A key design's name in the current language (the engine's `KeyDesign::label`, English).
fn design_name(label: &str) -> String {
    if label == KeyDesign::DatePartition.label() {
        return msg::sim_design_date();
    }
    if label == KeyDesign::UniquePartition.label() {
        return msg::sim_design_unique();
    }
    label
        .strip_prefix("PartitionKey = hash % ")
        .and_then(|rest| rest.strip_suffix(" + date"))
        .map_or_else(|| label.to_string(), msg::sim_design_hashed)
}

/// The panel's introduction, with its figures formatted for the language.
fn intro() -> String {
    msg::sim_intro(number(20_000), number(PARTITION_TARGET))
}

/// The writes per second one partition serves: the storage target, or on Cosmos what its
/// physical partition's RU/s pay for.
fn capacity(report: &Report) -> u32 {
    report.cosmos.map_or(PARTITION_TARGET, |c| {
        c.writes_per_partition().floor().max(1.0) as u32
    })
}

/// On Cosmos: how the throughput is divided and what a write costs, and when the busiest
/// logical partition reaches its 20 GB at this rate.
fn cosmos_facts(report: &Report) -> Option<impl IntoView> {
    let c = report.cosmos?;
    let busiest = report.partitions.first()?.partition_key.clone();
    let fill = report.seconds_to_logical_limit().map(|s| {
        let hours = (s / 360.0).round() / 10.0;
        if hours < 48.0 {
            msg::sim_fill_hours(number(hours), &busiest)
        } else {
            msg::sim_fill_days(number((hours / 2.4).round() / 10.0), &busiest)
        }
    });
    Some(view! {
        <p class="hint sim-cosmos" data-physical=c.physical_partitions data-ru-per-write=c.ru_per_write>
            {msg::sim_cosmos_split(
                number(c.physical_partitions),
                number(c.ru_per_partition.round()),
                number(c.ru_per_write),
            )}
            " "
            {fill}
        </p>
    })
}

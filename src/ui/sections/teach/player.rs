//! The scenario player: a scenario's description, then its steps run one at a time (or all)
//! on the scenario's own account, each with its note, its request, its result figures, whether
//! its expectations held, and for queries the partition map.

use super::step_card::{expected_fields, StepCard};
use crate::engine::scenario::{self, Mismatch, Runner, StepOutcome};
use crate::engine::{CopyReport, Request};
use crate::i18n::{lang, msg, number, t};
use crate::ui::text::target_text::service_name;
use crate::ui::widgets::markdown::Markdown;
use crate::ui::widgets::partition_map::{map_request, page_keys, rows_of, Keys, MapRows};
use leptos::prelude::*;

/// What the player shows of one step that ran.
#[derive(Debug, Clone, PartialEq)]
pub struct StepView {
    pub index: usize,
    pub op: String,
    /// The step as the file gives it: its note is read in the language shown, when shown
    /// (a language switch changes the text and keeps the steps that ran).
    pub spec: scenario::Step,
    /// The step's request fields as written, as JSON text.
    pub request: String,
    /// One line: `query Products  PartitionKey eq 'Books'`.
    pub headline: String,
    pub status: u16,
    pub code: Option<String>,
    pub message: Option<String>,
    pub returned: Option<usize>,
    pub scanned: Option<u64>,
    pub partitions: Option<u64>,
    pub kind: Option<&'static str>,
    pub continuation: Option<String>,
    /// On Cosmos DB for Table: the property index entries a query read.
    pub index_entries: Option<u64>,
    /// On Cosmos DB for Table: the answer's estimated request units.
    pub request_units: Option<f64>,
    /// A `switchTarget` step: what moved to the other service.
    pub switched: Option<CopyReport>,
    /// `(field, expected)` for each field the step expects; empty when it expects nothing.
    pub expected: Vec<(&'static str, String)>,
    pub failures: Vec<Mismatch>,
    /// For queries: the table's keys and what the page scanned and returned.
    pub map: Option<(MapRows, Keys, Keys)>,
}

/// Runs the runner's next step and describes it; `None` when every step has run.
pub fn step(runner: &mut Runner) -> Option<StepView> {
    let index = runner.outcomes.len();
    let spec = runner.scenario.steps.get(index)?.clone();
    let outcome: StepOutcome = super::steps::run_next(runner)?.clone();
    let map = match &outcome.request {
        Some(request @ Request::Query { table, .. }) => trace(runner, request, table),
        _ => None,
    };
    let r = &outcome.response;
    let stats = r.stats;
    Some(StepView {
        index,
        op: spec.op.clone(),
        // The step as written (references unresolved): printing the built request would link
        // `Request`'s derived `Serialize`.
        request: serde_json::to_string_pretty(&serde_json::Value::Object(spec.request.clone()))
            .unwrap_or_default(),
        headline: match &outcome.switched {
            Some(report) => msg::learn_headline_switch(service_name(report.to)),
            None => headline(&spec.op, outcome.request.as_ref()),
        },
        status: r.status,
        code: r.error.as_ref().map(|e| e.code.to_string()),
        message: r.error.as_ref().map(|e| e.message.clone()),
        returned: r.entities.as_ref().map(Vec::len),
        scanned: stats.map(|s| s.scanned),
        partitions: stats.map(|s| s.partitions),
        kind: stats.map(|s| s.kind.label()),
        continuation: r
            .continuation
            .as_ref()
            .map(|c| format!("{} / {}", c.next_partition_key, c.next_row_key)),
        index_entries: r.index.as_ref().map(|i| i.entries),
        request_units: r.ru.and_then(|e| e.value),
        switched: outcome.switched.clone(),
        expected: spec
            .expect
            .as_ref()
            .map(expected_fields)
            .unwrap_or_default(),
        failures: outcome.failures,
        map,
        spec,
    })
}

/// Runs the step's query again for the partition map ([`map_request`]) on the runner's
/// account.
fn trace(runner: &mut Runner, request: &Request, table: &str) -> Option<(MapRows, Keys, Keys)> {
    let response = runner.account.execute(&map_request(request)?);
    let rows = rows_of(runner.account.table(table).ok()?);
    let (scanned, returned) = page_keys(&response);
    Some((rows, scanned, returned))
}

fn headline(op: &str, request: Option<&Request>) -> String {
    use Request as R;
    match request {
        Some(R::Query {
            table,
            filter,
            select,
            top,
            continuation,
            ..
        }) => {
            // Every option that changes what the step reads, so two steps that differ only
            // in `$top` or `$select` never read the same.
            let mut text = match filter {
                Some(f) => format!("query {table} {} {f}", msg::learn_headline_where()),
                None => format!("query {table} {}", msg::learn_headline_no_filter()),
            };
            if let Some(top) = top {
                text.push_str(&format!(" $top={top}"));
            }
            if let Some(select) = select {
                text.push_str(&format!(" $select={}", select.join(",")));
            }
            if continuation.is_some() {
                text.push(' ');
                text.push_str(&msg::learn_headline_next_page());
            }
            text
        }
        Some(R::Batch { table, operations }) => msg::learn_headline_batch(operations.len(), table),
        Some(
            R::Get {
                table,
                partition_key,
                row_key,
                ..
            }
            | R::Delete {
                table,
                partition_key,
                row_key,
                ..
            },
        ) => format!("{op} {table} ({partition_key}, {row_key})"),
        Some(
            R::Insert { table, entity }
            | R::UpsertReplace { table, entity }
            | R::UpsertMerge { table, entity }
            | R::Replace { table, entity, .. }
            | R::Merge { table, entity, .. },
        ) => {
            let key = |name: &str| {
                entity
                    .get(name)
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .unwrap_or_default()
            };
            format!("{op} {table} ({}, {})", key("PartitionKey"), key("RowKey"))
        }
        Some(R::CreateTable { table } | R::DeleteTable { table }) => format!("{op} {table}"),
        _ => op.to_string(),
    }
}

/// Plays one scenario given as JSON text.
#[component]
pub fn ScenarioPlayer(
    /// The scenario file's text (format 1).
    #[prop(into)]
    text: String,
) -> impl IntoView {
    match scenario::parse(&text) {
        Ok(parsed) => view! { <Player scenario=parsed text=text.clone() /> }.into_any(),
        Err(message) => view! {
            <div class="error-notice" role="alert">
                <p>{msg::learn_unreadable(&message)}</p>
            </div>
        }
        .into_any(),
    }
}

#[component]
fn Player(scenario: scenario::Scenario, text: String) -> impl IntoView {
    let share_link = RwSignal::new(None::<String>);
    let share = move |_| {
        let text = text.clone();
        leptos::task::spawn_local(async move {
            use crate::ui::widgets::share::{make_link, Kind, LinkProblem};
            let link = match make_link(Kind::Scenario, &text).await {
                Ok(url) => url,
                Err(LinkProblem::TooLong(_)) => msg::learn_too_long(),
                Err(LinkProblem::Failed(e)) => msg::learn_no_link(e),
            };
            share_link.try_set(Some(link));
        });
    };
    // The texts in the page's language where the file has it, read when shown: a language
    // switch changes them and keeps the runner and the steps that ran.
    let texts = StoredValue::new(scenario.clone());
    let name = move || texts.with_value(|s| s.name_for(lang().code()).to_string());
    let description = move || {
        let text = texts.with_value(|s| s.description_for(lang().code()).to_string());
        view! { <Markdown text=text /> }
    };
    let data_name = scenario.name.clone();
    let total = scenario.steps.len();
    let runner = StoredValue::new_local(Runner::new(scenario.clone()));
    let steps = RwSignal::new(Vec::<StepView>::new());
    // Parallel to `steps`: whether each card shows its body (the newest does, the earlier
    // ones are one-line summaries until opened).
    let open = RwSignal::new(Vec::<bool>::new());
    // The step the live region reports.
    let said = RwSignal::new(None::<usize>);
    super::follow::open_at_intro();
    let ran = move |views: Vec<StepView>| {
        if views.is_empty() {
            return;
        }
        steps.update(|s| s.extend(views));
        let n = steps.with_untracked(Vec::len);
        open.set((0..n).map(|i| i + 1 == n).collect());
        said.set(Some(n - 1));
        super::follow::bring_into_view(n - 1);
    };
    let run_next = move |_| {
        ran(runner
            .try_update_value(step)
            .flatten()
            .into_iter()
            .collect())
    };
    let run_all = move |_| {
        let mut views = Vec::new();
        while let Some(v) = runner.try_update_value(step).flatten() {
            views.push(v);
        }
        ran(views);
    };
    let reset = move |_| {
        runner.set_value(Runner::new(scenario.clone()));
        steps.set(Vec::new());
        open.set(Vec::new());
        said.set(None);
    };
    let announcement = move || {
        let i = said.get()?;
        steps.with(|s| s.get(i).map(super::follow::announcement))
    };
    let done = move || steps.with(Vec::len) >= total;
    let failed = move || steps.with(|s| s.iter().filter(|v| !v.failures.is_empty()).count());
    let progress = move || {
        let ran = steps.with(Vec::len);
        let f = failed();
        if ran == 0 {
            msg::learn_progress_none(total)
        } else if f == 0 {
            msg::learn_progress_held(total, number(ran))
        } else {
            msg::learn_progress_failed(f, number(ran), number(total))
        }
    };
    view! {
        <article class="scenario-player" data-scenario=data_name>
            <h3 class="scenario-name">{name}</h3>
            <div class="scenario-description">{description}</div>
            <div class="player-controls">
                <button type="button" class="primary run-next" on:click=run_next disabled=done>
                    {t(msg::learn_run_next)}
                </button>
                <button type="button" class="run-all" on:click=run_all disabled=done>
                    {t(msg::learn_run_all)}
                </button>
                <button type="button" class="reset" on:click=reset>
                    {t(msg::learn_reset)}
                </button>
                <button type="button" class="share-scenario" on:click=share>
                    {t(msg::learn_share)}
                </button>
                <span class="player-progress" data-failed=failed>
                    {progress}
                </span>
            </div>
            // What the step just run found, said politely (the counter alone told nothing).
            <p class="step-said" role="status">{announcement}</p>
            {move || {
                share_link
                    .get()
                    .map(|url| {
                        view! {
                            <input
                                class="share-link"
                                type="text"
                                readonly
                                aria-label=t(msg::learn_share_link)
                                prop:value=url
                            />
                        }
                    })
            }}
            <ol class="steps">
                // The cards render again in a new language (they hold no state of their own).
                {move || {
                    lang();
                    steps
                        .get()
                        .into_iter()
                        .map(|v| view! { <StepCard v=v open=open /> })
                        .collect_view()
                }}
            </ol>
            <super::try_query::TryQuery runner=runner revision=Signal::derive(move || steps.with(Vec::len)) />
        </article>
    }
}

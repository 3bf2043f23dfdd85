//! One step of the scenario player as a card: a disclosure button with its number, request
//! and a one-line result, over its body (note, figures, expectations, map, request).

use super::player::StepView;
use crate::engine::scenario::{self, Expect};
use crate::engine::CopyReport;
use crate::i18n::{lang, msg, number, t};
use crate::ui::text::target_text::service_name;
use crate::ui::widgets::markdown::Markdown;
use crate::ui::widgets::partition_map::PartitionMap;
use crate::ui::widgets::ru::RuEstimate;
use leptos::prelude::*;

/// The fields an expectation checks, with their expected values as text.
pub fn expected_fields(e: &Expect) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(s) = e.status {
        out.push(("status", s.to_string()));
    }
    if let Some(c) = &e.code {
        out.push(("code", c.clone().unwrap_or_else(msg::learn_fig_none)));
    }
    if let Some(p) = &e.message_prefix {
        out.push(("message", format!("{p}…")));
    }
    if e.entity.is_some() {
        out.push(("entity", msg::learn_as_listed()));
    }
    if let Some(es) = &e.entities {
        out.push(("entities", msg::learn_n_as_listed(number(es.len()))));
    }
    if let Some(c) = e.count {
        out.push(("count", number(c)));
    }
    if let Some(s) = e.scanned {
        out.push(("scanned", number(s)));
    }
    if let Some(p) = e.partitions {
        out.push(("partitions", number(p)));
    }
    if let Some(k) = e.kind {
        out.push(("kind", crate::ui::text::explain_text::kind_name(k.label())));
    }
    if let Some(c) = &e.continuation {
        // The expectation's type is private to the engine: read it through Debug.
        let shown = match format!("{c:?}").as_str() {
            "Present(true)" => msg::learn_a_token(),
            "Present(false)" => msg::learn_fig_none(),
            other => other.to_string(),
        };
        out.push(("continuation", shown));
    }
    if let Some(t) = &e.tables {
        out.push(("tables", t.join(", ")));
    }
    if let Some(n) = e.index_entries {
        out.push(("indexEntries", number(n)));
    }
    if let Some(ru) = e.request_units {
        out.push(("requestUnits", msg::ru_estimate_value(number(ru))));
    }
    out
}

/// One step: a disclosure button with its number, request and a one-line result, over its
/// body (note, figures, expectations, map, request), shown while `open` says so for it.
#[component]
pub fn StepCard(v: StepView, open: RwSignal<Vec<bool>>) -> impl IntoView {
    let i = v.index;
    let shown = move || open.with(|o| o.get(i) == Some(&true));
    let toggle = move |_| {
        open.update(|o| {
            if let Some(b) = o.get_mut(i) {
                *b = !*b;
            }
        })
    };
    // The expectations in the language shown now (the card renders again on a switch).
    let expected = v
        .spec
        .expect
        .as_ref()
        .map(expected_fields)
        .unwrap_or_default();
    let ok = v.failures.is_empty();
    let verdict = if expected.is_empty() {
        "none"
    } else if ok {
        "held"
    } else {
        "failed"
    };
    let status_text = super::follow::status_text(&v);
    let brief = {
        let mark = match verdict {
            "held" => "✓ ",
            "failed" => "✗ ",
            _ => "",
        };
        match (v.kind, v.scanned, v.returned) {
            (Some(kind), Some(scanned), Some(returned)) => format!(
                "{mark}{} · {} {} · {} {}",
                crate::ui::text::explain_text::kind_name(kind),
                number(scanned),
                msg::learn_fig_scanned(),
                number(returned),
                msg::learn_fig_returned()
            ),
            _ => match &v.switched {
                Some(r) => format!("{mark}{}", switched_text(r)),
                None => format!("{mark}{status_text}"),
            },
        }
    };
    let body_id = format!("step-body-{}", v.index);
    let figure = |label: fn() -> String, field: &'static str, value: Option<String>| {
        value.map(|value| {
            view! {
                <div class="fig" data-field=field>
                    <dt>{t(label)}</dt>
                    <dd>{value}</dd>
                </div>
            }
        })
    };
    let expectations = (!expected.is_empty()).then(|| {
        let failures = v.failures.clone();
        view! {
            <ul class="expectations" data-verdict=verdict>
                {expected
                    .iter()
                    .map(|(field, expected)| {
                        let miss = failures.iter().find(|m| m.field == *field
                            || (*field == "message" && m.field == "messagePrefix"));
                        let label = field_label(field);
                        let (state, text) = match miss {
                            Some(m) => (
                                "failed",
                                msg::learn_expect_failed(&m.actual, &m.expected, label),
                            ),
                            None => ("held", format!("✓ {label} {expected}")),
                        };
                        view! { <li data-state=state>{text}</li> }
                    })
                    .collect_view()}
                {failures
                    .iter()
                    .filter(|m| m.field == "step")
                    .map(|m| view! { <li data-state="failed">{format!("✗ {}", step_failure(&m.actual))}</li> })
                    .collect_view()}
            </ul>
        }
    });
    let (rows, scanned, returned) = match v.map {
        Some((r, s, ret)) => (Some(r), s, ret),
        None => (None, Vec::new(), Vec::new()),
    };
    let map = rows.map(|rows| {
        view! {
            <PartitionMap
                rows=Signal::stored(rows)
                scanned=Signal::stored(scanned)
                returned=Signal::stored(returned)
            />
        }
    });
    view! {
        <li class="step" data-index=v.index data-op=v.op.clone() data-verdict=verdict>
            <div class="step-head">
                <button
                    type="button"
                    class="step-toggle"
                    aria-expanded=move || shown().to_string()
                    aria-controls=body_id.clone()
                    on:click=toggle
                >
                    <span class="step-number">{msg::learn_step(number(v.index + 1))}</span>
                    <code class="step-headline" dir="ltr">{v.headline.clone()}</code>
                    <span class="step-brief">{brief}</span>
                </button>
            </div>
            <div class="step-body" id=body_id hidden=move || !shown()>
            {v.spec.note_for(lang().code()).map(|n| view! { <div class="step-note"><Markdown text=n.to_string() /></div> })}
            <dl class="step-figures">
                {figure(msg::learn_fig_status, "status", Some(status_text))}
                {figure(msg::learn_fig_kind, "kind", v.kind.map(crate::ui::text::explain_text::kind_name))}
                {figure(msg::learn_fig_scanned, "scanned", v.scanned.map(number))}
                {figure(msg::learn_fig_returned, "returned", v.returned.map(number))}
                {figure(msg::learn_fig_partitions, "partitions", v.partitions.map(number))}
                {figure(msg::learn_fig_index_entries, "indexEntries", v.index_entries.map(number))}
                {figure(
                    msg::learn_fig_continuation,
                    "continuation",
                    v.scanned.map(|_| v.continuation.clone().unwrap_or_else(msg::learn_fig_none)),
                )}
            </dl>
            {v.request_units.map(|ru| view! { <RuEstimate ru=ru /> })}
            {v.switched.as_ref().map(|r| view! { <p class="step-switched">{switched_text(r)}</p> })}
            {v.message.clone().map(|m| view! { <p class="step-message">{m}</p> })}
            {expectations}
            {map}
            <details class="step-request">
                <summary>{t(msg::learn_request)}</summary>
                <pre dir="ltr">{v.request.clone()}</pre>
            </details>
            </div>
        </li>
    }
}

/// The name of an expectation's field, as the player shows it (`field` is the scenario
/// format's own name).
fn field_label(field: &str) -> String {
    match field {
        "status" => msg::learn_fig_status(),
        "code" => msg::learn_fig_code(),
        "message" => msg::learn_fig_message(),
        "entity" => msg::learn_fig_entity(),
        "entities" => msg::learn_fig_entities(),
        "count" => msg::learn_fig_count(),
        "scanned" => msg::learn_fig_scanned(),
        "partitions" => msg::learn_fig_partitions(),
        "kind" => msg::learn_fig_kind(),
        "continuation" => msg::learn_fig_continuation(),
        "tables" => msg::learn_fig_tables(),
        "indexEntries" => msg::learn_fig_index_entries(),
        "requestUnits" => msg::ru_estimate_label(),
        other => other.to_string(),
    }
}

/// "Now on Azure Cosmos DB for Table. Tables kept: 1; entities kept: 7."
fn switched_text(r: &CopyReport) -> String {
    msg::target_switched(number(r.entities), service_name(r.to), number(r.tables))
}

/// Why a step could not run, in the reader's language where the player knows the reason.
fn step_failure(actual: &str) -> String {
    if actual == scenario::WITHOUT_COSMOS {
        msg::learn_switch_in_playground()
    } else {
        actual.to_string()
    }
}

//! The account's settings beside its data: a line on the service properties (CORS rules,
//! logging, metrics), and on request an editor of the CORS rules and of each table's stored
//! access policies. Saving runs the service's request, so the engine's checks apply; a
//! refusal shows the service's code, and the rule it broke beside the field, and keeps every
//! field as typed.
//!
//! The editor is reached through a function pointer: it runs only once opened, so the split
//! keeps its code out of the playground's first download.

mod cors;
mod draft;
mod policies;

use crate::i18n::{msg, t};
use crate::ui::state::AppState;
use draft::{At, Field, Problem};
use leptos::prelude::*;

const EDITOR: fn() -> AnyView = editor;

/// The settings' summary, and the editor below it once opened.
#[component]
pub fn SettingsPanel() -> impl IntoView {
    let state = AppState::expect();
    let open = RwSignal::new(false);
    let summary = move || {
        state.inspect(|a| {
            let p = a.service_properties();
            let on = |on: bool| {
                if on {
                    msg::settings_on()
                } else {
                    msg::settings_off()
                }
            };
            let logging = p.logging.read || p.logging.write || p.logging.delete;
            let cors = msg::settings_cors_count(p.cors.len());
            let rest = msg::settings_summary(
                on(p.hour_metrics.enabled),
                on(logging),
                on(p.minute_metrics.enabled),
            );
            format!("{cors}. {rest}")
        })
    };
    view! {
        <section class="panel settings-panel" aria-labelledby="settings-heading">
            <h2 id="settings-heading">{t(msg::settings_heading)}</h2>
            <p class="settings-summary">{summary}</p>
            <button
                type="button"
                class="settings-toggle"
                aria-expanded=move || if open.get() { "true" } else { "false" }
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {t(msg::settings_edit)}
            </button>
            {move || open.get().then(|| std::hint::black_box(EDITOR)())}
        </section>
    }
}

fn editor() -> AnyView {
    view! {
        <div class="settings-editor">
            <cors::CorsEditor />
            <policies::PoliciesEditor />
        </div>
    }
    .into_any()
}

/// The problem shown at `at`, in the language shown.
fn problem_at(problem: RwSignal<Option<Problem>>, at: At) -> Signal<Option<String>> {
    Signal::derive(move || problem.with(|p| p.as_ref().filter(|p| p.at == at).map(Problem::text)))
}

/// The element id of a field of item `key` in the list `list` (`cors`, `policy`).
fn field_id(list: &'static str, key: u32, field: Field) -> String {
    format!("{list}-{key}-{}", field.slug())
}

/// Moves focus to where a problem is shown, so it is read out with its field.
fn focus_problem(list: &'static str, at: At) {
    if let At::Item(key, field) = at {
        let id = field_id(list, key, field);
        crate::ui::kit::dom::focus_first(vec![format!("#{id}"), format!("#{id} input")]);
    }
}

/// A labelled one-line input of a draft, with the problem that belongs to it beside it.
fn text_field(
    label: fn() -> String,
    id: String,
    value: RwSignal<String>,
    hint: Option<&'static str>,
    problem: Signal<Option<String>>,
) -> AnyView {
    let problem_id = format!("{id}-problem");
    let described = {
        let problem_id = problem_id.clone();
        move || {
            let mut ids: Vec<&str> = hint.into_iter().collect();
            if problem.with(Option::is_some) {
                ids.push(&problem_id);
            }
            (!ids.is_empty()).then(|| ids.join(" "))
        }
    };
    view! {
        <div class="settings-field">
            <label for=id.clone()>{move || label()}</label>
            <input
                type="text"
                id=id
                dir="ltr"
                autocomplete="off"
                autocapitalize="off"
                spellcheck="false"
                aria-invalid=move || problem.with(Option::is_some).then_some("true")
                aria-describedby=described
                prop:value=value
                on:input=move |ev| value.set(event_target_value(&ev))
            />
            {problem_text(problem_id, problem)}
        </div>
    }
    .into_any()
}

/// A group of labelled checkboxes (`names`, each its own label) bound to `values`.
fn checkboxes<const N: usize>(
    legend: fn() -> String,
    id: String,
    names: [fn() -> String; N],
    values: RwSignal<[bool; N]>,
    problem: Signal<Option<String>>,
) -> AnyView {
    let problem_id = format!("{id}-problem");
    let described = {
        let problem_id = problem_id.clone();
        move || problem.with(Option::is_some).then(|| problem_id.clone())
    };
    let boxes = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            view! {
                <label class="settings-check">
                    <input
                        type="checkbox"
                        prop:checked=move || values.with(|v| v[i])
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            values.update(|v| v[i] = on);
                        }
                    />
                    <span>{move || name()}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="settings-checks" id=id aria-describedby=described>
            <legend>{move || legend()}</legend>
            {boxes}
            {problem_text(problem_id, problem)}
        </fieldset>
    }
    .into_any()
}

/// The problem beside a field, when there is one.
fn problem_text(id: String, problem: Signal<Option<String>>) -> impl IntoView {
    move || {
        problem
            .get()
            .map(|text| view! { <p class="field-problem" id=id.clone()>{text}</p> })
    }
}

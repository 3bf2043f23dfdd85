//! The CORS rules' editor: each rule's origins, methods, headers and max age, saved together
//! by Set Table Service Properties (logging and metrics are sent as they are stored).

use super::draft::{cors_update, locate_cors, rules, At, Field, Problem, RuleDraft};
use super::{checkboxes, field_id, focus_problem, problem_at, text_field};
use crate::engine::settings::CORS_METHODS;
use crate::engine::{CorsRule, Request};
use crate::i18n::{msg, t};
use crate::ui::state::AppState;
use crate::ui::text::notice_text::{said, Say};
use crate::ui::widgets::error_notice::ErrorNotice;
use leptos::prelude::*;

/// The methods' labels, in `CORS_METHODS`' order: the service's verbs, the same in every
/// language.
const METHODS: [fn() -> String; CORS_METHODS.len()] = [
    || "DELETE".into(),
    || "GET".into(),
    || "HEAD".into(),
    || "MERGE".into(),
    || "PATCH".into(),
    || "POST".into(),
    || "OPTIONS".into(),
    || "PUT".into(),
];

/// The stored rules (subscribes the caller to writes).
fn stored(state: AppState) -> Vec<CorsRule> {
    state
        .inspect(|a| a.service_properties().cors.clone())
        .unwrap_or_default()
}

fn drafts_of(rules: &[CorsRule]) -> Vec<RuleDraft> {
    rules.iter().map(RuleDraft::new).collect()
}

/// Every CORS rule of the account, editable, with Save and show as code.
#[component]
pub fn CorsEditor() -> impl IntoView {
    let state = AppState::expect();
    let rules_stored = Memo::new(move |_| stored(state));
    let drafts = RwSignal::new(rules_stored.with_untracked(|r| drafts_of(r)));
    let problem = RwSignal::new(None::<Problem>);
    let status = RwSignal::new(None::<Say>);
    // The drafts show the stored rules again whenever those change: once saved here, and also
    // when an import, a reset or the SDK in the Code section sets them.
    let owner = Owner::current().unwrap_or_default();
    Effect::new(move |first: Option<()>| {
        rules_stored.track();
        if first.is_some() {
            // Made by the component, not the effect: an effect's next run disposes what its
            // last one made, and the rows on screen still hold these until they are replaced.
            let next = owner.with(|| rules_stored.with_untracked(|r| drafts_of(r)));
            drafts.set(next);
            problem.set(None);
        }
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let list = drafts.get_untracked();
        let result = rules(&list).and_then(|rules| {
            let request = Request::SetServiceProperties {
                properties: cors_update(rules.clone()),
            };
            match state.write(&request).error {
                None => Ok(()),
                Some(e) => Err(locate_cors(e, &list, &rules)),
            }
        });
        match result {
            Ok(()) => {
                problem.set(None);
                status.set(said(msg::settings_cors_saved));
            }
            Err(p) => {
                focus_problem("cors", p.at);
                problem.set(Some(p));
                status.set(None);
            }
        }
    };
    let add = move |_| drafts.update(|d| d.push(RuleDraft::blank()));
    let service = Signal::derive(move || problem.with(|p| p.as_ref().and_then(Problem::service)));
    let code = Callback::new(move |()| {
        let rules = rules(&drafts.get_untracked()).map_err(|p| p.text())?;
        Ok(Request::SetServiceProperties {
            properties: cors_update(rules),
        })
    });
    let list_problem = problem_at(problem, At::List);
    view! {
        <form class="settings-cors" aria-labelledby="settings-cors-heading" novalidate on:submit=save>
            <h3 id="settings-cors-heading">{t(msg::settings_cors_heading)}</h3>
            <p class="hint" id="settings-list-hint">{t(msg::settings_list_hint)}</p>
            <Show when=move || drafts.with(Vec::is_empty)>
                <p class="empty">{t(msg::settings_cors_none)}</p>
            </Show>
            <For each=move || drafts.get() key=|d| d.key let:draft>
                {rule(draft, drafts, problem)}
            </For>
            {move || list_problem.get().map(|text| view! { <p class="field-problem">{text}</p> })}
            <div class="settings-actions">
                <button type="button" on:click=add>{t(msg::settings_add_rule)}</button>
                <button type="submit" class="primary">{t(msg::settings_save_cors)}</button>
            </div>
            <ErrorNotice error=service />
            <p class="status" role="status">{move || status.get().map(|say| say())}</p>
            <crate::ui::widgets::show_code::ShowCode what="settings-cors" request=code />
        </form>
    }
}

/// One rule's fields and its Remove button.
fn rule(
    draft: RuleDraft,
    drafts: RwSignal<Vec<RuleDraft>>,
    problem: RwSignal<Option<Problem>>,
) -> AnyView {
    let key = draft.key;
    let n = move || {
        drafts
            .with(|d| d.iter().position(|x| x.key == key))
            .map_or(0, |i| i + 1)
    };
    let id = |field| field_id("cors", key, field);
    let at = |field| problem_at(problem, At::Item(key, field));
    let hint = Some("settings-list-hint");
    view! {
        <fieldset class="settings-item">
            <legend>{move || msg::settings_cors_rule(n())}</legend>
            {text_field(msg::settings_origins, id(Field::Origins), draft.origins, hint, at(Field::Origins))}
            {checkboxes(msg::settings_methods, id(Field::Methods), METHODS, draft.methods, at(Field::Methods))}
            {text_field(msg::settings_allowed_headers, id(Field::AllowedHeaders), draft.allowed, hint, at(Field::AllowedHeaders))}
            {text_field(msg::settings_exposed_headers, id(Field::ExposedHeaders), draft.exposed, hint, at(Field::ExposedHeaders))}
            {text_field(msg::settings_max_age, id(Field::MaxAge), draft.max_age, None, at(Field::MaxAge))}
            <button
                type="button"
                class="delete"
                on:click=move |_| drafts.update(|d| d.retain(|x| x.key != key))
            >
                {move || msg::settings_remove_rule(n())}
            </button>
        </fieldset>
    }
    .into_any()
}

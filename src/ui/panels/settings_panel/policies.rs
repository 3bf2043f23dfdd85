//! A table's stored access policies: each policy's id, start, expiry and permissions, saved
//! together by Set Table ACL.

use super::draft::{identifiers, locate_acl, At, Field, PolicyDraft, Problem, EXAMPLE_TIME};
use super::{checkboxes, field_id, focus_problem, problem_at, text_field};
use crate::engine::{Request, SignedIdentifier};
use crate::i18n::{msg, t};
use crate::ui::state::workspace::Workspace;
use crate::ui::state::AppState;
use crate::ui::text::notice_text::{said, Say};
use crate::ui::widgets::error_notice::ErrorNotice;
use leptos::prelude::*;

const PERMISSIONS: [fn() -> String; 4] = [
    msg::settings_perm_read,
    msg::settings_perm_add,
    msg::settings_perm_update,
    msg::settings_perm_delete,
];

/// The table's stored policies (subscribes the caller to writes).
fn stored(state: AppState, table: &str) -> Vec<SignedIdentifier> {
    state
        .inspect(|a| a.table_acl(table).map(<[_]>::to_vec).unwrap_or_default())
        .unwrap_or_default()
}

fn drafts_of(list: &[SignedIdentifier]) -> Vec<PolicyDraft> {
    list.iter().map(PolicyDraft::new).collect()
}

/// The stored access policies of a table chosen from a list, editable, with Save and show as
/// code.
#[component]
pub fn PoliciesEditor() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let tables = Memo::new(move |_| {
        state
            .describe_tables()
            .into_iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
    });
    let first = workspace
        .table
        .get_untracked()
        .or_else(|| tables.with_untracked(|t| t.first().cloned()));
    let table = RwSignal::new(first.unwrap_or_default());
    // The table with its stored policies: another table is news even when both have none.
    let policies_stored = Memo::new(move |_| {
        let name = table.get();
        let list = stored(state, &name);
        (name, list)
    });
    let drafts = RwSignal::new(policies_stored.with_untracked(|(_, l)| drafts_of(l)));
    let problem = RwSignal::new(None::<Problem>);
    let status = RwSignal::new(None::<Say>);
    // The drafts show the chosen table's stored policies again whenever those change: another
    // table chosen, a save here, an import, a reset, the SDK in the Code section.
    let owner = Owner::current().unwrap_or_default();
    Effect::new(move |first: Option<()>| {
        policies_stored.track();
        if first.is_some() {
            // Made by the component, not the effect: an effect's next run disposes what its
            // last one made, and the rows on screen still hold these until they are replaced.
            let next = owner.with(|| policies_stored.with_untracked(|(_, l)| drafts_of(l)));
            drafts.set(next);
            problem.set(None);
        }
    });
    // A table deleted, or the first one created while the editor is open: follow the list.
    Effect::new(move |_| {
        let names = tables.get();
        if !table.with_untracked(|t| names.contains(t)) {
            let next = workspace
                .table
                .get_untracked()
                .filter(|t| names.contains(t))
                .or_else(|| names.first().cloned())
                .unwrap_or_default();
            table.set(next);
        }
    });
    let choose = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        table.set(name);
        status.set(None);
    };
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let name = table.get_untracked();
        let list = drafts.get_untracked();
        let result = identifiers(&list).and_then(|identifiers| {
            let request = Request::SetTableAcl {
                table: name.clone(),
                identifiers: identifiers.clone(),
            };
            match state.write(&request).error {
                None => Ok(()),
                Some(e) => Err(locate_acl(e, &list, &identifiers)),
            }
        });
        match result {
            Ok(()) => {
                problem.set(None);
                status.set(said(move || msg::settings_policies_saved(&name)));
            }
            Err(p) => {
                focus_problem("policy", p.at);
                problem.set(Some(p));
                status.set(None);
            }
        }
    };
    let add = move |_| drafts.update(|d| d.push(PolicyDraft::blank()));
    let service = Signal::derive(move || problem.with(|p| p.as_ref().and_then(Problem::service)));
    let code = Callback::new(move |()| {
        let identifiers = identifiers(&drafts.get_untracked()).map_err(|p| p.text())?;
        Ok(Request::SetTableAcl {
            table: table.get_untracked(),
            identifiers,
        })
    });
    let list_problem = problem_at(problem, At::List);
    let options = move || {
        tables
            .get()
            .into_iter()
            .map(|name| {
                let selected = table.with_untracked(|t| *t == name);
                let value = name.clone();
                view! { <option value=value selected=selected>{name}</option> }
            })
            .collect_view()
    };
    let editor = move || {
        view! {
            <div class="settings-field">
                <label for="settings-policy-table">{t(msg::settings_policies_table)}</label>
                <select id="settings-policy-table" dir="ltr" on:change=choose>{options}</select>
            </div>
            <Show when=move || drafts.with(Vec::is_empty)>
                <p class="empty">{t(msg::settings_policies_none)}</p>
            </Show>
            <For each=move || drafts.get() key=|d| d.key let:draft>
                {policy(draft, drafts, problem)}
            </For>
            {move || list_problem.get().map(|text| view! { <p class="field-problem">{text}</p> })}
            <div class="settings-actions">
                <button type="button" on:click=add>{t(msg::settings_add_policy)}</button>
                <button type="submit" class="primary">{t(msg::settings_save_policies)}</button>
            </div>
            <ErrorNotice error=service />
            <p class="status" role="status">{move || status.get().map(|say| say())}</p>
            <crate::ui::widgets::show_code::ShowCode what="settings-acl" request=code />
        }
    };
    view! {
        <form class="settings-policies" aria-labelledby="settings-policies-heading" novalidate on:submit=save>
            <h3 id="settings-policies-heading">{t(msg::settings_policies_heading)}</h3>
            <p class="hint" id="settings-time-hint">{move || msg::settings_time_hint(EXAMPLE_TIME)}</p>
            <Show
                when=move || !tables.with(Vec::is_empty)
                fallback=|| view! { <p class="empty">{t(msg::settings_policies_no_table)}</p> }
            >
                {editor}
            </Show>
        </form>
    }
}

/// One policy's fields and its Remove button.
fn policy(
    draft: PolicyDraft,
    drafts: RwSignal<Vec<PolicyDraft>>,
    problem: RwSignal<Option<Problem>>,
) -> AnyView {
    let key = draft.key;
    let n = move || {
        drafts
            .with(|d| d.iter().position(|x| x.key == key))
            .map_or(0, |i| i + 1)
    };
    let id = |field| field_id("policy", key, field);
    let at = |field| problem_at(problem, At::Item(key, field));
    let hint = Some("settings-time-hint");
    view! {
        <fieldset class="settings-item">
            <legend>{move || msg::settings_policy(n())}</legend>
            {text_field(msg::settings_policy_id, id(Field::Id), draft.id, None, at(Field::Id))}
            {text_field(msg::settings_policy_start, id(Field::Start), draft.start, hint, at(Field::Start))}
            {text_field(msg::settings_policy_expiry, id(Field::Expiry), draft.expiry, hint, at(Field::Expiry))}
            {checkboxes(msg::settings_permissions, id(Field::Permissions), PERMISSIONS, draft.permissions, at(Field::Permissions))}
            <button
                type="button"
                class="delete"
                on:click=move |_| drafts.update(|d| d.retain(|x| x.key != key))
            >
                {move || msg::settings_remove_policy(n())}
            </button>
        </fieldset>
    }
    .into_any()
}

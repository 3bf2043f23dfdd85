//! The service the workspace's account behaves as: Azure Table storage (the default) or Azure
//! Cosmos DB for Table. Choosing the other one asks first, saying what changes; confirmed, the
//! account is converted in place (`Account::switch_target`: every table and entity kept with
//! its Timestamp) and saved as one replace, and the panel names whatever the other service
//! cannot hold.
//!
//! Invariant: the radio shown checked is the account's target, or the one whose confirmation
//! is open; nothing changes until the confirmation's Switch is pressed.

use crate::engine::{CopyReport, Dropped, Rule, Target};
use crate::i18n::{msg, number, t};
use crate::ui::state::AppState;
use crate::ui::text::notice_text::Say;
use crate::ui::text::target_text::service_name;
use leptos::prelude::*;

/// The switch, its confirmation and what the last switch did.
#[component]
pub fn TargetPanel() -> impl IntoView {
    let state = AppState::expect();
    let current = move || state.inspect(|a| a.target()).unwrap_or_default();
    // The target whose confirmation is open.
    let ask = RwSignal::new(None::<Target>);
    let report = RwSignal::new(None::<CopyReport>);
    let error = RwSignal::new(None::<Say>);
    let close = move || {
        ask.set(None);
        crate::ui::kit::confirm::closed();
    };
    let choose = move |to: Target| {
        if to == current() {
            ask.set(None);
            return;
        }
        error.set(None);
        ask.set(Some(to));
        crate::ui::kit::confirm::opened(".target-confirm .cancel");
    };
    let confirm = move |_| {
        let Some(to) = ask.get_untracked() else {
            return;
        };
        match state.change(|a| Ok::<_, String>(a.switch_target(to))) {
            Ok(done) => {
                report.set(Some(done));
                error.set(None);
            }
            Err(why) => error.set(Some(why)),
        }
        close();
    };
    let option = move |target: Target, class: &'static str| {
        view! {
            <label class=format!("target-option {class}")>
                <input
                    type="radio"
                    name="account-target"
                    value=class
                    prop:checked=move || ask.get().unwrap_or_else(current) == target
                    on:change=move |_| choose(target)
                />
                {move || service_name(target)}
            </label>
        }
    };
    let question = move || {
        let to = ask.get()?;
        let text = match to {
            Target::CosmosTable => msg::target_question_cosmos(),
            Target::TableStorage => msg::target_question_storage(),
        };
        Some(view! {
            <div
                class="target-confirm"
                role="group"
                aria-label=t(msg::storage_confirm)
                on:keydown=move |ev| {
                    if ev.key() == "Escape" {
                        ev.prevent_default();
                        close();
                    }
                }
            >
                <p class="target-question">{text}</p>
                <button type="button" class="primary switch-target" on:click=confirm>
                    {move || msg::target_switch_yes(service_name(to))}
                </button>
                <button type="button" class="cancel" on:click=move |_| close()>
                    {t(msg::tables_cancel)}
                </button>
            </div>
        })
    };
    view! {
        <section class="panel target-panel" aria-labelledby="target-heading">
            <h2 id="target-heading">{t(msg::target_heading)}</h2>
            <fieldset class="target-choice">
                <legend>{t(msg::target_legend)}</legend>
                {option(Target::TableStorage, "table-storage")}
                {option(Target::CosmosTable, "cosmos-table")}
            </fieldset>
            {question}
            {move || error.get().map(|e| view! { <p class="target-error" role="alert">{e()}</p> })}
            <div class="status target-status" aria-live="polite">
                {move || report.get().map(|r| view! { <Switched report=r /> })}
            </div>
        </section>
    }
}

/// What a switch kept, and each thing it could not.
#[component]
fn Switched(report: CopyReport) -> impl IntoView {
    let (to, tables, entities) = (report.to, report.tables, report.entities);
    let dropped = report.dropped;
    view! {
        <p class="target-switched">
            {move || msg::target_switched(number(entities), service_name(to), number(tables))}
        </p>
        {(!dropped.is_empty()).then(|| view! {
            <p class="target-dropped-heading">{t(msg::target_dropped)}</p>
            <ul class="target-dropped">
                {dropped.into_iter().map(|d| view! { <li>{move || dropped_text(&d)}</li> }).collect_view()}
            </ul>
        })}
    }
}

/// One thing a switch left out, in the current language.
fn dropped_text(d: &Dropped) -> String {
    match d {
        Dropped::Entity {
            table,
            partition_key,
            row_key,
            rule,
        } => {
            let why = match rule {
                Rule::ReservedPropertyNames => msg::target_rule_reserved(),
                Rule::BinaryRoom => msg::target_rule_binary(),
                _ => msg::target_rule_row_key(),
            };
            msg::target_dropped_entity(partition_key, row_key, table, why)
        }
        Dropped::TableAcl { table, .. } => msg::target_dropped_acl(table),
        Dropped::ServiceProperties => msg::target_dropped_properties(),
        Dropped::TableName { table, kept } => msg::target_dropped_table(kept, table),
    }
}

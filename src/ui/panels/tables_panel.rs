//! The tables panel: create a table, list every table with its counts, select the one to work
//! on, delete one after an inline confirmation.

use crate::engine::{Error, TableInfo};
use crate::i18n::{msg, t};
use crate::ui::state::workspace::Workspace;
use crate::ui::state::AppState;
use crate::ui::text::notice_text::{said, Say};
use crate::ui::widgets::error_notice::ErrorNotice;
use leptos::html;
use leptos::prelude::*;

/// Create, list and delete tables.
#[component]
pub fn TablesPanel() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(None::<Error>);
    // What the last successful action did, announced politely to screen readers.
    let status = RwSignal::new(None::<Say>);
    // The table whose delete button was pressed and awaits confirmation.
    let pending_delete = RwSignal::new(None::<String>);
    let tables = Memo::new(move |_| state.describe_tables());
    // An error answers the last attempt only: once the user moves on (types another name or
    // selects a table), it goes, so a stale "409 TableAlreadyExists" never sits beside a later
    // success.
    Effect::new(move |seen: Option<()>| {
        workspace.table.track();
        if seen.is_some() {
            error.set(None);
        }
    });

    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let table = name.get_untracked();
        match state.create_table(&table) {
            Ok(()) => {
                name.set(String::new());
                error.set(None);
                let created = table.clone();
                status.set(said(move || msg::tables_created(&created)));
                workspace.table.set(Some(table));
            }
            Err(e) => {
                error.set(Some(e));
                status.set(None);
            }
        }
    };
    let confirm_delete = Callback::new(move |table: String| {
        pending_delete.set(None);
        match state.delete_table(&table) {
            Ok(()) => {
                error.set(None);
                let deleted = table.clone();
                status.set(said(move || msg::tables_deleted(&deleted)));
                if workspace.table.get_untracked().as_deref() == Some(table.as_str()) {
                    workspace.table.set(None);
                }
                // The Delete button that opened the question went with its table: focus
                // lands on the panel's first field rather than on the page's body.
                crate::ui::kit::dom::focus("#new-table-name");
            }
            Err(e) => error.set(Some(e)),
        }
    });

    view! {
        <section class="panel tables-panel" aria-labelledby="tables-heading">
            <h2 id="tables-heading">{t(msg::tables_heading)}</h2>
            <form class="create-table" on:submit=create>
                <label for="new-table-name">{t(msg::tables_new_label)}</label>
                <div class="field-row">
                    <input
                        id="new-table-name"
                        name="table"
                        type="text"
                        autocomplete="off"
                        autocapitalize="off"
                        spellcheck="false"
                        placeholder=move || msg::tables_new_placeholder(EXAMPLE_TABLE)
                        aria-describedby="table-name-hint"
                        prop:value=name
                        on:input=move |ev| {
                            name.set(event_target_value(&ev));
                            error.set(None);
                        }
                    />
                    <button type="submit" class="primary">{t(msg::tables_create)}</button>
                </div>
                <p id="table-name-hint" class="hint">{t(msg::tables_name_hint)}</p>
            </form>
            <ErrorNotice error=error />
            <p class="status" role="status">{move || status.get().map(|say| say())}</p>
            <TableList tables=tables pending_delete=pending_delete on_delete=confirm_delete />
        </section>
    }
}

/// The tables with their counts, or a hint when there are none.
#[component]
fn TableList(
    /// Every table, in the service's order.
    #[prop(into)]
    tables: Signal<Vec<TableInfo>>,
    /// The table awaiting delete confirmation.
    pending_delete: RwSignal<Option<String>>,
    /// Deletes the named table (already confirmed).
    on_delete: Callback<String>,
) -> impl IntoView {
    view! {
        <Show
            when=move || !tables.with(Vec::is_empty)
            fallback=|| view! { <p class="empty">{t(msg::tables_empty)}</p> }
        >
            <ul class="table-list" aria-label=t(msg::tables_heading)>
                <For
                    each=move || tables.get()
                    key=|t| (t.name.clone(), t.entities, t.partitions)
                    let:info
                >
                    <TableRow info=info pending_delete=pending_delete on_delete=on_delete />
                </For>
            </ul>
        </Show>
    }
}

/// One table: name, counts, and its delete button or the inline confirmation.
#[component]
fn TableRow(
    info: TableInfo,
    pending_delete: RwSignal<Option<String>>,
    on_delete: Callback<String>,
) -> impl IntoView {
    let workspace = Workspace::expect();
    let name = info.name.clone();
    let is_selected = {
        let name = name.clone();
        Memo::new(move |_| {
            workspace
                .table
                .with(|t| t.as_deref() == Some(name.as_str()))
        })
    };
    let select = {
        let name = name.clone();
        move |_| workspace.table.set(Some(name.clone()))
    };
    let delete_label = {
        let name = name.clone();
        move || msg::tables_delete_label(&name)
    };
    let question_label = {
        let name = name.clone();
        move || msg::tables_delete_question_label(&name)
    };
    let (entities, partitions) = (info.entities, info.partitions);
    let counts = move || {
        format!(
            "{} · {}",
            msg::count_entities(entities),
            msg::count_partitions(partitions)
        )
    };
    let confirming = {
        let name = name.clone();
        Memo::new(move |_| pending_delete.with(|p| p.as_deref() == Some(name.as_str())))
    };
    let cancel_ref = NodeRef::<html::Button>::new();
    let delete_ref = NodeRef::<html::Button>::new();
    // Set by Cancel and Escape: focus goes back to the row's Delete button, not to <body>.
    let return_focus = StoredValue::new(false);
    // Keyboard users land on Cancel, the safe choice, as soon as the question appears, and
    // back on Delete when they cancel.
    Effect::new(move |_| {
        if confirming.get() {
            if let Some(button) = cancel_ref.get() {
                let _ = button.focus();
            }
        } else if return_focus.get_value() {
            if let Some(button) = delete_ref.get() {
                return_focus.set_value(false);
                let _ = button.focus();
            }
        }
    });

    let ask = {
        let name = name.clone();
        move |_| pending_delete.set(Some(name.clone()))
    };
    let confirm = {
        let name = name.clone();
        move |_| on_delete.run(name.clone())
    };
    let cancel = move || {
        return_focus.set_value(true);
        pending_delete.set(None);
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            cancel();
        }
    };

    view! {
        <li class="table-row" class:selected=move || is_selected.get() data-table=name.clone()>
            <button
                type="button"
                class="table-facts"
                aria-pressed=move || if is_selected.get() { "true" } else { "false" }
                title=t(msg::tables_select_title)
                on:click=select
            >
                // A table name is data: its own left-to-right run, also in an Arabic page.
                <bdi class="table-name" dir="ltr">{name.clone()}</bdi>
                <span class="table-counts">{counts}</span>
            </button>
            <Show
                when=move || confirming.get()
                fallback=move || {
                    view! {
                        <button
                            type="button"
                            class="delete"
                            aria-label=delete_label.clone()
                            node_ref=delete_ref
                            on:click=ask.clone()
                        >
                            {t(msg::tables_delete)}
                        </button>
                    }
                }
            >
                <div
                    class="confirm"
                    role="group"
                    aria-label=question_label.clone()
                    on:keydown=on_keydown
                >
                    <span class="confirm-question">{t(msg::tables_delete_question)}</span>
                    <button
                        type="button"
                        class="danger confirm-delete"
                        on:click=confirm.clone()
                    >
                        {t(msg::tables_delete)}
                    </button>
                    <button type="button" class="cancel" node_ref=cancel_ref on:click=move |_| cancel()>
                        {t(msg::tables_cancel)}
                    </button>
                </div>
            </Show>
        </li>
    }
}

/// The example name in the new-table field: a name, so the same in every language.
const EXAMPLE_TABLE: &str = "Employees";

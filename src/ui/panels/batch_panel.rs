//! The batch stager: operations staged from the editor or typed by hand, reordered or removed,
//! checked against docs/service/batches.md before commit, and committed atomically; or run
//! on a copy of the tables on both targets to compare their answers.

use crate::engine::{BatchRequest, Error, RawEntity, Request};
use crate::i18n::{msg, t};
use crate::ui::state::model;
use crate::ui::state::workspace::{Staged, Workspace, WriteOp};
use crate::ui::state::AppState;
use crate::ui::text::notice_text::{said, Say};
use crate::ui::text::target_text::service_name;
use crate::ui::widgets::batch_compare::{self, BatchCompare, BatchSide};
use crate::ui::widgets::error_notice::ErrorNotice;
use crate::ui::widgets::show_code::codegen;
use leptos::prelude::*;

/// Stage, order, check and commit a batch on the selected table.
#[component]
pub fn BatchPanel() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let batch = workspace.batch;
    let error = RwSignal::new(None::<Error>);
    let failure = RwSignal::new(None::<Say>);
    // The index the service named in its error: that row is marked in the list.
    let failed_at = RwSignal::new(None::<usize>);
    let status = RwSignal::new(None::<Say>);
    // The committed batch's request units on a Cosmos DB for Table account (none on storage).
    let ru = RwSignal::new(None::<f64>);
    let problems = Memo::new(move |_| {
        batch.with(|b| model::check_batch(&b.iter().map(|s| s.op.clone()).collect::<Vec<_>>()))
    });

    // The batch run on a copy of the tables on each target, once "Compare" is pressed.
    let compared = RwSignal::new(None::<[BatchSide; 2]>);
    let compare_problem = RwSignal::new(None::<String>);
    let compare = move |_| {
        compare_problem.set(None);
        let Some(table) = workspace.table.get_untracked() else {
            failure.set(said(msg::query_select_table_first));
            return;
        };
        let operations: Vec<BatchRequest> =
            batch.with_untracked(|b| b.iter().map(|s| s.op.clone()).collect());
        let request = Request::Batch { table, operations };
        // The request as show-as-code writes it: the module that writes it loads on first use.
        leptos::task::spawn_local(async move {
            match codegen::wire_request(&request).await {
                Ok(http) => {
                    compared.try_set(batch_compare::compare(state, &http));
                }
                Err(e) => {
                    compare_problem.try_set(Some(e));
                }
            }
        });
    };

    let staged_ids = Memo::new(move |_| batch.with(|b| b.iter().map(|s| s.id).collect::<Vec<_>>()));
    let commit = move |_| {
        status.set(None);
        ru.set(None);
        failure.set(None);
        failed_at.set(None);
        let Some(table) = workspace.table.get_untracked() else {
            failure.set(said(msg::query_select_table_first));
            return;
        };
        if !problems.get_untracked().is_empty() {
            return;
        }
        let operations: Vec<BatchRequest> =
            batch.with_untracked(|b| b.iter().map(|s| s.op.clone()).collect());
        let response = state.write(&Request::Batch { table, operations });
        match response.error {
            Some(e) => {
                let index = model::failed_index(&e.message);
                failed_at.set(index);
                failure.set(said(move || {
                    let which = match index {
                        Some(i) => msg::batch_op_failed(i),
                        None => msg::batch_failed(),
                    };
                    msg::batch_rolled_back(which)
                }));
                error.set(Some(e));
            }
            None => {
                error.set(None);
                let statuses: Vec<String> = response
                    .results
                    .unwrap_or_default()
                    .iter()
                    .map(|r| r.status.to_string())
                    .collect();
                let code = response.status;
                ru.set(response.ru.and_then(|r| r.value));
                status.set(said(move || {
                    msg::batch_committed(statuses.len(), code, statuses.join(", "))
                }));
                batch.set(Vec::new());
            }
        }
    };

    view! {
        <section class="panel batch-panel" aria-labelledby="batch-heading">
            <h2 id="batch-heading">
                {move || match workspace.table.get() {
                    Some(table) => msg::batch_heading_table(&table),
                    None => msg::batch_heading(),
                }}
            </h2>
            <p class="hint">
                {t(msg::batch_hint)}
            </p>
            <p class="placeholder" hidden=move || !batch.with(Vec::is_empty)>
                {t(msg::batch_empty)}
            </p>
                <ol class="staged-list" aria-label=t(msg::batch_staged_label) hidden=move || batch.with(Vec::is_empty)>
                    {move || {
                        staged_ids
                            .get()
                            .into_iter()
                            .filter_map(|id| batch.with(|b| b.iter().find(|s| s.id == id).cloned()))
                            .map(|staged| view! { <StagedRow staged=staged failed_at=failed_at /> })
                            .collect_view()
                    }}
                </ol>
            <ul
                class="form-problems batch-problems"
                role="alert"
                hidden=move || problems.with(Vec::is_empty) || batch.with(Vec::is_empty)
            >
                {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
            <div class="editor-actions">
                <button
                    type="button"
                    class="primary commit-batch"
                    prop:disabled=move || !problems.with(Vec::is_empty)
                    on:click=commit
                >
                    {move || msg::batch_commit(batch.with(Vec::len))}
                </button>
                <button
                    type="button"
                    class="clear-batch"
                    on:click=move |_| {
                        batch.set(Vec::new());
                        failure.set(None);
                        failed_at.set(None);
                        error.set(None);
                    }
                >
                    {t(msg::batch_clear)}
                </button>
                <button
                    type="button"
                    class="compare-batch-targets"
                    prop:disabled=move || batch.with(Vec::is_empty)
                    on:click=compare
                >
                    {move || {
                        let other = state.inspect(|a| a.target().other()).unwrap_or_default();
                        msg::compare_targets_button(service_name(other))
                    }}
                </button>
            </div>
            <p class="field-error compare-problem" role="alert">{move || compare_problem.get()}</p>
            <crate::ui::widgets::show_code::ShowCode
                what="batch"
                request=Callback::new(move |()| {
                    let table = workspace.table.get_untracked().ok_or_else(msg::query_select_table_first)?;
                    let operations = batch.with_untracked(|b| b.iter().map(|s| s.op.clone()).collect());
                    Ok(Request::Batch { table, operations })
                })
            />
            {move || failure.get().map(|f| view! { <p class="batch-failure" role="alert">{move || f()}</p> })}
            <ErrorNotice error=error />
            <p class="status batch-status" aria-live="polite">{move || status.get().map(|say| say())}</p>
            {move || ru.get().map(|ru| view! { <crate::ui::widgets::ru::RuEstimate ru=ru /> })}
            {move || compared.get().map(|sides| view! { <BatchCompare sides=sides /> })}
            <ByHand />
        </section>
    }
}

/// One staged operation with its move and remove buttons.
#[component]
fn StagedRow(
    staged: Staged,
    /// The index of the operation the last commit failed on.
    failed_at: RwSignal<Option<usize>>,
) -> impl IntoView {
    let batch = Workspace::expect().batch;
    let id = staged.id;
    let (pk, rk) = model::batch_keys(&staged.op);
    let name = model::batch_op_name(&staged.op);
    let index = move || batch.with(|b| b.iter().position(|s| s.id == id).unwrap_or(0));
    let len = move || batch.with(Vec::len);
    let shift = move |up: bool| {
        batch.update(|b| {
            if let Some(i) = b.iter().position(|s| s.id == id) {
                let j = if up { i.checked_sub(1) } else { Some(i + 1) };
                if let Some(j) = j.filter(|j| *j < b.len()) {
                    b.swap(i, j);
                }
            }
        });
        // The list re-rendered: keep the keyboard on the moved operation's button.
        let (this, other) = if up {
            ("move-up", "move-down")
        } else {
            ("move-down", "move-up")
        };
        crate::ui::kit::dom::focus_first(vec![
            format!("[data-staged-id=\"{id}\"] .{this}:not(:disabled)"),
            format!("[data-staged-id=\"{id}\"] .{other}"),
        ]);
    };
    let label = format!("{name} ({pk}, {rk})");
    view! {
        <li
            class="staged"
            class:failed=move || failed_at.get() == Some(index())
            data-op=name
            data-staged-id=id
        >
            <span class="staged-index">{index}</span>
            <span class="staged-op">{name}</span>
            <span class="staged-keys" dir="ltr">{format!("PartitionKey {}, RowKey {}", model::quote(&pk), model::quote(&rk))}</span>
            <span class="staged-buttons">
                <button
                    type="button"
                    class="move-up"
                    aria-label={ let label = label.clone(); move || msg::batch_move_up(&label) }
                    prop:disabled=move || index() == 0
                    on:click=move |_| shift(true)
                >
                    "↑"
                </button>
                <button
                    type="button"
                    class="move-down"
                    aria-label={ let label = label.clone(); move || msg::batch_move_down(&label) }
                    prop:disabled=move || { index() + 1 >= len() }
                    on:click=move |_| shift(false)
                >
                    "↓"
                </button>
                <button
                    type="button"
                    class="delete remove-staged"
                    aria-label=move || msg::batch_remove_label(&label)
                    on:click=move |_| batch.update(|b| b.retain(|s| s.id != id))
                >
                    {t(msg::batch_remove)}
                </button>
            </span>
        </li>
    }
}

/// Stages an operation typed by hand: the operation and the entity's JSON.
#[component]
fn ByHand() -> impl IntoView {
    let workspace = Workspace::expect();
    let op = RwSignal::new("insert".to_string());
    let text = RwSignal::new(String::new());
    // The last attempt that failed: its problem is said again when the language changes.
    let problem = RwSignal::new(None::<(String, String)>);
    let stage = move |_| {
        let attempt = (op.get_untracked(), text.get_untracked());
        match staged_by_hand(&attempt.0, &attempt.1) {
            Ok(request) => {
                workspace.stage(request);
                problem.set(None);
            }
            Err(_) => problem.set(Some(attempt)),
        }
    };
    let problem_text = move || {
        problem
            .get()
            .and_then(|(op, text)| staged_by_hand(&op, &text).err())
    };
    view! {
        <details class="by-hand">
            <summary>{t(msg::batch_by_hand)}</summary>
            <div class="field">
                <label for="hand-op">{t(msg::batch_operation)}</label>
                <select id="hand-op" on:change=move |ev| op.set(event_target_value(&ev))>
                    {WriteOp::ALL
                        .into_iter()
                        .map(|o| view! { <option value=o.name()>{o.name()}</option> })
                        .collect_view()}
                </select>
            </div>
            <div class="field">
                <label for="hand-json">{t(msg::batch_entity_json)}</label>
                <textarea
                    id="hand-json"
                    rows="4"
                    spellcheck="false"
                    dir="ltr"
                    placeholder="{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"Age\":30}"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                ></textarea>
            </div>
            <button type="button" class="stage-by-hand" on:click=stage>{t(msg::batch_stage)}</button>
            {move || problem_text().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
        </details>
    }
}

fn staged_by_hand(op: &str, text: &str) -> Result<BatchRequest, String> {
    let entity = RawEntity::parse(text).map_err(|e| {
        msg::batch_not_object(
            e.detail
                .map_or(e.message, |d| crate::ui::text::import_text::detail(&d)),
        )
    })?;
    let (pk, rk, etag) = model::keys_of(&entity);
    let op = WriteOp::from_name(op).unwrap_or_default();
    op.batch_request((pk, rk), || Ok(entity), etag)
}

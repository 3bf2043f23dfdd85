//! The selected table's entities: the grid, paged by continuation tokens, the chosen entity's
//! JSON with a copy button, and the entity editor.

mod editor;
mod welcome;

use crate::engine::{Continuation, Error, RawEntity, Request};
use crate::i18n::{msg, t};
use crate::ui::kit::dom::{after_paint, now};
use crate::ui::state::workspace::Workspace;
use crate::ui::state::AppState;
use crate::ui::widgets::entity_grid::{Column, EntityGrid};
use crate::ui::widgets::entity_view::{token_text, EntityView};
use crate::ui::widgets::error_notice::ErrorNotice;
use editor::Editor;
use leptos::prelude::*;

/// Entities per page of the grid (the service's largest page).
const PAGE: u32 = 1000;

/// Grid, entity view and editor for the selected table.
#[component]
pub fn DataPanel() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let entities = RwSignal::new(Vec::<RawEntity>::new());
    let next = RwSignal::new(None::<Continuation>);
    let pages = RwSignal::new(0_usize);
    let error = RwSignal::new(None::<Error>);
    let selected = RwSignal::new(None::<usize>);
    let render_ms = RwSignal::new(None::<f64>);

    let columns = Memo::new(move |_| {
        let table = workspace.table.get();
        state
            .describe_tables()
            .into_iter()
            .find(|t| Some(&t.name) == table.as_ref())
            .map(|t| {
                t.columns
                    .into_iter()
                    .map(|c| Column {
                        name: c.name,
                        types: c
                            .types
                            .iter()
                            .map(|t| t.short_name())
                            .collect::<Vec<_>>()
                            .join(" | "),
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });

    let load = move |continuation: Option<Continuation>| {
        let Some(table) = workspace.table.get_untracked() else {
            return;
        };
        let started = now();
        let response = state.read(&Request::Query {
            table,
            filter: None,
            select: None,
            top: Some(PAGE),
            continuation: continuation.clone(),
            page_budget: None,
            trace: false,
        });
        match response.error {
            Some(e) => error.set(Some(e)),
            None => {
                error.set(None);
                // The grid shows the JSON form: built here, for the page it shows.
                let page: Vec<RawEntity> = response
                    .entities
                    .iter()
                    .flatten()
                    .map(|e| e.to_raw())
                    .collect();
                if continuation.is_none() {
                    entities.set(page);
                    pages.set(1);
                } else {
                    entities.update(|all| all.extend(page));
                    pages.update(|p| *p += 1);
                }
                next.set(response.continuation);
            }
        }
        after_paint(move || render_ms.set(Some(now() - started)));
    };
    // The first page again whenever the table or its contents change.
    Effect::new(move |_| {
        workspace.table.track();
        state.revision();
        selected.set(None);
        untrack(|| load(None));
    });

    let chosen = move || {
        selected
            .get()
            .and_then(|i| entities.with(|all| all.get(i).cloned()))
    };

    view! {
        <welcome::Welcome />
        <section class="panel data-panel" aria-labelledby="data-heading">
            <h2 id="data-heading">
                {move || match workspace.table.get() {
                    Some(table) => msg::data_heading_table(&table),
                    None => msg::data_heading(),
                }}
            </h2>
            <p class="placeholder" hidden=move || workspace.table.with(Option::is_some)>
                {t(msg::data_no_table)}
            </p>
            <div hidden=move || workspace.table.with(Option::is_none)>
                <ErrorNotice error=error />
                <p class="placeholder" hidden=move || !entities.with(Vec::is_empty)>
                    {t(msg::data_empty)}
                </p>
                <div hidden=move || entities.with(Vec::is_empty)>
                    <EntityGrid
                        entities=entities
                        found=columns
                        table=Signal::derive(move || workspace.table.get().unwrap_or_default())
                        selected=selected
                        label=msg::data_grid_label
                        id="data"
                        deletable=crate::ui::widgets::grid_select::delete_in_sandbox as crate::ui::widgets::grid_select::Deleter
                    />
                </div>
                <div class="grid-footer">
                    <span class="grid-count" data-testid="grid-count">
                        {move || {
                            let n = entities.with(Vec::len);
                            let p = pages.get();
                            msg::data_loaded(msg::count_entities(n), msg::count_pages(p))
                        }}
                    </span>
                    <span class="render-time">
                        {move || render_ms.get().map(|ms| msg::data_rendered(crate::i18n::number(ms.round() as i64)))}
                    </span>
                    {move || {
                        next.get()
                            .map(|c| {
                                let token = token_text(&c);
                                view! {
                                    <span class="token" dir="ltr" title=t(msg::data_token)>{token}</span>
                                    <button
                                        type="button"
                                        class="load-more"
                                        on:click=move |_| load(next.get_untracked())
                                    >
                                        {t(msg::data_load_more)}
                                    </button>
                                }
                            })
                    }}
                </div>
                {move || chosen().map(|raw| view! { <EntityView raw=raw /> })}
            </div>
        </section>
        <Editor />
    }
}

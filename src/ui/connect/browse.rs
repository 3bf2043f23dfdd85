//! The connection's tables, a query on one of them, and the same query run on the sandbox's
//! table of the same name beside it, with every difference spelled out.

use super::compare::{compare, Difference};
use super::connection::Connection;
use super::entities_view::EntitiesTable;
use super::failure_view::failure_view;
use super::query::{self, Options, Page};
use super::remote::{Failure, Side};
use super::Shared;
use crate::i18n::{self, msg, t};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// One side's answer: its pages, and the failure that stopped it, if any.
#[derive(Debug, Clone, Default, PartialEq)]
struct Answer {
    pages: Vec<Page>,
    failure: Option<Failure>,
}

impl Answer {
    fn entities(&self) -> Vec<query::Entity> {
        self.pages
            .iter()
            .flat_map(|p| p.entities.iter().cloned())
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Shown {
    Query(Answer),
    Compare {
        sandbox: Answer,
        connection: Answer,
        differences: Vec<Difference>,
    },
}

#[component]
pub fn Browse(shared: Shared, connection: Connection) -> impl IntoView {
    let conn = StoredValue::new(connection);
    let tables = RwSignal::new(None::<Result<Vec<String>, Failure>>);
    let busy = RwSignal::new(false);
    let (filter, select, top) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let shown = RwSignal::new(None::<Shown>);
    let list = move || {
        let side = Side::Remote(conn.get_value());
        busy.set(true);
        spawn_local(async move {
            tables.try_set(Some(query::list_tables(&side).await));
            busy.try_set(false);
        });
    };
    list();
    let options = move || Options {
        filter: filter.get_untracked(),
        select: select.get_untracked(),
        top: top.get_untracked(),
    };
    let run = move |both: bool| {
        let table = shared.table.get_untracked();
        if table.is_empty() {
            return;
        }
        let (remote, options) = (Side::Remote(conn.get_value()), options());
        busy.set(true);
        shown.set(None);
        spawn_local(async move {
            let (pages, failure) = query::pages(&remote, &table, &options, None).await;
            let connection = Answer { pages, failure };
            let result = if both {
                let (pages, failure) = query::pages(&Side::Sandbox, &table, &options, None).await;
                let sandbox = Answer { pages, failure };
                let differences = compare(&sandbox.pages, &connection.pages);
                Shown::Compare {
                    sandbox,
                    connection,
                    differences,
                }
            } else {
                Shown::Query(connection)
            };
            shown.try_set(Some(result));
            busy.try_set(false);
        });
    };
    view! {
        <section class="panel connect-panel connect-browse" aria-labelledby="connect-tables-heading">
            <h3 id="connect-tables-heading">{t(msg::connect_tables)}</h3>
            <div class="editor-actions">
                <button type="button" class="connect-list" prop:disabled=move || busy.get() on:click=move |_| list()>
                    {t(msg::connect_list)}
                </button>
            </div>
            {move || match tables.get() {
                None => None,
                Some(Err(f)) => Some(failure_view(f, Some(conn.get_value()))),
                Some(Ok(names)) if names.is_empty() => {
                    Some(view! { <p class="hint">{t(msg::connect_no_tables)}</p> }.into_any())
                }
                Some(Ok(names)) => Some(
                    view! {
                        <ul class="connect-tables" aria-label=t(msg::connect_tables)>
                            {names
                                .into_iter()
                                .map(|n| {
                                    let (n1, n2, n3) = (n.clone(), n.clone(), n.clone());
                                    view! {
                                        <li>
                                            <button
                                                type="button"
                                                data-remote-table=n3
                                                aria-pressed=move || (shared.table.get() == n1).to_string()
                                                on:click=move |_| shared.table.set(n2.clone())
                                            >
                                                {n}
                                            </button>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                    .into_any(),
                ),
            }}
            <div class="query-options">
                <div class="field">
                    <label for="connect-table">{t(msg::connect_table)}</label>
                    <input id="connect-table" type="text" dir="ltr" prop:value=move || shared.table.get()
                        on:input=move |ev| shared.table.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <label for="connect-filter">"$filter"</label>
                    <input id="connect-filter" type="text" dir="ltr" prop:value=move || filter.get()
                        on:input=move |ev| filter.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <label for="connect-select">"$select"</label>
                    <input id="connect-select" type="text" dir="ltr" prop:value=move || select.get()
                        on:input=move |ev| select.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <label for="connect-top">{t(msg::connect_top)}</label>
                    <input id="connect-top" type="number" min="1" max="1000" dir="ltr" prop:value=move || top.get()
                        on:input=move |ev| top.set(event_target_value(&ev)) />
                </div>
            </div>
            <div class="editor-actions">
                <button type="button" class="primary connect-query"
                    prop:disabled=move || busy.get() || shared.table.with(String::is_empty)
                    on:click=move |_| run(false)>
                    {t(msg::connect_query)}
                </button>
                <button type="button" class="connect-compare"
                    prop:disabled=move || busy.get() || shared.table.with(String::is_empty)
                    on:click=move |_| run(true)>
                    {t(msg::connect_compare)}
                </button>
            </div>
            <p class="hint">{t(msg::connect_compare_hint)}</p>
            <div class="connect-result" aria-live="polite">
                {move || shown.get().map(|s| shown_view(s, conn.get_value()))}
            </div>
        </section>
    }
}

fn shown_view(shown: Shown, c: Connection) -> AnyView {
    match shown {
        Shown::Query(answer) => side_view(
            answer,
            msg::connect_side_connection,
            "connect-remote-entities",
            c,
        ),
        Shown::Compare {
            sandbox,
            connection,
            differences,
        } => {
            let failed = sandbox.failure.is_some() || connection.failure.is_some();
            let summary = if failed {
                None
            } else if differences.is_empty() {
                let (n, p) = (sandbox.entities().len(), sandbox.pages.len());
                Some(view! { <p class="connect-same" role="status">{move || msg::connect_same(n, i18n::number(p as f64))}</p> }.into_any())
            } else {
                let n = differences.len();
                let items = differences
                    .into_iter()
                    .map(|d| view! { <li dir="auto">{move || difference_text(&d)}</li> })
                    .collect_view();
                Some(
                    view! {
                        <div class="connect-diff" role="status">
                            <p class="connect-differ">{move || msg::connect_differences(n)}</p>
                            <ul class="connect-differences">{items}</ul>
                        </div>
                    }
                    .into_any(),
                )
            };
            view! {
                {summary}
                <p class="hint">{t(msg::connect_ignored)}</p>
                <div class="connect-sides">
                    <div>{side_view(sandbox, msg::connect_side_sandbox, "connect-sandbox-entities", c.clone())}</div>
                    <div>{side_view(connection, msg::connect_side_connection, "connect-remote-entities", c)}</div>
                </div>
            }
            .into_any()
        }
    }
}

/// One side: its heading, its entities, its pages with their continuation tokens, and the
/// failure that stopped it.
fn side_view(answer: Answer, name: fn() -> String, id: &'static str, c: Connection) -> AnyView {
    let entities = answer.entities();
    let pages = answer
        .pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (n, token) = (p.entities.len(), p.next.as_ref().map(|t| t.text()));
            view! {
                <li dir="auto">
                    {move || msg::connect_page(n, i18n::number((i + 1) as f64),
                        token.clone().unwrap_or_else(msg::connect_none))}
                </li>
            }
        })
        .collect_view();
    view! {
        <h4>{t(name)}</h4>
        <EntitiesTable entities=entities label=name id=id />
        <ul class=format!("{id}-pages")>{pages}</ul>
        {answer.failure.map(|f| failure_view(f, Some(c)))}
    }
    .into_any()
}

fn or_none(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(msg::connect_none)
}

fn difference_text(d: &Difference) -> String {
    let n = |v: usize| i18n::number(v as f64);
    // Each message's arguments in its placeholders' alphabetical order (build.rs).
    match d {
        Difference::Pages {
            sandbox,
            connection,
        } => msg::connect_diff_pages(n(*connection), n(*sandbox)),
        Difference::PageSize {
            page,
            sandbox,
            connection,
        } => msg::connect_diff_page_size(n(*connection), n(*page), n(*sandbox)),
        Difference::Token {
            page,
            sandbox,
            connection,
        } => msg::connect_diff_token(or_none(connection), n(*page), or_none(sandbox)),
        Difference::Entity {
            position,
            sandbox,
            connection,
        } => msg::connect_diff_entity(or_none(connection), n(*position), or_none(sandbox)),
        Difference::Property {
            position,
            key,
            property,
            sandbox,
            connection,
        } => msg::connect_diff_property(
            or_none(connection),
            key,
            n(*position),
            property,
            or_none(sandbox),
        ),
    }
}

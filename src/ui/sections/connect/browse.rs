//! The connection's tables, queried with the Query section's own editor (the builder with its
//! condition rows, the raw `$filter`, `$select`, `$top`) and answered in its typed grid, a page
//! at a time with "Next page" sending the continuation; and the same query run on the sandbox's
//! table of the same name beside it, with every difference spelled out.
//!
//! Invariant: "Next page" continues the query that read the shown pages (table, filter,
//! `$select`, `$top` as they were when it ran), whatever the editor holds since.

use super::compare::{compare, Difference};
use super::connection::Connection;
use super::entities_view::{raw_entities, EntitiesGrid};
use super::failure_view::failure_view;
use super::history::{History, RunRecord, Runs};
use super::query::{self, Options, Page};
use super::remote::{Failure, Side};
use super::tables_list::TablesList;
use super::Shared;
use crate::i18n::{self, msg, t};
use crate::ui::kit::dom::now;
use crate::ui::kit::fields::TextField;
use crate::ui::widgets::filter_editor::{editor_view, EditorIds, FilterEditor};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The editor's element ids (the Query section's editor may be in the page too).
const IDS: EditorIds = EditorIds {
    kind: "connect-query-kind",
    partition_key: "connect-q-pk",
    row_key: "connect-q-rk",
    row_prefix: "connect-q-prefix",
    raw: "connect-filter",
    raw_hint: "connect-filter-hint",
};

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
    /// The connection's pages read so far of `table` with `options`; the grid shows the last.
    Query {
        table: String,
        options: Options,
        answer: Answer,
    },
    Compare {
        table: String,
        options: Options,
        sandbox: Answer,
        connection: Answer,
        differences: Vec<Difference>,
    },
}

impl RunRecord {
    /// The history's record of a run that showed `shown` after `millis`.
    fn of(shown: &Shown, millis: f64) -> RunRecord {
        let (table, options, answer, differences) = match shown {
            Shown::Query {
                table,
                options,
                answer,
            } => (table, options.clone(), answer, None),
            Shown::Compare {
                table,
                options,
                sandbox,
                connection,
                differences,
            } => {
                let both = sandbox.failure.is_none() && connection.failure.is_none();
                (
                    table,
                    options.clone(),
                    connection,
                    both.then_some(differences.len()),
                )
            }
        };
        RunRecord {
            number: 0,
            table: table.clone(),
            options,
            pages: answer.pages.len(),
            entities: answer.pages.iter().map(|p| p.entities.len()).sum(),
            differences,
            failure: answer.failure.clone(),
            millis,
        }
    }
}

#[component]
pub fn Browse(shared: Shared, connection: Connection) -> impl IntoView {
    let conn = StoredValue::new(connection);
    let tables = RwSignal::new(None::<Result<Vec<String>, Failure>>);
    let busy = RwSignal::new(false);
    let editor = FilterEditor::new(
        RwSignal::new(String::new()),
        crate::ui::state::workspace::Workspace::expect(),
    );
    let (select, top) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let shown = RwSignal::new(None::<Shown>);
    // This session's runs on the connection, and the one Next page continues.
    let runs = Runs::new();
    let last_run = StoredValue::new(None::<usize>);
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
        filter: editor.raw.get_untracked(),
        select: select.get_untracked(),
        top: top.get_untracked(),
    };
    // The query's first page, or (`both`) every page on both sides, compared.
    let run = move |both: bool| {
        let table = shared.table.get_untracked();
        if table.is_empty() {
            return;
        }
        let (remote, options) = (Side::Remote(conn.get_value()), options());
        busy.set(true);
        shown.set(None);
        spawn_local(async move {
            let started = now();
            let result = if both {
                let (pages, failure) = query::pages(&remote, &table, &options, None).await;
                let connection = Answer { pages, failure };
                let (pages, failure) = query::pages(&Side::Sandbox, &table, &options, None).await;
                let sandbox = Answer { pages, failure };
                let differences = compare(&sandbox.pages, &connection.pages);
                Shown::Compare {
                    table,
                    options,
                    sandbox,
                    connection,
                    differences,
                }
            } else {
                let answer = match query::page(&remote, &table, &options, None).await {
                    Ok(p) => Answer {
                        pages: vec![p],
                        failure: None,
                    },
                    Err(f) => Answer {
                        pages: Vec::new(),
                        failure: Some(f),
                    },
                };
                Shown::Query {
                    table,
                    options,
                    answer,
                }
            };
            let number = runs.add(RunRecord::of(&result, now() - started));
            last_run.set_value(Some(number));
            shown.try_set(Some(result));
            busy.try_set(false);
        });
    };
    // The continuation of the shown query, if its last page has one.
    let next_token = move || match shown.get() {
        Some(Shown::Query { answer, .. }) if answer.failure.is_none() => {
            answer.pages.last().and_then(|p| p.next.clone())
        }
        _ => None,
    };
    let next_page = move || {
        let Some(Shown::Query {
            table,
            options,
            answer,
        }) = shown.get_untracked()
        else {
            return;
        };
        let Some(token) = answer.pages.last().and_then(|p| p.next.clone()) else {
            return;
        };
        let remote = Side::Remote(conn.get_value());
        busy.set(true);
        spawn_local(async move {
            let started = now();
            let read = query::page(&remote, &table, &options, Some(&token)).await;
            if let Some(number) = last_run.get_value() {
                let (n, failure) = match &read {
                    Ok(p) => (p.entities.len(), None),
                    Err(f) => (0, Some(f.clone())),
                };
                runs.add_page(number, n, now() - started, failure);
            }
            shown.try_update(|s| {
                if let Some(Shown::Query { answer, .. }) = s {
                    match read {
                        Ok(p) => answer.pages.push(p),
                        Err(f) => answer.failure = Some(f),
                    }
                }
            });
            busy.try_set(false);
        });
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run(false);
        }
    };
    let no_table = move || busy.get() || shared.table.with(String::is_empty);
    view! {
        <section class="panel connect-panel connect-browse" aria-labelledby="connect-tables-heading" on:keydown=on_key>
            <h3 id="connect-tables-heading">{t(msg::connect_tables)}</h3>
            <div class="editor-actions">
                <button type="button" class="connect-list" prop:disabled=move || busy.get() on:click=move |_| list()>
                    {t(msg::connect_list)}
                </button>
            </div>
            {move || tables.get().map(|t| tables_view(t, shared, conn.get_value()))}
            <div class="query-options">
                <TextField
                    id="connect-table"
                    label=msg::connect_table
                    value=shared.table
                    on_input=Callback::new(move |v: String| {
                        shared.filter.set(v.clone());
                        shared.table.set(v);
                    })
                />
            </div>
            <p class="hint">{t(msg::connect_query_hint)}</p>
            {editor_view(editor, IDS)}
            <div class="query-options">
                <TextField id="connect-select" label=|| "$select".to_string() placeholder=|| "Name, Age".to_string() value=select on_input=Callback::new(move |v| select.set(v)) />
                <TextField id="connect-top" label=msg::connect_top placeholder=|| "1000".to_string() value=top on_input=Callback::new(move |v| top.set(v)) />
            </div>
            <div class="editor-actions">
                <button type="button" class="primary run-query connect-query"
                    prop:disabled=no_table
                    on:click=move |_| run(false)>
                    {t(msg::connect_query)}
                </button>
                <button
                    type="button"
                    class="next-page connect-next-page"
                    hidden=move || next_token().is_none()
                    prop:disabled=move || busy.get()
                    on:click=move |_| next_page()
                >
                    {t(msg::query_next_page)}
                </button>
                <button type="button" class="connect-compare"
                    prop:disabled=no_table
                    on:click=move |_| run(true)>
                    {t(msg::connect_compare)}
                </button>
            </div>
            <p class="hint">{t(msg::connect_compare_hint)}</p>
            // The query as code for the connection: its HTTP form addresses the connection's
            // endpoint (never with the SAS); the SDK forms read a connection string.
            <crate::ui::widgets::show_code::ShowCodeAt
                what="connect-query"
                request=Callback::new(move |()| options().request(&shared.table.get_untracked()))
                endpoint=conn.get_value().endpoint
                open_code=Callback::new(|code: String| super::bridge::open_code(&code))
            />
            <div class="connect-result" aria-live="polite">
                {move || shown.get().map(|s| shown_view(s, conn.get_value()))}
            </div>
            <History runs=runs on_use=Callback::new(move |r: RunRecord| {
                shared.table.set(r.table);
                editor.load(r.options.filter);
                select.set(r.options.select);
                top.set(r.options.top);
            }) />
        </section>
    }
}

/// The connection's tables, filtered by the Table field (or why they could not be listed).
fn tables_view(tables: Result<Vec<String>, Failure>, shared: Shared, conn: Connection) -> AnyView {
    match tables {
        Err(f) => failure_view(f, Some(conn)),
        Ok(names) if names.is_empty() => {
            view! { <p class="hint">{t(msg::connect_no_tables)}</p> }.into_any()
        }
        Ok(names) => view! { <TablesList names=names shared=shared /> }.into_any(),
    }
}

fn shown_view(shown: Shown, c: Connection) -> AnyView {
    match shown {
        Shown::Query { table, answer, .. } => {
            // The page shown is the last read, as the Query section shows its pages.
            let (n, pages) = (
                answer.pages.last().map_or(0, |p| p.entities.len()),
                answer.pages.len(),
            );
            let entities = raw_entities(answer.pages.last().into_iter().flat_map(|p| &p.entities));
            view! {
                <h4>{t(msg::connect_side_connection)}</h4>
                <p class="results-count" hidden=pages == 0>
                    {move || msg::query_results_count(n, i18n::number(pages as f64))}
                </p>
                {(pages > 0).then(|| view! {
                    <EntitiesGrid entities=entities table=table label=msg::connect_side_connection id="connect-remote-entities" />
                })}
                {pages_view(&answer.pages, "connect-remote-entities")}
                {answer.failure.map(|f| failure_view(f, Some(c)))}
            }
            .into_any()
        }
        Shown::Compare {
            table,
            sandbox,
            connection,
            differences,
            ..
        } => {
            let failed = sandbox.failure.is_some() || connection.failure.is_some();
            let summary = if failed {
                None
            } else if differences.is_empty() {
                let (n, p) = (sandbox.entities().len(), sandbox.pages.len());
                Some(view! { <p class="connect-same" role="status">{move || format!("{} {}", msg::connect_same(n), msg::connect_same_pages(p))}</p> }.into_any())
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
                    <div>{side_view(sandbox, &table, msg::connect_side_sandbox, "connect-sandbox-entities", c.clone())}</div>
                    <div>{side_view(connection, &table, msg::connect_side_connection, "connect-remote-entities", c)}</div>
                </div>
            }
            .into_any()
        }
    }
}

/// The pages read, each with its size and continuation token.
fn pages_view(pages: &[Page], id: &'static str) -> impl IntoView {
    let items = pages
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
    view! { <ul class=format!("{id}-pages")>{items}</ul> }
}

/// One side of a comparison: its heading, its entities (every page's), its pages with their
/// continuation tokens, and the failure that stopped it.
fn side_view(
    answer: Answer,
    table: &str,
    name: fn() -> String,
    id: &'static str,
    c: Connection,
) -> AnyView {
    let entities = raw_entities(answer.pages.iter().flat_map(|p| &p.entities));
    view! {
        <h4>{t(name)}</h4>
        <EntitiesGrid entities=entities table=table.to_string() label=name id=id />
        {pages_view(&answer.pages, id)}
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

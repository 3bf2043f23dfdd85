//! Copying in (a sample of the connection's table into the sandbox) and out (a sandbox table
//! to the connection, after a confirmation naming the target), with progress, and on failure
//! exactly what was written.

use super::connection::Connection;
use super::copy::{batches, write, Stopped};
use super::failure_view::failure_view;
use super::query::{self, partition_filter, Options};
use super::remote::{Failure, Side};
use super::Shared;
use crate::i18n::{self, msg, t};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The largest page a query asks for.
const PAGE: usize = 1000;

/// How a copy ended.
#[derive(Debug, Clone, PartialEq)]
enum Done {
    In {
        count: usize,
        table: String,
    },
    Out {
        count: usize,
        table: String,
    },
    ReadFailed(Failure),
    Stopped {
        stopped: Stopped,
        batches: usize,
        table: String,
    },
}

#[component]
pub fn CopyPanel(shared: Shared, connection: Connection) -> impl IntoView {
    let conn = StoredValue::new(connection);
    let first = RwSignal::new("100".to_string());
    let partition = RwSignal::new(String::new());
    let out_table = RwSignal::new(String::new());
    let asking = RwSignal::new(None::<usize>);
    let busy = RwSignal::new(false);
    let progress = RwSignal::new(None::<(usize, usize)>);
    let done = RwSignal::new(None::<Done>);
    // The sandbox's tables, kept current as the playground changes them.
    let sandbox_tables = RwSignal::new(super::bridge::sandbox_tables());
    super::bridge::on_change(move || {
        sandbox_tables.try_set(super::bridge::sandbox_tables());
    });

    // Writes `entities` to `side`'s `table`, reporting progress, then says how it ended.
    let write_all = move |side: Side, table: String, entities: Vec<query::Entity>, out: bool| async move {
        let list = batches(&entities);
        let total = entities.len();
        progress.try_set(Some((0, total)));
        let result = write(&side, &table, &list, |n, _| {
            progress.try_set(Some((n, total)));
        })
        .await;
        progress.try_set(None);
        match result {
            Ok(count) if out => Done::Out { count, table },
            Ok(count) => Done::In { count, table },
            Err(stopped) => Done::Stopped {
                stopped,
                batches: list.len(),
                table,
            },
        }
    };

    let copy_in = move |_| {
        let table = shared.table.get_untracked();
        if table.is_empty() || busy.get_untracked() {
            return;
        }
        let pk = partition.get_untracked();
        let limit = (pk.is_empty()).then(|| {
            first
                .get_untracked()
                .trim()
                .parse::<usize>()
                .unwrap_or(100)
                .max(1)
        });
        let options = Options {
            filter: if pk.is_empty() {
                String::new()
            } else {
                partition_filter(&pk)
            },
            top: limit.map(|l| l.min(PAGE).to_string()).unwrap_or_default(),
            ..Options::default()
        };
        busy.set(true);
        done.set(None);
        spawn_local(async move {
            let remote = Side::Remote(conn.get_value());
            let (pages, failure) = query::pages(&remote, &table, &options, limit).await;
            let result = match failure {
                Some(f) => Done::ReadFailed(f),
                None => {
                    let mut entities: Vec<_> = pages.into_iter().flat_map(|p| p.entities).collect();
                    if let Some(l) = limit {
                        entities.truncate(l);
                    }
                    write_all(Side::Sandbox, table, entities, false).await
                }
            };
            done.try_set(Some(result));
            busy.try_set(false);
        });
    };

    let ask_out = move |_| {
        let table = out_table.get_untracked();
        let count =
            sandbox_tables.with_untracked(|l| l.iter().find(|(n, _)| *n == table).map(|(_, c)| *c));
        if let Some(count) = count {
            done.set(None);
            asking.set(Some(count));
            crate::ui::kit::confirm::opened(".connect-confirm .cancel");
        }
    };
    let cancel = move || {
        asking.set(None);
        crate::ui::kit::confirm::closed();
    };
    let copy_out = move |_| {
        asking.set(None);
        crate::ui::kit::confirm::closed();
        let table = out_table.get_untracked();
        busy.set(true);
        spawn_local(async move {
            let (pages, failure) =
                query::pages(&Side::Sandbox, &table, &Options::default(), None).await;
            let result = match failure {
                Some(f) => Done::ReadFailed(f),
                None => {
                    let entities = pages.into_iter().flat_map(|p| p.entities).collect();
                    write_all(Side::Remote(conn.get_value()), table, entities, true).await
                }
            };
            done.try_set(Some(result));
            busy.try_set(false);
        });
    };

    view! {
        <section class="panel connect-panel connect-copy" aria-labelledby="connect-copy-in-heading">
            <h3 id="connect-copy-in-heading">{t(msg::connect_copy_in_heading)}</h3>
            <p class="hint">{t(msg::connect_copy_in_hint)}</p>
            <div class="query-options">
                <div class="field">
                    <label for="connect-first">{t(msg::connect_copy_first)}</label>
                    <input id="connect-first" type="number" min="1" dir="ltr" prop:value=move || first.get()
                        on:input=move |ev| first.set(event_target_value(&ev)) />
                </div>
                <div class="field">
                    <label for="connect-partition">{t(msg::connect_copy_partition)}</label>
                    <input id="connect-partition" type="text" dir="ltr" prop:value=move || partition.get()
                        on:input=move |ev| partition.set(event_target_value(&ev)) />
                </div>
            </div>
            <div class="editor-actions">
                <button type="button" class="primary connect-copy-in"
                    prop:disabled=move || busy.get() || shared.table.with(String::is_empty)
                    on:click=copy_in>
                    {move || msg::connect_copy_in(shared.table.get())}
                </button>
            </div>
            <h3 id="connect-copy-out-heading">{t(msg::connect_copy_out_heading)}</h3>
            <div class="query-options">
                <div class="field">
                    <label for="connect-out-table">{t(msg::connect_copy_out_table)}</label>
                    <select id="connect-out-table" on:change=move |ev| out_table.set(event_target_value(&ev))>
                        <option value="" selected=true>"—"</option>
                        {move || sandbox_tables.get().into_iter().map(|(n, _)| {
                            let selected = out_table.get_untracked() == n;
                            view! { <option value=n.clone() selected=selected>{n.clone()}</option> }
                        }).collect_view()}
                    </select>
                </div>
            </div>
            <div class="editor-actions">
                <button type="button" class="connect-copy-out"
                    prop:disabled=move || busy.get() || out_table.with(String::is_empty)
                    on:click=ask_out>
                    {t(msg::connect_copy_out)}
                </button>
            </div>
            {move || asking.get().map(|count| {
                let (table, endpoint) = (out_table.get_untracked(), conn.get_value().endpoint);
                view! {
                    <div class="confirm grid-confirm connect-confirm" role="group"
                        aria-label=t(msg::connect_copy_out)
                        on:keydown=move |ev| if ev.key() == "Escape" { ev.prevent_default(); cancel(); }>
                        <p class="confirm-question">{move || msg::connect_copy_out_question(count, &endpoint, &table)}</p>
                        <button type="button" class="danger connect-copy-out-yes" on:click=copy_out>
                            {t(msg::connect_copy_out_yes)}
                        </button>
                        <button type="button" class="cancel" on:click=move |_| cancel()>{t(msg::tables_cancel)}</button>
                    </div>
                }
            })}
            <p class="connect-progress" role="status">
                {move || progress.get().map(|(n, total)| msg::connect_progress(i18n::number(n as f64), i18n::number(total as f64)))}
            </p>
            <div class="connect-copy-result">
                {move || done.get().map(|d| done_view(d, conn.get_value()))}
            </div>
        </section>
    }
}

fn done_view(d: Done, c: Connection) -> AnyView {
    match d {
        Done::In { count, table } => {
            let shown = table.clone();
            // The copy in the Entities section's own grid and editor.
            let open = move |_| super::bridge::show_table(&shown);
            view! {
                <p class="connect-copied" role="status">{move || msg::connect_copied_in(count, &table)}</p>
                <button type="button" class="connect-open-copy" on:click=open>{t(msg::connect_open_copy)}</button>
            }
            .into_any()
        }
        Done::Out { count, table } => {
            let endpoint = c.endpoint.clone();
            view! {
                <p class="connect-copied" role="status">{move || msg::connect_copied_out(count, &endpoint, &table)}</p>
            }
            .into_any()
        }
        Done::ReadFailed(f) => view! {
            <div class="connect-stopped">
                <p>{t(msg::connect_read_failed)}</p>
                {failure_view(f, Some(c))}
            </div>
        }
        .into_any(),
        Done::Stopped {
            stopped,
            batches,
            table,
        } => {
            let where_ = match stopped.batch.clone() {
                None => view! { <p>{move || msg::connect_stopped_create(&table)}</p> }.into_any(),
                Some((i, partition, first, last)) => view! {
                    <p>{move || msg::connect_stopped_batch(i18n::number(i as f64), i18n::number(batches as f64), &first, &last, &partition)}</p>
                }
                .into_any(),
            };
            let count: usize = stopped.written.iter().map(|(_, n)| n).sum();
            let written = if stopped.written.is_empty() {
                view! { <p class="connect-written">{t(msg::connect_written_nothing)}</p> }
                    .into_any()
            } else {
                let nb = stopped.written.len();
                let list = stopped
                    .written
                    .iter()
                    .map(|(p, n)| view! { <li dir="ltr">{format!("{p}: {n}")}</li> })
                    .collect_view();
                view! {
                    <p class="connect-written">{move || msg::connect_written(i18n::number(nb as f64), count)}</p>
                    <ul>{list}</ul>
                }
                .into_any()
            };
            view! {
                <div class="connect-stopped" role="alert">
                    {where_}
                    {failure_view(stopped.failure, Some(c))}
                    {written}
                </div>
            }
            .into_any()
        }
    }
}

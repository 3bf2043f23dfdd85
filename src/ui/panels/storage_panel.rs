//! Your data: where it is kept and how much room it takes, export and import (the versioned
//! JSON snapshot of every table, or one table as Storage Explorer's typed CSV), and reset.

use crate::engine::snapshot::{Snapshot, FORMAT, VERSION};
use crate::i18n::{msg, t};
use crate::ui::kit::fields::{action_button, never};
use crate::ui::state::workspace::Workspace;
use crate::ui::state::{AppState, Storage};
use crate::ui::text::notice_text::Say;
use crate::ui::widgets::share::download;
use js_sys::Reflect;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

mod read;

/// A file read and waiting for the user to confirm what it does: a CSV file's text, or (not
/// here: in the panel's `checked`) a workspace export's checked tables.
#[derive(Clone, PartialEq)]
struct Pending {
    name: String,
    text: String,
    csv: bool,
}

/// What the panel is asking the user to confirm.
#[derive(Clone, PartialEq)]
enum Ask {
    Nothing,
    Import(Pending),
    Reset,
}

/// Export, import, reset, and the storage the browser grants.
#[component]
pub fn StoragePanel() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let storage = Storage::get();
    let usage = RwSignal::new(None::<Option<(u64, u64)>>);
    let ask = RwSignal::new(Ask::Nothing);
    let target = RwSignal::new(String::new());
    // Said when shown, so both follow a language switch.
    let error = RwSignal::new(None::<Say>);
    let message = RwSignal::new(None::<Say>);
    // A file being read: (file name, bytes read, bytes in all); and whether to stop reading.
    let reading = RwSignal::new(None::<(String, f64, f64)>);
    let stop_reading = StoredValue::new(false);
    // A workspace export read and checked, waiting for the confirmation.
    let checked = StoredValue::new_local(None::<crate::engine::snapshot::stream::Imported>);
    refresh_usage(usage);
    // The figure follows the saves: read again whenever the last save in flight has ended.
    Effect::new(move |was_busy: Option<bool>| {
        let busy = storage.busy.get();
        if was_busy == Some(true) && !busy {
            refresh_usage(usage);
        }
        busy
    });
    let outcome = move |result: Result<Say, Say>| match result {
        Ok(text) => {
            error.set(None);
            message.set(Some(text));
            ask.set(Ask::Nothing);
            crate::ui::kit::confirm::closed();
            refresh_usage(usage);
        }
        Err(e) => error.set(Some(e)),
    };

    let keep = Callback::new(move |()| {
        spawn_local(async move {
            message.set(Some(if crate::persist::request_persistent().await {
                Arc::new(msg::storage_granted)
            } else {
                Arc::new(msg::storage_not_granted)
            }));
        })
    });
    let export_json = Callback::new(move |()| {
        outcome(offer("tablescope-workspace.json", state.export_json()));
    });
    let export_csv = Callback::new(move |()| {
        let table = workspace.table.get_untracked().unwrap_or_default();
        let csv = state.inspect(|a| a.export_csv(&table).ok());
        outcome(offer(&format!("{table}.typed.csv"), csv.flatten()));
    });
    // Cancel, the safe choice, takes focus when a confirmation opens; focus returns to the
    // control that opened it (Reset, or the file input) when it closes.
    let ask_reset = Callback::new(move |()| {
        ask.set(Ask::Reset);
        crate::ui::kit::confirm::opened(".storage-confirm .cancel");
    });
    let cancel = Callback::new(move |()| {
        ask.set(Ask::Nothing);
        crate::ui::kit::confirm::closed();
    });
    let confirm = Callback::new(move |()| {
        // Works on the pending file where it is: it may be megabytes of text.
        let Some((result, fixable)) = ask.with_untracked(|ask| {
            let result: Result<Say, Say> = match ask {
                Ask::Import(p) if p.csv => {
                    let table = target.get_untracked();
                    let name = p.name.clone();
                    state
                        .change(|a| a.import_csv(&table, &p.text))
                        .map(|n| -> Say {
                            let name = name.clone();
                            Arc::new(move || msg::storage_imported_csv(n, &name, &table))
                        })
                        .map_err(|why| not_imported(&name, why))
                }
                Ask::Import(p) => {
                    let name = p.name.clone();
                    let imported = checked.try_update_value(Option::take).flatten();
                    state
                        .change(|a| match imported {
                            Some(imported) => {
                                a.import_read(imported);
                                Ok(())
                            }
                            None => a.import_json(&p.text),
                        })
                        .map(|()| -> Say {
                            let name = name.clone();
                            Arc::new(move || msg::storage_replaced(&name))
                        })
                        .map_err(|why| not_imported(&name, why))
                }
                Ask::Reset => state
                    .change(|a| {
                        a.import(&Snapshot {
                            format: FORMAT.into(),
                            version: VERSION,
                            // A reset empties the account; it stays on its target.
                            target: a.target(),
                            service_properties: None,
                            tables: Vec::new(),
                        })
                    })
                    .map(|()| -> Say {
                        workspace.table.set(None);
                        Arc::new(msg::storage_all_deleted)
                    }),
                Ask::Nothing => return None,
            };
            // A CSV import stays open after an error (the table name may be what to fix);
            // other confirmations close so the error shows right under the buttons.
            Some((result, matches!(ask, Ask::Import(p) if p.csv)))
        }) else {
            return;
        };
        if result.is_err() && !fixable {
            ask.set(Ask::Nothing);
            crate::ui::kit::confirm::closed();
        }
        outcome(result);
    });
    let choose = move |ev: leptos::ev::Event| {
        let file = crate::ui::kit::fields::take_chosen_file(&ev);
        let Some(file) = file else {
            return;
        };
        if reading.with_untracked(Option::is_some) {
            return;
        }
        let name = Reflect::get(&file, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        ask.set(Ask::Nothing);
        crate::ui::kit::confirm::closed();
        error.set(None);
        message.set(None);
        checked.set_value(None);
        stop_reading.set_value(false);
        reading.set(Some((name.clone(), 0.0, 0.0)));
        spawn_local(async move {
            let progress = |done: f64, all: f64| {
                reading.try_update(|r| {
                    if let Some(r) = r {
                        (r.1, r.2) = (done, all);
                    }
                });
            };
            let stopped = move || stop_reading.try_get_value().unwrap_or(true);
            let read = read::read_file(state, &file, &name, progress, stopped).await;
            reading.try_set(None);
            let read = read.map(|read| match read {
                read::Read::Json(imported) => {
                    checked.set_value(Some(imported));
                    Pending {
                        name: name.clone(),
                        text: String::new(),
                        csv: false,
                    }
                }
                read::Read::Csv(text) => Pending {
                    name: name.clone(),
                    text,
                    csv: true,
                },
            });
            match read {
                Ok(p) => {
                    // The file's own name, cleaned up (`Orders (1).typed.csv` → `Orders`);
                    // never silently the selected table: the user names the target.
                    target.set(
                        crate::ui::state::model::table_name_from_file(&p.name).unwrap_or_default(),
                    );
                    error.set(None);
                    ask.set(Ask::Import(p));
                    crate::ui::kit::confirm::opened(".storage-confirm .cancel");
                }
                Err(e) => {
                    ask.set(Ask::Nothing);
                    crate::ui::kit::confirm::closed();
                    error.set(Some(e));
                }
            }
        });
    };
    let where_kept = move || {
        if storage.read_only.get() {
            msg::storage_read_only()
        } else if storage.saving.get() {
            msg::storage_saved_here()
        } else {
            msg::storage_in_memory()
        }
    };
    let no_table = Signal::derive(move || workspace.table.with(Option::is_none));
    // The confirmation: its question, whether it asks for a table, and its button.
    let question = move || {
        let (text, csv, yes) = ask.with(|ask| match ask {
            Ask::Nothing => None,
            Ask::Reset => Some((
                msg::storage_reset_question(),
                false,
                msg::storage_reset_yes as fn() -> String,
            )),
            Ask::Import(p) if p.csv => Some((
                msg::storage_import_csv_question(&p.name),
                true,
                msg::storage_import_yes as fn() -> String,
            )),
            Ask::Import(p) => Some((
                msg::storage_replace_question(&p.name),
                false,
                msg::storage_replace_yes as fn() -> String,
            )),
        })?;
        let field = csv.then(|| {
            view! {
                <input
                    type="text"
                    class="import-target"
                    dir="ltr"
                    placeholder=t(msg::storage_table_name)
                    aria-label=t(msg::storage_import_target)
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=target
                    on:input=move |ev| target.set(event_target_value(&ev))
                />
            }
        });
        Some(view! {
            <div
                class="storage-confirm"
                role="group"
                aria-label=t(msg::storage_confirm)
                on:keydown=move |ev| {
                    if ev.key() == "Escape" {
                        ev.prevent_default();
                        ask.set(Ask::Nothing);
            crate::ui::kit::confirm::closed();
                    }
                }
            >
                <p>{text}</p>
                {field}
                {action_button(yes, if csv { "primary" } else { "danger" }, never(), confirm)}
                <button type="button" class="cancel" on:click=move |_| cancel.run(())>
                    {t(msg::tables_cancel)}
                </button>
            </div>
        })
    };

    view! {
        <section class="panel storage-panel" aria-labelledby="storage-heading">
            <h2 id="storage-heading">{t(msg::storage_heading)}</h2>
            <p class="storage-where">{where_kept}</p>
            <p class="storage-usage">{move || usage_text(usage.get())}</p>
            <div class="storage-actions">
                {action_button(msg::storage_keep, "", never(), keep)}
                {action_button(msg::storage_export_json, "", never(), export_json)}
                {action_button(msg::storage_export_csv, "", no_table, export_csv)}
                {action_button(msg::storage_reset, "delete", never(), ask_reset)}
                // A file chooser in the page's language: the browser's own control names its
                // button and "no file chosen" in the browser's language, so it is hidden
                // (still focusable) and the label is the button.
                <label class="storage-file file-choice">
                    <input type="file" accept=".json,.csv,application/json,text/csv" on:change=choose />
                    {t(msg::storage_import_file)}
                </label>
            </div>
            {move || reading.get().map(|(name, done, all)| {
                let percent = if all > 0.0 { (done * 100.0 / all).floor() } else { 0.0 };
                view! {
                    <div class="storage-reading" role="group" aria-label=t(msg::storage_import_file)>
                        <progress max="100" value=percent.to_string() aria-label=name.clone()></progress>
                        <p class="status" role="status">{msg::storage_reading(&name, crate::i18n::number(percent))}</p>
                        <button type="button" class="cancel-import" on:click=move |_| stop_reading.set_value(true)>
                            {t(msg::tables_cancel)}
                        </button>
                    </div>
                }
            })}
            {question}
            {move || error.get().map(|e| view! { <p class="storage-error" role="alert">{e()}</p> })}
            <p class="status" aria-live="polite">{move || message.get().map(|m| m())}</p>
        </section>
    }
}

/// Offers an export as a download; what to tell the user.
fn offer(name: &str, text: Option<String>) -> Result<Say, Say> {
    let Some(text) = text else {
        return Err(Arc::new(msg::storage_nothing_to_export));
    };
    download(name, &text).map_err(|e| -> Say { Arc::new(move || e.clone()) })?;
    let name = name.to_string();
    Ok(Arc::new(move || msg::storage_exported(&name)))
}

/// "`name` was not imported: `why`".
fn not_imported(name: &str, why: Say) -> Say {
    let name = name.to_string();
    Arc::new(move || msg::storage_not_imported(&name, why()))
}

/// Fills `usage` with what the browser says this site stores (`None`: it does not say).
fn refresh_usage(usage: RwSignal<Option<Option<(u64, u64)>>>) {
    spawn_local(async move {
        usage.set(Some(crate::persist::estimate().await.ok()));
    });
}

/// The usage line, in the current language; empty until the browser answers.
fn usage_text(usage: Option<Option<(u64, u64)>>) -> String {
    match usage {
        None => String::new(),
        Some(Some((used, quota))) => msg::storage_usage(size(quota), size(used)),
        Some(None) => msg::storage_usage_unknown(),
    }
}

/// Bytes in words, to one decimal, in the current language (integer arithmetic, and the
/// browser formats the number: float formatting with a precision would link a second float
/// printer into the wasm).
fn size(bytes: u64) -> String {
    let (unit, name) = match bytes {
        0..=1023 => return msg::storage_bytes(bytes),
        1024..=1_048_575 => (1024, "KB"),
        1_048_576..=1_073_741_823 => (1_048_576, "MB"),
        _ => (1_073_741_824, "GB"),
    };
    // The browser formats the number for the language, to one decimal at most ("21 MB",
    // "1,5 MB").
    let tenths = bytes * 10 / unit;
    msg::storage_size(crate::i18n::number(tenths as f64 / 10.0), name)
}

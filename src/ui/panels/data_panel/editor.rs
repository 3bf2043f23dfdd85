//! The entity editor: keys, typed properties, the write to send (chosen explicitly), the ETag
//! sent as If-Match, and "add to batch" instead of running.

use crate::engine::{BatchRequest, EdmType, Error, RawEntity, Request};
use crate::i18n::{msg, t};
use crate::ui::kit::fields::TextField;
use crate::ui::state::model::{self, BinaryEncoding, PropertyDraft};
use crate::ui::state::workspace::{Draft, Workspace, WriteOp};
use crate::ui::state::AppState;
use crate::ui::text::notice_text::Say;
use crate::ui::widgets::error_notice::ErrorNotice;
use leptos::prelude::*;
use std::sync::Arc;

/// The editor for [`Workspace::draft`].
#[component]
pub fn Editor() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let draft = workspace.draft;
    let error = RwSignal::new(None::<Error>);
    // The last attempt that failed; its problems are found again when shown, so they are
    // said in the language shown.
    let problems = RwSignal::new(None::<Attempt>);
    let problem_list = move || {
        problems
            .with(|a| a.as_ref().map(Attempt::problems))
            .unwrap_or_default()
    };
    // What the last write or staging did, said in the language shown when shown.
    let status = RwSignal::new(None::<Say>);
    // Set by the first attempt: from then on empty values show their problem too.
    let attempted = RwSignal::new(false);

    // An entity loaded from the grid starts with a clean slate.
    Effect::new(move |previous: Option<u64>| {
        let n = workspace.loaded.get();
        if previous.is_some() {
            error.set(None);
            problems.set(None);
            status.set(None);
            attempted.set(false);
        }
        n
    });
    let run = move || {
        attempted.set(true);
        status.set(None);
        let Some(table) = workspace.table.get_untracked() else {
            problems.set(Some(Attempt::NoTable));
            return;
        };
        let d = draft.get_untracked();
        let request = match request_for(&table, &d) {
            Ok(r) => r,
            Err(_) => {
                problems.set(Some(Attempt::Draft(d)));
                error.set(None);
                return;
            }
        };
        problems.set(None);
        let response = state.write(&request);
        match response.error {
            Some(e) => error.set(Some(e)),
            None => {
                error.set(None);
                let etag = response.etag.map(String::from).unwrap_or_default();
                let code = response.status;
                status.set(Some(match d.op {
                    WriteOp::Delete => Arc::new(move || msg::editor_deleted(code)),
                    op => {
                        let etag = etag.clone();
                        Arc::new(move || msg::editor_succeeded(&etag, op.name(), code))
                    }
                }));
                draft.update(|d| {
                    d.duplicate_of = None;
                    if d.op != WriteOp::Delete {
                        d.etag = etag;
                    }
                });
            }
        }
    };
    let stage = move |_| {
        attempted.set(true);
        let d = draft.get_untracked();
        match batch_request_for(&d) {
            Ok(op) => {
                problems.set(None);
                workspace.stage(op);
                let n = workspace.batch.with_untracked(Vec::len);
                let (op, pk, rk) = (d.op, d.partition_key.clone(), d.row_key.clone());
                status.set(Some(Arc::new(move || {
                    msg::editor_staged(n - 1, op.name(), &pk, &rk)
                })));
            }
            Err(_) => problems.set(Some(Attempt::Draft(d))),
        }
    };
    let clear = move |_| {
        draft.set(Draft::default());
        error.set(None);
        problems.set(None);
        status.set(None);
        attempted.set(false);
    };
    let add_property = move |_| {
        let p = workspace.blank_property();
        draft.update(|d| d.properties.push(p));
    };
    let op = move || draft.with(|d| d.op);
    // The rows re-render only when a property is added or removed, not on every keystroke.
    let property_ids =
        Memo::new(move |_| draft.with(|d| d.properties.iter().map(|p| p.id).collect::<Vec<_>>()));

    view! {
        // Ctrl+Enter (⌘+Enter) anywhere in the editor runs the write, as in the query editor.
        <section
            class="panel editor"
            aria-labelledby="editor-heading"
            on:keydown=move |ev| {
                if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                    ev.prevent_default();
                    run();
                }
            }
        >
            <h2 id="editor-heading" tabindex="-1">{t(msg::editor_heading)}</h2>
            {move || {
                draft
                    .with(|d| d.duplicate_of.clone())
                    .map(|(pk, rk)| {
                        view! {
                            <p class="hint duplicate-note">
                                {move || msg::editor_duplicating(&pk, &rk)}
                            </p>
                        }
                    })
            }}
            <div class="key-fields">
                <TextField
                    id="entity-pk"
                    label=|| "PartitionKey".to_string()
                    value=Signal::derive(move || draft.with(|d| d.partition_key.clone()))
                    on_input=Callback::new(move |v| draft.update(|d| d.partition_key = v))
                />
                <TextField
                    id="entity-rk"
                    label=|| "RowKey".to_string()
                    value=Signal::derive(move || draft.with(|d| d.row_key.clone()))
                    on_input=Callback::new(move |v| draft.update(|d| d.row_key = v))
                />
            </div>
                <fieldset class="properties" hidden=move || op() == WriteOp::Delete>
                    <legend>{t(msg::editor_properties)}</legend>
                    {move || {
                        property_ids
                            .get()
                            .into_iter()
                            .map(|id| view! { <PropertyRow id=id attempted=attempted /> })
                            .collect_view()
                    }}
                    <button type="button" class="add-property" on:click=add_property>
                        {t(msg::editor_add_property)}
                    </button>
                </fieldset>
            <fieldset class="write-op">
                <legend>{t(msg::editor_write)}</legend>
                <div class="op-choices" role="radiogroup" aria-label=t(msg::editor_operation)>
                    {WriteOp::ALL
                        .into_iter()
                        .map(|o| {
                            view! {
                                <label class="op-choice">
                                    <input
                                        type="radio"
                                        name="write-op"
                                        value=o.name()
                                        prop:checked=move || op() == o
                                        on:change=move |_| draft.update(|d| d.op = o)
                                    />
                                    {o.name()}
                                </label>
                            }
                        })
                        .collect_view()}
                </div>
                    <div class="etag-row" hidden=move || !op().uses_etag()>
                        <label for="entity-etag">"If-Match (ETag)"</label>
                        <div class="field-row">
                            <input
                                id="entity-etag"
                                type="text"
                                spellcheck="false"
                                autocomplete="off"
                                placeholder="W/\"datetime'…'\""
                                prop:value=move || draft.with(|d| d.etag.clone())
                                prop:disabled=move || draft.with(|d| d.any_etag)
                                on:input=move |ev| {
                                    let v = event_target_value(&ev);
                                    draft.update(|d| d.etag = v)
                                }
                            />
                            <label class="inline-check">
                                <input
                                    type="checkbox"
                                    id="entity-any-etag"
                                    prop:checked=move || draft.with(|d| d.any_etag)
                                    on:change=move |ev| {
                                        let v = event_target_checked(&ev);
                                        draft.update(|d| d.any_etag = v)
                                    }
                                />
                                {t(msg::editor_any_etag)}
                            </label>
                        </div>
                        <p class="hint">
                            {t(msg::editor_etag_hint)}
                        </p>
                    </div>
            </fieldset>
            <div class="editor-actions">
                <button
                    type="button"
                    class="primary run-write"
                    aria-keyshortcuts="Control+Enter Meta+Enter"
                    on:click=move |_| run()
                >
                    {move || msg::editor_run(op().name())}
                </button>
                <button type="button" class="stage-write" on:click=stage>{t(msg::editor_stage)}</button>
                <button type="button" class="clear-editor" on:click=clear>{t(msg::editor_clear)}</button>
            </div>
            <p class="hint">{t(msg::editor_run_hint)}</p>
            <crate::ui::widgets::show_code::ShowCode
                what="write"
                request=Callback::new(move |()| match workspace.table.get_untracked() {
                    Some(table) => request_for(&table, &draft.get_untracked()).map_err(|p| p.join(" ")),
                    None => Err(msg::query_select_table_first()),
                })
            />
            <ul class="form-problems" role="alert" hidden=move || problem_list().is_empty()>
                {move || problem_list().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
            <ErrorNotice error=error />
            <p class="status editor-status" aria-live="polite">{move || status.get().map(|say| say())}</p>
        </section>
    }
}

/// An attempt to write or stage that found problems.
#[derive(Clone)]
enum Attempt {
    NoTable,
    Draft(Draft),
}

impl Attempt {
    /// Its problems, in the current language.
    fn problems(&self) -> Vec<String> {
        match self {
            Attempt::NoTable => vec![msg::query_select_table_first()],
            Attempt::Draft(d) => batch_request_for(d).err().unwrap_or_default(),
        }
    }
}

/// One property: name, type, typed value, and its problem when it has one.
#[component]
fn PropertyRow(id: u64, attempted: RwSignal<bool>) -> impl IntoView {
    let draft = Workspace::expect().draft;
    let get = move || draft.with(|d| d.properties.iter().find(|p| p.id == id).cloned());
    let set = move |f: &dyn Fn(&mut PropertyDraft)| {
        draft.update(|d| {
            if let Some(p) = d.properties.iter_mut().find(|p| p.id == id) {
                f(p);
            }
        })
    };
    let edm = move || get().map(|p| p.edm).unwrap_or(EdmType::String);
    let problem = move || {
        get().and_then(|p| {
            let shown = attempted.get() || !p.text.is_empty() || !p.name.is_empty();
            shown.then(|| p.problem()).flatten()
        })
    };
    let name_id = format!("prop-name-{id}");
    let value_id = format!("prop-value-{id}");
    let error_id = format!("prop-error-{id}");
    let generate = move |_| {
        if let Some(uuid) = random_uuid() {
            set(&|p| p.text = uuid.clone());
        }
    };
    let value_input = {
        let value_id = value_id.clone();
        let error_id = error_id.clone();
        move || {
            let value = move || get().map(|p| p.text).unwrap_or_default();
            let on_input = move |ev: leptos::ev::Event| {
                let v = event_target_value(&ev);
                set(&|p| p.text = v.clone());
            };
            match edm() {
                EdmType::Boolean => view! {
                    <select
                        id=value_id.clone()
                        class="prop-value"
                        prop:value=value
                        on:change=on_input
                    >
                        <option value="">{t(msg::editor_choose)}</option>
                        <option value="true">"true"</option>
                        <option value="false">"false"</option>
                    </select>
                }
                .into_any(),
                t => view! {
                    <input
                        id=value_id.clone()
                        class="prop-value"
                        type="text"
                        spellcheck="false"
                        autocomplete="off"
                        inputmode=if matches!(t, EdmType::Int32 | EdmType::Int64) { "numeric" } else { "text" }
                        placeholder=move || placeholder(t)
                        aria-describedby=error_id.clone()
                        aria-invalid=move || if problem().is_some() { "true" } else { "false" }
                        prop:value=value
                        on:input=on_input
                    />
                }
                .into_any(),
            }
        }
    };
    view! {
        <div class="property-row" data-property-id=id>
            <div class="field prop-name-field">
                <label for=name_id.clone()>{t(msg::editor_name)}</label>
                <input
                    id=name_id.clone()
                    class="prop-name"
                    type="text"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=move || get().map(|p| p.name).unwrap_or_default()
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        set(&|p| p.name = v.clone())
                    }
                />
            </div>
            <div class="field prop-type-field">
                <label for=format!("prop-type-{id}")>{t(msg::query_cond_type)}</label>
                <select
                    id=format!("prop-type-{id}")
                    class="prop-type"
                    prop:value=move || edm().short_name()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let t = EdmType::from_odata_name(&format!("Edm.{v}")).unwrap_or(EdmType::String);
                        set(&|p| p.edm = t)
                    }
                >
                    {EdmType::ALL
                        .into_iter()
                        .map(|t| view! { <option value=t.short_name()>{t.short_name()}</option> })
                        .collect_view()}
                </select>
            </div>
            <div class="field prop-value-field">
                <label for=value_id.clone()>{t(msg::query_cond_value)}</label>
                <div class="value-row">
                    {value_input}
                        <button
                            type="button"
                            class="generate-guid"
                            hidden=move || edm() != EdmType::Guid
                            on:click=generate
                        >
                            {t(msg::editor_new_guid)}
                        </button>
                        <select
                            class="binary-encoding"
                            hidden=move || edm() != EdmType::Binary
                            aria-label=t(msg::editor_binary_encoding)
                            prop:value=move || {
                                match get().map(|p| p.binary) {
                                    Some(BinaryEncoding::Hex) => "hex",
                                    _ => "base64",
                                }
                            }
                            on:change=move |ev| {
                                let hex = event_target_value(&ev) == "hex";
                                set(&|p| {
                                    let old = p.binary;
                                    p.binary = if hex { BinaryEncoding::Hex } else { BinaryEncoding::Base64 };
                                    if let Ok(v) = model::parse_typed(EdmType::Binary, &p.text, old) {
                                        p.text = model::edit_text(&v, p.binary);
                                    }
                                })
                            }
                        >
                            <option value="base64">"base64"</option>
                            <option value="hex">"hex"</option>
                        </select>
                </div>
            </div>
            <button
                type="button"
                class="remove-property"
                aria-label=t(msg::editor_remove_property)
                on:click=move |_| draft.update(|d| d.properties.retain(|p| p.id != id))
            >
                "×"
            </button>
            <p class="field-error" id=error_id.clone()>{problem}</p>
            <p class="field-note" role="status">
                {move || get().and_then(|p| p.note())}
            </p>
        </div>
    }
}

/// The value field's example for a type (the examples are data: never translated).
fn placeholder(t: EdmType) -> String {
    match t {
        EdmType::String => msg::editor_text(),
        EdmType::Int32 => msg::editor_example("42"),
        EdmType::Int64 => msg::editor_example("9223372036854775807"),
        EdmType::Double => msg::editor_example("4.5, NaN, Infinity"),
        EdmType::Boolean => msg::editor_true_or_false(),
        EdmType::DateTime => "2024-01-01T12:00:00.1234567Z".into(),
        EdmType::Guid => "c9da6455-213d-42c9-9a79-3e9149a57833".into(),
        EdmType::Binary => msg::editor_binary_example(),
    }
}

/// A fresh Guid from the browser's crypto.randomUUID.
fn random_uuid() -> Option<String> {
    Some(web_sys::window()?.crypto().ok()?.random_uuid())
}

/// If-Match for the draft: `*`, its ETag, or none.
fn if_match(d: &Draft) -> Option<String> {
    if d.any_etag {
        Some("*".into())
    } else if d.etag.trim().is_empty() {
        None
    } else {
        Some(d.etag.trim().to_string())
    }
}

/// The entity, after the checks the editor makes before sending anything.
fn entity_for(d: &Draft) -> Result<RawEntity, Vec<String>> {
    if let Some((pk, rk)) = &d.duplicate_of {
        if *pk == d.partition_key && *rk == d.row_key {
            return Err(vec![msg::editor_duplicate_keys()]);
        }
    }
    model::build_entity(&d.partition_key, &d.row_key, &d.properties)
}

/// The request the draft describes.
fn request_for(table: &str, d: &Draft) -> Result<Request, Vec<String>> {
    batch_request_for(d).map(|op| op.into_request(table.to_string()))
}

/// The batch operation the draft describes.
fn batch_request_for(d: &Draft) -> Result<BatchRequest, Vec<String>> {
    let keys = (d.partition_key.clone(), d.row_key.clone());
    d.op.batch_request(keys, || entity_for(d), if_match(d))
}

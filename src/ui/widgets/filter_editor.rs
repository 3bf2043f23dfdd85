//! The query editor: the builder (point, partition or table query, with its condition rows
//! and groups) kept in sync with the raw `$filter`, both ways where the filter allows it.
//!
//! Shared by the sandbox's query panel and the Connect section (`crate::ui::sections::connect`), which
//! builds queries for a real account with the same builder: the editor holds only signals
//! and sends nothing; each caller runs the filter on its own side.
//!
//! Invariant: after every edit, `raw` is the builder's filter when `expressible` is set;
//! otherwise `raw` is the text as typed (the builder could not read it) and the builder keeps
//! what it held.

mod condition_row;
mod group;

use crate::engine::filter;
use crate::i18n::{msg, t};
use crate::ui::kit::fields::TextField;
use crate::ui::state::model::{self, Builder, BuilderKind};
use crate::ui::state::workspace::Workspace;
use group::{conditions, Edit};
use leptos::prelude::*;

/// The element ids of one editor: the Query section's and the Connect section's can both be in
/// the page, and each label must name its own field.
#[derive(Clone, Copy)]
pub struct EditorIds {
    /// The kind radios' `name`.
    pub kind: &'static str,
    pub partition_key: &'static str,
    pub row_key: &'static str,
    pub row_prefix: &'static str,
    pub raw: &'static str,
    pub raw_hint: &'static str,
}

/// One editor's state (`Copy`, all signals).
#[derive(Clone, Copy)]
pub struct FilterEditor {
    /// The `$filter` as sent.
    pub raw: RwSignal<String>,
    pub builder: RwSignal<Builder>,
    /// Whether the builder shows `raw` (else the raw text is kept as written).
    pub expressible: RwSignal<bool>,
    /// Why the builder's last edit could not be written as a filter.
    pub problem: RwSignal<Option<String>>,
    workspace: Workspace,
}

impl FilterEditor {
    /// An editor on `raw`, its ids from `workspace`: every filter of comparisons and
    /// `and`/`or`/`not` reads into the builder (a filter restored after a reload, or loaded by
    /// advice).
    pub fn new(raw: RwSignal<String>, workspace: Workspace) -> Self {
        let restored =
            raw.with_untracked(|t| workspace.with_ids(|ids| Builder::from_filter(t, ids)));
        FilterEditor {
            raw,
            expressible: RwSignal::new(restored.is_some()),
            builder: RwSignal::new(restored.unwrap_or_default()),
            problem: RwSignal::new(None),
            workspace,
        }
    }

    /// Builder → raw text.
    pub fn edit(self, f: &dyn Fn(&mut Builder)) {
        self.builder.update(|b| f(b));
        match self.builder.with_untracked(Builder::filter) {
            Ok(text) => {
                self.raw.set(text);
                self.expressible.set(true);
                self.problem.set(None);
            }
            Err(e) => self.problem.set(Some(e)),
        }
    }

    /// Raw text → builder, when the filter has the builder's shape.
    pub fn load(self, text: String) {
        let parsed = self
            .workspace
            .with_ids(|ids| Builder::from_filter(&text, ids));
        self.raw.set(text);
        self.problem.set(None);
        match parsed {
            Some(b) => {
                self.builder.set(b);
                self.expressible.set(true);
            }
            None => self.expressible.set(false),
        }
    }
}

/// The builder's fieldset and the raw `$filter` field under it.
pub fn editor_view(ed: FilterEditor, ids: EditorIds) -> AnyView {
    let FilterEditor {
        raw,
        builder,
        expressible,
        problem: builder_problem,
        ..
    } = ed;
    let syntax = move || raw.with(|t| filter::parse(t).err());
    let kind = move || builder.with(|b| b.kind);
    let edit_tree = Callback::new(move |(id, e): (u64, Edit)| ed.edit(&|b| e.apply(b, id)));
    view! {
            // Stale while the raw text is not the builder's filter: the hint under the raw
            // field says why (a syntax error and where, or a filter the builder cannot show).
            <fieldset
                class="builder"
                data-stale=move || (!expressible.get()).to_string()
                aria-describedby=ids.raw_hint
            >
                <legend>{t(msg::query_builder)}</legend>
                <div class="kind-choices" role="radiogroup" aria-label=t(msg::query_kind)>
                    {[
                        // The value is the kind's English name (stable for tests and forms).
                        (BuilderKind::Point, "Point", msg::query_kind_point as fn() -> String, msg::query_kind_point_title as fn() -> String),
                        (BuilderKind::Partition, "Partition", msg::query_kind_partition, msg::query_kind_partition_title),
                        (BuilderKind::Table, "Table", msg::query_kind_table, msg::query_kind_table_title),
                    ]
                        .into_iter()
                        .map(|(k, value, name, title)| {
                            view! {
                                <label class="op-choice" title=t(title)>
                                    <input
                                        type="radio"
                                        name=ids.kind
                                        value=value
                                        prop:checked=move || kind() == k
                                        on:change=move |_| ed.edit(&|b| b.kind = k)
                                    />
                                    {t(name)}
                                </label>
                            }
                        })
                        .collect_view()}
                </div>
                <div class="key-fields">
                        <TextField
                            id=ids.partition_key
                            label=|| "PartitionKey eq".to_string()
                            hidden=Signal::derive(move || kind() == BuilderKind::Table)
                            value=Signal::derive(move || builder.with(|b| b.partition_key.clone()))
                            on_input=Callback::new(move |v: String| ed.edit(&|b| b.partition_key = v.clone()))
                        />
                        <TextField
                            id=ids.row_key
                            label=|| "RowKey eq".to_string()
                            hidden=Signal::derive(move || kind() != BuilderKind::Point)
                            value=Signal::derive(move || builder.with(|b| b.row_key.clone()))
                            on_input=Callback::new(move |v: String| ed.edit(&|b| b.row_key = v.clone()))
                        />
                        <TextField
                            id=ids.row_prefix
                            label=msg::query_rk_prefix
                            hidden=Signal::derive(move || kind() != BuilderKind::Partition)
                            value=Signal::derive(move || builder.with(|b| b.row_prefix.clone()))
                            on_input=Callback::new(move |v: String| ed.edit(&|b| b.row_prefix = v.clone()))
                        />
                </div>
                    <div class="conditions" hidden=move || kind() == BuilderKind::Point>
                        {conditions(builder, edit_tree)}
                    </div>
                {move || builder_problem.get().map(|p| view! { <p class="field-error builder-problem">{p}</p> })}
            </fieldset>

            <div class="field raw-field">
                <label for=ids.raw><bdi>"$filter"</bdi></label>
                <textarea
                    id=ids.raw
                    class="raw-filter"
                    dir="ltr"
                    rows="3"
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    aria-describedby=ids.raw_hint
                    aria-invalid=move || if syntax().is_some() { "true" } else { "false" }
                    prop:value=move || raw.get()
                    on:input=move |ev| ed.load(event_target_value(&ev))
                ></textarea>
                {move || {
                    syntax()
                        .map(|e| {
                            let (before, span, after) = raw.with(|t| model::split_at_error(t, e.position, e.length));
                            let at_end = span.is_empty();
                            view! {
                                <div class="syntax-error" role="alert">
                                    <pre class="syntax-mirror" aria-hidden="true">
                                        <span>{before}</span>
                                        <mark class="syntax-span" class:at-end=at_end>{if at_end { " ".to_string() } else { span }}</mark>
                                        <span>{after}</span>
                                    </pre>
                                    <p class="syntax-message">{move || msg::query_syntax_position(crate::ui::text::error_text::syntax(&e.kind), e.position)}</p>
                                </div>
                            }
                        })
                }}
                <p id=ids.raw_hint class="hint">
                    {move || {
                        if expressible.get() {
                            msg::query_filter_synced()
                        } else if let Some(e) = syntax() {
                            msg::query_filter_stale(e.position)
                        } else {
                            msg::query_filter_raw()
                        }
                    }}
                </p>
            </div>
    }
    .into_any()
}

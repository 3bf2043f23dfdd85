//! One entity in the service's JSON form, with copy and the editor's actions; shown by the
//! data panel and the query results.

use crate::engine::{Continuation, RawEntity};
use crate::i18n::{msg, t};
use crate::ui::kit::dom::{copy_text, focus};
use crate::ui::state::model;
use crate::ui::state::navigation::{Navigation, Section};
use crate::ui::state::workspace::{Draft, Workspace, WriteOp};
use crate::ui::text::notice_text::Say;
use leptos::prelude::*;

/// The chosen entity in the service's JSON form, with copy and the editor's actions. Used by
/// the Entities section and by the query results; the editor lives in the Entities section,
/// so loading an entity into it switches there.
#[component]
pub fn EntityView(
    raw: RawEntity,
    /// The entity is a `$select` projection: it can be copied, but not edited (the editor
    /// would get only the selected properties, and a replace would drop the others).
    #[prop(optional)]
    projected: bool,
) -> impl IntoView {
    let section = Navigation::in_context();
    let workspace = Workspace::expect();
    let text = model::pretty_json(&raw);
    let (pk, rk, etag) = model::keys_of(&raw);
    let copied = RwSignal::new(None::<Say>);
    let copy = {
        let text = text.clone();
        move |_| copy_text(text.clone(), copied)
    };
    let load = move |op: WriteOp, duplicate: bool| {
        let properties = workspace.with_ids(|ids| model::drafts_of(&raw, ids));
        workspace.loaded.update(|n| *n += 1);
        workspace.draft.set(Draft {
            partition_key: pk.clone(),
            row_key: rk.clone(),
            properties,
            op,
            etag: if duplicate {
                String::new()
            } else {
                etag.clone().unwrap_or_default()
            },
            any_etag: false,
            duplicate_of: duplicate.then(|| (pk.clone(), rk.clone())),
        });
        if let Some(section) = section {
            section.set(Section::Data);
        }
        focus("#editor-heading");
    };
    let edit = {
        let load = load.clone();
        move |_| load(WriteOp::Replace, false)
    };
    let duplicate = {
        let load = load.clone();
        move |_| load(WriteOp::Insert, true)
    };
    let delete = move |_| load(WriteOp::Delete, false);
    view! {
        <div class="entity-view">
            <div class="entity-actions">
                <button type="button" class="copy-json" on:click=copy>{t(msg::data_copy_json)}</button>
                <button type="button" class="edit-entity" on:click=edit hidden=projected>{t(msg::data_edit)}</button>
                <button type="button" class="duplicate-entity" on:click=duplicate hidden=projected>{t(msg::data_duplicate)}</button>
                <button type="button" class="delete delete-entity" on:click=delete hidden=projected>{t(msg::data_delete)}</button>
                <span class="muted projected-note" hidden=!projected>{t(msg::data_projected)}</span>
                <span class="status" aria-live="polite">{move || copied.get().map(|say| say())}</span>
            </div>
            <pre class="entity-json" tabindex="0" dir="ltr" aria-label=t(msg::data_entity_json)>{text}</pre>
        </div>
    }
}

/// `NextPartitionKey='…' NextRowKey='…'`, as the service's headers would carry it.
pub fn token_text(c: &Continuation) -> String {
    format!(
        "NextPartitionKey={} NextRowKey={}",
        model::quote(&c.next_partition_key),
        model::quote(&c.next_row_key)
    )
}

//! Entities as the service answered them, in the playground's own typed grid
//! (`crate::ui::widgets::entity_grid`): the JSON with its `@odata.type` annotations is decoded by the
//! engine (`engine::json`, as the grid does for the sandbox's pages), so each column names its
//! Edm types and each value shows as the sandbox shows it. Opening a row (Enter or a click)
//! shows its JSON as the service sent it.
//!
//! The grid arranges columns per table name in the Connect module's own workspace
//! (`super::ConnectPanel` provides it): a remote table's arrangement is not the sandbox's.

use super::query::Entity;
use crate::engine::json::RawEntity;
use crate::ui::state::model;
use crate::ui::widgets::entity_grid::{columns_of, EntityGrid};
use leptos::prelude::*;

/// The service's entities as the grid takes them (members in the order read).
pub fn raw_entities<'a>(entities: impl IntoIterator<Item = &'a Entity>) -> Vec<RawEntity> {
    entities.into_iter().cloned().map(RawEntity::from).collect()
}

/// The entities of `table` in the typed grid labelled `label` (a message, read when shown, so
/// the label follows a language switch); `id` prefixes the grid's element ids
/// (`<id>-grid`), so tests and labels find it.
#[component]
pub fn EntitiesGrid(
    entities: Vec<RawEntity>,
    table: String,
    label: fn() -> String,
    id: &'static str,
) -> impl IntoView {
    let found = columns_of(&entities);
    let empty = entities.is_empty();
    let entities = Signal::stored(entities);
    let selected = RwSignal::new(None::<usize>);
    let opened = move || {
        let i = selected.get()?;
        entities.with(|all| all.get(i).map(model::pretty_json))
    };
    view! {
        <p class="placeholder" hidden=!empty>{crate::i18n::t(crate::i18n::msg::query_page_empty)}</p>
        <div class="connect-grid" data-grid=id hidden=empty>
            <EntityGrid
                entities=entities
                found=Signal::stored(found)
                table=Signal::stored(table)
                selected=selected
                label=label
                id=id
            />
        </div>
        {move || opened().map(|json| view! { <pre class="connect-entity-json" dir="ltr">{json}</pre> })}
    }
}

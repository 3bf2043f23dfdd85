//! The grid's property columns: which exist, in which order they show, which are hidden, and
//! the column chooser that arranges them per table.
//!
//! One ordering for every grid (the Entities section and the query results): PartitionKey and
//! RowKey pinned first, then Timestamp (hidden until chosen), then the properties in ordinal
//! (code point) order of their names, so a grid never depends on which entity came first.
//! A table's arrangement, once the user changes it in the chooser, is kept in
//! [`Workspace::columns`](crate::ui::state::workspace::Workspace) under the table's name; columns it does
//! not name (properties written later) follow it in the default order.

use crate::engine::json::{self, RawEntity};
use crate::engine::Entity;
use crate::i18n::{msg, t};
use crate::ui::state::workspace::layouts::ColumnLayout;
use crate::ui::state::workspace::Workspace;
use leptos::prelude::*;

/// The system property the chooser offers beside the properties.
pub const TIMESTAMP: &str = "Timestamp";

/// A column: the property name and its types as shown in the header (`Int32 | String`).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub types: String,
}

/// An entity of a page as a grid shows it. A projection (`$select` without the keys) leaves
/// out PartitionKey and RowKey, which the decoder requires: they show empty, as the service
/// did not return them, and the selected properties still show.
pub fn shown_entity(raw: &RawEntity) -> Entity {
    if let Ok(entity) = json::decode_stored(raw) {
        return entity;
    }
    let mut keyed = raw.clone();
    for key in ["PartitionKey", "RowKey"] {
        if !raw.0.iter().any(|(name, _)| name == key) {
            keyed
                .0
                .push((key.into(), serde_json::Value::String(String::new())));
        }
    }
    json::decode_stored(&keyed).unwrap_or_default()
}

/// The property columns of a set of entities, types taken from the values.
pub fn columns_of(entities: &[RawEntity]) -> Vec<Column> {
    let mut out: Vec<(String, Vec<&'static str>)> = Vec::new();
    for raw in entities {
        let e = shown_entity(raw);
        for (name, value) in &e.properties {
            let t = value.edm_type().short_name();
            match out.iter_mut().find(|(n, _)| n.as_str() == &**name) {
                Some((_, types)) if !types.contains(&t) => types.push(t),
                Some(_) => {}
                None => out.push((name.to_string(), vec![t])),
            }
        }
    }
    out.into_iter()
        .map(|(name, types)| Column {
            name,
            types: types.join(" | "),
        })
        .collect()
}

/// Every column the chooser offers, in display order, each with whether it shows: the
/// default order (Timestamp, then properties by ordinal name) rearranged by `layout`.
/// `found` is the property columns in any order.
pub fn arrange(found: &[Column], layout: Option<&ColumnLayout>) -> Vec<(Column, bool)> {
    let mut default: Vec<Column> = found
        .iter()
        .filter(|c| c.name != TIMESTAMP)
        .cloned()
        .collect();
    sort_by_name(&mut default);
    default.insert(
        0,
        Column {
            name: TIMESTAMP.into(),
            types: "DateTime".into(),
        },
    );
    let shown_by_default = |c: &Column| c.name != TIMESTAMP;
    let Some(layout) = layout else {
        return default
            .into_iter()
            .map(|c| {
                let shown = shown_by_default(&c);
                (c, shown)
            })
            .collect();
    };
    let mut out: Vec<(Column, bool)> = layout
        .0
        .iter()
        .filter_map(|(name, shown)| {
            let c = default.iter().find(|c| &c.name == name)?;
            Some((c.clone(), *shown))
        })
        .collect();
    for c in default {
        if !out.iter().any(|(o, _)| o.name == c.name) {
            let shown = shown_by_default(&c);
            out.push((c, shown));
        }
    }
    out
}

/// Ordinal order of names, by insertion (a table has at most 252 properties; a library sort
/// would add kilobytes of generic code to the page's first download).
fn sort_by_name(columns: &mut [Column]) {
    for i in 1..columns.len() {
        let mut j = i;
        while j > 0 && columns[j - 1].name > columns[j].name {
            columns.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The layout kept for `table`, if any.
pub fn layout_of<'a>(all: &'a [(String, ColumnLayout)], table: &str) -> Option<&'a ColumnLayout> {
    all.iter().find(|(t, _)| t == table).map(|(_, l)| l)
}

/// The columns that show, in order.
pub fn visible(found: &[Column], layout: Option<&ColumnLayout>) -> Vec<Column> {
    let Some(layout) = layout else {
        // The default (Timestamp hidden), the path every table takes until arranged.
        let mut out: Vec<Column> = found.to_vec();
        out.retain(|c| c.name != TIMESTAMP);
        sort_by_name(&mut out);
        return out;
    };
    arrange(found, Some(layout))
        .into_iter()
        .filter_map(|(c, shown)| shown.then_some(c))
        .collect()
}

/// The text of one cell: the property's value as text; empty where the entity lacks it.
/// Timestamp is written as the service writes it and as every DateTime cell is, the fraction
/// without trailing zeros, so one column never mixes `…19.2000000Z` and `…00Z`.
pub fn cell_text(entity: &crate::engine::Entity, raw: &RawEntity, name: &str) -> String {
    if name == TIMESTAMP {
        return entity
            .timestamp
            .as_ref()
            .map(|t| t.to_string())
            .or_else(|| {
                raw.get(TIMESTAMP)
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            })
            .unwrap_or_default();
    }
    entity
        .get(name)
        .map(|v| v.display_text())
        .unwrap_or_default()
}

/// Applies `change` to `table`'s arrangement (made explicit from what shows now first).
fn rearrange(
    workspace: Workspace,
    table: &str,
    found: &[Column],
    change: impl FnOnce(&mut Vec<(String, bool)>),
) {
    workspace.columns.update(|all| {
        let mut now: Vec<(String, bool)> = arrange(found, layout_of(all, table))
            .into_iter()
            .map(|(c, shown)| (c.name, shown))
            .collect();
        change(&mut now);
        all.retain(|(t, _)| t != table);
        all.push((table.to_string(), ColumnLayout(now)));
    });
}

/// The column chooser's panel, while `open`: every column with a check box (show or hide)
/// and buttons to move it earlier or later; Escape closes it and gives focus back to its
/// toggle (`#<id>-columns-toggle`, in `super::grid_select::SelectionBar`). `found` is the
/// property columns found, `table` the table whose arrangement it edits (empty for none).
pub fn chooser_panel(
    found: Signal<Vec<Column>>,
    table: Signal<String>,
    id: &'static str,
    open: RwSignal<bool>,
) -> impl IntoView {
    let workspace = Workspace::expect();
    let list_id = format!("{id}-columns");
    let rows = move || {
        let name = table.get();
        if name.is_empty() {
            return Vec::new();
        }
        let found = found.get();
        workspace
            .columns
            .with(|all| arrange(&found, layout_of(all, &name)))
    };
    let edit = move |change: Box<dyn FnOnce(&mut Vec<(String, bool)>)>| {
        let name = table.get_untracked();
        if !name.is_empty() {
            rearrange(workspace, &name, &found.get_untracked(), change);
        }
    };
    let close = move || {
        open.set(false);
        set_expanded(id, false);
        crate::ui::kit::dom::focus_first(vec![format!("#{id}-columns-toggle")]);
    };
    let list = move || {
        let all = rows();
        let last = all.len().saturating_sub(1);
        all.into_iter()
            .enumerate()
            .map(|(i, (c, shown))| {
                let name = c.name.clone();
                let (n1, n2, n3) = (name.clone(), name.clone(), name.clone());
                let toggle = move |_| {
                    let n = n1.clone();
                    edit(Box::new(move |v| {
                        if let Some(e) = v.iter_mut().find(|(x, _)| *x == n) {
                            e.1 = !e.1;
                        }
                    }))
                };
                let c_name = c.name.clone();
                let shift = move |by: isize, n: String| {
                    edit(Box::new(move |v| {
                        if let Some(at) = v.iter().position(|(x, _)| *x == n) {
                            let to = at as isize + by;
                            if to >= 0 && (to as usize) < v.len() {
                                v.swap(at, to as usize);
                            }
                        }
                    }));
                    // The moved column's button keeps focus in its new place.
                    let sel = format!(
                        "#{id}-columns li[data-column=\"{}\"] .{}",
                        css_escape(&c_name),
                        if by < 0 { "column-up" } else { "column-down" }
                    );
                    crate::ui::kit::dom::focus_first(vec![sel]);
                };
                let up_label = {
                    let n = name.clone();
                    move || msg::grid_column_up(&n)
                };
                let down_label = {
                    let n = name.clone();
                    move || msg::grid_column_down(&n)
                };
                let check_id = format!("{id}-col-{i}");
                view! {
                    <li data-column=name.clone()>
                        <input
                            type="checkbox"
                            id=check_id.clone()
                            prop:checked=shown
                            on:change=toggle
                        />
                        <label for=check_id>
                            <bdi dir="ltr">{name.clone()}</bdi>
                            " "
                            <span class="col-types">{c.types.clone()}</span>
                        </label>
                        <button
                            type="button"
                            class="column-up"
                            aria-label=up_label
                            disabled=i == 0
                            on:click={
                                let shift = shift.clone();
                                move |_| shift(-1, n2.clone())
                            }
                        >
                            "↑"
                        </button>
                        <button
                            type="button"
                            class="column-down"
                            aria-label=down_label
                            disabled=i == last
                            on:click=move |_| shift(1, n3.clone())
                        >
                            "↓"
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    let reset = move |_| {
        let name = table.get_untracked();
        workspace
            .columns
            .update(|all| all.retain(|(t, _)| *t != name));
    };
    // Built only while open: the flows the page starts with never open it, so its code stays
    // in the deferred wasm (scripts/split.mjs).
    move || {
        open.get().then(|| {
            let list_id = list_id.clone();
            view! {
                    <div
                        class="columns-panel"
                        id=list_id.clone()
                        role="group"
                        aria-label=t(msg::grid_columns_label)
                        on:keydown=move |ev| {
                            if ev.key() == "Escape" {
                                ev.prevent_default();
                                close();
                            }
                        }
                    >
                        <p class="hint">{t(msg::grid_columns_hint)}</p>
                        <ul>{list}</ul>
                        <button type="button" class="columns-reset" on:click=reset>
                            {t(msg::grid_columns_reset)}
                        </button>
                        <button type="button" class="columns-close" on:click=move |_| close()>
                            {t(msg::grid_columns_close)}
                        </button>
                    </div>
            }
            .into_any()
        })
    }
}

/// Sets the chooser toggle's `aria-expanded` (set here, not by a reactive attribute: that
/// would cost the first download).
pub fn set_expanded(id: &str, open: bool) {
    let toggle = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("{id}-columns-toggle")));
    if let Some(toggle) = toggle {
        let _ = toggle.set_attribute("aria-expanded", if open { "true" } else { "false" });
    }
}

/// `name` with `"` and `\` escaped, for an attribute selector.
fn css_escape(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

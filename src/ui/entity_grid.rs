//! A grid of entities: PartitionKey and RowKey pinned left, then one column per property name,
//! rows in the order given (the service's). Only the rows in view are in the DOM, so a page of
//! 1,000 entities renders as fast as a page of 30.

use crate::engine::json::{self, RawEntity};
use leptos::prelude::*;

/// Fixed row height in px (matches `.grid td` in style.css); the window is computed from it.
const ROW_HEIGHT: f64 = 34.0;
/// Rows rendered above and below the visible ones.
const OVERSCAN: usize = 8;
/// Rows visible in the scroller's max height (440 px) plus slack.
const VISIBLE: usize = 16;

/// A column: the property name and its types as shown in the header (`Int32 | String`).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub types: String,
}

/// The columns of a set of entities, in first-seen order, types taken from the values.
pub fn columns_of(entities: &[RawEntity]) -> Vec<Column> {
    let mut out: Vec<(String, Vec<&'static str>)> = Vec::new();
    for raw in entities {
        let Ok(e) = json::decode_stored(raw) else {
            continue;
        };
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

/// The grid. `selected` is the index of the chosen row (Enter or click chooses).
#[component]
pub fn EntityGrid(
    /// The entities, in the service's order.
    #[prop(into)]
    entities: Signal<Vec<RawEntity>>,
    /// The property columns after the two keys.
    #[prop(into)]
    columns: Signal<Vec<Column>>,
    /// The chosen row.
    selected: RwSignal<Option<usize>>,
    /// Accessible name of the grid.
    label: &'static str,
) -> impl IntoView {
    let scroll_top = RwSignal::new(0.0_f64);
    let len = move || entities.with(Vec::len);
    let window = Memo::new(move |_| {
        let first = (scroll_top.get() / ROW_HEIGHT) as usize;
        let start = first.saturating_sub(OVERSCAN).min(len());
        let end = (first + VISIBLE + OVERSCAN).min(len());
        (start, end)
    });
    let on_scroll = move |ev: leptos::ev::Event| {
        let top = event_target::<web_sys::Element>(&ev).scroll_top();
        scroll_top.set(f64::from(top));
    };
    let header = move || {
        columns.with(|cols| {
            cols.iter()
                .map(|c| {
                    view! {
                        <th scope="col">
                            <span class="col-name">{c.name.clone()}</span>
                            <span class="col-types">{c.types.clone()}</span>
                        </th>
                    }
                })
                .collect_view()
        })
    };
    let rows = move || {
        let (start, end) = window.get();
        let cols = columns.get();
        entities.with(|all| {
            all.get(start..end)
                .unwrap_or_default()
                .iter()
                .enumerate()
                .map(|(offset, raw)| grid_row(start + offset, raw, &cols, selected))
                .collect_view()
        })
    };
    let pad_top = move || format!("height:{}px", window.get().0 as f64 * ROW_HEIGHT);
    let pad_bottom = move || {
        let rest = len().saturating_sub(window.get().1);
        format!("height:{}px", rest as f64 * ROW_HEIGHT)
    };

    view! {
        <div class="grid-scroll" tabindex="-1" on:scroll=on_scroll>
            <table class="grid" aria-label=label aria-rowcount=move || len() + 1>
                <thead>
                    <tr>
                        <th scope="col" class="pin pin-1">
                            <span class="col-name">"PartitionKey"</span>
                            <span class="col-types">"String"</span>
                        </th>
                        <th scope="col" class="pin pin-2">
                            <span class="col-name">"RowKey"</span>
                            <span class="col-types">"String"</span>
                        </th>
                        {header}
                    </tr>
                </thead>
                <tbody>
                    <tr class="pad" aria-hidden="true" style=pad_top></tr>
                    {rows}
                    <tr class="pad" aria-hidden="true" style=pad_bottom></tr>
                </tbody>
            </table>
        </div>
    }
}

/// One row: its keys and the text of each column's value (empty where the entity lacks it).
fn grid_row(
    index: usize,
    raw: &RawEntity,
    cols: &[Column],
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    let entity = json::decode_stored(raw).unwrap_or_default();
    let cells = cols
        .iter()
        .map(|c| {
            let text = entity
                .get(&c.name)
                .map(|v| v.display_text())
                .unwrap_or_default();
            let title = text.clone();
            view! { <td title=title>{text}</td> }
        })
        .collect_view();
    let pk_title = entity.partition_key.clone();
    let rk_title = entity.row_key.clone();
    let choose = move || selected.set(Some(index));
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" || ev.key() == " " {
            ev.prevent_default();
            choose();
        }
    };
    view! {
        <tr
            class="grid-row"
            tabindex="0"
            aria-rowindex=index + 2
            aria-selected=move || if selected.get() == Some(index) { "true" } else { "false" }
            data-index=index
            on:click=move |_| choose()
            on:keydown=on_key
        >
            <td class="pin pin-1" title=pk_title>{entity.partition_key}</td>
            <td class="pin pin-2" title=rk_title>{entity.row_key}</td>
            {cells}
        </tr>
    }
}

//! The connection's tables as a list that what the user types in the Table field filters
//! (choosing a row fills the field but keeps the list as it was), virtualised: however many
//! tables the connection has (a million at most, `query::MAX_TABLE_PAGES`), the page holds
//! only the rows in view, so a keypress costs one pass over the names and a few rows of DOM,
//! never a DOM node (or a reactive closure) per table.
//!
//! Invariants: [`Matches`] holds, in the connection's order, the positions of the names that
//! contain the filter, compared case-insensitively (the service's table names are ASCII and
//! case-insensitive); a filter that extends the previous one narrows the previous matches
//! instead of reading every name again. Row `i` of the matches sits at `i * ROW` pixels in a
//! list `len * ROW` pixels tall, so the scroll bar and the position announced
//! (`aria-posinset`, `aria-setsize`) are those of the whole list.

use super::Shared;
use crate::i18n::{self, msg, t};
use leptos::prelude::*;

/// A row's height in CSS pixels: a 40 px button and its gap (the style below fixes both).
pub const ROW: f64 = 44.0;
/// Rows in view: the list is at most this many rows tall, then scrolls.
pub const VISIBLE: usize = 8;
/// Rows rendered beyond each edge of the view, so a quick scroll shows no blank rows.
const OVERSCAN: usize = 3;

/// The list's style rules (with the Connect section's, `super::STYLE`).
pub const STYLE: &str = "\
.connect-tables-scroll{max-height:352px;overflow-y:auto;border:1px solid var(--border);border-radius:8px;margin:6px 0}\
.connect-tables{position:relative;list-style:none;margin:0;padding:0}\
.connect-tables li{position:absolute;left:0;right:0;height:44px;display:flex;align-items:center;padding:0 6px}\
.connect-tables li button{max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\
.connect-tables button[aria-pressed=true]{border-color:var(--accent);background:var(--accent-soft)}";

/// The names that match a filter: every name (`None`), or the positions of those that do.
#[derive(Debug, Clone, PartialEq)]
pub struct Matches {
    filter: String,
    positions: Option<Vec<u32>>,
}

impl Matches {
    pub fn len(&self, total: usize) -> usize {
        self.positions.as_ref().map_or(total, Vec::len)
    }

    /// The name's position among all names of the `i`th match.
    pub fn at(&self, i: usize) -> usize {
        self.positions.as_ref().map_or(i, |p| p[i] as usize)
    }

    /// The matches of `filter` (lower case) among `lower` (the names in lower case), from
    /// `previous` when `filter` extends its filter.
    pub fn of(lower: &[String], previous: Option<&Matches>, filter: String) -> Matches {
        if filter.is_empty() {
            return Matches {
                filter,
                positions: None,
            };
        }
        let hits = |i: &usize| lower[*i].contains(filter.as_str());
        let positions = match previous {
            Some(p) if filter.starts_with(&p.filter) => match &p.positions {
                Some(before) => before
                    .iter()
                    .copied()
                    .filter(|&i| hits(&(i as usize)))
                    .collect(),
                None => (0..lower.len()).filter(hits).map(|i| i as u32).collect(),
            },
            _ => (0..lower.len()).filter(hits).map(|i| i as u32).collect(),
        };
        Matches {
            filter,
            positions: Some(positions),
        }
    }
}

/// The tables, filtered by what was typed in the Table field (`shared.filter`); a click
/// chooses one (`shared.table`).
#[component]
pub fn TablesList(names: Vec<String>, shared: Shared) -> impl IntoView {
    let total = names.len();
    let lower = StoredValue::new(
        names
            .iter()
            .map(|n| n.to_ascii_lowercase())
            .collect::<Vec<_>>(),
    );
    let names = StoredValue::new(names);
    let matches = Memo::new(move |previous: Option<&Matches>| {
        let filter = shared.filter.with(|t| t.trim().to_ascii_lowercase());
        lower.with_value(|lower| Matches::of(lower, previous, filter))
    });
    let scroll = RwSignal::new(0.0_f64);
    let scroller = NodeRef::<leptos::html::Div>::new();
    // A new filter shows its first matches.
    Effect::new(move |_| {
        matches.track();
        if let Some(el) = scroller.get_untracked() {
            el.set_scroll_top(0);
        }
        scroll.set(0.0);
    });
    let rows = move || {
        let top = scroll.get();
        matches.with(|m| {
            let len = m.len(total);
            let first = ((top / ROW) as usize).saturating_sub(OVERSCAN).min(len);
            let last = (first + VISIBLE + 2 * OVERSCAN).min(len);
            (first..last)
                .map(|i| {
                    let name = names.with_value(|n| n[m.at(i)].clone());
                    let (chosen, pick, attr) = (name.clone(), name.clone(), name.clone());
                    view! {
                        <li style=format!("top:{}px", i as f64 * ROW) aria-setsize=len aria-posinset=i + 1>
                            <button
                                type="button"
                                data-remote-table=attr
                                aria-pressed=move || shared.table.with(|t| *t == chosen).to_string()
                                on:click=move |_| shared.table.set(pick.clone())
                            >
                                {name}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let count = move || {
        let (matching, filter) = matches.with(|m| (m.len(total), m.filter.clone()));
        let total = i18n::number(total as f64);
        if filter.is_empty() {
            return msg::connect_tables_all(total);
        }
        // Isolated, so a table name keeps its own direction inside a right-to-left sentence.
        let typed = shared
            .filter
            .with(|f| format!("\u{2068}{}\u{2069}", f.trim()));
        msg::connect_tables_matching(typed, i18n::number(matching as f64), total)
    };
    view! {
        <p class="hint connect-tables-count" role="status">{count}</p>
        <div
            class="connect-tables-scroll"
            node_ref=scroller
            on:scroll=move |ev| {
                scroll.set(event_target::<web_sys::Element>(&ev).scroll_top() as f64)
            }
        >
            <ul
                class="connect-tables"
                aria-label=t(msg::connect_tables)
                style=move || format!("height:{}px", matches.with(|m| m.len(total)) as f64 * ROW)
            >
                {rows}
            </ul>
        </div>
    }
}

//! A grid of entities: PartitionKey and RowKey pinned left, then the columns the table's
//! arrangement shows (`super::columns`), rows in the order given (the service's). Only the
//! rows in view are in the DOM, so a page of 1,000 entities renders as fast as a page of 30.
//!
//! Keyboard (the WAI-ARIA grid pattern, roving tabindex): exactly one row or one cell is in
//! the Tab order, the active one. ArrowUp/ArrowDown, PageUp/PageDown, Ctrl+Home/Ctrl+End move
//! between rows, keeping the column; ArrowRight/ArrowLeft move from the row to its cells and
//! between them (mirrored right to left); Home/End move to the row's first or last cell, or,
//! on a row, to the first or last row. Shift with a row move extends the selection, Space
//! toggles the row's selection, Ctrl+A selects all, Enter opens the row. A click makes the
//! clicked cell active. Invariant: focus never leaves the
//! grid while rows come and go: a move to a row in view focuses it at once; a move that
//! scrolls the virtual window, or a scroll by the user while a row has focus, puts focus on
//! the scroller (which handles the keys too) until the active row is rendered, then on the
//! row. When the active row is scrolled out of the DOM, the scroller takes its place in the
//! Tab order and hands focus to the row on arrival.

pub use super::columns::{columns_of, Column};
use super::columns::{layout_of, visible};
use super::grid_rows;
use super::grid_select::{Picks, SelectionBar};
use crate::engine::json::RawEntity;
use crate::ui::state::workspace::Workspace;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Fixed row height in px (matches `.grid td` in style.css); the window is computed from it.
const ROW_HEIGHT: f64 = 34.0;
/// Header height in px (`.grid thead th`).
const HEAD_HEIGHT: f64 = 44.0;
/// Rows rendered above and below the visible ones.
const OVERSCAN: usize = 8;
/// Rows visible in the scroller's max height (440 px) plus slack.
const VISIBLE: usize = 16;

/// The grid. `selected` is the index of the opened row (Enter or click opens).
#[component]
pub fn EntityGrid(
    /// The entities, in the service's order.
    #[prop(into)]
    entities: Signal<Vec<RawEntity>>,
    /// Every property column found, any order (the table's arrangement orders them).
    #[prop(into)]
    found: Signal<Vec<Column>>,
    /// The table whose column arrangement applies (empty for none).
    #[prop(into)]
    table: Signal<String>,
    /// The opened row.
    selected: RwSignal<Option<usize>>,
    /// Accessible name of the grid (a catalogue message).
    label: fn() -> String,
    /// A unique prefix for element ids (`data`, `results`).
    id: &'static str,
    /// Offers to delete the selected entities (confirmed) from `table`; without it the
    /// selection can only be copied (query results).
    #[prop(optional)]
    deletable: Option<super::grid_select::Deleter>,
) -> impl IntoView {
    let workspace = Workspace::expect();
    let columns = Memo::new(move |_| {
        let found = found.get();
        let table = table.get();
        workspace
            .columns
            .with(|all| visible(&found, layout_of(all, &table)))
    });
    // (The grid's state uses only signal types the page already has at start: each new
    // signal type adds kilobytes of generic code to the first download.)
    let len = move || entities.with(Vec::len);
    let len_untracked = move || entities.with_untracked(Vec::len);
    let picks = Picks::new(entities);
    let active = RwSignal::new(0_usize);
    // The active cell's place in its row (from 1), or 0 when the row itself is active.
    let col = RwSignal::new(0_usize);
    let scroll_top = RwSignal::new(0.0_f64);
    let scroller = Scroller(id, col);
    let window = Memo::new(move |_| {
        let first = (scroll_top.get() / ROW_HEIGHT) as usize;
        let start = first.saturating_sub(OVERSCAN).min(len());
        let end = (first + VISIBLE + OVERSCAN).min(len());
        (start, end)
    });
    let active_now = move || active.get().min(len().saturating_sub(1));
    let rendered = move || {
        let (s, e) = window.get();
        let a = active_now();
        a >= s && a < e
    };
    // Makes row `i` active and focuses it. A row in view takes focus at once. Otherwise the
    // grid scrolls just enough to show it, the scroller holds focus meanwhile (rows rendered
    // or moved while the window shifts cannot drop it; its keys are the grid's) and the row
    // takes focus after the next frame. Focus never scrolls by itself (`preventScroll`), so
    // the window changes only here and when the user scrolls.
    let go = move |i: usize| {
        let n = len_untracked();
        let Some(el) = scroller.element() else {
            return;
        };
        if n == 0 {
            return;
        }
        let i = i.min(n - 1);
        active.set(i);
        let top = f64::from(el.scroll_top());
        let view = f64::from(el.client_height()) - HEAD_HEIGHT;
        let row_top = i as f64 * ROW_HEIGHT;
        let to = if row_top < top {
            row_top
        } else if row_top + ROW_HEIGHT > top + view {
            row_top + ROW_HEIGHT - view
        } else {
            match scroller.row(i) {
                Some(row) => focus_quietly(&row),
                None => {
                    focus_quietly(&el);
                    focus_row(scroller, i, true);
                }
            }
            return;
        };
        focus_quietly(&el);
        el.set_scroll_top(to.max(0.0) as i32);
        scroll_top.set(f64::from(el.scroll_top()));
        focus_row(scroller, i, true);
    };
    let page_rows = move || {
        let h = scroller
            .element()
            .map_or(440.0, |el| f64::from(el.client_height()));
        (((h - HEAD_HEIGHT) / ROW_HEIGHT).floor() as usize).max(1)
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = len_untracked();
        if n == 0 {
            return;
        }
        let a = active.get_untracked().min(n - 1);
        let ctrl = ev.ctrl_key() || ev.meta_key();
        // PartitionKey, RowKey and the shown columns.
        let (c, cells) = (col.get_untracked(), 2 + columns.with_untracked(Vec::len));
        let rtl = web_sys::window()
            .and_then(|w| w.document()?.document_element()?.get_attribute("dir"))
            .is_some_and(|d| d == "rtl");
        let key = ev.key();
        let key = match (key.as_str(), rtl) {
            ("ArrowRight", true) => "ArrowLeft",
            ("ArrowLeft", true) => "ArrowRight",
            (k, _) => k,
        };
        let to = match key {
            "ArrowDown" => a + 1,
            "ArrowUp" => a.saturating_sub(1),
            "ArrowRight" => {
                col.set((c + 1).min(cells));
                a
            }
            "ArrowLeft" => {
                col.set(c.saturating_sub(1));
                a
            }
            "Home" | "End" if c > 0 && !ctrl => {
                col.set(if key == "Home" { 1 } else { cells });
                a
            }
            "Home" => 0,
            "End" => n - 1,
            "PageDown" => a + page_rows(),
            "PageUp" => a.saturating_sub(page_rows()),
            "Enter" => {
                ev.prevent_default();
                picks.open(a, selected);
                return;
            }
            " " => {
                ev.prevent_default();
                picks.toggle(a);
                return;
            }
            "a" | "A" if ctrl => {
                ev.prevent_default();
                picks.all(true);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let to = to.min(n - 1);
        if ev.shift_key() {
            picks.extend_to(to);
        }
        go(to);
    };
    // Scrolled (wheel, scroll bar, a click on a row half in view): when the window moves, a
    // focused row may leave the DOM or be moved, so the scroller takes focus first and gives
    // it back to the active row after the next frame if that row is still rendered (else
    // the next key brings it back).
    let on_scroll = move |ev: leptos::ev::Event| {
        let el = event_target::<web_sys::HtmlElement>(&ev);
        let row_focused = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|a| {
                a.matches("tr.grid-row, tr.grid-row > td").unwrap_or(false) && el.contains(Some(&a))
            });
        let before = window.get_untracked();
        scroll_top.set(f64::from(el.scroll_top()));
        if row_focused && window.get_untracked() != before {
            focus_quietly(&el);
            focus_row(scroller, active.get_untracked(), false);
        }
    };
    // The scroller stands in for the active row while that row is not rendered.
    let on_focus = move |ev: leptos::ev::FocusEvent| {
        let on_scroller = ev
            .target()
            .zip(scroller.element())
            .is_some_and(|(t, s)| t == ***s);
        let n = len_untracked();
        if on_scroller && n > 0 {
            go(active.get_untracked().min(n - 1));
        }
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
    // The rows in the window, drawn again whenever the window moves or the rows' content
    // may differ (the grid keeps focus meanwhile on its scroller, see `go` and `on_scroll`);
    // their state (active, selected, opened) is set apart, without a redraw.
    let tbody = move || scroller.element()?.query_selector("tbody").ok().flatten();
    let mark = move || {
        if let Some(body) = tbody() {
            let n = len_untracked();
            let a = active.get_untracked().min(n.saturating_sub(1));
            grid_rows::mark(
                &body,
                a,
                col.get_untracked(),
                picks,
                selected.get_untracked(),
            );
            grid_rows::mark_all(id, picks.count_untracked(), n);
        }
    };
    // One effect draws the rows and keeps their state (one effect, not three: each costs the
    // first download). Its value says what the drawn rows came from: the entities (their
    // buffer and length), the columns (their buffer), the window and the language.
    Effect::new(
        move |drawn: Option<(usize, usize, usize, (usize, usize), crate::i18n::Lang)>| {
            let (ptr, n) = entities.with(|v| (v.as_ptr() as usize, v.len()));
            let cols = columns.with(|c| c.as_ptr() as usize);
            let now = (ptr, n, cols, window.get(), crate::i18n::lang());
            active.track();
            col.track();
            picks.track();
            selected.track();
            let new_rows = drawn.is_some_and(|d| (d.0, d.1) != (ptr, n));
            if new_rows {
                // The selection named rows of the old entities; the active row stays in range.
                picks.clear();
                if n > 0 && active.get_untracked() >= n {
                    active.set(n - 1);
                }
            }
            let Some(body) = tbody() else {
                return now;
            };
            let redraw = drawn != Some(now);
            if redraw {
                let (start, end) = now.3;
                let cols = columns.get_untracked();
                entities.with_untracked(|all| {
                    grid_rows::draw(&body, start, all.get(start..end).unwrap_or_default(), &cols)
                });
            }
            mark();
            if redraw {
                // A redraw that took focus from a row gives it back (only if focus was lost).
                focus_row(scroller, active.get_untracked(), false);
            }
            now
        },
    );
    let on_rows_click = move |ev: leptos::ev::MouseEvent| {
        let Some((i, cell, on_box)) = grid_rows::clicked(&ev) else {
            return;
        };
        active.set(i);
        col.set(cell);
        if on_box {
            picks.toggle(i);
        } else {
            let ctrl = ev.ctrl_key() || ev.meta_key();
            picks.click(i, ev.shift_key(), ctrl, selected);
        }
    };
    let engaged = RwSignal::new(false);
    // The bar and the grid's keyboard, focus and click handlers, attached once the grid is in
    // the page (and, should that come first, when it is first reached by pointer or focus).
    // Handlers are attached here rather than as `on:` attributes, whose attaching code is
    // larger for the page's first download.
    let engage = move |ev: Option<web_sys::Event>| {
        if engaged.get_untracked() {
            return;
        }
        let Some(el) = scroller.element() else {
            return;
        };
        engaged.set(true);
        listen(&el, "keydown", on_key);
        listen(&el, "focus", on_focus);
        listen(&el, "click", on_rows_click);
        // Focus that arrived on the scroller before its handler was attached.
        if let Some(ev) = ev.filter(|ev| ev.target().is_some_and(|t| t == ***el)) {
            on_focus(ev.unchecked_into());
        }
    };
    Effect::new(move |_| engage(None));
    let pad_top = move || format!("height:{}px", window.get().0 as f64 * ROW_HEIGHT);
    let pad_bottom = move || {
        let rest = len().saturating_sub(window.get().1);
        format!("height:{}px", rest as f64 * ROW_HEIGHT)
    };

    view! {
        // The bar above the grid: column chooser, selection, copy, delete.
        <div
            class="grid-area"
            on:pointerenter=move |ev| engage(Some(ev.into()))
            on:focusin=move |ev| engage(Some(ev.into()))
        >
            {move || {
                engaged
                    .get()
                    .then(|| {
                        view! {
                            <SelectionBar
                                entities=entities
                                columns=columns.into()
                                picks=picks
                                found=found
                                table=table
                                id=id
                                deletable=deletable
                            />
                        }
                        .into_any()
                    })
            }}
        <div
            class="grid-scroll"
            id=scroller.dom_id()
            tabindex=move || if rendered() { "-1" } else { "0" }
            on:scroll=on_scroll
        >
            <table
                class="grid"
                role="grid"
                aria-label=label
                aria-multiselectable="true"
                aria-rowcount=move || len() + 1
            >
                <thead>
                    <tr aria-rowindex="1">
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
                    // The rows go here (`grid_rows::draw`).
                    <tr class="pad" aria-hidden="true" style=pad_bottom></tr>
                </tbody>
            </table>
        </div>
        </div>
    }
}

/// The grid's scrolling box, found by its id (`<prefix>-grid`), and the active column.
#[derive(Clone, Copy)]
struct Scroller(&'static str, RwSignal<usize>);

impl Scroller {
    fn dom_id(self) -> String {
        format!("{}-grid", self.0)
    }

    /// Row `index`'s focus target, if rendered: its active cell, or the row itself.
    fn row(self, index: usize) -> Option<web_sys::HtmlElement> {
        let cell = match self.1.get_untracked() {
            0 => String::new(),
            c => format!(" > td:nth-child({c})"),
        };
        self.element()?
            .query_selector(&format!("tr[data-index=\"{index}\"]{cell}"))
            .ok()
            .flatten()?
            .dyn_into()
            .ok()
    }

    fn element(self) -> Option<web_sys::HtmlElement> {
        web_sys::window()?
            .document()?
            .get_element_by_id(&self.dom_id())?
            .dyn_into()
            .ok()
    }
}

/// After the next frame, focuses row `index` of the grid in `scroller` (if rendered). With
/// `always` unset, only when focus was lost (nothing or the page body has it) or the
/// scroller holds it for a row.
fn focus_row(scroller: Scroller, index: usize, always: bool) {
    request_animation_frame(move || {
        if scroller.element().is_none() {
            return;
        }
        if !always {
            let here = scroller.element();
            let lost = web_sys::window()
                .and_then(|w| w.document())
                .map(|d| match d.active_element() {
                    None => true,
                    Some(a) => d.body().is_some_and(|b| *b == a) || here.is_some_and(|h| *h == a),
                })
                .unwrap_or(false);
            if !lost {
                return;
            }
        }
        if let Some(row) = scroller.row(index) {
            focus_quietly(&row);
        }
    });
}

/// Attaches `f` to `el`'s `kind` events for the page's lifetime (the grid lives as long).
fn listen<E: JsCast + 'static>(el: &web_sys::HtmlElement, kind: &str, f: impl Fn(E) + 'static) {
    let f =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
            f(ev.unchecked_into())
        });
    let _ = el.add_event_listener_with_callback(kind, f.as_ref().unchecked_ref());
    f.forget();
}

/// `el.focus({preventScroll: true})`; a cell is then scrolled into view across the row
/// (`scrollIntoView({block: "nearest", inline: "nearest"})`: its row is in view already, and
/// its `scroll-margin` keeps it clear of the pinned key columns).
fn focus_quietly(el: &web_sys::HtmlElement) {
    use js_sys::{Function, Object, Reflect};
    let call = |name: &str, options: &Object| {
        if let Ok(f) = Reflect::get(el, &name.into()) {
            if let Ok(f) = f.dyn_into::<Function>() {
                let _ = f.call1(el, options);
            }
        }
    };
    let options = Object::new();
    let _ = Reflect::set(&options, &"preventScroll".into(), &true.into());
    call("focus", &options);
    if el.tag_name() == "TD" {
        let options = Object::new();
        let _ = Reflect::set(&options, &"block".into(), &"nearest".into());
        let _ = Reflect::set(&options, &"inline".into(), &"nearest".into());
        call("scrollIntoView", &options);
    }
}

//! The grid's rows, drawn through the DOM API rather than `view!`: the rows render on the
//! page's start flows, so their code ships in the first download, and per-row views with
//! reactive attributes cost many times the bytes of these few calls (the grid would
//! otherwise have put the page load over its 300 KB budget). Rows are plain text: cell
//! values are set as text (`textContent`, `title`), never as HTML.
//!
//! Invariant: the tbody holds a pad row, the drawn rows `tr.grid-row[data-index]` in index
//! order, and a pad row; [`draw`] replaces the drawn rows, [`mark`] sets the state that
//! changes without a redraw (active row, selection, opened row).

use super::columns::{cell_text, Column};
use super::grid_select::Picks;
use crate::engine::json::RawEntity;
use crate::i18n::msg;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

/// Replaces the drawn rows of `tbody` with `rows`, the first being row `start`.
pub fn draw(tbody: &Element, start: usize, rows: &[RawEntity], cols: &[Column]) {
    let Some(document) = tbody.owner_document() else {
        return;
    };
    if let Ok(old) = tbody.query_selector_all("tr.grid-row") {
        for i in 0..old.length() {
            if let Some(node) = old.item(i) {
                if let Some(parent) = node.parent_node() {
                    let _ = parent.remove_child(&node);
                }
            }
        }
    }
    let bottom_pad = tbody.last_element_child();
    for (offset, raw) in rows.iter().enumerate() {
        if let Some(tr) = row(&document, start + offset, raw, cols) {
            let _ = tbody.insert_before(&tr, bottom_pad.as_ref().map(|p| p.as_ref()));
        }
    }
}

fn row(document: &Document, index: usize, raw: &RawEntity, cols: &[Column]) -> Option<Element> {
    let entity = super::columns::shown_entity(raw);
    let tr = document.create_element("tr").ok()?;
    tr.set_class_name("grid-row");
    let index_text = index.to_string();
    let _ = tr.set_attribute("data-index", &index_text);
    let _ = tr.set_attribute("aria-rowindex", &(index + 2).to_string());
    let _ = tr.set_attribute("role", "row");
    let _ = tr.set_attribute("tabindex", "-1");
    let _ = tr.set_attribute("aria-selected", "false");
    let pick = document.create_element("input").ok()?;
    let _ = pick.set_attribute("type", "checkbox");
    pick.set_class_name("pick");
    let _ = pick.set_attribute("tabindex", "-1");
    let _ = pick.set_attribute(
        "aria-label",
        &msg::grid_select_row(&entity.partition_key, &entity.row_key),
    );
    let pk = cell(document, "pin pin-1", &entity.partition_key)?;
    let _ = pk.insert_before(&pick, pk.first_child().as_ref());
    let _ = tr.append_child(&pk);
    let rk = cell(document, "pin pin-2", &entity.row_key)?;
    let _ = tr.append_child(&rk);
    for c in cols {
        let td = cell(document, "", &cell_text(&entity, raw, &c.name))?;
        let _ = tr.append_child(&td);
    }
    Some(tr)
}

fn cell(document: &Document, class: &str, text: &str) -> Option<Element> {
    let td = document.create_element("td").ok()?;
    if !class.is_empty() {
        td.set_class_name(class);
    }
    let _ = td.set_attribute("role", "gridcell");
    let _ = td.set_attribute("tabindex", "-1");
    let _ = td.set_attribute("title", text);
    // A value is data: its own left-to-right run (an isolate, so the cell itself keeps the
    // page's direction and its sticky side), and a key like `قسم-A1` keeps its order in a
    // right-to-left page.
    let run = document.create_element("bdi").ok()?;
    let _ = run.set_attribute("dir", "ltr");
    run.set_text_content(Some(text));
    let _ = td.append_child(&run);
    Some(td)
}

/// Sets each drawn row's state: in the Tab order if `active` (the row when `col` is 0, else
/// its cell `col`, from 1), selected (row and check box) as `picks` says, marked opened if it
/// is the row whose JSON shows.
pub fn mark(tbody: &Element, active: usize, col: usize, picks: Picks, opened: Option<usize>) {
    let Ok(rows) = tbody.query_selector_all("tr.grid-row") else {
        return;
    };
    if let Ok(Some(cell)) = tbody.query_selector("td[tabindex=\"0\"]") {
        let _ = cell.set_attribute("tabindex", "-1");
    }
    if col > 0 {
        let cell = format!("tr[data-index=\"{active}\"] > td:nth-child({col})");
        if let Ok(Some(cell)) = tbody.query_selector(&cell) {
            let _ = cell.set_attribute("tabindex", "0");
        }
    }
    for i in 0..rows.length() {
        let Some(tr) = rows.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let Some(index) = tr
            .get_attribute("data-index")
            .and_then(|v| v.parse::<usize>().ok())
        else {
            continue;
        };
        let picked = picks.has_untracked(index);
        let _ = tr.set_attribute(
            "tabindex",
            if index == active && col == 0 {
                "0"
            } else {
                "-1"
            },
        );
        let _ = tr.set_attribute("aria-selected", if picked { "true" } else { "false" });
        let _ = tr
            .class_list()
            .toggle_with_force("opened", opened == Some(index));
        if let Some(pick) = tr
            .query_selector("input.pick")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            pick.set_checked(picked);
        }
    }
}

/// The row a click landed on, the cell's place in it (from 1; 0 off the cells), and whether
/// on its check box.
pub fn clicked(ev: &web_sys::Event) -> Option<(usize, usize, bool)> {
    let target = ev.target()?.dyn_into::<Element>().ok()?;
    let tr = target.closest("tr.grid-row").ok()??;
    let index = tr.get_attribute("data-index")?.parse().ok()?;
    let mut cell = 0;
    let mut td = target.closest("td").ok().flatten();
    while let Some(e) = td {
        cell += 1;
        td = e.previous_element_sibling();
    }
    Some((index, cell, target.matches("input.pick").unwrap_or(false)))
}

/// Sets the select-all box `#<id>-pick-all`: checked when all `n` rows are selected,
/// indeterminate when some are.
pub fn mark_all(id: &str, picked: usize, n: usize) {
    let pick_all = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("{id}-pick-all")))
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok());
    if let Some(pick_all) = pick_all {
        pick_all.set_checked(n > 0 && picked == n);
        pick_all.set_indeterminate(picked > 0 && picked < n);
    }
}

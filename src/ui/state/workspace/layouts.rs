//! The grid's column arrangements per table, as the column chooser (`widgets::columns`) sets
//! them: state the workspace holds and saves, so it lives here, below the widgets.

use crate::ui::state::workspace::Workspace;
use leptos::prelude::*;

/// A table's arrangement: column names in the order chosen, each shown (`true`) or hidden.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColumnLayout(pub Vec<(String, bool)>);

/// Every table's arrangement, by table name.
#[derive(Clone, Copy)]
pub struct ColumnLayouts {
    all: RwSignal<Vec<(String, ColumnLayout)>>,
}

impl ColumnLayouts {
    #[expect(
        clippy::new_without_default,
        reason = "a reactive value, made in the owner that holds the workspace"
    )]
    pub fn new() -> Self {
        ColumnLayouts {
            all: RwSignal::new(Vec::new()),
        }
    }

    /// Reads every arrangement; the caller re-runs when one changes.
    pub fn with<T>(&self, f: impl FnOnce(&[(String, ColumnLayout)]) -> T) -> T {
        self.all.with(|all| f(all))
    }

    /// Changes the arrangements and tells the readers.
    pub fn update(&self, f: impl FnOnce(&mut Vec<(String, ColumnLayout)>)) {
        self.all.update(f);
    }
}

/// Every table's arrangement for the saved workspace (`workspace::saved`), in the browser's own JSON values as that module writes them
/// (no serde_json in the first download): `[["Table", [["Name", true], ["Timestamp",
/// false], …]], …]`. Reading it subscribes the caller (the saver's effect) to changes.
pub fn layouts_js(workspace: Workspace) -> js_sys::Array {
    workspace.columns.with(|all| {
        if all.is_empty() {
            js_sys::Array::new()
        } else {
            encode_layouts(all)
        }
    })
}

#[inline(never)]
fn encode_layouts(all: &[(String, ColumnLayout)]) -> js_sys::Array {
    all.iter()
        .map(|(table, layout)| {
            let columns: js_sys::Array = layout
                .0
                .iter()
                .map(|(name, shown)| js_sys::Array::of2(&name.as_str().into(), &(*shown).into()))
                .collect();
            js_sys::Array::of2(&table.as_str().into(), &columns)
        })
        .collect()
}

/// Puts saved arrangements back (what [`layouts_js`] wrote); an entry of another shape is
/// skipped, so its table shows the default arrangement.
#[inline(never)]
pub fn restore_layouts_js(saved: &js_sys::Array, workspace: Workspace) {
    let all = saved
        .iter()
        .filter_map(|entry| {
            let entry = js_sys::Array::from(&entry);
            let table = entry.get(0).as_string()?;
            let columns = js_sys::Array::from(&entry.get(1))
                .iter()
                .filter_map(|c| {
                    let c = js_sys::Array::from(&c);
                    Some((c.get(0).as_string()?, c.get(1).as_bool()?))
                })
                .collect();
            Some((table, ColumnLayout(columns)))
        })
        .collect();
    workspace.columns.update(|now| *now = all);
}

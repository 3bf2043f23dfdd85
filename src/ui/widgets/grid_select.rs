//! Several rows of a grid at once: the selection (check boxes, Shift/Ctrl+click, Space, select
//! all), copying it as TSV with a header row, and deleting it as one confirmed action.

use super::columns::{cell_text, chooser_panel, set_expanded, Column};
use crate::engine::json::RawEntity;
use crate::engine::Request;
use crate::i18n::{msg, t};
use crate::ui::state::model;
use crate::ui::state::AppState;
use crate::ui::text::notice_text::{said, Say};
use leptos::prelude::*;

/// The selected rows (indices into the grid's entities, ascending, each once) and the anchor
/// Shift extends from.
#[derive(Clone, Copy)]
pub struct Picks {
    picked: RwSignal<Picked>,
    entities: Signal<Vec<RawEntity>>,
}

#[derive(Default)]
struct Picked {
    rows: Vec<usize>,
    anchor: usize,
}

impl Picks {
    pub fn new(entities: Signal<Vec<RawEntity>>) -> Self {
        Picks {
            picked: RwSignal::new(Picked::default()),
            entities,
        }
    }

    fn read<T>(&self, f: impl FnOnce(&Picked) -> T) -> T {
        self.picked.with(f)
    }

    fn with_value<T>(&self, f: impl FnOnce(&Picked) -> T) -> T {
        self.picked.with_untracked(f)
    }

    fn write(&self, f: impl FnOnce(&mut Picked)) {
        self.picked.update(f);
    }

    #[allow(dead_code)]
    pub fn has(&self, i: usize) -> bool {
        self.read(|p| p.rows.binary_search(&i).is_ok())
    }

    /// Whether row `i` is selected, without subscribing.
    pub fn has_untracked(&self, i: usize) -> bool {
        self.with_value(|p| p.rows.binary_search(&i).is_ok())
    }

    /// Subscribes the caller to changes of the selection.
    pub fn track(&self) {
        self.picked.track();
    }

    pub fn count_untracked(&self) -> usize {
        self.with_value(|p| p.rows.len())
    }

    pub fn count(&self) -> usize {
        self.read(|p| p.rows.len())
    }

    pub fn clear(&self) {
        if self.with_value(|p| !p.rows.is_empty()) {
            self.write(|p| p.rows.clear());
        }
    }

    /// Adds or removes row `i`; it becomes the anchor.
    pub fn toggle(&self, i: usize) {
        self.write(|p| {
            match p.rows.binary_search(&i) {
                Ok(at) => {
                    p.rows.remove(at);
                }
                Err(at) => p.rows.insert(at, i),
            }
            p.anchor = i;
        });
    }

    /// Every row, or none.
    pub fn all(&self, on: bool) {
        let n = self.entities.with_untracked(Vec::len);
        self.write(|p| p.rows = if on { (0..n).collect() } else { Vec::new() });
    }

    /// Selects the rows from the anchor to `i` (inclusive), and only those.
    pub fn extend_to(&self, i: usize) {
        self.write(|p| {
            let (lo, hi) = if p.anchor <= i {
                (p.anchor, i)
            } else {
                (i, p.anchor)
            };
            p.rows = (lo..=hi).collect();
        });
    }

    /// Opens row `i` (its JSON shows below the grid) and selects it alone.
    pub fn open(&self, i: usize, opened: RwSignal<Option<usize>>) {
        opened.set(Some(i));
        self.write(|p| {
            p.rows = vec![i];
            p.anchor = i;
        });
    }

    /// A click on row `i`: with Shift a range from the anchor, with Ctrl (⌘) a toggle, else
    /// the row alone, opened.
    pub fn click(&self, i: usize, shift: bool, ctrl: bool, opened: RwSignal<Option<usize>>) {
        if shift {
            self.extend_to(i);
        } else if ctrl {
            self.toggle(i);
        } else {
            self.open(i, opened);
        }
    }

    fn indices(&self) -> Vec<usize> {
        self.with_value(|p| p.rows.clone())
    }
}

/// The selected rows as tab-separated values: a header row (PartitionKey, RowKey, then the
/// columns shown), then one line per row in grid order. A field holding a tab, a line break
/// or a double quote is quoted, quotes doubled (what spreadsheets read back).
pub fn tsv(rows: &[&RawEntity], columns: &[Column]) -> String {
    let mut out = String::new();
    let mut line = |fields: Vec<String>| {
        let fields: Vec<String> = fields.into_iter().map(|f| tsv_field(&f)).collect();
        out.push_str(&fields.join("\t"));
        out.push('\n');
    };
    let mut head = vec!["PartitionKey".to_string(), "RowKey".to_string()];
    head.extend(columns.iter().map(|c| c.name.clone()));
    line(head);
    for raw in rows {
        let e = super::columns::shown_entity(raw);
        let mut fields = vec![e.partition_key.clone(), e.row_key.clone()];
        fields.extend(columns.iter().map(|c| cell_text(&e, raw, &c.name)));
        line(fields);
    }
    out
}

fn tsv_field(f: &str) -> String {
    if f.contains(['\t', '\n', '\r', '"']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

/// Deletes a grid's chosen rows from its table. A function, not a flag: a module that shows
/// the grid without the sandbox (the Connect section) then links none of the sandbox's writes.
pub type Deleter = fn(&str, &[RawEntity]) -> Deleted;

/// The playground's [`Deleter`]: deletes from the sandbox's table.
pub fn delete_in_sandbox(table: &str, rows: &[RawEntity]) -> Deleted {
    delete_entities(AppState::expect(), table, rows)
}

/// The bar above a grid: the column chooser, how many rows are selected, Copy as TSV, and
/// (with `deletable`) Delete selected with its confirmation.
#[component]
pub fn SelectionBar(
    entities: Signal<Vec<RawEntity>>,
    columns: Signal<Vec<Column>>,
    picks: Picks,
    found: Signal<Vec<Column>>,
    table: Signal<String>,
    id: &'static str,
    deletable: Option<Deleter>,
) -> impl IntoView {
    // Said in the language shown when shown (it follows a switch).
    let status = RwSignal::new(None::<Say>);
    let asking = RwSignal::new(None::<usize>);
    let chosen = move || -> Vec<RawEntity> {
        let idx = picks.indices();
        entities.with_untracked(|all| idx.iter().filter_map(|&i| all.get(i).cloned()).collect())
    };
    let copy = move |_| {
        let rows = chosen();
        if rows.is_empty() {
            status.set(said(msg::grid_pick_first));
            return;
        }
        let n = rows.len();
        let text = tsv(&rows.iter().collect::<Vec<_>>(), &columns.get_untracked());
        let Some(window) = web_sys::window() else {
            return;
        };
        let promise = window.navigator().clipboard().write_text(&text);
        leptos::task::spawn_local(async move {
            status.set(match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(_) => said(move || msg::grid_copied(n)),
                Err(_) => said(msg::grid_copy_refused),
            });
        });
    };
    let ask = move |_| {
        let n = picks.count();
        if n == 0 {
            status.set(said(msg::grid_pick_first));
        } else {
            status.set(None);
            asking.set(Some(n));
            crate::ui::kit::confirm::opened(".grid-confirm .cancel");
        }
    };
    let confirm = move |_| {
        let rows = chosen();
        asking.set(None);
        crate::ui::kit::confirm::closed();
        let Some(delete) = deletable else {
            return;
        };
        let outcome = delete(&table.get_untracked(), &rows);
        status.set(said(move || outcome.say()));
        // The selection is gone with its entities, and with it the button that asked:
        // focus goes to the select-all box, the bar's first control after the chooser.
        crate::ui::kit::dom::focus_first(vec![format!("#{id}-pick-all")]);
    };
    let count = move || picks.count();
    let chooser_open = RwSignal::new(false);
    let on_bar_click = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if target.closest(".columns-toggle").ok().flatten().is_some() {
            let open = !chooser_open.get_untracked();
            chooser_open.set(open);
            set_expanded(id, open);
        } else if let Ok(input) = target.dyn_into::<web_sys::HtmlInputElement>() {
            if input.class_name() == "pick-all" {
                picks.all(input.checked());
            }
        }
    };
    view! {
        // One click handler for the bar's fixed controls, their state set imperatively
        // (see `super::grid_rows`: this bar renders on the start flows).
        <div class="grid-toolbar" on:click=on_bar_click>
            <div class="column-chooser">
                <button
                    type="button"
                    class="columns-toggle"
                    id=format!("{id}-columns-toggle")
                    aria-expanded="false"
                    aria-controls=format!("{id}-columns")
                >
                    {t(msg::grid_columns)}
                </button>
                {chooser_panel(found, table, id, chooser_open)}
            </div>
            <label class="inline-check pick-all-label">
                <input type="checkbox" id=format!("{id}-pick-all") class="pick-all" />
                {t(msg::grid_select_all)}
            </label>
            // The selection's actions show while rows are selected (built then, so their
            // code is not in the page's first download).
            {move || {
                (count() > 0 || asking.with(Option::is_some))
                    .then(|| {
                        view! {
                                <span class="grid-picked" data-testid="grid-picked">
                                    {move || msg::grid_picked(count())}
                                </span>
                                <button type="button" class="copy-tsv" on:click=copy>
                                    {t(msg::grid_copy_tsv)}
                                </button>
                                {deletable
                                    .is_some()
                                    .then(|| {
                                        view! {
                                            <button type="button" class="delete delete-picked" on:click=ask>
                                                {t(msg::grid_delete_picked)}
                                            </button>
                                        }
                                    })}
                        }.into_any()
                    })
            }}
            <span class="status grid-status" role="status">{move || status.get().map(|say| say())}</span>
        </div>
        {move || {
            asking
                .get()
                .map(|n| {
                    view! {
                        <div
                            class="confirm grid-confirm"
                            role="group"
                            aria-label=t(msg::grid_delete_picked)
                            on:keydown=move |ev| {
                                if ev.key() == "Escape" {
                                    ev.prevent_default();
                                    asking.set(None);
        crate::ui::kit::confirm::closed();
                                }
                            }
                        >
                            <p class="confirm-question">{move || msg::grid_delete_question(n)}</p>
                            <button type="button" class="danger confirm-delete-picked" on:click=confirm>
                                {move || msg::grid_delete_yes(n)}
                            </button>
                            <button
                                type="button"
                                class="cancel"
                                on:click=move |_| {
                                    asking.set(None);
                                    crate::ui::kit::confirm::closed();
                                }
                            >
                                {t(msg::tables_cancel)}
                            </button>
                        </div>
                    }.into_any()
                })
        }}
    }
}

/// Deletes `rows` from `table` one by one, each with its ETag as If-Match, as the service
/// would have to (a batch holds one partition; a selection may span several). Stops at the
/// first failure; says exactly how many were deleted.
fn delete_entities(state: AppState, table: &str, rows: &[RawEntity]) -> Deleted {
    let mut deleted = 0_usize;
    for raw in rows {
        let (pk, rk, etag) = model::keys_of(raw);
        let response = state.write(&Request::Delete {
            table: table.to_string(),
            partition_key: pk.clone(),
            row_key: rk.clone(),
            if_match: Some(etag.unwrap_or_else(|| "*".into())),
        });
        if let Some(e) = response.error {
            let why = format!("{} {}: {}", e.status(), e.code, e.message);
            return Deleted {
                deleted,
                stopped: Some((why, pk, rk)),
            };
        }
        deleted += 1;
    }
    Deleted {
        deleted,
        stopped: None,
    }
}

/// What a delete of the chosen rows did: how many it deleted, and where it stopped (the
/// service's error, as API text, and the keys), said when shown.
pub struct Deleted {
    deleted: usize,
    stopped: Option<(String, String, String)>,
}

impl Deleted {
    fn say(&self) -> String {
        match &self.stopped {
            Some((why, pk, rk)) => format!(
                "{} {}",
                msg::grid_deleted(self.deleted),
                msg::grid_delete_stopped(why, pk, rk)
            ),
            None => msg::grid_deleted(self.deleted),
        }
    }
}

//! The query panel: a builder for point, partition and table queries kept in sync with the raw
//! `$filter` (both ways, where the filter allows it), `$select`, `$top`, the page budget, and
//! runs page by page with each continuation token shown.

use crate::engine::{Continuation, Error, RawEntity, Request};
use crate::i18n::{msg, t};
use crate::ui::kit::dom::{after_paint, now};
use crate::ui::kit::fields::TextField;
use crate::ui::state::workspace::runs::{Run, RunPage};
use crate::ui::state::workspace::{QueryOptions, Workspace};
use crate::ui::state::AppState;
use crate::ui::text::target_text::service_name;
use crate::ui::widgets::entity_grid::{columns_of, EntityGrid};
use crate::ui::widgets::entity_view::{token_text, EntityView};
use crate::ui::widgets::error_notice::ErrorNotice;
use crate::ui::widgets::results::{History, ScanMeter};
use leptos::prelude::*;

mod run_map;
use crate::ui::widgets::filter_editor::{editor_view, EditorIds, FilterEditor};
use run_map::{RunMap, RunMapState};

/// The Query section's editor ids (`editor::EditorIds`).
const QUERY_IDS: EditorIds = EditorIds {
    kind: "query-kind",
    partition_key: "q-pk",
    row_key: "q-rk",
    row_prefix: "q-prefix",
    raw: "raw-filter",
    raw_hint: "raw-filter-hint",
};

/// Builder, raw editor, options, runs and their figures.
#[component]
pub fn QueryPanel() -> impl IntoView {
    let state = AppState::expect();
    let workspace = Workspace::expect();
    let raw = workspace.filter;
    let editor = FilterEditor::new(raw, workspace);
    let QueryOptions {
        select,
        top,
        budget,
        history,
    } = workspace.query;
    let error = RwSignal::new(None::<Error>);
    let problems = RwSignal::new(Vec::<String>::new());
    let current = RwSignal::new(None::<u64>);
    let entities = RwSignal::new(Vec::<RawEntity>::new());
    let next = RwSignal::new(None::<Continuation>);
    let selected_row = RwSignal::new(None::<usize>);
    let run_map = RunMapState::new();

    let load_filter = move |text: String| editor.load(text);

    crate::ui::state::code_link::CodeLink::expect().register_query_fields(
        crate::ui::state::code_link::QueryFields {
            select,
            top,
            load_filter: Callback::new(load_filter),
        },
    );

    // The first page's request: "Next page" continues exactly this query, even if the
    // editor has changed since.
    let last_query = StoredValue::new(None::<Request>);
    // The request of the page shown ("Show as code" writes it, with its continuation).
    let shown_query = StoredValue::new(None::<Request>);
    // The query run on both services ("Compare with the other service"), until the next run.
    let compared = RwSignal::new(None::<[crate::ui::widgets::target_compare::Side; 2]>);
    let run_page = move |continuation: Option<Continuation>| {
        compared.set(None);
        let mut request = match continuation.clone() {
            Some(c) => {
                let Some(mut r) = last_query.get_value() else {
                    return;
                };
                let Request::Query {
                    continuation: at, ..
                } = &mut r
                else {
                    return;
                };
                *at = Some(c);
                r
            }
            None => match first_page_request(workspace, raw, select, top, budget) {
                Ok(r) => {
                    last_query.set_value(Some(r.clone()));
                    r
                }
                Err(p) => {
                    problems.set(p);
                    return;
                }
            },
        };
        problems.set(Vec::new());
        let traced = run_map.tracing();
        if let Request::Query { trace, .. } = &mut request {
            *trace = traced;
        }
        let (table, filter_text) = match &request {
            Request::Query { table, filter, .. } => {
                (table.clone(), filter.clone().unwrap_or_default())
            }
            _ => return,
        };
        shown_query.set_value(Some(request.clone()));
        let started = now();
        let response = state.read(&request);
        if let Some(e) = response.error {
            error.set(Some(e));
            if continuation.is_none() {
                // The shown pages belong to an earlier query: do not continue it with this one.
                next.set(None);
            }
            return;
        }
        error.set(None);
        // The map, before the page's entities move into the grid.
        if traced {
            run_map.record(state, &request, &response, continuation.is_none());
        } else {
            run_map.clear();
        }
        let stats = response.stats;
        let page = RunPage {
            scanned: stats.map_or(0, |s| s.scanned),
            returned: stats.map_or(0, |s| s.returned),
            partitions: stats.map_or(0, |s| s.partitions),
            continues_partition: stats.is_some_and(|s| s.continues_partition),
            token: response.continuation.as_ref().map(token_text),
            ru: response.ru.and_then(|ru| ru.value),
        };
        let kind = stats
            .map(|s| s.kind.label().to_string())
            .unwrap_or_default();
        // The grid shows the JSON form: built here, for the page it shows.
        let page_entities: Vec<RawEntity> = response
            .entities
            .iter()
            .flatten()
            .map(|e| e.to_raw())
            .collect();
        match (continuation, current.get_untracked()) {
            (Some(_), Some(id)) => history.update(|h| {
                if let Some(run) = h.iter_mut().find(|r| r.id == id) {
                    run.pages.push(page);
                }
            }),
            _ => {
                let id = workspace.next_id();
                history.update(|h| {
                    h.push(Run {
                        id,
                        table,
                        filter: filter_text,
                        kind,
                        explain: response.explain,
                        pages: vec![page],
                        render_ms: None,
                    })
                });
                current.set(Some(id));
            }
        }
        selected_row.set(None);
        entities.set(page_entities);
        next.set(response.continuation);
        let id = current.get_untracked();
        after_paint(move || {
            show_results();
            let ms = now() - started;
            history.update(|h| {
                if let Some(run) = h.iter_mut().find(|r| Some(r.id) == id) {
                    run.render_ms = Some(ms);
                }
            })
        });
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run_page(None);
        }
    };
    let load_rewrite = Callback::new(move |text: String| {
        load_filter(text);
        crate::ui::kit::dom::focus("#raw-filter");
    });
    let current_run = move || {
        let id = current.get();
        history.with(|h| h.iter().find(|r| Some(r.id) == id).cloned())
    };

    view! {
        <section class="panel query-panel" aria-labelledby="query-heading" on:keydown=on_key>
            <h2 id="query-heading">
                {move || match workspace.table.get() {
                    Some(table) => msg::query_heading_table(&table),
                    None => msg::query_heading(),
                }}
            </h2>
            // Through a pointer: inlined, the editor's views would be built in the function that
            // draws the sections, which runs at start, so its code would be in the primary wasm.
            {std::hint::black_box(editor_view as fn(FilterEditor, EditorIds) -> AnyView)(editor, QUERY_IDS)}
            <div class="query-options">
                <TextField id="q-select" label=|| "$select".to_string() placeholder=|| "Name, Age".to_string() value=select on_input=Callback::new(move |v| select.set(v)) />
                <TextField id="q-top" label=|| "$top".to_string() placeholder=|| "1000".to_string() value=top on_input=Callback::new(move |v| top.set(v)) />
                <TextField id="q-budget" label=msg::query_budget placeholder=msg::query_budget_unlimited value=budget on_input=Callback::new(move |v| budget.set(v)) />
            </div>
            <p class="hint">
                {t(msg::query_budget_hint)}
            </p>
            <div class="editor-actions">
                <button type="button" class="primary run-query" on:click=move |_| run_page(None)>
                    {t(msg::query_run)}
                </button>
                <button
                    type="button"
                    class="next-page"
                    hidden=move || next.with(Option::is_none)
                    on:click=move |_| run_page(next.get_untracked())
                >
                    {t(msg::query_next_page)}
                </button>
            </div>
            <ul class="form-problems" role="alert" hidden=move || problems.with(Vec::is_empty)>
                {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
            <ErrorNotice error=error />
            <crate::ui::widgets::show_code::ShowCode
                what="query"
                request=Callback::new(move |()| match shown_query.get_value() {
                    Some(r) => Ok(r),
                    None => first_page_request(workspace, raw, select, top, budget).map_err(|p| p.join(" ")),
                })
            />
            <button
                type="button"
                class="compare-targets"
                on:click=move |_| {
                    let request = match last_query.get_value() {
                        Some(r) => Ok(r),
                        None => first_page_request(workspace, raw, select, top, budget),
                    };
                    match request {
                        Ok(r) => {
                            problems.set(Vec::new());
                            compared.set(crate::ui::widgets::target_compare::compare(state, &r));
                        }
                        Err(p) => problems.set(p),
                    }
                }
            >
                {move || {
                    let other = state.inspect(|a| a.target().other()).unwrap_or_default();
                    msg::compare_targets_button(service_name(other))
                }}
            </button>
        </section>
        {move || compared.get().map(|sides| view! { <crate::ui::widgets::target_compare::TargetCompare sides=sides /> })}
        {move || current_run().map(|run| view! { <ScanMeter run=run on_rewrite=load_rewrite /> })}
        <div hidden=move || current.get().is_none()>
            <RunMap map=run_map />
        </div>
            <section class="panel results" aria-label=t(msg::query_results) hidden=move || current.get().is_none()>
                <p class="results-count">
                    {move || {
                        let n = entities.with(Vec::len);
                        let pages = current_run().map_or(0, |r| r.pages.len());
                        msg::query_results_count(n, crate::i18n::number(pages))
                    }}
                </p>
                <p class="placeholder" hidden=move || !entities.with(Vec::is_empty)>{t(msg::query_page_empty)}</p>
                <div hidden=move || entities.with(Vec::is_empty)>
                    <EntityGrid
                        entities=entities
                        found=Signal::derive(move || entities.with(|e| columns_of(e)))
                        table=Signal::derive(move || current_run().map(|r| r.table).unwrap_or_default())
                        selected=selected_row
                        label=msg::query_results
                        id="results"
                    />
                </div>
                {move || {
                    selected_row
                        .get()
                        .and_then(|i| entities.with(|e| e.get(i).cloned()))
                        .map(|raw| {
                            let projected = matches!(
                                last_query.get_value(),
                                Some(Request::Query { select: Some(_), .. })
                            );
                            view! { <EntityView raw=raw projected=projected /> }
                        })
                }}
            </section>
        <History history=history />
    }
}

/// Scrolls the query's results into view after a run, as little as needed (`block:
/// "nearest"`): results shorter than the window end at its bottom edge, with as much of the
/// scan meter above them as fits; longer ones start at its top edge. Either way their first
/// row is in view.
fn show_results() {
    use wasm_bindgen::JsValue;
    let Some(results) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("#section-query .results").ok().flatten())
    else {
        return;
    };
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"block".into(), &"nearest".into());
    if let Ok(scroll) = js_sys::Reflect::get(&results, &"scrollIntoView".into()) {
        if let Some(scroll) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&scroll) {
            let _ = scroll.call1(&JsValue::from(&results), &options);
        }
    }
}

/// The request for a query's first page from the editor's fields, or what is wrong with them.
fn first_page_request(
    workspace: Workspace,
    raw: RwSignal<String>,
    select: RwSignal<String>,
    top: RwSignal<String>,
    budget: RwSignal<String>,
) -> Result<Request, Vec<String>> {
    let Some(table) = workspace.table.get_untracked() else {
        return Err(vec![msg::query_select_table_first()]);
    };
    let mut p = Vec::new();
    let top_value = parse_opt::<u32>(&top.get_untracked(), "$top", &mut p);
    let budget_value = parse_opt::<u64>(&budget.get_untracked(), &msg::query_budget(), &mut p);
    if !p.is_empty() {
        return Err(p);
    }
    let filter_text = raw.get_untracked();
    Ok(Request::Query {
        table,
        filter: (!filter_text.trim().is_empty()).then_some(filter_text),
        select: select_list(&select.get_untracked()),
        top: top_value,
        continuation: None,
        page_budget: budget_value,
        trace: false,
    })
}

/// A `$select` field's names (comma-separated, blanks dropped); `None` when it names none.
pub(crate) fn select_list(text: &str) -> Option<Vec<String>> {
    let names: Vec<String> = text
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    (!names.is_empty()).then_some(names)
}

/// An optional number field: `None` when blank; a problem when not a number.
pub(crate) fn parse_opt<T: std::str::FromStr>(
    text: &str,
    what: &str,
    problems: &mut Vec<String>,
) -> Option<T> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    match t.parse() {
        Ok(v) => Some(v),
        Err(_) => {
            problems.push(msg::query_whole_number(what));
            None
        }
    }
}

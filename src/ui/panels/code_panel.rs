//! The Code section: official `@azure/data-tables` code run against the user's
//! own tables, with its console output and every HTTP request it made.
//!
//! The editor (CodeMirror) and the sandbox runner are JavaScript (www/code/, bundled by
//! scripts/bundle-code.mjs) imported the first time the section is shown; this panel is built
//! then too (`SectionPanel` in app.rs), so none of it runs at start. The code runs in a Web
//! Worker whose only way to the tables is the in-page transport (src/ui/state/wire_bridge.rs): its
//! writes go through the app state, so the other sections show them at once.
//!
//! Invariants: one run at a time; a run's output is shown only while it is the latest run; a
//! run never outlives its time limit (the runner terminates its worker).

pub(crate) mod output;
pub(crate) mod runtime;
pub(crate) mod snippets;

use crate::i18n::{self, msg, t};
use crate::ui::state::code_link;
use crate::ui::state::navigation::{Navigation, Section};
use crate::ui::state::workspace::Workspace;
use leptos::prelude::*;
use leptos::task::spawn_local;
use output::{ConsoleView, Exchange, LogLine, WireLog};
use runtime::{Bundle, Editor, Run};
use serde_json::Value;
use snippets::Snippet;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// Where the editor text is kept across reloads.
const SAVED_KEY: &str = "tablescope.code";
/// The default time limit, in seconds.
const DEFAULT_LIMIT_S: &str = "5";
/// How often a run's output reaches the view (a run of 1,000 requests renders ~10 times a
/// second, not 1,000 times).
const FLUSH_EVERY: Duration = Duration::from_millis(100);

const STARTER: &str = r#"// Your tables, through the official @azure/data-tables SDK. Ctrl+Enter (⌘+Enter) runs.
const employees = tableClient("Employees");
await employees.createTable();
await employees.upsertEntity({ partitionKey: "Sales", rowKey: "001", Name: "Ada", Age: 36 });
for await (const e of employees.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"Sales"}` } })) {
  console.log(e.rowKey, e);
}
"#;

/// How a run ended (the docs embed's code cell shows it too, `ui::cell`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    Done { ms: f64 },
    Failed { line: Option<u64>, text: String },
    TimedOut { limit_s: f64 },
    Stopped,
}

impl Outcome {
    pub(crate) fn from_json(v: &Value, limit_s: f64) -> Outcome {
        match v["status"].as_str() {
            Some("done") => Outcome::Done {
                ms: v["ms"].as_f64().unwrap_or(0.0),
            },
            Some("timeout") => Outcome::TimedOut { limit_s },
            Some("stopped") => Outcome::Stopped,
            _ => {
                let e = &v["error"];
                let mut text = format!(
                    "{}: {}",
                    e["name"].as_str().unwrap_or("Error"),
                    e["message"].as_str().unwrap_or_default()
                );
                let status = e["status"].as_u64();
                let code = e["code"].as_str();
                if status.is_some() || code.is_some() {
                    let parts: Vec<String> = status
                        .map(|s| s.to_string())
                        .into_iter()
                        .chain(code.map(String::from))
                        .collect();
                    text.push_str(&format!(" ({})", parts.join(" ")));
                }
                Outcome::Failed {
                    line: e["line"].as_u64(),
                    text,
                }
            }
        }
    }

    /// The outcome in words, in the current language.
    pub(crate) fn message(&self) -> String {
        match self {
            Outcome::Done { ms } => msg::code_done(i18n::number(ms.round())),
            Outcome::TimedOut { limit_s } => msg::code_timeout(i18n::number(*limit_s)),
            Outcome::Stopped => msg::code_stopped(),
            Outcome::Failed {
                line: Some(n),
                text,
            } => msg::code_error_line(n.to_string(), text),
            Outcome::Failed { line: None, text } => text.clone(),
        }
    }

    /// The class that styles it (`code-done`, `code-error`, …).
    pub(crate) fn class(&self) -> &'static str {
        match self {
            Outcome::Done { .. } => "code-done",
            Outcome::TimedOut { .. } => "code-timeout",
            Outcome::Stopped => "code-stopped",
            Outcome::Failed { .. } => "code-error",
        }
    }
}

/// Output that arrived since the view last showed it.
#[derive(Default)]
struct Pending {
    lines: Vec<Arc<LogLine>>,
    exchanges: Vec<Arc<Exchange>>,
    next_id: usize,
    scheduled: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Load {
    Loading,
    Ready,
    Failed(String),
}

fn saved_text() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(SAVED_KEY).ok()?
}

fn save_text(text: &str) {
    if let Some(Ok(Some(storage))) = web_sys::window().map(|w| w.local_storage()) {
        // A full or refused storage only means the text is not kept.
        let _ = storage.set_item(SAVED_KEY, text);
    }
}

/// The longest time limit, in seconds: an hour (and well under the 2^31 ms a browser's timer
/// can wait; a longer wait fires at once).
pub(crate) const MAX_LIMIT_S: f64 = 3600.0;

/// The time limit in seconds, from the field (blank or not a positive number: the default;
/// over [`MAX_LIMIT_S`]: that).
pub(crate) fn limit_seconds(text: &str) -> f64 {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(5.0, |s| s.min(MAX_LIMIT_S))
}

/// The section's panel, for `SectionPanel` (app.rs), which calls it through a pointer:
/// `app::panel` runs at start (for the entities), and wasm-split keeps whole functions, so
/// code inlined into it would load with the page although only the Code section runs it.
pub fn panel() -> AnyView {
    view! { <CodePanel /> }.into_any()
}

/// The Code section: editor, run controls, snippets, console and wire log.
#[component]
pub fn CodePanel() -> impl IntoView {
    let workspace = Workspace::expect();
    let section = Navigation::expect();
    let link = code_link::CodeLink::expect();
    let load = RwSignal::new(Load::Loading);
    let bundle = StoredValue::new_local(None::<Bundle>);
    let editor = StoredValue::new_local(None::<Editor>);
    let current = StoredValue::new_local(None::<Rc<Run>>);
    let running = RwSignal::new(false);
    let limit = RwSignal::new(DEFAULT_LIMIT_S.to_string());
    let outcome = RwSignal::new(None::<Outcome>);
    // Runs started so far (the outcome names its run, so a reader can tell two runs apart).
    let runs = RwSignal::new(0u32);
    let lines = RwSignal::new(Vec::<Arc<LogLine>>::new());
    let exchanges = RwSignal::new(Vec::<Arc<Exchange>>::new());
    let snippet_list = RwSignal::new(Vec::<Snippet>::new());
    let snippet_error = RwSignal::new(None::<String>);
    let host = NodeRef::<leptos::html::Div>::new();

    let run = move || {
        if running.get_untracked() {
            return;
        }
        let (Some(b), Some(ed)) = (bundle.get_value(), editor.get_value()) else {
            return;
        };
        let limit_s = limit_seconds(&limit.get_untracked());
        lines.set(Vec::new());
        exchanges.set(Vec::new());
        outcome.set(None);
        runs.update(|n| *n += 1);
        let pending = Rc::new(RefCell::new(Pending::default()));
        let flush = {
            let pending = pending.clone();
            move || {
                let (new_lines, new_exchanges) = {
                    let mut p = pending.borrow_mut();
                    p.scheduled = false;
                    (
                        std::mem::take(&mut p.lines),
                        std::mem::take(&mut p.exchanges),
                    )
                };
                if !new_lines.is_empty() {
                    lines.try_update(|l| l.extend(new_lines));
                }
                if !new_exchanges.is_empty() {
                    exchanges.try_update(|x| x.extend(new_exchanges));
                }
            }
        };
        let schedule = {
            let pending = pending.clone();
            let flush = flush.clone();
            move || {
                let mut p = pending.borrow_mut();
                if !p.scheduled {
                    p.scheduled = true;
                    set_timeout(flush.clone(), FLUSH_EVERY);
                }
            }
        };
        let on_log = {
            let (pending, schedule) = (pending.clone(), schedule.clone());
            move |v: Value| {
                {
                    let mut p = pending.borrow_mut();
                    let id = p.next_id;
                    p.next_id += 1;
                    p.lines.push(Arc::new(LogLine::from_json(id, &v)));
                }
                schedule();
            }
        };
        let on_exchange = {
            let pending = pending.clone();
            move |v: Value| {
                {
                    let mut p = pending.borrow_mut();
                    let id = p.next_id;
                    p.next_id += 1;
                    p.exchanges.push(Arc::new(Exchange::from_json(id, &v)));
                }
                schedule();
            }
        };
        match b.run(&ed.text(), limit_s * 1000.0, None, on_log, on_exchange) {
            Ok(r) => {
                let r = Rc::new(r);
                current.set_value(Some(r.clone()));
                running.set(true);
                spawn_local(async move {
                    let settled = r.settled().await;
                    flush();
                    outcome.try_set(Some(Outcome::from_json(&settled, limit_s)));
                    running.try_set(false);
                    current.try_set_value(None);
                });
            }
            Err(e) => outcome.set(Some(Outcome::Failed {
                line: None,
                text: e,
            })),
        }
    };
    let stop = move || {
        if let Some(r) = current.get_value() {
            r.stop();
        }
    };

    // Load the bundle and make the editor, once the host is on the page (runs once).
    Effect::new(move |_| {
        spawn_local(async move {
            let made = async {
                let b = Bundle::load().await?;
                let element = host.get_untracked().ok_or("the page is closing")?;
                let text = Some(std::mem::take(&mut *link.to_open.write()))
                    .filter(|t| !t.is_empty())
                    .or_else(|| code_link::take_code_in_address().inspect(|t| save_text(t)))
                    .or_else(saved_text)
                    .unwrap_or_else(|| STARTER.to_string());
                let ed =
                    b.create_editor(&element, &text, &msg::code_editor_label(), run, |text| {
                        save_text(&text)
                    })?;
                bundle.set_value(Some(b));
                editor.set_value(Some(ed));
                Ok::<_, String>(())
            };
            load.try_set(match made.await {
                Ok(()) => Load::Ready,
                Err(e) => Load::Failed(e),
            });
        });
        spawn_local(async move {
            match snippets::index().await {
                Ok(list) => {
                    snippet_list.try_set(list);
                }
                Err(e) => {
                    snippet_error.try_set(Some(e));
                }
            }
        });
    });
    // "Open in Code section" from a show-as-code panel: the text replaces the editor's.
    Effect::new(move |_| {
        let ready = load.get() == Load::Ready;
        let text = link.to_open.get();
        if ready && !text.is_empty() {
            if let Some(ed) = editor.get_value() {
                ed.set_text(&text);
                save_text(&text);
                link.to_open.set(String::new());
                ed.focus();
            }
        }
    });
    let choose_snippet = move |ev: leptos::ev::Event| {
        let file = event_target_value(&ev);
        let Some(snippet) =
            snippet_list.with_untracked(|l| l.iter().find(|s| s.file == file).cloned())
        else {
            return;
        };
        spawn_local(async move {
            match snippets::text(&snippet).await {
                Ok(text) => {
                    if let Some(ed) = editor.get_value() {
                        ed.set_text(&text);
                        save_text(&text);
                    }
                    snippet_error.try_set(None);
                }
                Err(e) => {
                    snippet_error.try_set(Some(e));
                }
            }
        });
    };
    let open_query = Callback::new(move |x: Arc<Exchange>| {
        let Some(q) = OpenedQuery::from_url(&x.url) else {
            return;
        };
        workspace.table.set(Some(q.table));
        // A panel built from here on reads the filter into its builder as it starts.
        workspace.filter.set(q.filter.clone());
        section.set(Section::Query);
        // The query panel is built the first time its section shows: its fields may only
        // exist once the section has rendered. A panel already built loads the filter into
        // its builder too.
        let fill = move || match link.query_fields() {
            Some(fields) => {
                fields.load_filter.run(q.filter.clone());
                fields.select.set(q.select.clone());
                fields.top.set(q.top.clone());
                true
            }
            None => false,
        };
        if !fill() {
            request_animation_frame(move || {
                fill();
            });
        }
    });

    view! {
        <section class="panel code-panel" aria-labelledby="code-heading">
            <h2 id="code-heading">{t(msg::nav_code)}</h2>
            <p class="hint">{t(msg::code_intro)}</p>
            <div class="code-toolbar">
                <div class="field">
                    <label for="code-snippet">{t(msg::code_snippet)}</label>
                    <select id="code-snippet" on:change=choose_snippet>
                        <option value="" selected>"—"</option>
                        {move || {
                            snippet_list
                                .get()
                                .into_iter()
                                .map(|s| {
                                    let (name, summary) = (s.name.clone(), s.summary.clone());
                                    view! {
                                        <option value=s.file.clone() title=move || summary.get()>
                                            {move || name.get()}
                                        </option>
                                    }
                                })
                                .collect_view()
                        }}
                    </select>
                </div>
                <div class="field code-limit-field">
                    <label for="code-limit">{t(msg::code_limit)}</label>
                    <input
                        id="code-limit"
                        type="number"
                        min="0.1"
                        step="0.5"
                        dir="ltr"
                        prop:value=move || limit.get()
                        on:input=move |ev| limit.set(event_target_value(&ev))
                    />
                </div>
                <div class="editor-actions">
                    <button
                        type="button"
                        class="primary run-code"
                        prop:disabled=move || running.get() || load.get() != Load::Ready
                        on:click=move |_| run()
                    >
                        {t(msg::code_run)}
                    </button>
                    <button type="button" class="stop-code" prop:disabled=move || !running.get() on:click=move |_| stop()>
                        {t(msg::code_stop)}
                    </button>
                </div>
            </div>
            {move || snippet_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            {move || match load.get() {
                Load::Loading => Some(view! { <p class="hint code-loading" role="status">{t(msg::code_loading)}</p> }.into_any()),
                Load::Failed(e) => Some(
                    view! { <p class="error-notice code-load-failed" role="alert">{move || msg::code_load_failed(&e)}</p> }.into_any(),
                ),
                Load::Ready => None,
            }}
            <div class="code-editor" dir="ltr" node_ref=host></div>
            <p class="hint">{t(msg::code_run_hint)}</p>
            <p class="code-outcome" role="status" aria-live="polite" data-run=move || runs.get()>
                {move || running.get().then(msg::code_running)}
                {move || outcome.get().map(outcome_view)}
            </p>
        </section>
        <div class="code-output">
            <ConsoleView lines=lines />
            <WireLog exchanges=exchanges open_query=open_query />
        </div>
    }
}

fn outcome_view(o: Outcome) -> AnyView {
    let class = o.class();
    let line = match &o {
        Outcome::Failed { line, .. } => *line,
        _ => None,
    };
    let alert = matches!(o, Outcome::Failed { .. } | Outcome::TimedOut { .. }).then_some("alert");
    view! { <span class=class role=alert data-line=line>{move || o.message()}</span> }.into_any()
}

/// A query's table and options, read back from the URL the SDK sent.
#[derive(Debug, Clone, PartialEq)]
struct OpenedQuery {
    table: String,
    filter: String,
    select: String,
    top: String,
}

impl OpenedQuery {
    fn from_url(url: &str) -> Option<OpenedQuery> {
        let url = web_sys::Url::new(url).ok()?;
        let path = url.pathname();
        let last = js_sys::decode_uri_component(path.rsplit('/').next()?)
            .ok()?
            .as_string()?;
        let params = url.search_params();
        let param = |n: &str| params.get(n).unwrap_or_default();
        // `T()` or `T`: a query of the table, with its `$filter` (only queries carry figures,
        // so only they offer to open).
        let table = last.strip_suffix("()").unwrap_or(&last).to_string();
        if table.is_empty() || table.contains('(') || table.starts_with('$') {
            return None;
        }
        Some(OpenedQuery {
            table,
            filter: param("$filter"),
            select: param("$select").replace(',', ", "),
            top: param("$top"),
        })
    }
}

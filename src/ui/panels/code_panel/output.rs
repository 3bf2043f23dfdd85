//! What a run shows: console lines (objects as expandable JSON) and the wire log (every HTTP
//! exchange the SDK made). All of it is the user's data: rendered as text, never as HTML.

use crate::i18n::{self, msg, t};
use crate::ui::widgets::ru::RuEstimate;
use leptos::prelude::*;
use serde_json::Value;
use std::sync::Arc;

/// One logged value: a string as written, anything else as JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum Logged {
    Text(String),
    Json(Value),
}

/// One `console.*` call.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    pub id: usize,
    pub level: String,
    pub values: Vec<Logged>,
}

impl LogLine {
    /// `{level, values: [{text} | {json}]}` as www/code/worker.js posts it; the runner's
    /// summary of lines past its cap (`{omitted: n, …}`) is said in the page's language.
    pub fn from_json(id: usize, v: &Value) -> LogLine {
        if let Some(n) = v["omitted"].as_u64() {
            return LogLine {
                id,
                level: "info".to_string(),
                values: vec![Logged::Text(msg::code_lines_omitted(n))],
            };
        }
        let values = v["values"]
            .as_array()
            .map(|values| {
                values
                    .iter()
                    .map(|x| match x.get("text").and_then(Value::as_str) {
                        Some(s) => Logged::Text(s.to_string()),
                        None => Logged::Json(x.get("json").cloned().unwrap_or(Value::Null)),
                    })
                    .collect()
            })
            .unwrap_or_default();
        LogLine {
            id,
            level: v["level"].as_str().unwrap_or("log").to_string(),
            values,
        }
    }
}

/// A query's figures, as the engine reported them.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryFigures {
    pub kind: String,
    pub scanned: u64,
    pub returned: u64,
}

/// One HTTP request of the SDK and the engine's answer (bodies as text).
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub id: usize,
    pub method: String,
    pub url: String,
    pub request_headers: Vec<(String, String)>,
    pub request_body: String,
    pub status: u16,
    pub response_headers: Vec<(String, String)>,
    pub response_body: String,
    pub query: Option<QueryFigures>,
    /// On a Cosmos DB for Table account: the answer's estimated request units.
    pub ru: Option<f64>,
}

fn headers(v: &Value) -> Vec<(String, String)> {
    let pair = |p: &Value| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string()));
    match v {
        Value::Array(pairs) => pairs.iter().filter_map(pair).collect(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

impl Exchange {
    /// `{request, response, stats, ru}` as www/code/runner.js hands it over.
    pub fn from_json(id: usize, v: &Value) -> Exchange {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        let stats = &v["stats"];
        Exchange {
            id,
            method: text(&v["request"]["method"]),
            url: text(&v["request"]["url"]),
            request_headers: headers(&v["request"]["headers"]),
            request_body: text(&v["request"]["body"]),
            status: v["response"]["status"].as_u64().unwrap_or(0) as u16,
            response_headers: headers(&v["response"]["headers"]),
            response_body: text(&v["response"]["body"]),
            query: stats.is_object().then(|| QueryFigures {
                kind: text(&stats["kind"]),
                scanned: stats["scanned"].as_u64().unwrap_or(0),
                returned: stats["returned"].as_u64().unwrap_or(0),
            }),
            ru: v["ru"].as_f64(),
        }
    }

    /// The URL with its percent-escapes decoded, for reading (the exact URL is in the details).
    pub fn readable_url(&self) -> String {
        js_sys::decode_uri_component(&self.url)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_else(|| self.url.clone())
    }
}

/// The console: one line per call, values separated by spaces.
#[component]
pub fn ConsoleView(lines: RwSignal<Vec<Arc<LogLine>>>) -> impl IntoView {
    view! {
        <section class="code-console" aria-labelledby="code-console-heading">
            <h3 id="code-console-heading">{t(msg::code_console)}</h3>
            <ol class="console-lines" dir="ltr">
                <For each=move || lines.get() key=|l| l.id let:line>
                    <li class=format!("console-line log-{}", line.level)>
                        {line
                            .values
                            .iter()
                            .map(|v| match v {
                                Logged::Text(s) => view! { <span class="log-text">{s.clone()}</span> }.into_any(),
                                Logged::Json(v) => json_tree(v, true),
                            })
                            .collect_view()}
                    </li>
                </For>
            </ol>
        </section>
    }
}

/// A short one-line form of a JSON value (the summary of its expandable view).
pub fn preview(v: &Value, room: usize) -> String {
    let mut s = match v {
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(|x| preview(x, 20)).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, x)| format!("{k}: {}", preview(x, 20)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        other => other.to_string(),
    };
    if s.chars().count() > room {
        s = s.chars().take(room).collect::<String>() + "…";
    }
    s
}

/// An object's members or an array's items (named by index), in order; `None` for a
/// primitive. The console's tree shows these under a value's summary.
pub fn members(v: &Value) -> Option<Vec<(String, &Value)>> {
    match v {
        Value::Array(items) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, x)| (i.to_string(), x))
                .collect(),
        ),
        Value::Object(map) => Some(map.iter().map(|(k, x)| (k.clone(), x)).collect()),
        _ => None,
    }
}

/// The CSS class of a primitive's JSON text (output.css colours them).
pub fn primitive_class(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "json-string",
        Value::Number(_) => "json-number",
        _ => "json-literal",
    }
}

/// A JSON value: a primitive as its JSON text, an object or array as a `<details>` whose
/// members expand (the outermost open). The code cell builds the same tree without Leptos
/// (`ui::cell::json_tree`).
pub fn json_tree(v: &Value, open: bool) -> AnyView {
    let Some(members) = members(v) else {
        return view! { <span class=primitive_class(v)>{v.to_string()}</span> }.into_any();
    };
    view! {
        <details class="json-tree" open=open>
            <summary>{preview(v, 80)}</summary>
            <ul>
                {members
                    .into_iter()
                    .map(|(k, x)| {
                        view! {
                            <li>
                                <span class="json-key">{format!("{k}: ")}</span>
                                {json_tree(x, false)}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </details>
    }
    .into_any()
}

/// How many wire log entries are rendered before "Show all".
const WIRE_SHOWN: usize = 200;

/// The wire log: each exchange as method, URL, status (and a query's kind and figures), its
/// headers and bodies in a `<details>` built when first opened. `open_query` opens a query's
/// exchange in the Query section.
#[component]
pub fn WireLog(
    exchanges: RwSignal<Vec<Arc<Exchange>>>,
    open_query: Callback<Arc<Exchange>>,
) -> impl IntoView {
    // Entries rendered: the first WIRE_SHOWN, all once asked (a run of 1,000 requests then
    // costs the page 1,000 list entries only when someone wants to read them).
    let shown = RwSignal::new(WIRE_SHOWN);
    view! {
        <section class="wire-log" aria-labelledby="wire-log-heading">
            <h3 id="wire-log-heading">
                {t(msg::code_wire_log)}
                " "
                <span class="wire-count">{move || i18n::number(exchanges.with(Vec::len))}</span>
            </h3>
            <ol class="wire-entries">
                <For
                    each=move || exchanges.with(|x| x.iter().take(shown.get()).cloned().collect::<Vec<_>>())
                    key=|x| x.id
                    let:x
                >
                    <WireEntry x=x open_query=open_query />
                </For>
            </ol>
            <button
                type="button"
                class="wire-show-all"
                hidden=move || exchanges.with(Vec::len) <= shown.get()
                on:click=move |_| shown.set(usize::MAX)
            >
                {move || msg::code_wire_show_all(i18n::number(exchanges.with(Vec::len)))}
            </button>
        </section>
    }
}

#[component]
fn WireEntry(x: Arc<Exchange>, open_query: Callback<Arc<Exchange>>) -> impl IntoView {
    let opened = RwSignal::new(false);
    let status_class = if x.status >= 400 {
        "wire-status failed"
    } else {
        "wire-status"
    };
    let figures = x.query.clone().map(|q| {
        let kind = q.kind.clone();
        view! {
            <span class="wire-query" data-kind=q.kind.clone() data-scanned=q.scanned data-returned=q.returned>
                {move || msg::code_wire_figures(crate::ui::text::explain_text::kind_name(&kind), i18n::number(q.returned), i18n::number(q.scanned))}
            </span>
        }
    });
    let ru = x.ru.map(|ru| {
        view! {
            <span class="wire-ru" data-ru=ru>{move || msg::code_wire_ru(i18n::number(ru))}</span>
        }
    });
    let open_button = x.query.is_some().then(|| {
        let x = x.clone();
        view! {
            <button type="button" class="wire-open-query" on:click=move |_| open_query.run(x.clone())>
                {t(msg::code_wire_open_query)}
            </button>
        }
    });
    let details = {
        let x = x.clone();
        move || opened.get().then(|| exchange_details(&x))
    };
    view! {
        <li class="wire-entry" data-method=x.method.clone() data-status=x.status data-url=x.url.clone()>
            <details on:toggle=move |ev| {
                let open = ev
                    .target()
                    .and_then(|t| js_sys::Reflect::get(&t, &"open".into()).ok())
                    .is_some_and(|o| o.is_truthy());
                if open {
                    opened.set(true);
                }
            }>
                <summary>
                    <span class="wire-method">{x.method.clone()}</span>
                    " "
                    <bdi dir="ltr" class="wire-url">{x.readable_url()}</bdi>
                    " "
                    <span class=status_class>{x.status}</span>
                    " "
                    {figures}
                    " "
                    {ru}
                </summary>
                {details}
            </details>
            {open_button}
        </li>
    }
}

fn header_text(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A head (start line and headers) and, after a blank line, the body if there is one.
fn message_text(start: &str, headers: &[(String, String)], body: &str) -> String {
    let mut text = format!("{start}\n{}", header_text(headers));
    if !body.is_empty() {
        text.push_str("\n\n");
        text.push_str(body);
    }
    text
}

impl Exchange {
    /// The request as it went over the (in-page) wire: request line, headers, body.
    pub fn request_text(&self) -> String {
        message_text(
            &format!("{} {}", self.method, self.url),
            &self.request_headers,
            &self.request_body,
        )
    }

    /// The response: status, headers, body.
    pub fn response_text(&self) -> String {
        message_text(
            &self.status.to_string(),
            &self.response_headers,
            &self.response_body,
        )
    }
}

/// The exchange's request and response in full (the Code section's wire log; the docs
/// embed's code cell builds the same from plain DOM nodes, `ui::cell::wire_log`).
fn exchange_details(x: &Exchange) -> impl IntoView {
    let (request, response) = (x.request_text(), x.response_text());
    view! {
        <div class="wire-details">
            <h4>{t(msg::code_wire_request)}</h4>
            <pre class="wire-request" dir="ltr" tabindex="0">{request}</pre>
            <h4>{t(msg::code_wire_response)}</h4>
            <pre class="wire-response" dir="ltr" tabindex="0">{response}</pre>
            {x.ru.map(|ru| view! { <RuEstimate ru=ru /> })}
        </div>
    }
}

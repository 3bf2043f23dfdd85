//! "Compare with the other service": the query's first page run on the workspace's account and
//! on a copy of it on the other target (`Account::copy_to`, made for the comparison and then
//! dropped), shown side by side: the rows in the order each returned them, scanned and
//! returned, the index entries read, the cost (request units on Cosmos DB for Table, one
//! billed transaction per page on Table storage), and the wire answer (status and the headers
//! that differ between the services).
//!
//! Invariants: the workspace's tables are only read (a query does not write); the figures of
//! each side come from one engine run and one `wire::handle` run of the same request. Runs only
//! on a click, so its code stays out of the playground's start-up (the deferred wasm).

use crate::engine::{Account, Request, Target};
use crate::i18n::{msg, number, t};
use crate::ui::state::AppState;
use crate::ui::text::target_text::service_name;
use crate::wire::{self, Endpoint, HttpRequest};
use leptos::prelude::*;

/// The headers shown beside the status: those whose presence or form tells the services apart.
const KEY_HEADERS: [&str; 5] = [
    "Content-Type",
    "x-ms-version",
    "x-ms-continuation-NextPartitionKey",
    "x-ms-continuation-NextRowKey",
    "Server",
];

/// One side of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    pub target: Target,
    /// (PartitionKey, RowKey) of each returned entity, in the order returned.
    pub keys: Vec<(String, String)>,
    pub scanned: u64,
    pub returned: u64,
    /// Index entries read (Cosmos DB for Table only).
    pub index_entries: Option<u64>,
    /// The estimated request units (Cosmos DB for Table only).
    pub ru: Option<f64>,
    pub status: u16,
    /// The [`KEY_HEADERS`] the wire answer carries, in that order.
    pub headers: Vec<(String, String)>,
    /// The engine's error code, when the query failed.
    pub error: Option<String>,
}

/// Runs the first page of `query` on the account and on a copy on the other target:
/// `[this account's side, the other's]`. `None` while the page tears down.
pub fn compare(state: AppState, query: &Request) -> Option<[Side; 2]> {
    let mut query = query.clone();
    if let Request::Query {
        continuation,
        trace,
        ..
    } = &mut query
    {
        *continuation = None;
        *trace = false;
    }
    state.read_mut(|account| {
        let clock = || {
            crate::engine::DateTime::from_unix_millis(js_sys::Date::now() as i64)
                .unwrap_or(crate::engine::DateTime::MIN)
        };
        let (mut copy, _) = account.copy_to(account.target().other(), Box::new(clock));
        [side(account, &query), side(&mut copy, &query)]
    })
}

fn side(account: &mut Account, query: &Request) -> Side {
    let response = account.execute(query);
    let keys = response
        .entities
        .iter()
        .flatten()
        .filter_map(|e| e.keys().map(|(p, r)| (p.to_string(), r.to_string())))
        .collect();
    let stats = response.stats;
    let http = wire::handle(
        account,
        &Endpoint::anonymous(wire::DEV_ACCOUNT),
        &crate::ui::kit::wire_js::context(),
        &http_request(query),
    )
    .response;
    let headers = key_headers(&http);
    Side {
        target: account.target(),
        keys,
        scanned: stats.map_or(0, |s| s.scanned),
        returned: stats.map_or(0, |s| s.returned),
        index_entries: response.index.map(|i| i.entries),
        ru: response.ru.and_then(|r| r.value),
        status: http.status,
        headers,
        error: response.error.map(|e| e.code.to_string()),
    }
}

/// The [`KEY_HEADERS`] `response` carries, in that order.
pub(crate) fn key_headers(response: &wire::HttpResponse) -> Vec<(String, String)> {
    KEY_HEADERS
        .iter()
        .filter_map(|name| {
            response
                .header_value(name)
                .map(|v| (name.to_string(), v.to_string()))
        })
        .collect()
}

/// `HTTP/1.1 200 OK`.
pub(crate) fn status_line(status: u16) -> String {
    let reason = wire::HttpResponse {
        status,
        ..Default::default()
    }
    .reason()
    .to_string();
    format!("HTTP/1.1 {status} {reason}")
}

/// The query as the SDKs send it: `GET /<account>/<table>()?$filter=…&$select=…&$top=…`.
fn http_request(query: &Request) -> HttpRequest {
    let Request::Query {
        table,
        filter,
        select,
        top,
        ..
    } = query
    else {
        return HttpRequest::new("GET", &format!("/{}/Tables", wire::DEV_ACCOUNT));
    };
    let mut options = Vec::new();
    if let Some(f) = filter {
        options.push(format!("$filter={}", encode(f)));
    }
    if let Some(s) = select {
        options.push(format!("$select={}", encode(&s.join(","))));
    }
    if let Some(n) = top {
        options.push(format!("$top={n}"));
    }
    let mut url = format!("/{}/{}()", wire::DEV_ACCOUNT, encode(table));
    if !options.is_empty() {
        url.push('?');
        url.push_str(&options.join("&"));
    }
    HttpRequest::new("GET", &url)
        .header("Accept", "application/json;odata=minimalmetadata")
        .header("x-ms-version", "2019-02-02")
        .header("DataServiceVersion", "3.0")
}

fn encode(text: &str) -> String {
    String::from(js_sys::encode_uri_component(text))
}

/// The comparison, or nothing before the button is pressed.
#[component]
pub fn TargetCompare(sides: [Side; 2]) -> impl IntoView {
    let [here, there] = sides;
    let other = there.target;
    frame(
        Frame {
            class: "panel target-compare",
            id: "target-compare-heading",
            heading: msg::compare_targets_heading,
            note: msg::compare_targets_note,
            other,
        },
        view! { <SideView side=here /> <SideView side=there /> },
    )
}

/// What a comparison panel says of itself.
pub(crate) struct Frame {
    pub class: &'static str,
    pub id: &'static str,
    pub heading: fn() -> String,
    /// The note, naming the other service.
    pub note: fn(String) -> String,
    pub other: Target,
}

/// A comparison panel: its heading, its note and the two sides.
pub(crate) fn frame(f: Frame, sides: impl IntoView + 'static) -> impl IntoView {
    let Frame {
        class,
        id,
        heading,
        note,
        other,
    } = f;
    view! {
        <section class=class aria-labelledby=id>
            <h2 id=id>{t(heading)}</h2>
            <p class="hint">{move || note(service_name(other))}</p>
            <div class="target-sides">{sides}</div>
        </section>
    }
}

/// A side's class, by its target.
pub(crate) fn side_class(target: Target) -> &'static str {
    match target {
        Target::TableStorage => "target-side side-table-storage",
        Target::CosmosTable => "target-side side-cosmos-table",
    }
}

/// A side's cost: its estimated request units, or storage's one billed transaction.
pub(crate) fn cost_text(ru: Option<f64>) -> String {
    match ru {
        Some(ru) => msg::compare_ru(number(ru)),
        None => msg::compare_transactions(number(1)),
    }
}

#[component]
fn SideView(side: Side) -> impl IntoView {
    let target = side.target;
    let class = side_class(target);
    let Side {
        keys,
        scanned,
        returned,
        index_entries,
        ru,
        status,
        headers,
        error,
        ..
    } = side;
    let cost = move || cost_text(ru);
    view! {
        <section class=class aria-label=move || service_name(target)>
            <h3>{move || service_name(target)}</h3>
            <dl class="figures">
                <div><dt>{t(msg::scan_scanned)}</dt><dd class="cmp-scanned">{move || number(scanned)}</dd></div>
                <div><dt>{t(msg::scan_returned)}</dt><dd class="cmp-returned">{move || number(returned)}</dd></div>
                <div><dt>{t(msg::compare_index)}</dt><dd class="cmp-index">{move || index_entries.map(number).unwrap_or_else(msg::compare_no_index)}</dd></div>
                <div><dt>{t(msg::compare_cost)}</dt><dd class="cmp-cost" data-ru=ru.map(|r| r.to_string())>{cost}</dd></div>
            </dl>
            {error.map(|code| view! { <p class="cmp-error" role="note"><code dir="ltr">{code}</code></p> })}
            <h4>{t(msg::compare_rows)}</h4>
            <ol class="cmp-rows" dir="ltr">
                {keys
                    .into_iter()
                    .map(|(p, r)| view! { <li><bdi>{p}</bdi>" / "<bdi>{r}</bdi></li> })
                    .collect_view()}
            </ol>
            <h4>{t(msg::compare_wire)}</h4>
            <pre class="cmp-wire" dir="ltr">
                {status_line(status)}
                {headers.into_iter().map(|(n, v)| format!("\n{n}: {v}")).collect::<String>()}
            </pre>
        </section>
    }
}

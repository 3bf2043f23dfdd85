//! "Compare with the other service" for a staged batch: the batch sent through the wire layer
//! to a copy of the workspace's account on each target (`Account::copy_to`, made for the
//! comparison and then dropped), side by side: the answer's status, each operation's status
//! and the Timestamp it wrote (one for every insert of a batch on Table storage, one per
//! operation on Cosmos DB for Table), the cost (request units against one billed
//! transaction), and the wire answer: its key headers and its body, carriage returns shown as `\r`.
//!
//! Invariants: the workspace's tables do not change (both runs are on copies); each side is
//! one `wire::handle` run of the same HTTP request, the one show-as-code writes for the batch.

use super::target_compare::{cost_text, frame, key_headers, side_class, status_line, Frame};
use crate::engine::{Account, Target};
use crate::i18n::{msg, t};
use crate::ui::state::AppState;
use crate::ui::text::target_text::service_name;
use crate::wire::{self, Endpoint, HttpRequest};
use leptos::prelude::*;

/// One side of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchSide {
    pub target: Target,
    pub status: u16,
    /// Each part of the answer: its status and the Timestamp its ETag names, in order.
    pub parts: Vec<Part>,
    /// The estimated request units (Cosmos DB for Table only).
    pub ru: Option<f64>,
    pub headers: Vec<(String, String)>,
    /// The answer's body as sent.
    pub body: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub status: u16,
    pub timestamp: Option<String>,
}

/// Sends `http` (a `$batch`) to a copy of the account on its own target and to one on the
/// other: `[this target's side, the other's]`. `None` while the page tears down.
pub fn compare(state: AppState, http: &HttpRequest) -> Option<[BatchSide; 2]> {
    state.read_mut(|account| {
        let clock = || {
            crate::engine::DateTime::from_unix_millis(js_sys::Date::now() as i64)
                .unwrap_or(crate::engine::DateTime::MIN)
        };
        let target = account.target();
        let (mut same, _) = account.copy_to(target, Box::new(clock));
        let (mut other, _) = account.copy_to(target.other(), Box::new(clock));
        [side(&mut same, http), side(&mut other, http)]
    })
}

fn side(account: &mut Account, http: &HttpRequest) -> BatchSide {
    let outcome = wire::handle(
        account,
        &Endpoint::anonymous(wire::DEV_ACCOUNT),
        &crate::ui::kit::wire_js::context(),
        http,
    );
    let response = outcome.response;
    let body = String::from_utf8_lossy(&response.body).into_owned();
    BatchSide {
        target: account.target(),
        status: response.status,
        parts: parts(&body),
        ru: outcome.ru.and_then(|r| r.value),
        headers: key_headers(&response),
        body,
    }
}

/// The parts of a `$batch` answer: each embedded `HTTP/1.1 <status>` line, and the Timestamp
/// in the `ETag` header that follows it (`W/"datetime'2026-11-28T16%3A01%3A01.1234567Z'"`).
fn parts(body: &str) -> Vec<Part> {
    let mut out: Vec<Part> = Vec::new();
    for line in body.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix("HTTP/1.1 ") {
            let status = rest.split(' ').next().and_then(|s| s.parse().ok());
            if let Some(status) = status {
                out.push(Part {
                    status,
                    timestamp: None,
                });
            }
        } else if let (Some(etag), Some(last)) = (header(line, "etag"), out.last_mut()) {
            last.timestamp = etag
                .split_once("datetime'")
                .and_then(|(_, t)| t.split_once('\''))
                .map(|(t, _)| t.replace("%3A", ":"));
        }
    }
    out
}

/// The value of header line `line` when it is header `name` (any case).
fn header<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let (n, v) = line.split_once(':')?;
    n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
}

/// The comparison of a batch.
#[component]
pub fn BatchCompare(sides: [BatchSide; 2]) -> impl IntoView {
    let [here, there] = sides;
    let other = there.target;
    frame(
        Frame {
            class: "panel target-compare batch-compare",
            id: "batch-compare-heading",
            heading: msg::compare_batch_heading,
            note: msg::compare_batch_note,
            other,
        },
        view! { <SideView side=here /> <SideView side=there /> },
    )
}

#[component]
fn SideView(side: BatchSide) -> impl IntoView {
    let target = side.target;
    let class = side_class(target);
    let BatchSide {
        status,
        parts,
        ru,
        headers,
        body,
        ..
    } = side;
    let cost = move || cost_text(ru);
    let refused = parts.is_empty();
    view! {
        <section class=class aria-label=move || service_name(target)>
            <h3>{move || service_name(target)}</h3>
            <dl class="figures">
                <div><dt>{t(msg::compare_batch_status)}</dt><dd class="cmp-status">{status}</dd></div>
                <div><dt>{t(msg::compare_cost)}</dt><dd class="cmp-cost" data-ru=ru.map(|r| r.to_string())>{cost}</dd></div>
            </dl>
            <h4>{t(msg::compare_batch_parts)}</h4>
            <p class="cmp-refused" hidden=!refused>{t(msg::compare_batch_refused)}</p>
            <ol class="cmp-parts" dir="ltr" hidden=refused>
                {parts
                    .into_iter()
                    .map(|p| view! {
                        <li><span class="part-status">{p.status}</span>" "<span class="part-time">{p.timestamp.unwrap_or_default()}</span></li>
                    })
                    .collect_view()}
            </ol>
            <h4>{t(msg::compare_wire)}</h4>
            <pre class="cmp-wire" dir="ltr">
                {status_line(status)}
                {headers.into_iter().map(|(n, v)| format!("\n{n}: {v}")).collect::<String>()}
            </pre>
            <details class="cmp-body">
                <summary>{t(msg::compare_batch_body)}</summary>
                <pre dir="ltr">{body.replace('\r', "\\r")}</pre>
            </details>
        </section>
    }
}

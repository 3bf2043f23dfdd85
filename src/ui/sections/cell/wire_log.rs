//! The code cell's wire log: one entry per HTTP request the SDK made. Its `<summary>` is the
//! compact line (method, URL, status, and a query's kind, scanned and returned); opened, the
//! entry shows the request (request line, headers, body) and the response (status, headers,
//! body) as the Code section's wire log does (`Exchange::{request_text, response_text}`).
//!
//! Invariants:
//! - headers and bodies are the user's data: set as text nodes in left-to-right `<pre>`s,
//!   never as HTML;
//! - an entry's details are built the first time it opens (a run of 1,000 requests builds
//!   1,000 summaries, not 2,000 `<pre>`s), by one `toggle` listener on the list;
//! - the exchanges kept are those of the run shown: `clear` drops them with their entries.

use super::view::{append, attr, element, text};
use crate::i18n::{self, msg};
use crate::ui::panels::code_panel::output::Exchange;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

/// The attribute on an entry's `<details>` naming its exchange (its index in the run).
const ENTRY: &str = "data-entry";

pub struct WireLog {
    document: Document,
    list: Element,
    count: Element,
    exchanges: Rc<RefCell<Vec<Exchange>>>,
}

impl WireLog {
    /// The log in `list` (an `<ol>`), its number of entries in `count`.
    pub fn new(document: &Document, list: Element, count: Element) -> WireLog {
        let exchanges = Rc::new(RefCell::new(Vec::<Exchange>::new()));
        // `toggle` does not bubble, so the list hears it while it is captured.
        let on_toggle = {
            let (document, exchanges) = (document.clone(), exchanges.clone());
            Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
                let Some(details) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
                    return;
                };
                let open =
                    js_sys::Reflect::get(&details, &"open".into()).is_ok_and(|o| o.is_truthy());
                let built = details.query_selector(".wire-details").ok().flatten();
                if !open || built.is_some() {
                    return;
                }
                let index = details.get_attribute(ENTRY).and_then(|i| i.parse().ok());
                if let Some(x) = index.and_then(|i: usize| exchanges.borrow().get(i).cloned()) {
                    append(&details, &exchange_details(&document, &x));
                }
            })
        };
        let _ = list.add_event_listener_with_callback_and_bool(
            "toggle",
            on_toggle.as_ref().unchecked_ref(),
            true,
        );
        // The list lives as long as the page.
        on_toggle.forget();
        WireLog {
            document: document.clone(),
            list,
            count,
            exchanges,
        }
    }

    /// Empties the log for a new run.
    pub fn clear(&self) {
        self.list.set_inner_html("");
        text(&self.count, "");
        self.exchanges.borrow_mut().clear();
    }

    /// One request of the SDK and its answer: the summary line, the rest when opened.
    pub fn add(&self, x: Exchange) {
        let d = &self.document;
        // A request is data, read left to right in every language; the figures' sentence
        // keeps the page's direction in its own isolate.
        let li = element(d, "li", "wire-entry");
        attr(&li, "dir", "ltr");
        attr(&li, "data-method", &x.method);
        attr(&li, "data-status", &x.status.to_string());
        attr(&li, "data-url", &x.url);
        let details = element(d, "details", "");
        let summary = element(d, "summary", "");
        let method = element(d, "span", "wire-method");
        text(&method, &x.method);
        let url = element(d, "bdi", "wire-url");
        attr(&url, "dir", "ltr");
        text(&url, &x.readable_url());
        let status = element(
            d,
            "span",
            if x.status >= 400 {
                "wire-status failed"
            } else {
                "wire-status"
            },
        );
        text(&status, &x.status.to_string());
        for (i, e) in [&method, &url, &status].into_iter().enumerate() {
            if i > 0 {
                let _ = summary.append_with_str_1(" ");
            }
            append(&summary, e);
        }
        if let Some(q) = &x.query {
            let figures = element(d, "bdi", "wire-query");
            attr(&figures, "dir", i18n::lang().dir());
            attr(&figures, "data-kind", &q.kind);
            attr(&figures, "data-scanned", &q.scanned.to_string());
            attr(&figures, "data-returned", &q.returned.to_string());
            text(
                &figures,
                &msg::code_wire_figures(
                    crate::ui::text::explain_text::kind_name(&q.kind),
                    i18n::number(q.returned as f64),
                    i18n::number(q.scanned as f64),
                ),
            );
            let _ = summary.append_with_str_1(" ");
            append(&summary, &figures);
        }
        let index = {
            let mut exchanges = self.exchanges.borrow_mut();
            exchanges.push(x);
            exchanges.len() - 1
        };
        attr(&details, ENTRY, &index.to_string());
        append(&details, &summary);
        append(&li, &details);
        append(&self.list, &li);
        text(&self.count, &i18n::number((index + 1) as f64));
    }
}

/// The request and the response in full: a heading in the page's language over each, the
/// message itself left to right.
fn exchange_details(d: &Document, x: &Exchange) -> Element {
    let div = element(d, "div", "wire-details");
    attr(&div, "dir", i18n::lang().dir());
    let parts = [
        (msg::code_wire_request(), "wire-request", x.request_text()),
        (
            msg::code_wire_response(),
            "wire-response",
            x.response_text(),
        ),
    ];
    for (heading, class, message) in parts {
        let h4 = element(d, "h4", "");
        text(&h4, &heading);
        let pre = element(d, "pre", class);
        attr(&pre, "dir", "ltr");
        // Scrollable, so reachable by keyboard.
        attr(&pre, "tabindex", "0");
        text(&pre, &message);
        append(&div, &h4);
        append(&div, &pre);
    }
    div
}

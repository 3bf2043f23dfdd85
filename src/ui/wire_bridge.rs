//! The in-page SDK transport's way into the engine (issue #11, deliverable 3).
//!
//! At mount the app installs `window.tablescope.wire(request)`, which answers one HTTP
//! request with `engine::wire::handle` on the page's own account, synchronously:
//!
//! ```text
//! request:  { method: "POST", url: "http://127.0.0.1:10002/devstoreaccount1/Tables",
//!             headers: [["content-type", "application/json"], …],   // or { name: value }
//!             body: Uint8Array | string | ArrayBuffer | undefined }
//! response: { status: 201, headers: [["Cache-Control", "no-cache"], …],  // service order
//!             body: Uint8Array,
//!             stats: { kind, scanned, returned, partitions } | undefined } // queries only
//! ```
//!
//! `www/sdk/transport.js` turns the SDK's requests into these and back. A request is served
//! as the UI's commands are: a write goes through [`AppState::change_coalesced`], so the change feed
//! reaches persistence and every view re-reads (once a frame however many requests come); a read (GET, which `wire` never turns into a
//! write) goes through [`AppState::read_mut`] and changes nothing. In a read-only tab (another
//! tab saves) every other verb is refused with the service's 403
//! `AuthorizationPermissionMismatch`, as the UI refuses its writes, and nothing changes.
//!
//! The endpoint serves the development account anonymously: the page is the only caller, and
//! a request that does carry a credential is still checked against the development key.
//! Only [`install`] runs at start; the rest runs on the first SDK call, so scripts/split.mjs
//! leaves it in the deferred wasm.

use super::state::{AppState, Storage, READ_ONLY};
use crate::engine::wire::{self, Context, Endpoint, HttpRequest, HttpResponse, Outcome};
use crate::engine::{DateTime, ErrorCode, QueryStats};
use js_sys::{Array, Object, Reflect, Uint8Array};
use leptos::prelude::GetUntracked;
use wasm_bindgen::prelude::*;

/// Installs `window.tablescope.wire` for the page's lifetime (keeping any other member of
/// `window.tablescope`).
pub fn install(state: AppState) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let wire =
        Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(move |request: JsValue| {
            exchange(state, &request)
        });
    let namespace = Reflect::get(&window, &"tablescope".into())
        .ok()
        .filter(JsValue::is_object)
        .unwrap_or_else(|| Object::new().into());
    let _ = Reflect::set(&namespace, &"wire".into(), wire.as_ref());
    let _ = Reflect::set(&window, &"tablescope".into(), &namespace);
    // The function lives as long as the page. A remounted app (wasm tests) installs its own.
    wire.forget();
}

/// Answers one request; `Err` (thrown in JS) only when `js` is not a request at all.
fn exchange(state: AppState, js: &JsValue) -> Result<JsValue, JsValue> {
    let request = read_request(js)?;
    let (response, stats) = answer(state, &request);
    Ok(write_response(&response, stats.as_ref()))
}

fn answer(state: AppState, request: &HttpRequest) -> (HttpResponse, Option<QueryStats>) {
    let context = Context {
        now: DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap_or(DateTime::MIN),
        request_id: request_id(),
    };
    let endpoint = Endpoint::anonymous(wire::DEV_ACCOUNT);
    let serve = |account: &mut _| wire::handle(account, &endpoint, &context, request);
    // Invariant (engine::wire::translate): only a verb other than GET can write.
    let outcome: Option<Outcome> = if request.method.eq_ignore_ascii_case("GET") {
        state.read_mut(serve)
    } else if Storage::get().read_only.get_untracked() {
        return (read_only_refusal(&context, request), None);
    } else {
        // A stream of SDK requests (a loop of inserts): views re-read once a frame, not once
        // a request; every change is still saved (group commit).
        state.change_coalesced(serve).ok()
    };
    match outcome {
        Some(outcome) => (outcome.response, outcome.stats),
        // Only while the page tears down.
        None => (
            HttpResponse {
                status: 503,
                ..HttpResponse::default()
            },
            None,
        ),
    }
}

fn invalid(what: &str) -> JsValue {
    js_sys::TypeError::new(&format!("tablescope.wire: {what}")).into()
}

/// `{method, url, headers, body}` into an [`HttpRequest`].
fn read_request(js: &JsValue) -> Result<HttpRequest, JsValue> {
    let text = |name: &str| {
        Reflect::get(js, &name.into())
            .ok()
            .and_then(|v| v.as_string())
            .ok_or_else(|| invalid(&format!("the request needs a string `{name}`")))
    };
    let mut request = HttpRequest::new(&text("method")?, &text("url")?);
    let headers = Reflect::get(js, &"headers".into()).unwrap_or(JsValue::UNDEFINED);
    // `[[name, value], …]` keeps order and repeats; a plain object is read by its entries.
    let pairs = if Array::is_array(&headers) {
        Array::from(&headers)
    } else if headers.is_object() {
        Object::entries(&Object::from(headers))
    } else {
        Array::new()
    };
    for pair in pairs.iter() {
        let pair = Array::from(&pair);
        match (pair.get(0).as_string(), pair.get(1).as_string()) {
            (Some(name), Some(value)) => request.headers.push((name, value)),
            _ => return Err(invalid("a header must be a [name, value] pair of strings")),
        }
    }
    request.body = body_bytes(&Reflect::get(js, &"body".into()).unwrap_or(JsValue::UNDEFINED))?;
    Ok(request)
}

fn body_bytes(body: &JsValue) -> Result<Vec<u8>, JsValue> {
    if body.is_undefined() || body.is_null() {
        Ok(Vec::new())
    } else if let Some(text) = body.as_string() {
        Ok(text.into_bytes())
    } else if body.is_instance_of::<Uint8Array>() || body.is_instance_of::<js_sys::ArrayBuffer>() {
        Ok(Uint8Array::new(body).to_vec())
    } else {
        Err(invalid(
            "the body must be a string, a Uint8Array or an ArrayBuffer",
        ))
    }
}

/// The response as `{status, headers, body, stats}`.
fn write_response(response: &HttpResponse, stats: Option<&QueryStats>) -> JsValue {
    let out = Object::new();
    let set = |name: &str, value: &JsValue| {
        let _ = Reflect::set(&out, &name.into(), value);
    };
    set("status", &response.status.into());
    let headers: Array = response
        .headers
        .iter()
        .map(|(name, value)| Array::of2(&name.into(), &value.into()))
        .collect();
    set("headers", &headers);
    set("body", &Uint8Array::from(response.body.as_slice()));
    if let Some(stats) = stats {
        let s = Object::new();
        let _ = Reflect::set(&s, &"kind".into(), &stats.kind.label().into());
        let _ = Reflect::set(&s, &"scanned".into(), &(stats.scanned as f64).into());
        let _ = Reflect::set(&s, &"returned".into(), &(stats.returned as f64).into());
        let _ = Reflect::set(&s, &"partitions".into(), &(stats.partitions as f64).into());
        set("stats", &s);
    }
    out.into()
}

/// `crypto.randomUUID()`, as the service's request ids look; a counter where the browser
/// offers none (a page that is not a secure context).
fn request_id() -> String {
    thread_local! {
        static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
    }
    let uuid = web_sys::window()
        .and_then(|w| w.crypto().ok())
        .and_then(|crypto| {
            let f = Reflect::get(&crypto, &"randomUUID".into()).ok()?;
            let f: &js_sys::Function = f.dyn_ref()?;
            f.call0(&crypto).ok()?.as_string()
        });
    uuid.unwrap_or_else(|| {
        let n = NEXT.with(|c| c.replace(c.get() + 1));
        format!("00000000-0000-4000-8000-{n:012x}")
    })
}

/// The service's answer to a write it does not permit (a read-only SAS), written as
/// `engine::wire` writes errors; the message says why this tab refuses.
fn read_only_refusal(context: &Context, request: &HttpRequest) -> HttpResponse {
    let mut error = crate::engine::Error::new(ErrorCode::AuthorizationPermissionMismatch);
    error.message = format!(
        "{} This tab is read-only: the change was not made. {READ_ONLY}",
        error.message
    );
    crate::engine::wire::error_response(context, request, &error)
}

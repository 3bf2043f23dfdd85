//! The in-page SDK transport's way into the engine.
//!
//! At mount the app installs `window.tablescope.wire(request)`, which answers one HTTP
//! request with `wire::handle` on the page's own account, synchronously:
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
//! as the UI's commands are: a write goes through [`AppState::change_coalesced`], so the
//! change feed reaches persistence and every view re-reads (once a frame however many
//! requests come); a read (GET, which `wire` never turns into a write) goes through
//! [`AppState::read_mut`] and changes nothing. In a read-only tab (another tab saves) every
//! other verb is refused with the service's 403
//! `AuthorizationPermissionMismatch`, as the UI refuses its writes, and nothing changes.
//!
//! The endpoint serves the development account anonymously: the page is the only caller, and
//! a request that does carry a credential is still checked against the development key.
//! Only [`install`] runs at start; the rest runs on the first SDK call, so scripts/split.mjs
//! leaves it in the deferred wasm.

use crate::engine::{ErrorCode, QueryStats};
use crate::ui::kit::wire_js::{self, read_request, write_response};
use crate::ui::state::{AppState, Storage, READ_ONLY};
use crate::wire::{self, Context, Endpoint, HttpRequest, HttpResponse, Outcome};
use js_sys::{Object, Reflect};
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
    let (response, stats, ru) = answer(state, &request);
    Ok(write_response(&response, stats.as_ref(), ru))
}

/// The answer, a query's counts, and the estimated request units on a Cosmos account.
fn answer(
    state: AppState,
    request: &HttpRequest,
) -> (HttpResponse, Option<QueryStats>, Option<f64>) {
    let context = wire_js::context();
    let endpoint = Endpoint::anonymous(wire::DEV_ACCOUNT);
    let serve = |account: &mut _| wire::handle(account, &endpoint, &context, request);
    // Invariant (wire::translate): only a verb other than GET can write.
    let outcome: Option<Outcome> = if request.method.eq_ignore_ascii_case("GET") {
        state.read_mut(serve)
    } else if Storage::get().read_only.get_untracked() {
        return (read_only_refusal(&context, request), None, None);
    } else {
        // A stream of SDK requests (a loop of inserts): views re-read once a frame, not once
        // a request; every change is still saved (group commit).
        state.change_coalesced(serve).ok()
    };
    match outcome {
        Some(outcome) => (
            outcome.response,
            outcome.stats,
            outcome.ru.and_then(|e| e.value),
        ),
        // Only while the page tears down.
        None => (
            HttpResponse {
                status: 503,
                ..HttpResponse::default()
            },
            None,
            None,
        ),
    }
}

/// The service's answer to a write it does not permit (a read-only SAS), written as
/// `wire` writes errors; the message says why this tab refuses.
fn read_only_refusal(context: &Context, request: &HttpRequest) -> HttpResponse {
    let mut error = crate::engine::Error::new(ErrorCode::AuthorizationPermissionMismatch);
    error.message = format!(
        "{} This tab is read-only: the change was not made. {READ_ONLY}",
        error.message
    );
    crate::wire::error_response(context, request, &error)
}

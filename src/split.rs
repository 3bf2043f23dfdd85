//! The deferred half of a split release build (scripts/split.mjs).
//!
//! The release wasm is split in two: the primary holds what the profiled start-up flows ran,
//! and every other function is a placeholder that, on its first call, instantiates the deferred
//! wasm, fetching it *synchronously* if it has not arrived yet. A service worker does not
//! answer synchronous requests, so offline that fetch fails, and a call into deferred code
//! throws. Code that may reach deferred functions on the way to a usable page (decoding saved
//! tables of any type) awaits [`ready`] first: the deferred wasm is then fetched the ordinary
//! way (the service worker answers from its cache) and instantiated.
//!
//! In a build that is not split (wasm tests, `trunk serve`) there is nothing to wait for.

use std::future::Future;
use wasm_bindgen::{JsCast, JsValue};

/// The function the split build's glue defines (scripts/split/glue.mjs).
const READY: &str = "__tablescope_deferred_ready";

/// Resolves once every function of the app can be called without a synchronous fetch; fails
/// with the browser's reason when the deferred wasm cannot be fetched (offline before it was
/// ever cached).
///
/// The fetch starts when this is called, not when the future is first polled, so a caller can
/// overlap it with other work (the load reads IndexedDB meanwhile).
pub fn ready() -> impl Future<Output = Result<(), String>> + 'static {
    let started = start();
    async move {
        let Some(promise) = started? else {
            return Ok(());
        };
        wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map(|_| ())
            .map_err(|e| reason(&e))
    }
}

/// Calls the glue's function: the promise of the deferred wasm, or `None` when the build is
/// not split.
fn start() -> Result<Option<js_sys::Promise>, String> {
    let ready = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(READY))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(ready) = ready else {
        return Ok(None);
    };
    ready
        .call0(&JsValue::UNDEFINED)
        .map_err(|e| reason(&e))?
        .dyn_into::<js_sys::Promise>()
        .map(Some)
        .map_err(|e| reason(&e))
}

fn reason(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "part of the app could not be loaded".into())
}

//! `window.tablescope.wire`'s request and response as JavaScript values, for every in-page
//! engine that answers the SDK's transport (`www/sdk/transport.js`): the playground's
//! (`wire_bridge`, on the user's tables) and a docs embed's code cell (`cell`, on a lesson's
//! own account). It knows no account: a caller reads the request, runs `wire::handle`
//! where it serves, and writes the answer.
//!
//! ```text
//! request:  { method, url, headers: [[name, value], …] | { name: value }, body }
//! response: { status, headers: [[name, value], …], body: Uint8Array, stats? }
//! ```

use crate::engine::{DateTime, QueryStats};
use crate::wire::{Context, HttpRequest, HttpResponse};
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

/// The clock and request id of a request answered now.
pub fn context() -> Context {
    Context {
        now: DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap_or(DateTime::MIN),
        request_id: request_id(),
    }
}

fn invalid(what: &str) -> JsValue {
    js_sys::TypeError::new(&format!("tablescope.wire: {what}")).into()
}

/// `{method, url, headers, body}` into an [`HttpRequest`].
pub fn read_request(js: &JsValue) -> Result<HttpRequest, JsValue> {
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

/// The response as `{status, headers, body, stats, ru}`: `stats` for a query, `ru` (the
/// estimated request units) on a Cosmos DB for Table account.
pub fn write_response(
    response: &HttpResponse,
    stats: Option<&QueryStats>,
    ru: Option<f64>,
) -> JsValue {
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
    if let Some(ru) = ru {
        set("ru", &ru.into());
    }
    out.into()
}

/// `crypto.randomUUID()`, as the service's request ids look; a counter where the browser
/// offers none (a page that is not a secure context).
fn request_id() -> String {
    // A counter for ids, not app state: one per page.
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

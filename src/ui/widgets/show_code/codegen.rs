//! The show-as-code module (`src/bin/codegen.rs`, built by Trunk as `codegen.js` +
//! `codegen_bg.wasm`, unhashed and not loaded by the page), imported the first time a
//! show-as-code panel needs a form. The request crosses as the engine's JSON.

use crate::engine::Request;
use crate::ui::kit::dynamic;
use js_sys::{Function, Reflect};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

const CODEGEN_JS: &str = crate::modules::CODEGEN.js;
const CODEGEN_WASM: &str = crate::modules::CODEGEN.wasm;

// A thread-local, not context: a cache of a JavaScript module's exports, not app state. Every
// show-as-code panel shares the one load, in the playground and in the Design module (its own
// wasm and Leptos runtime, with no app context).
thread_local! {
    /// The module's exports once initialised (a failed load is tried again next time).
    static MODULE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

async fn module() -> Result<JsValue, String> {
    if let Some(m) = MODULE.with(|m| m.borrow().clone()) {
        return Ok(m);
    }
    let module =
        dynamic::bindgen_module(CODEGEN_JS, CODEGEN_WASM, "the show-as-code module").await?;
    MODULE.with(|m| *m.borrow_mut() = Some(module.clone()));
    Ok(module)
}

/// `request` written in the form `form` (`http`, `js`, `python`, `csharp`, `java`), for the
/// service at `endpoint` (the playground's when `None`).
pub async fn show(request: &Request, form: &str, endpoint: Option<&str>) -> Result<String, String> {
    let json = serde_json::to_string(request).map_err(|e| e.to_string())?;
    let show = export("show").await?;
    let endpoint = endpoint.map_or(JsValue::UNDEFINED, JsValue::from_str);
    show.call3(
        &JsValue::NULL,
        &JsValue::from_str(&json),
        &JsValue::from_str(form),
        &endpoint,
    )
    .map_err(|e| e.as_string().unwrap_or_else(|| dynamic::describe(&e)))?
    .as_string()
    .ok_or_else(|| "the show-as-code module returned no text".to_string())
}

/// The module's function `name`.
async fn export(name: &str) -> Result<Function, String> {
    let module = module().await?;
    Reflect::get(&module, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("the show-as-code module has no {name}"))
}

/// `request` as the wire layer takes it (the HTTP form's method, URL, headers and body).
pub async fn wire_request(request: &Request) -> Result<crate::wire::HttpRequest, String> {
    #[derive(serde::Deserialize)]
    struct Sent {
        method: String,
        url: String,
        headers: Vec<(String, String)>,
        body: String,
    }
    let json = serde_json::to_string(request).map_err(|e| e.to_string())?;
    let text = export("wire_request")
        .await?
        .call1(&JsValue::NULL, &JsValue::from_str(&json))
        .map_err(|e| e.as_string().unwrap_or_else(|| dynamic::describe(&e)))?
        .as_string()
        .ok_or("the show-as-code module returned no request")?;
    let sent: Sent = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut http = crate::wire::HttpRequest::new(&sent.method, &sent.url);
    http.headers = sent.headers;
    http.body = sent.body.into_bytes();
    Ok(http)
}

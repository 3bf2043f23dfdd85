//! The show-as-code module (`src/codegen.rs`, built by Trunk as `codegen.js` +
//! `codegen_bg.wasm`, unhashed and not loaded by the page), imported the first time a
//! show-as-code panel needs a form. The request crosses as the engine's JSON.

use crate::engine::Request;
use js_sys::{Function, Object, Promise, Reflect};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

const CODEGEN_JS: &str = "codegen.js";
const CODEGEN_WASM: &str = "codegen_bg.wasm";

thread_local! {
    /// The module's exports once initialised (a failed load is tried again next time).
    static MODULE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

fn describe(e: &JsValue) -> String {
    crate::ui::teach::fetch::js_message(e).unwrap_or_else(|| "unknown error".into())
}

async fn settle(value: Result<JsValue, JsValue>) -> Result<JsValue, String> {
    let promise: Promise = value
        .map_err(|e| describe(&e))?
        .dyn_into()
        .map_err(|_| "expected a promise".to_string())?;
    JsFuture::from(promise).await.map_err(|e| describe(&e))
}

async fn module() -> Result<JsValue, String> {
    if let Some(m) = MODULE.with(|m| m.borrow().clone()) {
        return Ok(m);
    }
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("the page has no address")?;
    let url = |file: &str| {
        web_sys::Url::new_with_base(file, &base)
            .map(|u| u.href())
            .map_err(|e| describe(&e))
    };
    // `import()` is syntax, not a function: a tiny function wraps it.
    let import = Function::new_with_args("url", "return import(url)");
    let module =
        settle(import.call1(&JsValue::NULL, &JsValue::from_str(&url(CODEGEN_JS)?))).await?;
    let init = Reflect::get(&module, &JsValue::from_str("default"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or("the show-as-code module has no initializer")?;
    let options = Object::new();
    Reflect::set(
        &options,
        &JsValue::from_str("module_or_path"),
        &JsValue::from_str(&url(CODEGEN_WASM)?),
    )
    .map_err(|e| describe(&e))?;
    settle(init.call1(&JsValue::NULL, &options)).await?;
    MODULE.with(|m| *m.borrow_mut() = Some(module.clone()));
    Ok(module)
}

/// `request` written in the form `form` (`http`, `js`, `python`, `csharp`, `java`).
pub async fn show(request: &Request, form: &str) -> Result<String, String> {
    let json = serde_json::to_string(request).map_err(|e| e.to_string())?;
    let module = module().await?;
    let show = Reflect::get(&module, &JsValue::from_str("show"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or("the show-as-code module has no show")?;
    show.call2(
        &JsValue::NULL,
        &JsValue::from_str(&json),
        &JsValue::from_str(form),
    )
    .map_err(|e| e.as_string().unwrap_or_else(|| describe(&e)))?
    .as_string()
    .ok_or_else(|| "the show-as-code module returned no text".to_string())
}

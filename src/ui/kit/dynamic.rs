//! Code loaded after start: ES modules imported by URL, and wasm-bindgen modules (`--target
//! web`: a glue module and its wasm) initialised on first use. The lessons (`teach::lazy`), the
//! Code section's bundle (`code_panel::runtime`) and the show-as-code generators
//! (`show_code::codegen`) all load this way, never at start.

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A thrown JavaScript value in words (an offline fetch says "Failed to fetch …").
pub fn describe(e: &JsValue) -> String {
    crate::ui::kit::fetch::js_message(e).unwrap_or_else(|| "unknown error".into())
}

/// Adds `<link rel="stylesheet" data-css="{file}">` for `file` (resolved against the page) once
/// per page: CSS that only some views need (the lessons' `teach.css`), so the page load never
/// carries it. A link the start script already added (`data-css` set to the same name) counts.
pub fn stylesheet(file: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = format!("link[data-css=\"{file}\"]");
    if document.query_selector(&selector).ok().flatten().is_some() {
        return;
    }
    let (Ok(link), Ok(href), Some(head)) = (
        document.create_element("link"),
        page_url(file),
        document.head(),
    ) else {
        return;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", &href);
    let _ = link.set_attribute("data-css", file);
    let _ = head.append_child(&link);
}

/// `file` resolved against the page's base URL.
pub fn page_url(file: &str) -> Result<String, String> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("the page has no address")?;
    web_sys::Url::new_with_base(file, &base)
        .map(|u| u.href())
        .map_err(|e| describe(&e))
}

/// The outcome of a JavaScript call that returns a promise: its value once settled, or the
/// throw or rejection in words.
pub async fn settle(value: Result<JsValue, JsValue>) -> Result<JsValue, String> {
    let promise: Promise = value
        .map_err(|e| describe(&e))?
        .dyn_into()
        .map_err(|_| "expected a promise".to_string())?;
    JsFuture::from(promise).await.map_err(|e| describe(&e))
}

/// `import(url)`: the module's namespace. The browser keeps one module per URL, so importing
/// again is free.
pub async fn import(url: &str) -> Result<JsValue, String> {
    // `import()` is syntax, not a function: a tiny function wraps it.
    let import = Function::new_with_args("url", "return import(url)");
    settle(import.call1(&JsValue::NULL, &JsValue::from_str(url))).await
}

/// Imports the wasm-bindgen glue `js` (relative to the page) and initialises it with `wasm`;
/// resolves to the glue's exports. `what` names the module in errors.
pub async fn bindgen_module(js: &str, wasm: &str, what: &str) -> Result<JsValue, String> {
    let module = import(&page_url(js)?).await?;
    let init = Reflect::get(&module, &JsValue::from_str("default"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("{what} has no initializer"))?;
    let options = Object::new();
    Reflect::set(
        &options,
        &JsValue::from_str("module_or_path"),
        &JsValue::from_str(&page_url(wasm)?),
    )
    .map_err(|e| describe(&e))?;
    settle(init.call1(&JsValue::NULL, &options)).await?;
    Ok(module)
}

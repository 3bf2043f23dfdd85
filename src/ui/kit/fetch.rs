//! Reading the app's own static files (scenarios) with the browser's `fetch`.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The text of a file served beside the app (a relative URL).
pub async fn text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| js_error(url, e))?;
    let response: web_sys::Response = response.dyn_into().map_err(|e| js_error(url, e))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|e| js_error(url, e))?;
    JsFuture::from(text)
        .await
        .map_err(|e| js_error(url, e))?
        .as_string()
        .ok_or_else(|| format!("{url}: not text"))
}

fn js_error(url: &str, e: wasm_bindgen::JsValue) -> String {
    let message = js_message(&e).unwrap_or_else(|| "network error".into());
    format!("{url}: {message}")
}

/// A thrown JavaScript value in words: an `Error`'s message, or a thrown string.
pub fn js_message(e: &wasm_bindgen::JsValue) -> Option<String> {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
}

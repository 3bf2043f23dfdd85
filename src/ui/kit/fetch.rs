//! Reading the app's own static files (scenarios) with the browser's `fetch`.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Where the scenario files are served, relative to the page.
pub const SCENARIO_DIR: &str = "scenarios/";

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

/// Whether a file name is a plain scenario file name (no path, no scheme).
pub fn is_scenario_file(file: &str) -> bool {
    file.ends_with(".json")
        && !file.is_empty()
        && file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !file.starts_with('.')
}

/// A built-in scenario's text, with every language it has (the playground's Learn section
/// switches language in place).
pub async fn scenario_text(file: &str) -> Result<String, String> {
    if !is_scenario_file(file) {
        return Err(format!("'{file}' is not a scenario file name"));
    }
    text(&format!("{SCENARIO_DIR}{file}")).await
}

/// A built-in scenario's text in `lang` only: the build (scripts/lessons.mjs) writes one copy
/// per language to `scenarios/<lang>/`, so a docs embed downloads only the language it shows.
pub async fn scenario_text_in(file: &str, lang: crate::i18n::Lang) -> Result<String, String> {
    if !is_scenario_file(file) {
        return Err(format!("'{file}' is not a scenario file name"));
    }
    text(&format!("{SCENARIO_DIR}{}/{file}", lang.code())).await
}

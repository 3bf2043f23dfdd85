//! The page's address: its query parameters, its fragment, and the base a link to the
//! playground starts with.

use wasm_bindgen::JsValue;

/// The page's query parameter `name`, if present.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

/// The full playground's address (origin and path, without query or fragment), for building
/// share links. Dropping the query matters: a link made inside the docs embed
/// (`?embed=1&scenario=…`) must open the playground, which reads the fragment, not another
/// embed, which would ignore it.
pub fn page_base() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    format!("{origin}{path}")
}

/// The page's fragment (`#...`), or an empty string.
pub fn page_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Drops the fragment from the address bar (without reloading or adding history).
pub fn clear_fragment() {
    if let Some(w) = web_sys::window() {
        if let Ok(history) = w.history() {
            let href = w.location().href().unwrap_or_default();
            let url = href.split_once('#').map_or(href.as_str(), |(base, _)| base);
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(url));
        }
    }
}

//! DOM helpers every floor above uses: the clock, focus, a frame's paint, the clipboard,
//! User Timing marks.

use crate::i18n::msg;
use crate::ui::text::notice_text::{said, Say};
use leptos::prelude::*;

/// Copies `text` with the async clipboard API and says whether it worked.
pub fn copy_text(text: String, status: RwSignal<Option<Say>>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => status.set(said(msg::data_copied)),
            Err(_) => status.set(said(msg::data_copy_refused)),
        }
    });
}

/// Milliseconds from the page's time origin.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Runs `f` after the next frame has been painted.
pub fn after_paint(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, std::time::Duration::ZERO));
}

/// Moves focus to the element `selector` matches, if any.
pub fn focus(selector: &'static str) {
    focus_first(vec![selector.to_string()]);
}

/// After the next frame, moves focus to the first element one of `selectors` matches.
pub fn focus_first(selectors: Vec<String>) {
    request_animation_frame(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let el = selectors
            .iter()
            .find_map(|s| document.query_selector(s).ok().flatten());
        if let Some(el) = el {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
}

/// A User Timing mark (the benchmarks and tests read them: scripts/bench/million.mjs the
/// start's, the design and share tests theirs).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// A User Timing measure `name`, from the latest mark `start` to now.
pub fn measure(name: &str, start: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.measure_with_start_mark(name, start);
    }
}

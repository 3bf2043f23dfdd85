//! Focus for inline confirmations (reset, import, delete the selected entities): when one
//! opens, it scrolls into view and its safe choice (Cancel) takes focus, so neither a
//! keyboard user nor a screen reader misses it and Enter never destroys anything by accident;
//! when it closes (Cancel, Escape, or done), focus goes back to the control that opened it.

use wasm_bindgen::JsCast;

thread_local! {
    /// The control that opened the confirmation shown now, if any. Not reactive state:
    /// nothing renders from it, it is a DOM handle kept between two plain calls (open and
    /// close) made from event handlers, which may run outside any reactive owner.
    static OPENER: std::cell::RefCell<Option<web_sys::HtmlElement>> =
        const { std::cell::RefCell::new(None) };
}

/// Call when a confirmation opens; `safe` selects its Cancel button. Remembers the control
/// that has focus now (the one that opened it); after the next frame, scrolls the
/// confirmation into view and focuses Cancel.
pub fn opened(safe: &'static str) {
    OPENER.with(|o| *o.borrow_mut() = active_element());
    leptos::prelude::request_animation_frame(move || {
        let button = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(safe).ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(button) = button {
            if let Some(box_) = button.parent_element() {
                scroll_to_center(&box_);
            }
            let _ = button.focus();
        }
    });
}

/// Call when a confirmation closes (Cancel, Escape, or done): after the next frame, if focus
/// was lost with it, the control that opened it takes focus again (if still in the page).
pub fn closed() {
    let Some(opener) = OPENER.with(|o| o.borrow_mut().take()) else {
        return;
    };
    leptos::prelude::request_animation_frame(move || {
        let lost = active_element().is_none_or(|a| {
            web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.body())
                .is_some_and(|b| b == a)
        });
        if lost && opener.is_connected() {
            let _ = opener.focus();
        }
    });
}

/// The focused element, if it is an HTML element.
fn active_element() -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// `el.scrollIntoView({block: "center"})`: the whole confirmation in view, with room above
/// and below, wherever on the page it opened.
fn scroll_to_center(el: &web_sys::Element) {
    use js_sys::{Function, Object, Reflect};
    let options = Object::new();
    let _ = Reflect::set(&options, &"block".into(), &"center".into());
    if let Ok(f) = Reflect::get(el, &"scrollIntoView".into()) {
        if let Ok(f) = f.dyn_into::<Function>() {
            let _ = f.call1(el, &options);
        }
    }
}

//! Focus for inline confirmations (reset, import, delete the selected entities): when one
//! opens, it scrolls into view and its safe choice (Cancel) takes focus, so neither a
//! keyboard user nor a screen reader misses it and Enter never destroys anything by accident;
//! when it closes (Cancel, Escape, or done), focus goes back to the control that opened it.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Wires the focus rules above for a confirmation shown while `open` is true whose safe
/// choice is `safe`. Escape is the confirmation's own (it closes it by turning `open` off).
pub fn confirm_focus(open: Signal<bool>, safe: NodeRef<html::Button>) {
    // A plain cell, not a stored value: no new reactive type in the first download.
    let opener = std::rc::Rc::new(std::cell::RefCell::new(None::<web_sys::HtmlElement>));
    Effect::new(move |was: Option<bool>| {
        let now = open.get();
        let was = was.unwrap_or(false);
        if now && !was {
            // Still the control that was used to open it: nothing has moved focus yet.
            *opener.borrow_mut() = active_element();
            request_animation_frame(move || {
                if let Some(button) = safe.get_untracked() {
                    if let Some(box_) = button.parent_element() {
                        scroll_to_center(&box_);
                    }
                    let _ = button.focus();
                }
            });
        } else if was && !now {
            let opener = opener.clone();
            request_animation_frame(move || {
                let lost = active_element().is_none_or(|a| {
                    web_sys::window()
                        .and_then(|w| w.document())
                        .and_then(|d| d.body())
                        .is_some_and(|b| b == a)
                });
                if let Some(el) = opener.borrow().as_ref() {
                    if lost && el.is_connected() {
                        let _ = el.focus();
                    }
                }
            });
        }
        now
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

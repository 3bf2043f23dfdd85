//! Small form pieces the editor repeats: a labelled text input, a labelled select, a
//! checkbox. Each reads its value through a closure (so it follows the design) and writes
//! through another on `change`.

use crate::i18n::t;
use leptos::prelude::*;

/// A labelled one-line input. `ltr` marks data (names, templates, numbers) that must not
/// reorder in right-to-left text.
pub fn text(
    label: fn() -> String,
    class: &'static str,
    get: impl Fn() -> String + Send + Sync + 'static,
    set: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{t(label)}</span>
            <input
                type="text"
                class=class
                dir="ltr"
                spellcheck="false"
                prop:value=get
                on:change=move |ev| set(event_target_value(&ev))
            />
        </label>
    }
}

/// A labelled select of `(value, label)` choices.
pub fn select(
    label: fn() -> String,
    class: &'static str,
    choices: impl Fn() -> Vec<(String, String)> + Send + Sync + 'static,
    get: impl Fn() -> String + Send + Sync + Clone + 'static,
    set: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{t(label)}</span>
            <select class=class on:change=move |ev| set(event_target_value(&ev))>
                {move || {
                    let now = get();
                    choices()
                        .into_iter()
                        .map(|(value, text)| {
                            let selected = value == now;
                            view! { <option value=value selected=selected>{text}</option> }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// A checkbox with its label.
pub fn check(
    label: fn() -> String,
    class: &'static str,
    get: impl Fn() -> bool + Send + Sync + 'static,
    set: impl Fn(bool) + 'static,
) -> impl IntoView {
    view! {
        <label class="inline-check">
            <input
                type="checkbox"
                class=class
                prop:checked=get
                on:change=move |ev| set(event_target_checked(&ev))
            />
            {t(label)}
        </label>
    }
}

/// Names as typed in one field, comma-separated (`FirstName, LastName`).
pub fn names(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

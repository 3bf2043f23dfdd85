//! Small form pieces shared by the panels.

use leptos::prelude::*;

/// A plain `<button type="button">` running `on`; `disabled` greys it out. One view type for
/// every such button of the storage banner and panel, so it costs the wasm once.
pub fn action_button(
    label: fn() -> String,
    class: &'static str,
    disabled: Signal<bool>,
    on: Callback<()>,
) -> AnyView {
    view! {
        <button type="button" class=class disabled=disabled on:click=move |_| on.run(())>
            {move || label()}
        </button>
    }
    .into_any()
}

/// For [`action_button`]s that are never disabled.
pub fn never() -> Signal<bool> {
    Signal::stored(false)
}

/// A labelled single-line text input: no spell check, autocomplete or capitalisation (keys,
/// filters and numbers are typed here, not prose).
#[component]
pub fn TextField(
    id: &'static str,
    /// The label's text, read when shown (a catalogue message, or an API term as it is).
    label: fn() -> String,
    #[prop(into)] value: Signal<String>,
    on_input: Callback<String>,
    #[prop(optional)] placeholder: Option<fn() -> String>,
    /// Hides the field (it keeps its value) while true.
    #[prop(into, default = Signal::stored(false))]
    hidden: Signal<bool>,
) -> impl IntoView {
    view! {
        <div class="field" hidden=move || hidden.get()>
            // An isolate: an API term ("$top") keeps its order in a right-to-left page.
            <label for=id><bdi>{move || label()}</bdi></label>
            <input
                id=id
                type="text"
                dir="ltr"
                spellcheck="false"
                autocomplete="off"
                autocapitalize="off"
                placeholder=move || placeholder.map(|p| p())
                prop:value=value
                on:input=move |ev| on_input.run(event_target_value(&ev))
            />
        </div>
    }
}

/// The file an `<input type="file">` change event chose (its first), and the input emptied, so
/// choosing the same file again fires again. `None` when nothing was chosen.
pub fn take_chosen_file(ev: &leptos::ev::Event) -> Option<wasm_bindgen::JsValue> {
    use js_sys::Reflect;
    let input = event_target::<web_sys::HtmlInputElement>(ev);
    let file = Reflect::get(&input, &"files".into())
        .and_then(|files| Reflect::get(&files, &0.into()))
        .ok()
        .filter(wasm_bindgen::JsValue::is_object);
    input.set_value("");
    file
}

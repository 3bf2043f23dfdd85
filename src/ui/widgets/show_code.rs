//! "Show as code": a request the UI is about to send or has sent, written in five
//! forms by `crate::code` (raw HTTP, JavaScript, Python, C#, Java), with Copy, and for the
//! JavaScript form "Open in Code section", where it runs unchanged.
//!
//! The button is all that renders with its panel; the forms are generated only when it is
//! pressed (and again on each tab), from the request the panel's callback builds then.

use crate::code::Form;
use crate::engine::Request;
use crate::i18n::{msg, t};
use crate::ui::state::navigation::{Navigation, Section};
use leptos::prelude::*;

pub(crate) mod codegen;

/// The "Show as code" button and, once pressed, its panel. `what` names the instance in the
/// DOM (`show-code-<what>`); `request` builds the request to show, or says what is missing.
#[component]
pub fn ShowCode(
    what: &'static str,
    request: Callback<(), Result<Request, String>>,
) -> impl IntoView {
    toggle(what, move || std::hint::black_box(FORMS)(what, request))
}

/// [`ShowCode`] for a service other than the playground's (the Connect section's): the HTTP
/// form addresses `endpoint`, and "Open in Code section" calls `open_code` (the Connect
/// module is a wasm of its own, so it opens the page's Code section through its bridge).
/// Kept apart from `ShowCode` so the playground's first download carries none of it.
#[component]
pub fn ShowCodeAt(
    what: &'static str,
    request: Callback<(), Result<Request, String>>,
    endpoint: String,
    open_code: Callback<String>,
) -> impl IntoView {
    let endpoint = StoredValue::new(endpoint);
    toggle(what, move || {
        view! { <CodeForms what=what request=request endpoint=Some(endpoint.get_value()) open_code=open_code /> }
            .into_any()
    })
}

/// The button, and `panel` below it while it is pressed.
fn toggle(
    what: &'static str,
    panel: impl Fn() -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <div class="show-code" data-what=what>
            <button
                type="button"
                class="show-code-toggle"
                aria-expanded=move || if open.get() { "true" } else { "false" }
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {t(msg::show_code)}
            </button>
            {move || open.get().then(&panel)}
        </div>
    }
}

/// The forms panel, called through a pointer: the closure that calls it runs at start (to
/// render nothing), wasm-opt inlines a function with one caller, and wasm-split keeps whole
/// functions, so a direct call would load the generators with the page.
const FORMS: fn(&'static str, Callback<(), Result<Request, String>>) -> AnyView = forms;

/// The playground's forms: the playground's service, and its own Code section.
fn forms(what: &'static str, request: Callback<(), Result<Request, String>>) -> AnyView {
    let section = Navigation::expect();
    let link = crate::ui::state::code_link::CodeLink::expect();
    let open_code = Callback::new(move |code: String| {
        link.to_open.set(code);
        section.set(Section::Code);
    });
    view! { <CodeForms what=what request=request endpoint=None open_code=open_code /> }.into_any()
}

fn form_id(form: Form) -> &'static str {
    match form {
        Form::Http => "http",
        Form::JavaScript => "js",
        Form::Python => "python",
        Form::CSharp => "csharp",
        Form::Java => "java",
    }
}

#[component]
fn CodeForms(
    what: &'static str,
    request: Callback<(), Result<Request, String>>,
    endpoint: Option<String>,
    open_code: Callback<String>,
) -> impl IntoView {
    let endpoint = StoredValue::new(endpoint);
    let form = RwSignal::new(Form::JavaScript);
    let status = RwSignal::new(String::new());
    // The text shown, with the form it was generated for; `None` until the first one arrives.
    let text = RwSignal::new(None::<(Form, Result<String, String>)>);
    // The request as the panel stands now (edits made since it opened are shown too), written
    // by the show-as-code module.
    let generate = move || {
        let shown = request.run(());
        let f = form.get_untracked();
        let endpoint = endpoint.get_value();
        leptos::task::spawn_local(async move {
            let out = match shown {
                Ok(r) => codegen::show(&r, form_id(f), endpoint.as_deref()).await,
                Err(e) => Err(e),
            };
            text.try_set(Some((f, out)));
        });
    };
    generate();
    let code = move || text.with(|t| t.as_ref().and_then(|(_, r)| r.as_ref().ok().cloned()));
    let choose = move |f: Form| {
        form.set(f);
        status.set(String::new());
        generate();
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let i = Form::ALL
            .iter()
            .position(|f| *f == form.get_untracked())
            .unwrap_or(0);
        let n = Form::ALL.len();
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => (i + 1) % n,
            "ArrowLeft" | "ArrowUp" => (i + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        choose(Form::ALL[next]);
        crate::ui::kit::dom::focus_first(vec![format!(
            "#show-code-{what}-{}",
            form_id(Form::ALL[next])
        )]);
    };
    let copy = move |_| {
        if let Some(t) = code() {
            copy(t, status);
        }
    };
    let open_in_code = move |_| {
        if let Some(t) = code() {
            open_code.run(t);
        }
    };
    view! {
        <div class="code-forms">
            <div class="code-form-tabs" role="tablist" aria-label=t(msg::show_code) on:keydown=on_key>
                {Form::ALL
                    .into_iter()
                    .map(|f| {
                        let selected = move || form.get() == f;
                        view! {
                            <button
                                type="button"
                                role="tab"
                                id=format!("show-code-{what}-{}", form_id(f))
                                class="code-form-tab"
                                data-form=form_id(f)
                                aria-selected=move || if selected() { "true" } else { "false" }
                                aria-controls=format!("show-code-{what}-panel")
                                tabindex=move || if selected() { "0" } else { "-1" }
                                on:click=move |_| choose(f)
                            >
                                {f.label()}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <div
                class="code-form-panel"
                role="tabpanel"
                id=format!("show-code-{what}-panel")
                aria-labelledby=move || format!("show-code-{what}-{}", form_id(form.get()))
            >
                {move || match text.get() {
                    None => ().into_any(),
                    Some((f, Ok(code))) => view! {
                        <pre class="code-form" data-form=form_id(f) dir="ltr" tabindex="0"><code>{code}</code></pre>
                    }
                    .into_any(),
                    Some((_, Err(why))) => view! {
                        <p class="field-error code-form-none">{move || msg::show_code_none(&why)}</p>
                    }
                    .into_any(),
                }}
                <div class="editor-actions">
                    <button type="button" class="copy-code" prop:disabled=move || code().is_none() on:click=copy>
                        {t(msg::show_code_copy)}
                    </button>
                    <button
                        type="button"
                        class="open-in-code"
                        hidden=move || form.get() != Form::JavaScript
                        prop:disabled=move || code().is_none()
                        on:click=open_in_code
                    >
                        {t(msg::show_code_open)}
                    </button>
                    <span class="status copy-status" aria-live="polite">{move || status.get()}</span>
                </div>
            </div>
        </div>
    }
}

/// Copies `text` with the async clipboard API and says whether it worked.
fn copy(text: String, status: RwSignal<String>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let said = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => msg::show_code_copied(),
            Err(_) => msg::show_code_copy_failed(),
        };
        status.try_set(said);
    });
}

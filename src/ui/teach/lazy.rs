//! The lessons as a module loaded on first use.
//!
//! The scenario player and the throughput simulator are built as their own wasm (the `learn`
//! bin, `src/learn.rs`; Trunk writes `learn.js` and `learn_bg.wasm` without a hash and does not
//! load them). The page's first download is then only the playground; the lessons arrive the
//! first time the Learn section is shown, and mount into a host element here. The two modules
//! share nothing at run time: the lessons run on their own scenario accounts, never on the
//! user's, so nothing needs to cross between them.
//!
//! Docs embeds (`?embed=1`) load only the lessons module (see `pattern_script` in Trunk.toml).

use crate::i18n::{msg, t};
use js_sys::{Function, Reflect};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};

/// The lessons module's files, relative to the page.
pub const LEARN_JS: &str = "learn.js";
pub const LEARN_WASM: &str = "learn_bg.wasm";

/// Where the lessons module stands.
#[derive(Debug, Clone, PartialEq)]
enum Load {
    NotStarted,
    Loading,
    Mounted,
    Failed(String),
}

/// The host of the lessons: the scenario list, the player and the simulator, mounted by the
/// lessons module, which starts loading once the host is on the page. The Learn section
/// builds it the first time it is shown (`SectionPanel` in `ui/app.rs`).
#[component]
pub fn LessonsHost() -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let load = RwSignal::new(Load::NotStarted);
    let start = move || {
        load.set(Load::Loading);
        spawn_local(async move {
            let Some(element) = host.get_untracked() else {
                load.try_set(Load::Failed("the page is closing".into()));
                return;
            };
            let element: web_sys::HtmlElement = element.into();
            let outcome = match mount_lessons(&element).await {
                Ok(()) => Load::Mounted,
                Err(e) => Load::Failed(e),
            };
            load.try_set(outcome);
        });
    };
    // After the first render, so `host` is mounted; tracks nothing, so it runs once.
    Effect::new(move |_| start());
    view! {
        {move || match load.get() {
            Load::NotStarted | Load::Mounted => None,
            Load::Loading => Some(
                view! { <p class="panel hint lessons-loading" role="status">{t(msg::learn_loading_lessons)}</p> }
                    .into_any(),
            ),
            Load::Failed(e) => Some(
                view! {
                    <div class="panel error-notice lessons-failed" role="alert">
                        <p>{msg::learn_load_failed(&e)}</p>
                        <button type="button" class="retry-lessons" on:click=move |_| start()>
                            {t(msg::learn_retry)}
                        </button>
                    </div>
                }
                .into_any(),
            ),
        }}
        <div class="lessons-host" node_ref=host></div>
    }
}

/// Loads the lessons module (once per page) and mounts the lessons into `host`.
async fn mount_lessons(host: &web_sys::HtmlElement) -> Result<(), String> {
    crate::ui::dynamic::stylesheet(super::STYLESHEET);
    let module = load_module().await?;
    let mount = Reflect::get(&module, &JsValue::from_str("mount_learn"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or("the lessons module has no mount_learn")?;
    mount.call1(&JsValue::NULL, host).map_err(describe)?;
    Ok(())
}

/// Imports `learn.js` and instantiates `learn_bg.wasm`; the module's exports.
async fn load_module() -> Result<JsValue, String> {
    crate::ui::dynamic::bindgen_module(LEARN_JS, LEARN_WASM, "the lessons module").await
}

/// A thrown JavaScript value in words (an offline fetch says "Failed to fetch …").
fn describe(e: JsValue) -> String {
    crate::ui::dynamic::describe(&e)
}

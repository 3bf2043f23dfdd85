//! The lessons as a module loaded on first use.
//!
//! The scenario player and the throughput simulator are built as their own wasm (the `learn`
//! bin, `src/bin/learn.rs`; Trunk writes `learn.js` and `learn_bg.wasm` without a hash and does not
//! load them). The page's first download is then only the playground; the lessons arrive the
//! first time the Learn section is shown, and mount into a host element here. The two modules
//! share nothing at run time: the lessons run on their own scenario accounts, never on the
//! user's, so nothing needs to cross between them.
//!
//! Docs embeds (`?embed=1`) load the lesson module instead (`src/bin/lesson.rs`, see
//! `www/start.js`).

use crate::i18n::msg;
use crate::ui::kit::module_host::{Module, ModuleHost};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// The lessons module's files, relative to the page.
pub const LEARN_JS: &str = crate::modules::LEARN.js;
pub const LEARN_WASM: &str = crate::modules::LEARN.wasm;

/// The host of the lessons: the scenario list, the player and the simulator, mounted by the
/// lessons module, which starts loading once the host is on the page. The Learn section
/// builds it the first time it is shown (`SectionPanel` in `ui/app.rs`). The lessons need
/// nothing of the page (no bridge).
#[component]
pub fn LessonsHost() -> impl IntoView {
    let module = Module {
        js: LEARN_JS,
        wasm: LEARN_WASM,
        mount: "mount_learn",
        class: "lessons",
        loading: msg::learn_loading_lessons,
        failed: |reason| msg::learn_load_failed(reason),
        retry: msg::learn_retry,
    };
    let before: fn() = || crate::ui::kit::dynamic::stylesheet(super::STYLESHEET);
    view! { <ModuleHost module=module before=before bridge=JsValue::NULL /> }
}

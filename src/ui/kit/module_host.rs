//! A section (or part of one) built by a wasm module of its own, loaded the first time it
//! shows: the lessons (`teach::lazy`), the Connect section (`connect::host`) and the Design
//! section (`sections::design::host`).
//!
//! Such a module is a `[[bin]]` of this crate that Trunk builds without a hash and without a
//! script tag (`data-type="worker"`, `data-bindgen-target="web"` in index.html), exporting a
//! `mount_*(host, bridge)` function. Its views, their text and their code are then in neither
//! the playground's first download nor its deferred wasm: only this host is. The module has
//! its own copy of the catalogues and follows the page's language itself (`i18n::start_as_page`).
//!
//! Invariant: the module is mounted at most once per host; a failed load leaves the host empty
//! with the reason and a retry button.

use crate::i18n::t;
use js_sys::{Function, Reflect};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};

/// What a host loads and how it speaks of it.
#[derive(Clone, Copy)]
pub struct Module {
    /// The wasm-bindgen glue and its wasm, relative to the page (`learn.js`, `learn_bg.wasm`).
    pub js: &'static str,
    pub wasm: &'static str,
    /// The export that mounts the module's views: `(host, bridge)`.
    pub mount: &'static str,
    /// The prefix of the host's own classes: `{class}-host`, `{class}-loading`,
    /// `{class}-failed` and the retry button's `retry-{class}` (beside the shared
    /// `module-host` and `module-failed`, which playground.css styles).
    pub class: &'static str,
    /// "Loading …" while the module downloads.
    pub loading: fn() -> String,
    /// "… could not be loaded: {reason}".
    pub failed: fn(&str) -> String,
    /// The retry button's label.
    pub retry: fn() -> String,
}

/// Where a module stands.
#[derive(Debug, Clone, PartialEq)]
enum Load {
    NotStarted,
    Loading,
    Mounted,
    Failed(String),
}

/// The host element of `module`, which starts loading once the host is on the page and
/// mounts with `bridge`: what the module may ask of the page (`JsValue::NULL` for nothing).
/// `before` runs before the load starts (the module's stylesheet).
#[component]
pub fn ModuleHost(
    module: Module,
    #[prop(optional)] before: Option<fn()>,
    bridge: JsValue,
) -> impl IntoView {
    let bridge = StoredValue::new_local(bridge);
    let host = NodeRef::<leptos::html::Div>::new();
    let load = RwSignal::new(Load::NotStarted);
    let start = move || {
        load.set(Load::Loading);
        spawn_local(async move {
            let Some(element) = host.get_untracked() else {
                load.try_set(Load::Failed("the page is closing".into()));
                return;
            };
            if let Some(before) = before {
                before();
            }
            let element: web_sys::HtmlElement = element.into();
            let bridge = bridge.get_value();
            let outcome = match mount(module, &element, &bridge).await {
                Ok(()) => Load::Mounted,
                Err(e) => Load::Failed(e),
            };
            load.try_set(outcome);
        });
    };
    // After the first render, so `host` is mounted; tracks nothing, so it runs once.
    Effect::new(move |_| start());
    let class = module.class;
    view! {
        {move || match load.get() {
            Load::NotStarted | Load::Mounted => None,
            Load::Loading => Some(
                view! {
                    <p class=format!("panel hint {class}-loading") role="status">{t(module.loading)}</p>
                }
                .into_any(),
            ),
            Load::Failed(e) => Some(
                view! {
                    <div class=format!("panel error-notice module-failed {class}-failed") role="alert">
                        <p>{(module.failed)(&e)}</p>
                        <button type="button" class=format!("retry-{class}") on:click=move |_| start()>
                            {t(module.retry)}
                        </button>
                    </div>
                }
                .into_any(),
            ),
        }}
        <div class=format!("module-host {class}-host") node_ref=host></div>
    }
}

/// Loads `module` (once per page: the browser keeps one module per URL) and mounts it into
/// `host`.
async fn mount(
    module: Module,
    host: &web_sys::HtmlElement,
    bridge: &JsValue,
) -> Result<(), String> {
    let exports = super::dynamic::bindgen_module(module.js, module.wasm, module.js).await?;
    let mount = Reflect::get(&exports, &JsValue::from_str(module.mount))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("{} has no {}", module.js, module.mount))?;
    mount
        .call2(&JsValue::NULL, host, bridge)
        .map_err(|e| super::dynamic::describe(&e))?;
    Ok(())
}

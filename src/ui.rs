//! The Leptos app, in floors: a module imports only from the floors below its own, and a
//! panel or a section never from another one (docs/architecture.md; `tests/ui_floors.rs`
//! checks it). Bottom to top:
//!
//! - [`kit`] and [`text`]: DOM and page helpers (the clock, focus, marks, the address,
//!   fetching the page's files, form fields, confirmations' focus, dynamic imports, the host of
//!   a section's own wasm); what the app says through the catalogues.
//! - [`state`]: [`AppState`] (the account, a revision counter and the commands views call),
//!   the workspace (what the learner works on, saved across visits), navigation ([`Section`]
//!   and its `Copy` handle), the save queue, the forms' logic (`model`), the code link, the
//!   in-page SDK transport (`wire_bridge`) and the `?perf=1` hook.
//! - [`widgets`]: the entity grid (columns, rows, selection), the entity view, the error
//!   notice, the filter editor, a run's results, show-as-code, the partition map, Markdown,
//!   share links.
//! - [`panels`]: tables, data (with the entity editor and the welcome), query, batch,
//!   storage and its banner, and the Code section.
//! - [`sections`]: the sections built as wasm modules of their own: Learn (`teach`), Design,
//!   Connect and a docs embed's code cell, each with its host.
//! - `app`: the page frame (header, tables sidebar, section navigation); this root mounts it.
//!
//! Views hold no domain logic: they call [`AppState`] commands and render what comes back.
//! User text is always rendered as text nodes, never as HTML.
//!
//! [`Section`]: state::navigation::Section

mod app;
pub mod kit;
pub mod panels;
pub mod sections;
pub mod state;
pub mod text;
pub mod widgets;

pub use app::App;
pub use state::AppState;

use kit::dom::mark;

/// Mounts the app on `<body>` for the page's lifetime.
pub fn mount() {
    // Docs embeds (`?embed=1`) never get here: the page loads the lessons module instead
    // (`www/start.js`).
    // The saved tables load first, so nothing on the page can race the load; a plain
    // message says so meanwhile. Leptos' executor starts with the mount, so the load runs on
    // wasm-bindgen's.
    wasm_bindgen_futures::spawn_local(async move {
        // The page's language first (a download only when it is not English), so the first
        // text shown is in it.
        crate::i18n::start().await;
        mark("tablescope-language-ready");
        let loading = show_loading();
        if let Some(loading) = loading.clone() {
            crate::persist::on_load_progress(move |done, total| {
                let percent = done * 100 / total.max(1);
                loading.set_text_content(Some(&crate::i18n::msg::app_loading_tables_progress(
                    percent,
                )));
            });
        }
        if let Err(reason) = state::load_saved_tables().await {
            // The page's start guard (www/start-guard.js) says why and offers the saved tables.
            start_guard("fail", &reason);
            return;
        }
        mark("tablescope-tables-loaded");
        if let Some(loading) = loading {
            loading.remove();
        }
        leptos::mount::mount_to_body(App);
        mark("tablescope-mounted");
        announce_ready();
        start_guard("done", "");
    });
}

/// Tells the page's start script that the app is usable: `<html data-ready>` and a
/// `tablescope-ready` event on `window`. The start script registers the service worker only
/// then (and once idle), so its precaching never competes with the first visit's page load.
fn announce_ready() {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(root) = window.document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-ready", "");
    }
    if let Ok(event) = web_sys::Event::new("tablescope-ready") {
        let _ = window.dispatch_event(&event);
    }
}

/// Tells the page's start guard (www/start-guard.js, absent in wasm tests) how the start went.
fn start_guard(method: &str, reason: &str) {
    let global = js_sys::global();
    let Ok(guard) = js_sys::Reflect::get(&global, &"__tablescopeStart".into()) else {
        return;
    };
    let call = js_sys::Reflect::get(&guard, &method.into())
        .ok()
        .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok());
    if let Some(call) = call {
        let _ = call.call1(&guard, &reason.into());
    }
}

/// Puts "Loading your saved tables…" on the page until the app replaces it.
fn show_loading() -> Option<web_sys::Element> {
    let document = web_sys::window()?.document()?;
    let p = document.create_element("p").ok()?;
    p.set_id("app-loading");
    let _ = p.set_attribute("role", "status");
    p.set_text_content(Some(&crate::i18n::msg::app_loading_tables()));
    document.body()?.append_child(&p).ok()?;
    Some(p)
}

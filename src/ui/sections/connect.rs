//! The Connect section: a real Table service endpoint beside the
//! sandbox. The user adds a connection (a SAS URL, or a local endpoint), lists its tables and
//! queries them with the Query section's own editor and typed grid, page by page, runs the same query on both sides and sees where the answers differ, copies a sample
//! into the sandbox and writes a sandbox table to the connection.
//!
//! The section is a wasm module of its own (`src/bin/connect.rs` → `connect.js`,
//! `connect_bg.wasm`), loaded the first time the section shows ([`host`], which
//! `SectionPanel` in app.rs builds): its views, text and code are in neither the playground's
//! first download nor its deferred wasm. It reaches the sandbox as the in-page SDK does
//! (`window.tablescope.wire`) and asks the rest of the page through [`bridge`]. Nothing is
//! fetched from a connection until the user connects.
//!
//! Invariant: a request to the connection carries only what the user gave (the SAS); the app
//! never signs a request and never asks for an account key.

mod bridge;
mod browse;
mod compare;
mod connection;
mod copy;
mod copy_view;
mod entities_view;
mod failure_view;
mod form;
mod history;
mod query;
mod remote;
mod tables_list;

use crate::i18n::{msg, t};
use connection::Connection;
use leptos::prelude::*;

/// The section's few style rules, with the section (so neither the page load nor the docs
/// embed carries them).
const STYLE: &str = "\
.connect-panel pre{white-space:pre-wrap;overflow-wrap:anywhere;font-family:var(--mono);\
font-size:.8rem;background:var(--bg);border:1px solid var(--border);border-radius:8px;padding:8px 10px}\
.connect-sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px;margin-top:10px}\
.connect-sides h4{margin:0 0 6px;font-size:.875rem}\
.connect-same{color:var(--ok,inherit);font-weight:600}\
.connect-differences li{overflow-wrap:anywhere;font-size:.875rem}\
.connect-form .inline-check{white-space:normal;align-items:flex-start}\
.connect-browse .results-count{margin:6px 0}\
.connect-history{margin-top:12px}\
.connect-runs td.failed{color:var(--danger)}\
.connect-error p{margin:0 0 6px}";

/// The Connect module's files, relative to the page.
pub const CONNECT_JS: &str = crate::modules::CONNECT.js;
pub const CONNECT_WASM: &str = crate::modules::CONNECT.wasm;

/// The section in the playground: the host the Connect module mounts into, loaded the first
/// time the section shows. `SectionPanel` (app.rs) calls it through a pointer, so none of it
/// is in the code that runs at start.
pub fn host() -> AnyView {
    use crate::ui::kit::module_host::{Module, ModuleHost};
    let module = Module {
        js: CONNECT_JS,
        wasm: CONNECT_WASM,
        mount: "mount_connect",
        class: "connect",
        loading: msg::connect_loading,
        failed: |reason| msg::connect_load_failed(reason),
        retry: msg::learn_retry,
    };
    let bridge = bridge::page_side(
        crate::ui::state::AppState::expect(),
        crate::ui::state::workspace::Workspace::expect(),
        crate::ui::state::navigation::Navigation::expect(),
    );
    view! { <ModuleHost module=module bridge=bridge /> }.into_any()
}

/// The Connect module's view (see `src/bin/connect.rs`): mounts the section into `host` for the
/// page's lifetime, in the page's language; `page` is the bridge [`host`] made.
pub fn mount(host: web_sys::HtmlElement, page: wasm_bindgen::JsValue) {
    bridge::keep(page);
    wasm_bindgen_futures::spawn_local(async move {
        // The playground's language (this module has its own copy of the catalogues).
        crate::i18n::start_as_page().await;
        leptos::mount::mount_to(host, || view! { <ConnectPanel /> }).forget();
    });
}

/// What the section's parts share.
#[derive(Clone, Copy)]
pub struct Shared {
    /// The connection, once added (the SAS in memory even when it is not kept).
    pub connection: RwSignal<Option<Connection>>,
    /// The connection's table the user works on (also the sandbox table of the same name).
    pub table: RwSignal<String>,
    /// What the user typed in the Table field: the tables list's filter. Choosing a table
    /// from the list sets `table` but not this, so the list keeps the rows it showed.
    pub filter: RwSignal<String>,
}

#[component]
fn ConnectPanel() -> impl IntoView {
    let shared = Shared {
        // A kept endpoint whose SAS was not kept waits for the SAS URL again (the form says so).
        connection: RwSignal::new(
            connection::load().and_then(|(c, complete)| complete.then_some(c)),
        ),
        table: RwSignal::new(String::new()),
        filter: RwSignal::new(String::new()),
    };
    // The query editor and the typed grid are the Query section's own; they keep their ids and
    // column arrangements in a workspace, which the module has apart from the playground's.
    provide_context(crate::ui::state::workspace::Workspace::new());
    view! {
        <style>{STYLE}{tables_list::STYLE}</style>
        <section class="panel connect-panel" aria-labelledby="connect-heading">
            <h2 id="connect-heading">{t(msg::connect_heading)}</h2>
            <p class="hint">{t(msg::connect_intro)}</p>
            <form::ConnectForm shared=shared />
        </section>
        {move || {
            shared
                .connection
                .get()
                .map(|c| {
                    view! {
                        <browse::Browse shared=shared connection=c.clone() />
                        <copy_view::CopyPanel shared=shared connection=c />
                    }
                })
        }}
    }
}

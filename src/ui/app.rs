//! The page frame: header, the tables sidebar, and a navigation between sections.
//!
//! A section is one entry of [`Section`]: add a variant, its label, and one arm in
//! [`SectionPanel`] to add a page.

use super::banner::StorageBanner;
use super::batch_panel::BatchPanel;
use super::data_panel::DataPanel;
use super::query_panel::QueryPanel;
use super::state::{take_over_when_free, AppState, Storage};
use super::storage_panel::StoragePanel;
use super::tables_panel::TablesPanel;
use super::workspace::Workspace;
use leptos::prelude::*;

/// The app's sections, in navigation order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Section {
    /// The selected table's entities and the entity editor.
    #[default]
    Data,
    /// The query builder, raw `$filter`, results and the scan meter.
    Query,
    /// The batch stager.
    Batch,
    /// Teaching scenarios, the partition map and the throughput simulator.
    Learn,
}

impl Section {
    pub const ALL: [Section; 4] = [
        Section::Data,
        Section::Query,
        Section::Batch,
        Section::Learn,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Section::Data => "Entities",
            Section::Query => "Query",
            Section::Batch => "Batch",
            Section::Learn => "Learn",
        }
    }

    /// The id used in the DOM (`nav-<id>`, `section-<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Section::Data => "data",
            Section::Query => "query",
            Section::Batch => "batch",
            Section::Learn => "learn",
        }
    }
}

/// The whole app on the saved tables (or a fresh in-memory account), with the storage
/// banner and the storage panel.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::with_browser_clock();
    provide_context(state);
    let workspace = Workspace::new();
    provide_context(workspace);
    let section = RwSignal::new(first_section());
    provide_context(section);
    super::perf::install(state);
    super::wire_bridge::install(state);
    if Storage::get().read_only.get_untracked() {
        leptos::task::spawn_local(take_over_when_free(state));
    }
    view! {
        <header class="app-header">
            <div class="header-inner">
                <div class="brand">
                <svg class="logo" viewBox="0 0 24 24" aria-hidden="true">
                    <rect x="3" y="4" width="18" height="16" rx="2.5" />
                    <path d="M3 9.5h18M9 9.5V20" />
                </svg>
                <h1>"Tablescope"</h1>
                <span class="version" title="Tablescope version">{format!("v{}", crate::VERSION)}</span>
                </div>
                <p class="tagline">
                    "An Azure Table storage playground that runs entirely in your browser."
                </p>
            </div>
        </header>
        <div class="storage-banners">
            <StorageBanner />
        </div>
        <div class="app-layout">
            <aside class="app-side">
                <TablesPanel />
                <StoragePanel />
            </aside>
            <main class="app-main">
                <Nav section=section />
                <SectionPanel section=section />
            </main>
        </div>
    }
}

/// The section a page starts on: Learn when it was opened for it, by a share link
/// (`#share=…`: a scenario for the player, or a workspace for the share panel) or a built-in
/// scenario (`?scenario=…`, the embed's "open in the full playground"); else the entities.
fn first_section() -> Section {
    let for_learn = super::teach::share::page_fragment().starts_with("#share=")
        || super::teach::embed::query_param("scenario").is_some();
    if for_learn {
        Section::Learn
    } else {
        Section::Data
    }
}

/// The section tabs; the batch tab shows how many operations are staged.
#[component]
fn Nav(section: RwSignal<Section>) -> impl IntoView {
    let workspace = Workspace::expect();
    view! {
        <nav class="app-nav" aria-label="Sections">
            {Section::ALL
                .into_iter()
                .map(|s| {
                    let badge = move || {
                        let n = workspace.batch.with(Vec::len);
                        (s == Section::Batch && n > 0).then(|| view! { <span class="badge">{n}</span> })
                    };
                    view! {
                        <button
                            type="button"
                            id=format!("nav-{}", s.id())
                            class="nav-tab"
                            aria-current=move || (section.get() == s).then_some("page")
                            on:click=move |_| section.set(s)
                        >
                            {s.label()}
                            {badge}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// Every section's panel, the current one shown. A panel is built the first time its section
/// is shown (so the page starts with the entities alone, and the code of the other panels can
/// load after it: scripts/split.mjs), and from then on stays mounted (hidden) so a query's
/// results or a half-typed entity survive switching sections.
#[component]
fn SectionPanel(section: RwSignal<Section>) -> impl IntoView {
    Section::ALL
        .into_iter()
        .map(|s| {
            // Invariant: once true, stays true (the memo only ever turns on).
            let built = Memo::new(move |was: Option<&bool>| {
                was.copied().unwrap_or(false) || section.get() == s
            });
            view! {
                <div
                    class="section"
                    id=format!("section-{}", s.id())
                    aria-labelledby=format!("nav-{}", s.id())
                    hidden=move || section.get() != s
                >
                    {move || built.get().then(|| panel(s))}
                </div>
            }
        })
        .collect_view()
}

/// The panel of one section.
fn panel(section: Section) -> AnyView {
    match section {
        Section::Data => view! { <DataPanel /> }.into_any(),
        Section::Query => view! { <QueryPanel /> }.into_any(),
        Section::Batch => view! { <BatchPanel /> }.into_any(),
        Section::Learn => view! { <super::teach::LearnSection /> }.into_any(),
    }
}

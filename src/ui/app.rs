//! The page frame: header, the tables sidebar, and a navigation between sections.
//!
//! A section is one entry of [`Section`] (`state::navigation`): add a variant there, its
//! label, and one arm in [`SectionPanel`] to add a page.

use super::state::{take_over_when_free, AppState, Storage};
use crate::i18n::{self, msg, t, Lang};
use crate::ui::panels::banner::StorageBanner;
use crate::ui::panels::batch_panel::BatchPanel;
use crate::ui::panels::data_panel::DataPanel;
use crate::ui::panels::query_panel::QueryPanel;
use crate::ui::panels::settings_panel::SettingsPanel;
use crate::ui::panels::storage_panel::StoragePanel;
use crate::ui::panels::tables_panel::TablesPanel;
use crate::ui::panels::target_panel::TargetPanel;
use crate::ui::state::navigation::{Navigation, Section};
use crate::ui::state::workspace::Workspace;
use leptos::prelude::*;

/// The whole app on the saved tables (or a fresh in-memory account), with the storage
/// banner and the storage panel.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::with_browser_clock();
    provide_context(state);
    let workspace = Workspace::new();
    provide_context(workspace);
    let section = Navigation::new(first_section());
    provide_context(section);
    crate::ui::state::code_link::CodeLink::provide();
    crate::ui::state::workspace::saved::keep(workspace, section, state);
    crate::ui::state::perf::install(state);
    crate::ui::state::wire_bridge::install(state);
    if Storage::get().read_only.get_untracked() {
        leptos::task::spawn_local(take_over_when_free(state));
    }
    view! {
        // The first stop of Tab: past the header and the side panels to the sections.
        <a class="skip-link" href="#content">{t(msg::app_skip)}</a>
        <header class="app-header">
            <div class="header-inner">
                <div class="brand">
                <svg class="logo" viewBox="0 0 24 24" aria-hidden="true">
                    <rect x="3" y="4" width="18" height="16" rx="2.5" />
                    <path d="M3 9.5h18M9 9.5V20" />
                </svg>
                <h1>"Tablescope"</h1>
                <span class="version" title=t(msg::app_version_title)>{format!("v{}", crate::VERSION)}</span>
                <LangSwitcher />
                </div>
                <p class="tagline">{t(msg::app_tagline)}</p>
            </div>
        </header>
        <div class="storage-banners">
            <StorageBanner />
        </div>
        <div class="app-layout">
            <aside class="app-side">
                <TablesPanel />
                <StoragePanel />
                <SettingsPanel />
            </aside>
            <main class="app-main" id="content" tabindex="-1">
                <Nav section=section />
                <SectionPanel section=section />
            </main>
        </div>
    }
}

/// The section a page starts on: Learn when it was opened for it, by a share link
/// (`#share=…`: a scenario for the player, or a workspace for the share panel) or a built-in
/// scenario (`?scenario=…`, the embed's "open in the full playground"); Design for a design
/// link (`#design=…`); Code for code to open (`#code=…`, a code cell's "open in the
/// playground"); else the entities.
fn first_section() -> Section {
    let fragment = crate::ui::kit::address::page_fragment();
    if fragment.starts_with("#design=") {
        return Section::Design;
    }
    if fragment.starts_with(crate::ui::state::code_link::CODE_FRAGMENT) {
        return Section::Code;
    }
    let for_learn = fragment.starts_with("#share=")
        || crate::ui::kit::address::query_param("scenario").is_some();
    if for_learn {
        Section::Learn
    } else {
        Section::Data
    }
}

/// The section tabs; the batch tab shows how many operations are staged.
#[component]
fn Nav(section: Navigation) -> impl IntoView {
    let workspace = Workspace::expect();
    view! {
        <nav class="app-nav" aria-label=t(msg::app_sections)>
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
                            {move || s.label()}
                            {badge}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// The language switcher: each language in its own name. A catalogue not yet downloaded is
/// fetched first; if that fails the page stays as it was and says why.
#[component]
fn LangSwitcher() -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let change = move |ev: leptos::ev::Event| {
        let Some(lang) = Lang::from_tag(&event_target_value(&ev)) else {
            return;
        };
        leptos::task::spawn_local(async move {
            error.set(i18n::choose(lang).await.err());
        });
    };
    view! {
        <div class="lang-switcher">
            <select id="lang-select" aria-label=t(msg::lang_label) on:change=change>
                {Lang::ALL
                    .into_iter()
                    .map(|l| {
                        view! {
                            <option value=l.code() lang=l.code() dir=l.dir() prop:selected=move || i18n::lang() == l>
                                {l.own_name()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            {move || error.get().map(|e| view! { <p class="lang-error" role="alert">{e}</p> })}
        </div>
    }
}

/// Every section's panel, the current one shown. A panel is built the first time its section
/// is shown (so the page starts with the entities alone, and the code of the other panels can
/// load after it: scripts/split.mjs), and from then on stays mounted (hidden) so a query's
/// results or a half-typed entity survive switching sections.
#[component]
fn SectionPanel(section: Navigation) -> impl IntoView {
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

/// The Query section: the account's service, then the query panel.
fn query_section() -> AnyView {
    view! {
        <TargetPanel />
        <QueryPanel />
    }
    .into_any()
}

/// The panel of one section.
fn panel(section: Section) -> AnyView {
    match section {
        Section::Data => view! { <DataPanel /> }.into_any(),
        // The service switch sits above the query, where its order, index and request units
        // show; through a pointer, as below, so that none of it joins the start-up code.
        Section::Query => std::hint::black_box(query_section as fn() -> AnyView)(),
        Section::Batch => view! { <BatchPanel /> }.into_any(),
        // Through a pointer: wasm-opt inlines a function with one caller, and this function
        // runs at start, so a direct call would put the whole Code section in the primary wasm.
        Section::Code => {
            std::hint::black_box(crate::ui::panels::code_panel::panel as fn() -> AnyView)()
        }
        Section::Connect => {
            std::hint::black_box(crate::ui::sections::connect::host as fn() -> AnyView)()
        }
        Section::Design => {
            std::hint::black_box(crate::ui::sections::design::host::panel as fn() -> AnyView)()
        }
        Section::Learn => view! { <crate::ui::sections::teach::LearnSection /> }.into_any(),
    }
}

//! The page frame: header, main area, and the app state every panel shares.

use super::state::AppState;
use super::tables_panel::TablesPanel;
use leptos::prelude::*;

/// The whole app on a fresh in-memory account with the browser's clock.
#[component]
pub fn App() -> impl IntoView {
    provide_context(AppState::with_browser_clock());
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
        <main class="app-main">
            <TablesPanel />
            <super::teach::LearnSection />
        </main>
    }
}

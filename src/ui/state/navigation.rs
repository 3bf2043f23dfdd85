//! Which section the page shows: the [`Section`] enum and [`Navigation`], a `Copy` handle on
//! the one signal that holds it, shared through context. Panels, widgets and the sections'
//! hosts switch sections through it; `app.rs` renders the current one.

use crate::i18n::msg;
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
    /// SDK code against the user's tables (`crate::ui::panels::code_panel`).
    Code,
    /// A real account beside the sandbox (`crate::ui::sections::connect`).
    Connect,
    /// The design studio (`crate::ui::sections::design`, its own wasm: `crate::ui::sections::design::host`).
    Design,
    /// Teaching scenarios, the partition map and the throughput simulator.
    Learn,
}

impl Section {
    pub const ALL: [Section; 7] = [
        Section::Data,
        Section::Query,
        Section::Batch,
        Section::Code,
        Section::Connect,
        Section::Design,
        Section::Learn,
    ];

    /// The tab's label, in the current language.
    pub fn label(self) -> String {
        match self {
            Section::Data => msg::nav_data(),
            Section::Query => msg::nav_query(),
            Section::Batch => msg::nav_batch(),
            Section::Code => msg::nav_code(),
            Section::Connect => msg::nav_connect(),
            Section::Design => msg::nav_design(),
            Section::Learn => msg::nav_learn(),
        }
    }

    /// The id used in the DOM (`nav-<id>`, `section-<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Section::Data => "data",
            Section::Query => "query",
            Section::Batch => "batch",
            Section::Code => "code",
            Section::Connect => "connect",
            Section::Design => "design",
            Section::Learn => "learn",
        }
    }
}

/// The section shown: a `Copy` handle on its signal, provided in context by the app (and by
/// a section's own module where its views need one, as the Design module does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Navigation(RwSignal<Section>);

impl Navigation {
    /// A navigation starting on `first`; the caller provides it in context.
    pub fn new(first: Section) -> Self {
        Self(RwSignal::new(first))
    }

    /// The navigation in context (panics outside the app, like `expect_context`).
    pub fn expect() -> Self {
        expect_context()
    }

    /// The navigation in context, if there is one.
    pub fn in_context() -> Option<Self> {
        use_context()
    }

    /// The section shown (tracked).
    pub fn get(self) -> Section {
        self.0.get()
    }

    /// The section shown, untracked.
    pub fn get_untracked(self) -> Section {
        self.0.get_untracked()
    }

    /// Subscribes the running effect to section changes.
    pub fn track(self) {
        self.0.track();
    }

    /// Shows `section`.
    pub fn set(self, section: Section) {
        self.0.set(section);
    }
}

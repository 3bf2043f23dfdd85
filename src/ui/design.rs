//! The Design section (issue #13): a design document (tables, entity types with key
//! templates and value distributions, access patterns with rates) edited here, its data
//! generated into the sandbox tables, every pattern evaluated on that data and projected to
//! production scale, the design reviewed against the guide's performance checklist, and two
//! designs compared. The model is the engine's (`crate::engine::design`); these files only
//! edit it and render what it computes.
//!
//! - `form`, `fmt`: form pieces and number formats;
//! - `doc`: the section's state ([`doc::Ctx`]) and how it is saved with the workspace;
//! - `edit_types`, `edit_props`, `edit_patterns`: the document editor;
//! - `io`: export, import and share link;
//! - `run`: the data generator (time-sliced, with progress and cancel);
//! - `figures`, `project`: measured and projected figures, projected vs measured, prices;
//! - `review`: the checklist;
//! - `compare`: two designs side by side, and the starter gallery.
//!
//! Everything here runs only once the section is opened (`panel` is called through a
//! pointer from `app::panel`), so none of it is in the page's first download.

mod compare;
mod doc;
mod edit_patterns;
mod edit_props;
mod edit_types;
mod figures;
mod fmt;
mod form;
mod io;
mod project;
mod review;
mod run;

use crate::i18n::{msg, t};
use leptos::prelude::*;

/// The section's panel, for `SectionPanel` (app.rs), which calls it through a pointer so
/// that none of this code is inlined into the start.
pub fn panel() -> AnyView {
    view! { <DesignSection /> }.into_any()
}

#[component]
fn DesignSection() -> impl IntoView {
    let ctx = doc::Ctx::install();
    io::open_link(ctx);
    view! {
        <section class="panel design-panel" aria-labelledby="design-heading">
            <h2 id="design-heading">{t(msg::design_heading)}</h2>
            <p class="hint">{t(msg::design_intro)}</p>
            <compare::Gallery />
            <io::Files />
        </section>
        <edit_types::TypesEditor />
        <edit_patterns::PatternsEditor />
        <run::GeneratorPanel />
        <figures::FiguresPanel />
        <review::ChecklistPanel />
        <compare::ComparePanel />
    }
}

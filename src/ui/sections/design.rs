//! The Design section: a design document (tables, entity types with key
//! templates and value distributions, access patterns with rates) edited here, its data
//! generated into the sandbox tables, every pattern evaluated on that data and projected to
//! production scale, the design reviewed against the guide's performance checklist, and two
//! designs compared. The model is the engine's (`crate::design`); these files only
//! edit it and render what it computes.
//!
//! - `bridge`, `remote`: the way into the playground's account and workspace;
//! - `form`, `fmt`: form pieces and number formats;
//! - `doc`: the section's state ([`doc::Ctx`]) and how it is saved with the workspace;
//! - `edit_types`, `edit_props`, `edit_patterns`: the document editor;
//! - `io`: export, import and share link;
//! - `run`: the data generator (time-sliced, with progress and cancel);
//! - `figures`, `project`: measured and projected figures, projected vs measured, prices;
//! - `review`: the checklist;
//! - `two_target`: the design on Table storage and Cosmos DB for Table side by side;
//! - `compare`: two designs side by side, and the starter gallery.
//!
//! All of it is its own wasm (the `design` bin, `src/bin/design.rs`), which the playground loads
//! the first time the section is shown (`sections::design::host`) and mounts with a bridge: none of
//! its code, view templates or text is in the playground's wasm.

pub mod bridge;
mod compare;
mod doc;
mod edit_keys;
mod edit_patterns;
mod edit_props;
mod edit_types;
mod field_problems;
mod figures;
mod fmt;
mod form;
mod handover;
pub(crate) mod host;
mod io;
pub mod offthread;
pub mod problem_text;
mod profile;
mod project;
mod remote;
mod review;
mod run;
mod scaling;
mod two_target;

use crate::i18n::{msg, t};
use crate::ui::state::navigation::{Navigation, Section};
use leptos::prelude::*;

/// The module's view (see `src/bin/design.rs`): checks the playground's bridge, then mounts the
/// section into `host` for the page's lifetime, in the playground's language (this module
/// has its own copy of the catalogues, and follows the playground's switches).
pub fn mount_design(
    host: web_sys::HtmlElement,
    bridge: wasm_bindgen::JsValue,
) -> Result<(), String> {
    bridge::Bridge::install(bridge)?;
    add_style();
    wasm_bindgen_futures::spawn_local(async move {
        crate::i18n::start_as_page().await;
        leptos::mount::mount_to(host, || view! { <DesignSection /> }).forget();
    });
    Ok(())
}

/// The section's own CSS, which the playground's stylesheets do not carry (they are part of
/// its first download): figures on one line, failed grades marked, and a checkbox's label
/// that wraps beside its box (the playground's `.inline-check` keeps its short labels on
/// one line; "Replace the data in the design's tables" overflows a 360 px screen so).
/// Two designs compared wrap their labels and names between words, so the comparison fits
/// the main column in every language. Projected vs measured has seven columns in the main
/// column at 1280 px: its headings and its reasons wrap between words, so it fits without
/// scrolling sideways. The projection's
/// figures per call and its load are two tables, each pattern's kind below its name; their
/// headings (after a slash too), names and figures wrap between words, at 0.85 em, and
/// figures from a million on take the language's short form (`263B`), so both fit at 10⁹
/// and beyond in every language. The two-target table's headings, pattern names and latency
/// classes wrap, its cells padded 5 px a side, so its eight columns fit too (German's long
/// words the widest), its figures in the short form from a million on and breaking at their
/// spaces, never inside a number; a button's long label wraps within a phone's width. The scaling
/// table's ranges, headings and choices wrap (a choice can list many values, and the choices
/// are long in Dutch), so it fits the main column at 1280 px; its property names break only
/// between words ("Employee ·" over "DepartmentId"), never a letter to a line.
const STYLE: &str = "#section-design .compare td{overflow-wrap:normal;white-space:nowrap}\
#section-design .design-comparison td{white-space:normal}\
#section-design .design-comparison th{white-space:normal;overflow-wrap:normal}\
#section-design .versus th{white-space:normal}\
#section-design .compare .f-kind{display:block;font-weight:normal}\
#section-design .projected th,#section-design .projected-load th,#section-design .projected td,#section-design .projected-load td{white-space:normal;overflow-wrap:normal}\
#section-design .projected td,#section-design .projected-load td{font-size:.85em}\
#section-design .versus td.v-why{white-space:normal;font-family:inherit}\
#section-design .design-summary{grid-template-columns:repeat(auto-fit,minmax(min(100%,220px),1fr))}\
#section-design .design-summary dd{overflow-wrap:normal}\
#section-design .two-costs dd small{display:block;font-weight:normal}\
#section-design .two-targets th,#section-design .two-targets td.s-latency,#section-design .two-targets td.c-latency{white-space:normal;overflow-wrap:normal;font-family:inherit}\
#section-design .two-targets .p-kind{display:block;font-weight:normal}\
#section-design .two-targets td{white-space:normal;font-size:.85em}\
#section-design .two-targets th,#section-design .two-targets td{padding:6px 5px}\
#section-design .add-write-type{white-space:normal;max-width:100%}\
.grade-fail .grade{color:var(--danger)}\
#section-design .inline-check{white-space:normal;min-width:0}\
#section-design .inline-check input{flex:none}\
#section-design .design-scaling td.sc-declared,#section-design .design-scaling td.sc-target{white-space:normal;overflow-wrap:anywhere}\
#section-design .design-scaling td.sc-scale{font-family:inherit;white-space:normal}\
#section-design .design-scaling th{white-space:normal;overflow-wrap:normal}\
#section-design .design-scaling select{max-width:100%}";

/// Adds [`STYLE`] to the page once (`<style data-css="design">`).
fn add_style() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document
        .query_selector("style[data-css=design]")
        .ok()
        .flatten()
        .is_some()
    {
        return;
    }
    if let (Ok(style), Some(head)) = (document.create_element("style"), document.head()) {
        let _ = style.set_attribute("data-css", "design");
        style.set_text_content(Some(STYLE));
        let _ = head.append_child(&style);
    }
}

/// "Open in Code section" of a pattern's code (`widgets::show_code`) sets the section to Code
/// with the code waiting: here that is handed to the playground, which shows it.
fn hand_code_over() {
    let section = Navigation::new(Section::Design);
    provide_context(section);
    let link = crate::ui::state::code_link::CodeLink::provide();
    Effect::new(move |_| {
        if section.get() != Section::Code {
            return;
        }
        let text = link.to_open.get_untracked();
        link.to_open.set(String::new());
        section.set(Section::Design);
        if let Ok(bridge) = bridge::Bridge::get() {
            let _ = bridge.open_code(&text);
        }
    });
}

#[component]
fn DesignSection() -> impl IntoView {
    hand_code_over();
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
        <two_target::TwoTargetPanel />
        <compare::ComparePanel />
    }
}

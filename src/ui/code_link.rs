//! What the Code section shares with the other panels, kept outside [`Workspace`] so the
//! start-up code does not grow (every panel copies the workspace into its closures):
//!
//! - the code "Open in Code section" hands to the editor (`show_code` → `code_panel`), made
//!   on first use;
//! - the query panel's `$select` and `$top` fields, which the wire log's "Open in Query" fills
//!   (the panel registers them when it is built).
//!
//! [`Workspace`]: super::workspace::Workspace

use leptos::prelude::*;
use std::cell::Cell;

thread_local! {
    /// Code for the Code section's editor; empty: nothing to load. Taken once shown.
    static TO_OPEN: ArcRwSignal<String> = ArcRwSignal::new(String::new());
    /// The query panel's `$select` and `$top` texts, once it is built.
    static QUERY_FIELDS: Cell<Option<(RwSignal<String>, RwSignal<String>)>> = const { Cell::new(None) };
}

/// The code waiting for the Code section's editor (tracked where read reactively).
pub fn code_to_open() -> ArcRwSignal<String> {
    TO_OPEN.with(Clone::clone)
}

/// Called by the query panel when it is built.
pub fn register_query_fields(select: RwSignal<String>, top: RwSignal<String>) {
    QUERY_FIELDS.with(|f| f.set(Some((select, top))));
}

/// The query panel's `$select` and `$top`, if it has been built.
pub fn query_fields() -> Option<(RwSignal<String>, RwSignal<String>)> {
    QUERY_FIELDS.with(Cell::get)
}

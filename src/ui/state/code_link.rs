//! What the Code section shares with the other panels, kept outside [`Workspace`] so the
//! start-up code does not grow (every panel copies the workspace into its closures):
//!
//! - the code "Open in Code section" hands to the editor (`show_code` → `code_panel`), made
//!   on first use;
//! - the query panel's `$select` and `$top` fields and its way of loading a `$filter` (into the
//!   raw editor and the builder), which the wire log's "Open in Query" uses (the panel
//!   registers them when it is built).
//!
//! [`Workspace`]: super::workspace::Workspace

use leptos::prelude::*;
use std::cell::Cell;

// Thread-locals, not context. Both are made on first use, so none of their code runs while
// the page starts and the split build leaves it out of the first download (the page load is
// within a few hundred bytes of its 300 KB budget; provided by the app, they would be made on
// the start path). And show-as-code hands code over the same way inside the Design module,
// whose own wasm and Leptos runtime have no app context.
thread_local! {
    /// Code for the Code section's editor; empty: nothing to load. Taken once shown.
    static TO_OPEN: ArcRwSignal<String> = ArcRwSignal::new(String::new());
    /// The query panel's fields, once it is built.
    static QUERY_FIELDS: Cell<Option<QueryFields>> = const { Cell::new(None) };
}

/// The address fragment that opens the Code section with its code (a docs embed's code cell
/// links to `./#code=<the code, URI-encoded>`).
pub const CODE_FRAGMENT: &str = "#code=";

/// The code the address brings (`#code=…`), taken once: the fragment is dropped from the
/// address, so a reload keeps the editor's own text.
pub fn take_code_in_address() -> Option<String> {
    let fragment = crate::ui::kit::address::page_fragment();
    let encoded = fragment.strip_prefix(CODE_FRAGMENT)?;
    let code = js_sys::decode_uri_component(encoded).ok()?.as_string()?;
    crate::ui::kit::address::clear_fragment();
    Some(code)
}

/// The code waiting for the Code section's editor (tracked where read reactively).
pub fn code_to_open() -> ArcRwSignal<String> {
    TO_OPEN.with(Clone::clone)
}

/// What another section may set in a built query panel.
#[derive(Clone, Copy)]
pub struct QueryFields {
    pub select: RwSignal<String>,
    pub top: RwSignal<String>,
    /// Loads a `$filter` into the raw editor and, when it has the builder's shape, the builder.
    pub load_filter: Callback<String>,
}

/// Called by the query panel when it is built.
pub fn register_query_fields(fields: QueryFields) {
    QUERY_FIELDS.with(|f| f.set(Some(fields)));
}

/// The query panel's fields, if it has been built.
pub fn query_fields() -> Option<QueryFields> {
    QUERY_FIELDS.with(Cell::get)
}

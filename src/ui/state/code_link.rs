//! What the Code section shares with the other panels, a `Copy` handle in context (the app
//! provides it; the Design module, with a Leptos runtime of its own, provides its own):
//!
//! - the code "Open in Code section" hands to the editor (`show_code` → `code_panel`);
//! - the query panel's `$select` and `$top` fields and its way of loading a `$filter` (into the
//!   raw editor and the builder), which the wire log's "Open in Query" uses (the panel
//!   registers them when it is built).

use leptos::prelude::*;

/// The handle: both parts are signals, so a reader re-runs when they change.
#[derive(Clone, Copy)]
pub struct CodeLink {
    /// Code for the Code section's editor; empty: nothing to load. Taken once shown.
    pub to_open: RwSignal<String>,
    /// The query panel's fields, once it is built.
    query_fields: RwSignal<Option<QueryFields>>,
}

impl CodeLink {
    /// Makes the handle and provides it to the components below.
    pub fn provide() -> Self {
        let link = CodeLink {
            to_open: RwSignal::new(String::new()),
            query_fields: RwSignal::new(None),
        };
        provide_context(link);
        link
    }

    /// The handle the app (or the Design module) provided.
    pub fn expect() -> Self {
        expect_context()
    }

    /// Called by the query panel when it is built.
    pub fn register_query_fields(&self, fields: QueryFields) {
        self.query_fields.set(Some(fields));
    }

    /// The query panel's fields, if it has been built.
    pub fn query_fields(&self) -> Option<QueryFields> {
        self.query_fields.get_untracked()
    }
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

/// What another section may set in a built query panel.
#[derive(Clone, Copy)]
pub struct QueryFields {
    pub select: RwSignal<String>,
    pub top: RwSignal<String>,
    /// Loads a `$filter` into the raw editor and, when it has the builder's shape, the builder.
    pub load_filter: Callback<String>,
}

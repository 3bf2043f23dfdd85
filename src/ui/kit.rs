//! The bottom floor: DOM and page helpers that know nothing of the app. Form fields, inline
//! confirmations' focus, dynamic imports and the host of a section's own wasm module, fetching
//! the page's files, and the SDK transport's JavaScript values.
//!
//! Imports nothing from `ui` but `text` (the floor beside it).

pub mod address;
pub mod confirm;
pub mod dom;
pub mod dynamic;
pub mod fetch;
pub mod fields;
pub mod module_host;
pub mod wire_js;

//! The playground's panels, each in the page's own wasm: tables, data (with the entity editor
//! and the welcome), query, batch, storage and its banner, the account's service (Table storage
//! or Cosmos DB for Table), the account's settings, and the Code section.
//!
//! A panel imports from `widgets`, `state`, `text` and `kit`, never from another panel: what
//! two panels share moves down to `widgets` or `state`.

pub mod banner;
pub mod batch_panel;
pub mod code_panel;
pub mod data_panel;
pub mod query_panel;
pub mod settings_panel;
pub mod storage_panel;
pub mod tables_panel;
pub mod target_panel;

//! Views that panels and sections share: the entity grid with its columns and row selection,
//! the error notice, the filter editor, a run's results and scan meter, show-as-code, the
//! partition map, Markdown, share links, a request-unit estimate, and a query or a batch run
//! on both targets.
//!
//! Imports from `state`, `text` and `kit`; widgets may use one another.

pub mod batch_compare;
pub mod columns;
pub mod entity_grid;
pub mod entity_view;
pub mod error_notice;
pub mod filter_editor;
pub mod grid_rows;
pub mod grid_select;
pub mod markdown;
pub mod partition_map;
pub mod results;
pub mod ru;
pub mod share;
pub mod show_code;
pub mod target_compare;

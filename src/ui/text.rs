//! The bottom floor, beside `kit`: what the app says, through the catalogues. The engine's
//! errors and explanations, the import's problems, the notices, and a lesson file's
//! translated strings.
//!
//! Imports nothing from `ui` but `kit`.

pub mod error_text;
pub mod explain_text;
pub mod import_text;
pub mod localized;
pub mod notice_text;
pub mod target_text;

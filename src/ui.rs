//! The Leptos app: one panel per file, one small `Copy` app state shared through context.
//!
//! - `app`: the page frame (header, main area) and the account the page runs on.
//! - `state`: [`AppState`], the account plus a revision counter, and the commands views call.
//! - `tables_panel`: create, list and delete tables.
//! - `error_notice`: the service's error, shown inline where the request was made.
//!
//! Views hold no domain logic: they call [`AppState`] commands and render what comes back.
//! User text is always rendered as text nodes, never as HTML.

mod app;
mod error_notice;
mod state;
mod tables_panel;
pub mod teach;

pub use app::App;
pub use state::AppState;

/// Mounts the app on `<body>` for the page's lifetime.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}

//! Tablescope: an Azure Table storage playground that runs entirely in the browser.
//!
//! - [`engine`]: the table service itself, pure Rust (native and wasm32): the
//!   `tablescope-engine` crate in `crates/engine`, re-exported here.
//! - [`code`]: "show as code", any request as raw HTTP, JavaScript, Python, C# or Java.
//! - `persist`: IndexedDB persistence (wasm32 only).
//! - `ui`: the Leptos app (wasm32 only).
#![forbid(unsafe_code)]

pub use tablescope_engine as engine;

pub mod code;

#[cfg(target_arch = "wasm32")]
pub mod i18n;
#[cfg(target_arch = "wasm32")]
pub mod persist;
#[cfg(all(feature = "serve", not(target_arch = "wasm32")))]
pub mod serve;
#[cfg(target_arch = "wasm32")]
pub mod split;
#[cfg(target_arch = "wasm32")]
pub mod ui;

/// The app's version, shown in the UI.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

//! Tablescope: an Azure Table storage playground that runs entirely in the browser.
//!
//! - [`engine`]: the table service itself, pure Rust (native and wasm32): the
//!   `tablescope-engine` crate in `crates/engine`, re-exported here.
//! - [`wire`]: the service's REST protocol over the engine (`crates/wire`), the in-page
//!   transport's other half.
//! - [`design`]: the Design studio's model (`crates/design`).
//! - [`code`]: "show as code", any request as raw HTTP, JavaScript, Python, C# or Java
//!   (`crates/codegen`).
//! - `persist`: IndexedDB persistence (wasm32 only).
//! - `ui`: the Leptos app (wasm32 only).
#![forbid(unsafe_code)]

pub use tablescope_codegen as code;
pub use tablescope_design as design;
pub use tablescope_engine as engine;
pub use tablescope_wire as wire;

#[cfg(target_arch = "wasm32")]
pub mod i18n;
pub mod modules;
#[cfg(target_arch = "wasm32")]
pub mod persist;
#[cfg(target_arch = "wasm32")]
pub mod split;
#[cfg(target_arch = "wasm32")]
pub mod ui;

/// The app's version, shown in the UI.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

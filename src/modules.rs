//! The modules the page loads lazily, each a wasm of its own (`src/bin/<name>.rs`), as
//! `www/modules.json` lists them: build.rs generates one constant per module from that file,
//! so a module's files are named in one place.

/// One lazily loaded module's files, relative to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LazyModule {
    /// Its name in `www/modules.json` (and its `src/bin/` file).
    pub name: &'static str,
    /// Its wasm-bindgen glue (`learn.js`).
    pub js: &'static str,
    /// Its wasm (`learn_bg.wasm`).
    pub wasm: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/modules.rs"));

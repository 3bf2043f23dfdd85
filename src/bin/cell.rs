//! A docs embed's code cell as its own wasm: `?embed=1&snippet=…` or
//! `?embed=1&code=…` (see `ui::sections::cell`). The lessons module with the Code section's editor would
//! not fit a docs embed's 300 KB budget, so this module carries the engine, its wire protocol
//! and a few DOM nodes, and no Leptos.
//!
//! Nothing runs at start; the embed's start script (www/start.js) calls
//! [`mount_cell`].

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Mounts the code cell on `<body>`, as the page's query asks.
    #[wasm_bindgen]
    pub fn mount_cell() {
        tablescope::ui::sections::cell::mount();
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The code cell runs in the browser: use `scripts/run.sh` (see README.md).");
}

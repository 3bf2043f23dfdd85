//! The docs embed's entry point: one lesson, with its partition maps and a box to try your own
//! query, built as a wasm of its own so an embed downloads neither the playground nor the
//! Learn section's list of lessons (`src/bin/learn.rs`).
//!
//! Nothing runs at start; an embed page (`?embed=1`, see www/start.js) calls [`mount_embed`].

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Mounts the docs embed on `<body>`, as the page's query asks.
    #[wasm_bindgen]
    pub fn mount_embed() {
        tablescope::ui::sections::teach::mount_embed();
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The lesson embed runs in the browser: use `scripts/run.sh` (see README.md).");
}

//! The lessons module's entry point: the scenario player, the simulator and the docs embed,
//! built as their own wasm so the playground's first download does not carry them.
//!
//! Nothing runs at start; the page calls an export. The playground's Learn section calls
//! [`mount_learn`] the first time it is shown (`ui::sections::teach::lazy`), and an embed page
//! (`?embed=1`, see www/start.js) calls [`mount_embed`].

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Mounts the scenario list, the player and the simulator into `host`.
    #[wasm_bindgen]
    pub fn mount_learn(host: web_sys::HtmlElement) {
        tablescope::ui::sections::teach::mount_learn(host);
    }

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
    eprintln!("The lessons module runs in the browser: use `trunk serve` (see README.md).");
}

//! The Connect section's entry point, built as its own wasm so that
//! neither the playground's first download nor its deferred wasm carries it.
//!
//! Nothing runs at start; the playground's Connect section calls [`mount_connect`] the first
//! time it is shown (`ui::sections::connect::host`), with the bridge to the page's sandbox.

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen::JsValue;

    /// Mounts the Connect section into `host`; `bridge` is what the page offers the section
    /// (`ui::sections::connect::bridge`).
    #[wasm_bindgen]
    pub fn mount_connect(host: web_sys::HtmlElement, bridge: JsValue) {
        tablescope::ui::sections::connect::mount(host, bridge);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The Connect module runs in the browser: use `scripts/run.sh` (see README.md).");
}

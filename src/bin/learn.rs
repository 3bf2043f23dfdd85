//! The lessons module's entry point: the Learn section's list of lessons and the scenario
//! player, built as their own wasm so the playground's first download does not
//! carry them. (A docs embed has a module of its own, `src/bin/lesson.rs`.)
//!
//! Nothing runs at start; the playground's Learn section calls [`mount_learn`] the first time
//! it is shown (`ui::sections::teach::lazy`).

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Mounts the scenario list, the player and the simulator into `host`.
    #[wasm_bindgen]
    pub fn mount_learn(host: web_sys::HtmlElement) {
        tablescope::ui::sections::teach::mount_learn(host);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The lessons module runs in the browser: use `scripts/run.sh` (see README.md).");
}

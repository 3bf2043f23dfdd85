//! The Design section's module: the design editor, the data generator, the
//! evaluation, the projection, the checklist and the comparison, built as their own wasm so
//! the playground's first download does not carry them.
//!
//! Nothing runs at start; the playground calls [`mount_design`] the first time the section is
//! shown (`ui::sections::design::host`), with a bridge to its sandbox account and workspace (the two
//! modules share no memory; the contract is in `ui::sections::design::bridge`).

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen::JsValue;

    /// Mounts the section into `host`; throws (with the reason) when `bridge` lacks a function.
    #[wasm_bindgen]
    pub fn mount_design(host: web_sys::HtmlElement, bridge: JsValue) -> Result<(), JsValue> {
        tablescope::ui::sections::design::mount_design(host, bridge)
            .map_err(|e| JsValue::from_str(&e))
    }

    /// In the generator's Web Worker (`www/design-worker.js`): starts a run of `design` (its
    /// JSON) into `tables` (`[[name, entities], …]`, created by the page).
    #[wasm_bindgen]
    pub fn design_worker_start(design: &str, tables: JsValue) -> Result<(), JsValue> {
        tablescope::ui::sections::design::offthread::worker_start(design, &tables)
            .map_err(|e| JsValue::from_str(&e))
    }

    /// In the generator's Web Worker: the next slice of up to `max` entities, as chunks.
    #[wasm_bindgen]
    pub fn design_worker_step(max: f64) -> Result<JsValue, JsValue> {
        tablescope::ui::sections::design::offthread::worker_step(max)
            .map_err(|e| JsValue::from_str(&e))
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The Design module runs in the browser: use `scripts/run.sh` (see README.md).");
}

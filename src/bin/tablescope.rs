//! The browser entry point: install the panic hook and mount the app.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    tablescope::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Tablescope runs in the browser: use `scripts/run.sh` (see README.md).");
}

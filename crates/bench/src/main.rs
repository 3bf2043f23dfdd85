//! `engine-bench`: one run of the side-by-side workload through the engine.
//!
//! Natively: `engine-bench typed|execute < plan.json` prints the figures as JSON (one line).
//! Built for wasm32 (`cargo build --release --target wasm32-unknown-unknown -p
//! tablescope-bench`), the same code is a bare module (no JS glue) importing `env.now` (ms,
//! `performance.now`) and exporting `alloc`, `run` and `output_len`; see
//! `scripts/bench/lib/engine.mjs`, which drives it in headless Chromium.
#![cfg_attr(target_arch = "wasm32", no_main)]

use tablescope_bench::{run_json, Host, Path};

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::io::Read as _;
    let path = match std::env::args().nth(1).as_deref() {
        Some("typed") => Path::Typed,
        Some("execute") => Path::Execute,
        _ => {
            eprintln!("usage: engine-bench typed|execute < plan.json");
            std::process::exit(2);
        }
    };
    let mut plan = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut plan) {
        eprintln!("reading the plan: {e}");
        std::process::exit(2);
    }
    let host = native::Native {
        start: std::time::Instant::now(),
    };
    let out = run_json(&plan, path, &host);
    println!("{out}");
    if out.starts_with("{\"error\"") {
        std::process::exit(1);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::Host;

    pub struct Native {
        pub start: std::time::Instant,
    }

    impl Host for Native {
        fn now(&self) -> f64 {
            self.start.elapsed().as_secs_f64()
        }

        /// VmRSS from /proc (0 where there is none).
        fn memory_bytes(&self) -> u64 {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
                .map_or(0, |kb| kb * 1024)
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{run_json, Host, Path};
    use std::cell::RefCell;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// `performance.now()`: milliseconds.
        fn now() -> f64;
    }

    struct Browser;

    impl Host for Browser {
        fn now(&self) -> f64 {
            // SAFETY: an imported JS function with no arguments and no memory access.
            unsafe { now() / 1e3 }
        }

        /// The module's linear memory (it only grows: the high-water mark).
        fn memory_bytes(&self) -> u64 {
            core::arch::wasm32::memory_size(0) as u64 * 65_536
        }
    }

    thread_local! {
        static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
    }

    /// A buffer of `len` bytes for the plan's JSON; its address.
    #[no_mangle]
    pub extern "C" fn alloc(len: usize) -> *mut u8 {
        INPUT.with(|b| {
            let mut b = b.borrow_mut();
            *b = vec![0; len];
            b.as_mut_ptr()
        })
    }

    /// Runs the plan in the `alloc`ed buffer (path 0: typed, 1: execute); returns the address
    /// of the figures' JSON, `output_len` bytes long.
    #[no_mangle]
    pub extern "C" fn run(path: u32) -> *const u8 {
        let plan = INPUT.with(|b| String::from_utf8_lossy(&b.borrow()).into_owned());
        let path = if path == 0 {
            Path::Typed
        } else {
            Path::Execute
        };
        let out = run_json(&plan, path, &Browser);
        OUTPUT.with(|o| {
            *o.borrow_mut() = out;
            o.borrow().as_ptr()
        })
    }

    #[no_mangle]
    pub extern "C" fn output_len() -> usize {
        OUTPUT.with(|o| o.borrow().len())
    }
}

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
    /// The script of the Web Worker it runs in too, if any (`design-worker.js`).
    pub worker: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/modules.rs"));

/// Every module of `www/modules.json`, in its order.
pub const ALL: &[LazyModule] = &ALL_MODULES;

#[cfg(test)]
mod tests {
    use super::*;

    /// Trunk writes a `rel="rust"` link's bin as `<bin>.js` and `<bin>_bg.wasm`
    /// (`data-bin`, without a hash for the modules): a name or file in the list that does not
    /// follow would be a module the page never finds.
    #[test]
    fn each_module_is_named_as_trunk_writes_its_bin() {
        let names: Vec<&str> = ALL.iter().map(|m| m.name).collect();
        assert_eq!(
            names,
            ["learn", "lesson", "cell", "codegen", "connect", "design"]
        );
        for m in ALL {
            assert_eq!(m.js, format!("{}.js", m.name));
            assert_eq!(m.wasm, format!("{}_bg.wasm", m.name));
        }
        assert_eq!(DESIGN.worker, Some("design-worker.js"));
        assert_eq!(LESSON.worker, None);
    }
}

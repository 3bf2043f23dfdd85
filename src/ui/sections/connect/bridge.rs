//! What the Connect section, a wasm module of its own (`src/bin/connect.rs`), may ask of the
//! playground: the two run in separate wasm instances and share no memory, so the page hands
//! the module a JavaScript object of functions when it mounts it (`super::host`):
//!
//! ```text
//! tables()        → [[name, entities], …]   the sandbox's tables, as the tables list shows them
//! showTable(name)                           selects the table and shows the Entities section
//! openCode(text)                            opens the Code section with `text` in its editor
//! onChange(f)                               calls f() after every change of the sandbox
//! ```
//!
//! The sandbox's HTTP side is not here: the module sends its requests to
//! `window.tablescope.wire` (`crate::ui::state::wire_bridge`), as the in-page SDK does.
//!
//! Invariant: the page side is built once per page (the section's host is built once) and its
//! functions live as long as the page; a module-side call on a missing or broken bridge
//! answers nothing (no tables, no change), never panics.

use js_sys::{Array, Function, Object, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

// ---- the page's side (in the playground's wasm) ----

/// The bridge the host passes to the module.
pub fn page_side(
    state: crate::ui::state::AppState,
    workspace: crate::ui::state::workspace::Workspace,
    section: crate::ui::state::navigation::Navigation,
) -> JsValue {
    use leptos::prelude::*;
    let link = crate::ui::state::code_link::CodeLink::expect();
    let bridge = Object::new();
    let tables = Closure::<dyn Fn() -> JsValue>::new(move || {
        let list = Array::new();
        for t in state.describe_tables() {
            list.push(&Array::of2(
                &t.name.into(),
                &JsValue::from_f64(t.entities as f64),
            ));
        }
        list.into()
    });
    let show_table = Closure::<dyn Fn(JsValue)>::new(move |name: JsValue| {
        if let Some(name) = name.as_string() {
            workspace.table.set(Some(name));
            section.set(crate::ui::state::navigation::Section::Data);
        }
    });
    let open_code = Closure::<dyn Fn(JsValue)>::new(move |text: JsValue| {
        if let Some(text) = text.as_string() {
            link.to_open.set(text);
            section.set(crate::ui::state::navigation::Section::Code);
        }
    });
    let listeners = StoredValue::new_local(Vec::<Function>::new());
    let on_change = Closure::<dyn Fn(JsValue)>::new(move |f: JsValue| {
        if let Ok(f) = f.dyn_into::<Function>() {
            listeners.update_value(|l| l.push(f));
        }
    });
    // Every revision (a change of the sandbox) reaches the module's listeners.
    Effect::new(move |_| {
        state.revision();
        listeners.with_value(|l| {
            for f in l {
                let _ = f.call0(&JsValue::NULL);
            }
        });
    });
    for (name, f) in [
        ("tables", tables.as_ref()),
        ("showTable", show_table.as_ref()),
        ("openCode", open_code.as_ref()),
        ("onChange", on_change.as_ref()),
    ] {
        let _ = Reflect::set(&bridge, &name.into(), f);
    }
    tables.forget();
    show_table.forget();
    open_code.forget();
    on_change.forget();
    bridge.into()
}

// ---- the module's side (in the Connect module's wasm) ----

// A thread-local: the callback registry between two wasm modules. The page's bridge comes in
// at mount, before the module's views exist, and plain functions (not views) call through it.
thread_local! {
    /// The bridge the page mounted the module with.
    static BRIDGE: RefCell<JsValue> = const { RefCell::new(JsValue::NULL) };
}

/// Keeps the page's bridge for the calls below (at mount).
pub fn keep(bridge: JsValue) {
    BRIDGE.with(|b| *b.borrow_mut() = bridge);
}

fn call(name: &str, arg: Option<&JsValue>) -> JsValue {
    BRIDGE.with(|b| {
        let f = Reflect::get(&b.borrow(), &name.into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok());
        let Some(f) = f else {
            return JsValue::UNDEFINED;
        };
        match arg {
            Some(a) => f.call1(&JsValue::NULL, a),
            None => f.call0(&JsValue::NULL),
        }
        .unwrap_or(JsValue::UNDEFINED)
    })
}

/// The sandbox's tables and their entity counts.
pub fn sandbox_tables() -> Vec<(String, usize)> {
    let list = call("tables", None);
    if !Array::is_array(&list) {
        return Vec::new();
    }
    Array::from(&list)
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1).as_f64()? as usize))
        })
        .collect()
}

/// Shows `table` in the playground's Entities section.
pub fn show_table(table: &str) {
    call("showTable", Some(&table.into()));
}

/// Opens the playground's Code section with `text` in its editor.
pub fn open_code(text: &str) {
    call("openCode", Some(&text.into()));
}

/// Calls `f` after every change of the sandbox, for the page's lifetime.
pub fn on_change(f: impl Fn() + 'static) {
    let f = Closure::<dyn Fn()>::new(f);
    call("onChange", Some(f.as_ref()));
    f.forget();
}

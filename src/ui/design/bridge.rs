//! The Design section's way into the playground. The section is its own wasm (the `design`
//! bin, `src/design.rs`), so it shares no memory with the playground: the playground passes a
//! JavaScript object of functions when it mounts the section (`ui::design_host`), and this
//! file wraps it in typed calls.
//!
//! ```text
//! designText() -> string                 the workspace's design document ("" when none)
//! setDesignText(text)                    keeps it with the workspace (saved across reloads)
//! tables() -> [[name, entities], …]      the sandbox's tables
//! createTable(name), deleteTable(name)   saved like any table change; throw when refused
//! insert(table, [chunk, …]) -> undefined | [PartitionKey, RowKey, message]
//!                                        chunks in the persistence's format 2; written
//!                                        without saving; the first refusal stops it
//! save()                                 saves what `insert` wrote since, views re-read
//! wire(request) -> response              `window.tablescope.wire`: reads the sandbox
//! openCode(text)                         "Open in Code section"
//! ```
//!
//! Invariant: everything that crosses is checked; a missing function, a throw or an answer of
//! the wrong shape is an `Err` with the reason, which the section shows. Nothing here panics.

use js_sys::{Array, Function, Reflect, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    /// The bridge the playground mounted the section with (one per page).
    static BRIDGE: RefCell<Option<Bridge>> = const { RefCell::new(None) };
}

/// The functions the bridge must have.
const FUNCTIONS: [&str; 9] = [
    "designText",
    "setDesignText",
    "tables",
    "createTable",
    "deleteTable",
    "insert",
    "save",
    "wire",
    "openCode",
];

#[derive(Clone)]
pub struct Bridge(JsValue);

/// An entity the playground refused, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub partition_key: String,
    pub row_key: String,
    pub message: String,
}

impl Bridge {
    /// Checks `object` and keeps it for [`Bridge::get`].
    pub fn install(object: JsValue) -> Result<(), String> {
        if !object.is_object() {
            return Err("the Design section was mounted without a bridge".into());
        }
        for name in FUNCTIONS {
            let f = Reflect::get(&object, &name.into()).unwrap_or(JsValue::UNDEFINED);
            if !f.is_function() {
                return Err(format!("the bridge has no function {name}"));
            }
        }
        BRIDGE.with(|b| *b.borrow_mut() = Some(Bridge(object)));
        Ok(())
    }

    /// The installed bridge; `Err` when the section was not mounted through one.
    pub fn get() -> Result<Bridge, String> {
        BRIDGE
            .with(|b| b.borrow().clone())
            .ok_or_else(|| "the Design section has no bridge to the playground".into())
    }

    fn call(&self, name: &str, args: &[JsValue]) -> Result<JsValue, String> {
        let f: Function = Reflect::get(&self.0, &name.into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| format!("the bridge has no function {name}"))?;
        let args: Array = args.iter().collect();
        f.apply(&self.0, &args)
            .map_err(|e| crate::ui::dynamic::describe(&e))
    }

    pub fn design_text(&self) -> String {
        self.call("designText", &[])
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    }

    pub fn set_design_text(&self, text: &str) {
        let _ = self.call("setDesignText", &[text.into()]);
    }

    /// Every table with its entity count.
    pub fn tables(&self) -> Result<Vec<(String, u64)>, String> {
        let list = self.call("tables", &[])?;
        if !Array::is_array(&list) {
            return Err("the bridge's tables() is not a list".into());
        }
        Array::from(&list)
            .iter()
            .map(|pair| {
                let pair = Array::from(&pair);
                match (pair.get(0).as_string(), pair.get(1).as_f64()) {
                    (Some(name), Some(n)) if n >= 0.0 => Ok((name, n as u64)),
                    _ => Err("the bridge's tables() holds a bad entry".to_string()),
                }
            })
            .collect()
    }

    pub fn create_table(&self, name: &str) -> Result<(), String> {
        self.call("createTable", &[name.into()]).map(|_| ())
    }

    pub fn delete_table(&self, name: &str) -> Result<(), String> {
        self.call("deleteTable", &[name.into()]).map(|_| ())
    }

    /// Writes chunks of `table` without saving; the first entity refused stops it.
    pub fn insert(&self, table: &str, chunks: &[Vec<u8>]) -> Result<Option<Refused>, String> {
        let list: Array = chunks
            .iter()
            .map(|c| JsValue::from(Uint8Array::from(c.as_slice())))
            .collect();
        let answer = self.call("insert", &[table.into(), list.into()])?;
        if answer.is_undefined() || answer.is_null() {
            return Ok(None);
        }
        let a = Array::from(&answer);
        match (
            a.get(0).as_string(),
            a.get(1).as_string(),
            a.get(2).as_string(),
        ) {
            (Some(partition_key), Some(row_key), Some(message)) => Ok(Some(Refused {
                partition_key,
                row_key,
                message,
            })),
            _ => Err("the bridge's insert() answered in an unknown form".into()),
        }
    }

    /// Saves everything written since the last save.
    pub fn save(&self) -> Result<(), String> {
        self.call("save", &[]).map(|_| ())
    }

    /// One request to the sandbox, as `window.tablescope.wire` takes it.
    pub fn wire(&self, request: &JsValue) -> Result<JsValue, String> {
        let response = self.call("wire", std::slice::from_ref(request))?;
        if response.is_object() {
            Ok(response)
        } else {
            Err("the bridge's wire() did not answer".into())
        }
    }

    pub fn open_code(&self, text: &str) -> Result<(), String> {
        self.call("openCode", &[text.into()]).map(|_| ())
    }
}

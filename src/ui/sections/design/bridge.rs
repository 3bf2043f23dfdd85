//! The Design section's way into the playground. The section is its own wasm (the `design`
//! bin, `src/bin/design.rs`), so it shares no memory with the playground: the playground passes a
//! JavaScript object of functions when it mounts the section (`sections::design::host`), and this
//! file wraps it in typed calls.
//!
//! ```text
//! call([op, a, b]) -> answer    op: a number of `sections::design::host::op`, which documents each
//!                               (the evaluator's query pages: `op::QUERY`)
//! wire(request) -> response     `window.tablescope.wire`: reads the sandbox
//! ```
//!
//! `call` has the signature of `window.tablescope.wire`, and its operations are numbers, so
//! the playground's wasm gains no JS glue and no text for it.
//!
//! Invariant: everything that crosses is checked; a missing function, a throw or an answer of
//! the wrong shape is an `Err` with the reason, which the section shows. Nothing here panics.

use crate::design::DataPage;
use crate::engine::query::{Continuation, QueryOptions, QueryStats};
use crate::engine::QueryKind;
use js_sys::{Array, Function, Reflect, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

// A thread-local: the callback registry between two wasm modules. The page's bridge comes in
// at mount, before the module's views exist, and plain functions (not views) call through it.
thread_local! {
    /// The bridge the playground mounted the section with (one per page).
    static BRIDGE: RefCell<Option<Bridge>> = const { RefCell::new(None) };
}

use crate::ui::sections::design::host::op;

/// The functions the bridge must have.
const FUNCTIONS: [&str; 2] = ["call", "wire"];

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

    fn function(&self, name: &str) -> Result<Function, String> {
        Reflect::get(&self.0, &name.into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| format!("the bridge has no function {name}"))
    }

    /// `call([op, …args])`; a throw is the `Err`, in words.
    fn call(&self, op: u32, args: &[JsValue]) -> Result<JsValue, String> {
        let list: Array = std::iter::once(JsValue::from(op))
            .chain(args.iter().cloned())
            .collect();
        self.function("call")?
            .call1(&self.0, &list)
            .map_err(|e| crate::ui::kit::dynamic::describe(&e))
    }

    /// Every table with its entity count.
    pub fn tables(&self) -> Result<Vec<(String, u64)>, String> {
        let list = self.call(op::TABLES, &[])?;
        if !Array::is_array(&list) {
            return Err("the bridge's table list is not a list".into());
        }
        Array::from(&list)
            .iter()
            .map(|pair| {
                let pair = Array::from(&pair);
                match (pair.get(0).as_string(), pair.get(1).as_f64()) {
                    (Some(name), Some(n)) if n >= 0.0 => Ok((name, n as u64)),
                    _ => Err("the bridge's table list holds a bad entry".to_string()),
                }
            })
            .collect()
    }

    pub fn create_table(&self, name: &str) -> Result<(), String> {
        self.call(op::CREATE_TABLE, &[name.into()]).map(|_| ())
    }

    pub fn delete_table(&self, name: &str) -> Result<(), String> {
        self.call(op::DELETE_TABLE, &[name.into()]).map(|_| ())
    }

    /// Writes chunks (`Uint8Array`s) of `table` without saving; the first entity refused
    /// stops it.
    pub fn insert(&self, table: &str, chunks: &Array) -> Result<Option<Refused>, String> {
        let answer = self.call(op::INSERT, &[table.into(), chunks.into()])?;
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
            _ => Err("the bridge answered an insert in an unknown form".into()),
        }
    }

    /// Saves everything written since the last save.
    pub fn save(&self) -> Result<(), String> {
        self.call(op::SAVE, &[]).map(|_| ())
    }

    /// Holds every save back until [`Bridge::release`] (see `op::HOLD`).
    pub fn hold(&self) -> Result<(), String> {
        self.call(op::HOLD, &[]).map(|_| ())
    }

    /// Ends [`Bridge::hold`] and saves everything written meanwhile, as one transaction.
    pub fn release(&self) -> Result<(), String> {
        self.call(op::RELEASE, &[]).map(|_| ())
    }

    /// One page of a query (`op::QUERY`): the page's counts and continuation, and its first
    /// `keep` entities. The page ends where the engine's would for the same options (its
    /// scan budget included).
    pub fn query(
        &self,
        table: &str,
        options: &QueryOptions,
        keep: usize,
    ) -> Result<DataPage, String> {
        let c = options.continuation.as_ref();
        let text = |s: Option<&String>| s.map_or(JsValue::UNDEFINED, |s| s.as_str().into());
        let answer = self.call(
            op::QUERY,
            &[
                table.into(),
                options.filter.as_deref().unwrap_or_default().into(),
                options.top.map_or(JsValue::UNDEFINED, JsValue::from),
                text(c.map(|c| &c.next_partition_key)),
                text(c.map(|c| &c.next_row_key)),
                (keep as f64).into(),
                options
                    .page_budget
                    .map_or(JsValue::UNDEFINED, |b| (b as f64).into()),
            ],
        )?;
        let bad = || "the bridge answered a query in an unknown form".to_string();
        if !Array::is_array(&answer) {
            return Err(bad());
        }
        let a = Array::from(&answer);
        let count = |i: u32| {
            a.get(i)
                .as_f64()
                .filter(|n| *n >= 0.0)
                .map(|n| n as u64)
                .ok_or_else(bad)
        };
        let kind = [
            QueryKind::Point,
            QueryKind::PartitionRange,
            QueryKind::PartitionScan,
            QueryKind::TableRange,
            QueryKind::TableScan,
        ]
        .get(count(3)? as usize)
        .copied()
        .ok_or_else(bad)?;
        let stats = QueryStats {
            scanned: count(0)?,
            returned: count(1)?,
            partitions: count(2)?,
            kind,
            // Not sent: a page of its own, never summed with another's.
            continues_partition: false,
        };
        let continuation = match (a.get(4).as_string(), a.get(5).as_string()) {
            (Some(next_partition_key), Some(next_row_key)) => Some(Continuation {
                next_partition_key,
                next_row_key,
            }),
            _ => None,
        };
        let mut names = crate::persist::codec::Names::default();
        let mut entities = Vec::new();
        let chunks = a.get(7);
        if !Array::is_array(&chunks) {
            return Err(bad());
        }
        for chunk in Array::from(&chunks).iter() {
            let bytes = chunk.dyn_into::<Uint8Array>().map_err(|_| bad())?;
            entities.extend(crate::persist::binary::decode(&bytes.to_vec(), &mut names)?.1);
        }
        Ok(DataPage {
            entities,
            continuation,
            stats,
            last_partition_key: a.get(6).as_string(),
        })
    }

    /// One request to the sandbox, as `window.tablescope.wire` takes it.
    pub fn wire(&self, request: &JsValue) -> Result<JsValue, String> {
        let response = self
            .function("wire")?
            .call1(&JsValue::NULL, request)
            .map_err(|e| crate::ui::kit::dynamic::describe(&e))?;
        if response.is_object() {
            Ok(response)
        } else {
            Err("the bridge's wire did not answer".into())
        }
    }

    pub fn open_code(&self, text: &str) -> Result<(), String> {
        self.call(op::OPEN_CODE, &[text.into()]).map(|_| ())
    }
}

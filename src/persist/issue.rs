//! Issuing a save's transaction: the plan's operations on the stores, after a check that the
//! store is still at the `seq` the plan was made against, and the transaction's outcome.

use super::error::PersistError;
use super::layout::{self, CHUNK_STORE, META_KEY, META_STORE};
use super::plan::{Op, Plan};
use idb::TransactionResult;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// An issued transaction.
pub(super) struct Issued {
    pub committing: idb::TransactionFuture,
    pub raw: web_sys::IdbTransaction,
    /// The check's request, kept alive until the transaction ends (it owns the callback).
    pub _guard: Option<idb::request::GetStoreRequest>,
    /// Set when the check found another `seq`.
    pub stale: Rc<Cell<bool>>,
}

impl Issued {
    pub async fn outcome(self) -> Result<(), PersistError> {
        let Issued {
            committing,
            raw,
            _guard,
            stale,
        } = self;
        let result = committing.await;
        drop(_guard);
        // An abort may come back as `Aborted` or as an error about the event's target
        // (depending on which event ends it): the reason is read from the transaction.
        match result {
            Ok(TransactionResult::Committed) => Ok(()),
            _ if stale.get() => Err(PersistError::Other(
                "an earlier save failed, so this one was not written either".into(),
            )),
            _ => Err(raw
                .error()
                .map(|e| PersistError::from_dom_exception(&e))
                .unwrap_or_else(|| PersistError::Other("the transaction was aborted".into()))),
        }
    }
}

/// Issues the plan's operations on the transaction's stores; returns the raw transaction, to
/// read its error if it aborts.
#[allow(clippy::type_complexity)]
pub(super) fn issue_ops(
    tx: &idb::Transaction,
    plan: &Plan,
    check: Option<u64>,
) -> Result<
    (
        web_sys::IdbTransaction,
        Option<idb::request::GetStoreRequest>,
        Rc<Cell<bool>>,
    ),
    PersistError,
> {
    let chunks = tx.object_store(CHUNK_STORE)?;
    let meta = tx.object_store(META_STORE)?;
    let raw: web_sys::IdbTransaction = chunks.transaction().into();
    let stale = Rc::new(Cell::new(false));
    // The check comes first: requests run in order, and a transaction cannot commit before
    // every success handler has run, so an abort there undoes every write below.
    let guard = match check {
        None => None,
        Some(expected) => {
            use idb::request::Request as _;
            let mut request = meta.get(JsValue::from_str(META_KEY))?;
            let (on_stale, tx_raw) = (stale.clone(), raw.clone());
            request.on_success(move |event| {
                let seq = idb::event::Event::target(&event)
                    .ok()
                    .and_then(|target| target.result().ok())
                    .and_then(|meta| js_sys::Reflect::get(&meta, &JsValue::from_str("seq")).ok())
                    .and_then(|seq| seq.as_f64())
                    .map_or(0, |seq| seq as u64);
                if seq != expected {
                    on_stale.set(true);
                    let _ = tx_raw.abort();
                }
            });
            Some(request)
        }
    };
    for op in &plan.ops {
        match op {
            Op::Clear => {
                chunks.clear()?;
            }
            Op::DeleteTable(table) => {
                let (lower, upper) = layout::table_key_range(table);
                let range = idb::KeyRange::bound(
                    &JsValue::from_str(&lower),
                    &JsValue::from_str(&upper),
                    Some(false),
                    Some(true),
                )?;
                chunks.delete(range)?;
            }
            Op::Delete(key) => {
                chunks.delete(JsValue::from_str(key))?;
            }
            Op::Put { key, value } => {
                let bytes = js_sys::Uint8Array::from(value.as_slice());
                chunks.put(&bytes, Some(&JsValue::from_str(key)))?;
            }
        }
    }
    let meta_text =
        serde_json::to_string(&plan.meta).map_err(|e| PersistError::Other(e.to_string()))?;
    let meta_value = js_sys::JSON::parse(&meta_text).map_err(|e| PersistError::from_js(&e))?;
    meta.put(&meta_value, Some(&JsValue::from_str(META_KEY)))?;
    Ok((raw, guard, stale))
}

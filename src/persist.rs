//! The account in IndexedDB: the only module that touches it.
//!
//! Layout (see [`layout`]): database `tablescope-<namespace>`; a `meta` record listing the
//! tables, and `chunks` records of at most [`MAX_CHUNK`] entities each, keyed
//! `"<Table>/<PartitionKey>/<chunkStartRowKey>"` and holding the entities as a JSON string.
//! The cost of IndexedDB is per record, not per byte (`/work/shared/PERSISTENCE.md`), so records
//! of many entities load 100,000 entities in well under a second, while the bound on a chunk
//! keeps one write small.
//!
//! Writing follows the engine's change feed: [`Persist::save`] writes all the change sets it is
//! given in *one* readwrite transaction, so a batch (one change set) is atomic on disk, and it
//! rewrites only the chunks the changes touched. An [`Change::AccountReplaced`](crate::engine::Change)
//! (import, reset) clears the store and rewrites everything in one transaction.
//!
//! The namespace `sandbox` holds the user's own data; documentation embeds and scenarios use
//! other namespaces, so they never touch it.

mod codec;
mod error;
pub mod layout;
pub mod lock;
mod plan;
mod session;
mod storage;

pub use error::PersistError;
pub use layout::{db_name, MAX_CHUNK};
pub use session::{attach, detach, is_attached, record, saves_in_flight};
pub use storage::{estimate, request_persistent};

use crate::engine::{cmp_utf16, Account, ChangeSet, DateTime, Table};
use idb::{Database, Factory, ObjectStoreParams, TransactionMode, TransactionResult};
use layout::{Index, Meta, CHUNK_STORE, DB_VERSION, FORMAT, META_KEY, META_STORE};
use plan::{Op, Plan};
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::future::{Future, IntoFuture};
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::JsValue;

/// The namespace of the user's own data.
pub const SANDBOX: &str = "sandbox";

/// An open database for one namespace, and what it knows of the chunks on disk.
///
/// Invariant: unless `needs_full_write` is set, `index` describes exactly the chunk records
/// that the transactions issued so far leave on disk. A failed transaction, or a save before
/// any load, sets the flag, and the next save clears the store and rewrites everything.
pub struct Persist {
    namespace: String,
    db: Rc<Database>,
    index: Index,
    last_timestamp: DateTime,
    needs_full_write: Rc<Cell<bool>>,
    /// Set when another tab upgrades or deletes the database: this connection is closed.
    closed: Rc<Cell<bool>>,
    transactions: Rc<Cell<u64>>,
}

impl Persist {
    /// Opens (creating or upgrading if needed) the database of a namespace.
    pub async fn open(namespace: &str) -> Result<Persist, PersistError> {
        let factory = Factory::new().map_err(|e| PersistError::Unavailable(e.to_string()))?;
        let mut request = factory
            .open(&db_name(namespace), Some(DB_VERSION))
            .map_err(|e| PersistError::Unavailable(e.to_string()))?;
        request.on_upgrade_needed(|event| {
            use idb::event::DatabaseEvent;
            // Errors here abort the upgrade, and the open request then fails.
            if let Ok(db) = event.database() {
                let names = db.store_names();
                for store in [META_STORE, CHUNK_STORE] {
                    if !names.iter().any(|n| n == store) {
                        let _ = db.create_object_store(store, ObjectStoreParams::new());
                    }
                }
            }
        });
        let blocked: Rc<RefCell<(bool, Option<Waker>)>> = Rc::default();
        let on_blocked = blocked.clone();
        request.on_blocked(move |_| {
            let mut state = on_blocked.borrow_mut();
            state.0 = true;
            if let Some(waker) = state.1.take() {
                waker.wake();
            }
        });
        let mut opening = Box::pin(request.into_future());
        let opened = std::future::poll_fn(|cx| {
            if let Poll::Ready(result) = opening.as_mut().poll(cx) {
                return Poll::Ready(result.map_err(open_error));
            }
            let mut state = blocked.borrow_mut();
            if state.0 {
                return Poll::Ready(Err(PersistError::Blocked));
            }
            state.1 = Some(cx.waker().clone());
            Poll::Pending
        })
        .await;
        let mut db = opened?;
        let closed = Rc::new(Cell::new(false));
        let on_change = closed.clone();
        db.on_version_change(move |event| {
            // Another tab wants to upgrade or delete the database: let it, and stop writing.
            on_change.set(true);
            if let Some(target) = event.target() {
                if let Ok(db) = Database::try_from(target) {
                    db.close();
                }
            }
        });
        Ok(Persist {
            namespace: namespace.to_string(),
            db: Rc::new(db),
            index: Index::default(),
            last_timestamp: DateTime::MIN,
            needs_full_write: Rc::new(Cell::new(true)),
            closed,
            transactions: Rc::new(Cell::new(0)),
        })
    }

    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Loads the stored account (an empty one when nothing is stored yet).
    pub async fn load(&mut self) -> Result<Account, PersistError> {
        self.load_into(Account::default()).await
    }

    /// Loads the stored tables into `account` (e.g. one with the browser's clock), replacing
    /// any tables it has and discarding its pending changes.
    pub async fn load_into(&mut self, mut account: Account) -> Result<Account, PersistError> {
        let tx = self
            .db
            .transaction(&[META_STORE, CHUNK_STORE], TransactionMode::ReadOnly)?;
        let meta_store = tx.object_store(META_STORE)?;
        let chunk_store = tx.object_store(CHUNK_STORE)?;
        let meta = meta_store.get(JsValue::from_str(META_KEY))?.into_future();
        let keys = chunk_store.get_all_keys(None, None)?.into_future();
        let values = chunk_store.get_all(None, None)?.into_future();
        let (meta, keys, values) = (meta.await?, keys.await?, values.await?);

        let meta = match meta {
            Some(value) => Some(decode_meta(&value)?),
            None if keys.is_empty() => None,
            None => {
                return Err(PersistError::corrupt(
                    META_KEY,
                    "the meta record is missing",
                ))
            }
        };
        let mut index = Index::default();
        let mut names = codec::Names::default();
        let mut last = DateTime::MIN;
        let mut tables: HashMap<String, Table> = HashMap::new();
        if let Some(meta) = &meta {
            for name in &meta.tables {
                if tables.insert(name.clone(), Table::new(name)).is_some() {
                    return Err(PersistError::corrupt(
                        META_KEY,
                        format!("table {name} is listed twice"),
                    ));
                }
            }
            if let Ok(t) = DateTime::parse(&meta.last_timestamp) {
                last = t;
            }
        }
        if keys.len() != values.len() {
            return Err(PersistError::Other(
                "the browser returned keys and values that do not match".into(),
            ));
        }
        for (key, value) in keys.iter().zip(&values) {
            let key = key
                .as_string()
                .ok_or_else(|| PersistError::corrupt("?", "a chunk key is not a string"))?;
            let t = load_chunk(&key, value, &mut tables, &mut names, &mut last)?;
            index.push_loaded(t.0, t.1, t.2);
        }
        index.check().map_err(|key| {
            PersistError::corrupt(
                &key,
                "the partition's chunks do not start at the empty RowKey",
            )
        })?;

        let existing: Vec<String> = account.tables().map(|t| t.name.clone()).collect();
        for name in existing {
            let _ = account.delete_table(&name);
        }
        for (_, table) in tables {
            account.restore_table(table);
        }
        account.observe_timestamp(last);
        account.take_changes();
        self.index = index;
        self.last_timestamp = last;
        self.needs_full_write.set(false);
        Ok(account)
    }

    /// Writes the change sets, all in one transaction, and resolves once it is durable.
    pub async fn save(
        &mut self,
        account: &Account,
        changes: Vec<ChangeSet>,
    ) -> Result<(), PersistError> {
        self.begin(account, &changes).await
    }

    /// Plans and issues the transaction for the change sets now (reading `account` as it is
    /// now); the future resolves when it commits. Transactions commit in the order they were
    /// begun, so a caller may begin the next save before the previous one resolves.
    pub fn begin(
        &mut self,
        account: &Account,
        changes: &[ChangeSet],
    ) -> impl Future<Output = Result<(), PersistError>> + 'static {
        let full = self.needs_full_write.get();
        let started = if changes.is_empty() && !full {
            Ok(None)
        } else {
            plan::plan(
                &mut self.index,
                &mut self.last_timestamp,
                account,
                changes,
                full,
            )
            .and_then(|plan| self.issue(&plan).map(Some))
        };
        if started.is_err() {
            self.needs_full_write.set(true);
        } else if full {
            self.needs_full_write.set(false);
        }
        let needs_full_write = self.needs_full_write.clone();
        let transactions = self.transactions.clone();
        async move {
            let Some((committing, raw)) = started? else {
                return Ok(());
            };
            let result = match committing.await {
                Ok(TransactionResult::Committed) => Ok(()),
                Ok(TransactionResult::Aborted) => Err(raw
                    .error()
                    .map(|e| PersistError::from_dom_exception(&e))
                    .unwrap_or_else(|| PersistError::Other("the transaction was aborted".into()))),
                Err(e) => Err(PersistError::from(e)),
            };
            match &result {
                Ok(()) => transactions.set(transactions.get() + 1),
                Err(_) => needs_full_write.set(true),
            }
            result
        }
    }

    /// Opens the readwrite transaction and issues every operation of the plan.
    fn issue(
        &self,
        plan: &Plan,
    ) -> Result<(idb::TransactionFuture, web_sys::IdbTransaction), PersistError> {
        if self.closed.get() {
            return Err(PersistError::Blocked);
        }
        let tx = self
            .db
            .transaction(&[META_STORE, CHUNK_STORE], TransactionMode::ReadWrite)?;
        let issued = issue_ops(&tx, plan);
        match issued {
            Ok(raw) => Ok((tx.into_future(), raw)),
            Err(e) => {
                let _ = tx.abort();
                Err(e)
            }
        }
    }

    /// How many save transactions have committed through this connection.
    pub fn transactions_committed(&self) -> u64 {
        self.transactions.get()
    }

    /// How many chunk records the index says are on disk.
    pub fn chunk_count(&self) -> usize {
        self.index.chunk_count()
    }

    /// Every chunk record as (key, JSON text), in key order (for tests and inspection).
    pub async fn records(&self) -> Result<Vec<(String, String)>, PersistError> {
        let tx = self
            .db
            .transaction(&[CHUNK_STORE], TransactionMode::ReadOnly)?;
        let store = tx.object_store(CHUNK_STORE)?;
        let keys = store.get_all_keys(None, None)?.into_future();
        let values = store.get_all(None, None)?.into_future();
        let (keys, values) = (keys.await?, values.await?);
        Ok(keys
            .iter()
            .zip(&values)
            .map(|(k, v)| {
                (
                    k.as_string().unwrap_or_default(),
                    v.as_string().unwrap_or_default(),
                )
            })
            .collect())
    }

    /// Closes the connection.
    pub fn close(self) {
        self.closed.set(true);
        self.db.close();
    }

    /// Deletes a namespace's database (close every `Persist` on it first).
    pub async fn delete(namespace: &str) -> Result<(), PersistError> {
        let factory = Factory::new().map_err(|e| PersistError::Unavailable(e.to_string()))?;
        factory.delete(&db_name(namespace))?.await?;
        Ok(())
    }
}

fn open_error(e: idb::Error) -> PersistError {
    match PersistError::from(e) {
        PersistError::Other(detail) => PersistError::Unavailable(detail),
        other => other,
    }
}

/// Issues the plan's operations on the transaction's stores; returns the raw transaction, to
/// read its error if it aborts.
fn issue_ops(tx: &idb::Transaction, plan: &Plan) -> Result<web_sys::IdbTransaction, PersistError> {
    let chunks = tx.object_store(CHUNK_STORE)?;
    let meta = tx.object_store(META_STORE)?;
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
                chunks.put(&JsValue::from_str(value), Some(&JsValue::from_str(key)))?;
            }
        }
    }
    let meta_text =
        serde_json::to_string(&plan.meta).map_err(|e| PersistError::Other(e.to_string()))?;
    let meta_value = js_sys::JSON::parse(&meta_text).map_err(|e| PersistError::from_js(&e))?;
    meta.put(&meta_value, Some(&JsValue::from_str(META_KEY)))?;
    Ok(chunks.transaction().into())
}

fn decode_meta(value: &JsValue) -> Result<Meta, PersistError> {
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| PersistError::corrupt(META_KEY, "not a JSON object"))?;
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_u64()));
    if format != Some(u64::from(FORMAT)) {
        return Err(PersistError::Other(format!(
            "the stored data has format {format:?}, and this Tablescope reads format {FORMAT}; \
             a newer Tablescope wrote it"
        )));
    }
    serde_json::from_str(&text).map_err(|e| PersistError::corrupt(META_KEY, e.to_string()))
}

/// Decodes one chunk into its table; returns its (table, PartitionKey, start RowKey).
fn load_chunk<'k>(
    key: &'k str,
    value: &JsValue,
    tables: &mut HashMap<String, Table>,
    names: &mut codec::Names,
    last: &mut DateTime,
) -> Result<(&'k str, &'k str, &'k str), PersistError> {
    let (table_name, pk, start) = layout::parse_chunk_key(key)
        .ok_or_else(|| PersistError::corrupt(key, "not a chunk key"))?;
    let table = tables.get_mut(table_name).ok_or_else(|| {
        PersistError::corrupt(key, format!("table {table_name} is not listed in meta"))
    })?;
    let text = value
        .as_string()
        .ok_or_else(|| PersistError::corrupt(key, "the value is not a JSON string"))?;
    let entities = codec::decode(&text, names).map_err(|e| PersistError::corrupt(key, e))?;
    if entities.is_empty() {
        return Err(PersistError::corrupt(key, "the chunk is empty"));
    }
    for entity in entities {
        if entity.partition_key != pk {
            return Err(PersistError::corrupt(
                key,
                format!("holds an entity of partition '{}'", entity.partition_key),
            ));
        }
        if cmp_utf16(&entity.row_key, start) == Ordering::Less {
            return Err(PersistError::corrupt(
                key,
                format!(
                    "holds RowKey '{}', before the chunk's start",
                    entity.row_key
                ),
            ));
        }
        let Some(timestamp) = entity.timestamp else {
            return Err(PersistError::corrupt(key, "an entity has no Timestamp"));
        };
        if timestamp > *last {
            *last = timestamp;
        }
        let count = table.entity_count();
        table.put(entity, timestamp);
        if table.entity_count() == count {
            return Err(PersistError::corrupt(key, "a RowKey is stored twice"));
        }
    }
    Ok((table_name, pk, start))
}

//! The account in IndexedDB: the only module that touches it.
//!
//! Layout (see [`layout`]): database `tablescope-<namespace>`; a `meta` record listing the
//! tables, and `chunks` records of at most [`MAX_CHUNK`] entities each, keyed
//! `"<Table>/<PartitionKey>/<chunkStartRowKey>"` and holding the entities as a JSON string.
//! The cost of IndexedDB is per record, not per byte (`docs/persistence.md#why-chunks`), so records
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

pub(crate) mod binary;
pub(crate) mod codec;
mod describe;
mod error;
mod issue;
pub mod layout;
mod load;
pub mod lock;
mod plan;
mod session;
mod storage;

pub use error::{PersistError, NOT_ON_DISK};
pub use layout::{db_name, MAX_CHUNK};
/// Lets the browser run a task (paint, input) before long work goes on.
pub(crate) use load::pause;
pub use session::{
    attach, attach_recovering, busy, detach, hold, is_attached, on_busy, record, release,
    saves_in_flight,
};
pub use storage::{estimate, request_persistent};

use crate::engine::{Account, ChangeSet, DateTime};
use idb::{Database, Factory, ObjectStoreParams, TransactionMode};
use issue::{issue_ops, Issued};
use layout::{Index, CHUNK_STORE, DB_VERSION, META_KEY, META_STORE};
use plan::Plan;
use std::cell::{Cell, RefCell};
use std::future::{Future, IntoFuture};
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::JsValue;

thread_local! {
    /// Who hears how far a load has got (see [`on_load_progress`]).
    static LOAD_PROGRESS: RefCell<Option<Box<dyn Fn(usize, usize)>>> = const { RefCell::new(None) };
}

/// Calls `tell(chunks decoded, chunks in all)` whenever a load pauses between its slices (a
/// store large enough to take more than one), e.g. to show progress while the page starts.
pub fn on_load_progress(tell: impl Fn(usize, usize) + 'static) {
    LOAD_PROGRESS.with(|p| *p.borrow_mut() = Some(Box::new(tell)));
}

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
    /// How many entities the last load gave new Timestamps (see `load::restamp`).
    restamped: usize,
    /// How many misplaced rows the last load put right (see `load::place_strays`).
    repaired: usize,
    /// The meta record's `seq` once every transaction issued so far has committed.
    seq: u64,
    /// The `seq` of the last transaction known to have committed (or the loaded one).
    committed: Rc<Cell<u64>>,
    /// Whether `seq` is known (a load read it): a save before any load checks nothing.
    seq_known: bool,
    /// The changes of failed saves, oldest first: not on disk until a full rewrite commits.
    /// Kept as they are and put in words only when asked ([`Persist::unsaved`]): a save of a
    /// million generated entities would otherwise format a million sentences nobody reads.
    unsaved: Rc<RefCell<Vec<ChangeSet>>>,
    /// Test hook ([`Persist::abort_transaction`]): the number of the issued transaction to
    /// abort, counted by `issued`.
    abort_at: Option<u64>,
    issued: u64,
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
            // A store that cannot be created makes every later transaction fail, with the
            // browser's reason.
            if let Ok(db) = event.database() {
                let names = db.store_names();
                for store in [META_STORE, CHUNK_STORE] {
                    if !names.iter().any(|n| n == store) {
                        let _ = db.create_object_store(store, ObjectStoreParams::new());
                    }
                }
            }
        });
        let opened = open_or_blocked(request).await;
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
            restamped: 0,
            repaired: 0,
            seq: 0,
            committed: Rc::new(Cell::new(0)),
            seq_known: false,
            unsaved: Rc::default(),
            abort_at: None,
            issued: 0,
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
    /// any tables it has and discarding its pending changes. A damaged record fails the load
    /// with [`PersistError::Corrupt`] naming it; nothing is changed on disk.
    pub async fn load_into(&mut self, account: Account) -> Result<Account, PersistError> {
        let (account, _) = self.load_with(account, false).await?;
        Ok(account)
    }

    /// Like [`Persist::load_into`], but skips damaged records instead of failing, and returns
    /// what it skipped. A table missing from the meta record is recovered from its chunks. The
    /// next save then rewrites everything, so the damaged records are dropped from disk: offer
    /// this to the user after a `Corrupt` error, not silently.
    pub async fn load_recovering(
        &mut self,
        account: Account,
    ) -> Result<(Account, Vec<PersistError>), PersistError> {
        self.load_with(account, true).await
    }

    async fn load_with(
        &mut self,
        mut account: Account,
        recover: bool,
    ) -> Result<(Account, Vec<PersistError>), PersistError> {
        let tx = self
            .db
            .transaction(&[META_STORE, CHUNK_STORE], TransactionMode::ReadOnly)?;
        let meta_store = tx.object_store(META_STORE)?;
        let chunk_store = tx.object_store(CHUNK_STORE)?;
        let meta = meta_store.get(JsValue::from_str(META_KEY))?.into_future();
        let keys = chunk_store.get_all_keys(None, None)?.into_future();
        let meta = meta.await?;
        // Decoding may call code a split build defers (the tables' metadata, Boolean, Guid,
        // Binary...): have it loaded the ordinary way, which works offline (crate::split), while
        // the chunks are read, and wait for it before anything is decoded. Only when something
        // is stored: a first visit never downloads it before it is usable.
        let deferred = meta.is_some().then(crate::split::ready);
        let keys = keys.await?;
        // Still inside the transaction's request callback: every read is issued now, so the
        // transaction stays active until the last one, and each batch decodes as it arrives.
        let batches = load::read_batches(&chunk_store, &keys)?;
        if deferred.is_some() || !keys.is_empty() {
            let deferred = deferred.unwrap_or_else(crate::split::ready);
            deferred.await.map_err(PersistError::CodeUnavailable)?;
        }
        let now = DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap_or(DateTime::MIN);
        let progress = |done: usize, total: usize| {
            LOAD_PROGRESS.with(|p| {
                if let Some(tell) = p.borrow().as_ref() {
                    tell(done, total);
                }
            });
        };
        let loaded = load::build(meta, &keys, batches, recover, now, &progress).await?;

        let existing: Vec<String> = account.tables().map(|t| t.name.clone()).collect();
        for name in existing {
            let _ = account.delete_table(&name);
        }
        // The account takes the saved target while empty, so each table is restored under
        // its rules (a Cosmos table's order and index are rebuilt from the rows).
        if account.target() != loaded.target {
            account.switch_target(loaded.target);
        }
        for (_, table) in loaded.tables {
            account.restore_table(table);
        }
        account.restore_service_properties(loaded.service_properties);
        account.observe_timestamp(loaded.last);
        account.take_changes();
        self.index = loaded.index;
        self.last_timestamp = loaded.last;
        self.restamped = loaded.restamped;
        self.repaired = loaded.repaired;
        self.seq = loaded.seq;
        self.committed.set(loaded.seq);
        self.seq_known = true;
        self.unsaved.borrow_mut().clear();
        self.needs_full_write
            .set(!loaded.damaged.is_empty() || loaded.restamped > 0 || loaded.repaired > 0);
        Ok((account, loaded.damaged))
    }

    /// Writes the change sets, all in one transaction, and resolves once it is durable.
    pub async fn save(
        &mut self,
        account: &Account,
        changes: Vec<ChangeSet>,
    ) -> Result<(), PersistError> {
        self.begin(account, changes).await
    }

    /// Plans and issues the transaction for the change sets now (reading `account` as it is
    /// now); the future resolves when it commits. Transactions commit in the order they were
    /// begun, so a caller may begin the next save before the previous one resolves.
    ///
    /// Invariant: the store on disk is always the state after some prefix of the saves begun,
    /// each whole. A save is planned on the disk its predecessor leaves (chunk index, `seq`),
    /// so it may only commit if that predecessor did: its transaction first reads the meta
    /// record and aborts unless `seq` is the value planned on. After a failure, every save
    /// already begun aborts in turn, and the next one rewrites everything from the account
    /// (a state the user was shown), planned on the last `seq` known committed.
    pub fn begin(
        &mut self,
        account: &Account,
        changes: Vec<ChangeSet>,
    ) -> impl Future<Output = Result<(), PersistError>> + 'static {
        let full = self.needs_full_write.get();
        let base = if full { self.committed.get() } else { self.seq };
        let check = self.seq_known.then_some(base);
        let started = if changes.is_empty() && !full {
            Ok(None)
        } else {
            plan::plan(
                &mut self.index,
                &mut self.last_timestamp,
                account,
                &changes,
                full,
            )
            .and_then(|mut plan| {
                plan.meta.seq = base + 1;
                self.issue(&plan, check).map(Some)
            })
        };
        match &started {
            Err(_) => self.needs_full_write.set(true),
            Ok(issued) => {
                if full {
                    self.needs_full_write.set(false);
                }
                if let Some(issued) = issued {
                    self.seq = base + 1;
                    self.seq_known = true;
                    self.issued += 1;
                    if self.abort_at == Some(self.issued) {
                        let _ = issued.raw.abort();
                    }
                }
            }
        }
        let needs_full_write = self.needs_full_write.clone();
        let transactions = self.transactions.clone();
        let committed = self.committed.clone();
        let unsaved = self.unsaved.clone();
        async move {
            let result = match started {
                Ok(None) => return Ok(()),
                Ok(Some(issued)) => issued.outcome().await,
                Err(e) => Err(e),
            };
            match &result {
                Ok(()) => {
                    transactions.set(transactions.get() + 1);
                    committed.set(base + 1);
                    if full {
                        unsaved.borrow_mut().clear();
                    }
                }
                Err(_) => {
                    needs_full_write.set(true);
                    unsaved.borrow_mut().extend(changes);
                }
            }
            result
        }
    }

    /// Opens the readwrite transaction and issues every operation of the plan, after a check
    /// that the meta record's `seq` is `check` (see [`Persist::begin`]).
    fn issue(&self, plan: &Plan, check: Option<u64>) -> Result<Issued, PersistError> {
        if self.closed.get() {
            return Err(PersistError::Blocked);
        }
        let tx = self
            .db
            .transaction(&[META_STORE, CHUNK_STORE], TransactionMode::ReadWrite)?;
        let issued = issue_ops(&tx, plan, check);
        match issued {
            Ok((raw, guard, stale)) => Ok(Issued {
                committing: tx.into_future(),
                raw,
                _guard: guard,
                stale,
            }),
            Err(e) => {
                let _ = tx.abort();
                Err(e)
            }
        }
    }

    /// How many rows the last load found outside their chunk's range, or partitions whose
    /// chunks did not start at the empty RowKey (left by older code after a failed save); they
    /// were put in place in memory, and the next save rewrites the store.
    pub fn repaired(&self) -> usize {
        self.repaired
    }

    /// The changes of failed saves that are not on disk, oldest first, in words (e.g.
    /// "wrote (p, r) in Orders"); empty once a save has rewritten the store.
    pub fn unsaved(&self) -> Vec<String> {
        self.unsaved
            .borrow()
            .iter()
            .flatten()
            .flat_map(describe::change)
            .collect()
    }

    /// Test hook: aborts the `n`th transaction issued from now on (1 = the next), as a
    /// browser does on a full disk or a crash, right after its operations are issued.
    #[doc(hidden)]
    pub fn abort_transaction(&mut self, n: u64) {
        self.abort_at = Some(self.issued + n);
    }

    /// How many entities the last load found stuck at the end of the clock's range (written
    /// by an older Tablescope) and gave new Timestamps; the next save rewrites the store.
    pub fn restamped(&self) -> usize {
        self.restamped
    }

    /// How many save transactions have committed through this connection.
    pub fn transactions_committed(&self) -> u64 {
        self.transactions.get()
    }

    /// How many chunk records the index says are on disk.
    pub fn chunk_count(&self) -> usize {
        self.index.chunk_count()
    }

    /// Every chunk record as (key, JSON text in format 1's form), in key order (for tests and
    /// inspection); a record that cannot be decoded comes back as it is, or empty.
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
            .map(|(k, v)| (k.as_string().unwrap_or_default(), chunk_text(v)))
            .collect())
    }

    /// Closes the connection (as dropping does); saves already begun still complete.
    pub fn close(self) {}

    /// Deletes a namespace's database (close every `Persist` on it first).
    pub async fn delete(namespace: &str) -> Result<(), PersistError> {
        let factory = Factory::new().map_err(|e| PersistError::Unavailable(e.to_string()))?;
        factory.delete(&db_name(namespace))?.await?;
        Ok(())
    }
}

/// Waits for an open request, or fails with [`PersistError::Blocked`] as soon as the browser
/// reports that another tab's connection blocks it (the request would otherwise wait until
/// that tab closes).
async fn open_or_blocked(
    mut request: idb::request::OpenDatabaseRequest,
) -> Result<Database, PersistError> {
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
    std::future::poll_fn(|cx| {
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
    .await
}

/// A dropped `Persist` closes its connection, so it never blocks another tab's upgrade or a
/// delete of the database (its version-change handler is gone with it).
impl Drop for Persist {
    fn drop(&mut self) {
        self.closed.set(true);
        self.db.close();
    }
}

/// An open that fails means storage is unavailable, except when the database is newer than
/// this code (a newer Tablescope in another tab upgraded it): then reloading is the answer.
fn open_error(e: idb::Error) -> PersistError {
    let newer = matches!(&e, idb::Error::DomException(d) if d.name() == "VersionError");
    match PersistError::from(e) {
        PersistError::Other(detail) if !newer => PersistError::Unavailable(detail),
        other => other,
    }
}

/// A chunk record's value as format 1's JSON text (see [`Persist::records`]).
fn chunk_text(value: &JsValue) -> String {
    use wasm_bindgen::JsCast;
    match value.dyn_ref::<js_sys::Uint8Array>() {
        Some(bytes) => binary::decode(&bytes.to_vec(), &mut codec::Names::default())
            .and_then(|(_, entities)| codec::encode(&entities))
            .unwrap_or_default(),
        None => value.as_string().unwrap_or_default(),
    }
}

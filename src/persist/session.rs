//! The page's persistence session: one open [`Persist`], fed after every write.
//!
//! The UI calls [`attach`] once at start-up and [`record`] right after each request that may
//! have written; nothing else about IndexedDB reaches it.

use super::lock::{self, WriterLock};
use super::{db_name, Persist, PersistError};
use crate::engine::Account;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

struct Session {
    persist: Persist,
    lock: WriterLock,
    on_error: Rc<dyn Fn(PersistError)>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    static IN_FLIGHT: Rc<Cell<u32>> = Rc::new(Cell::new(0));
    /// Whether the user was told of changes not on disk, and not yet that all are saved.
    static REPORTED_UNSAVED: Cell<bool> = const { Cell::new(false) };
    /// How many [`hold`]s are not yet released: while any is, [`record`] leaves the changes
    /// in the account.
    static HELD: Cell<u32> = const { Cell::new(0) };
    /// Who hears when [`busy`] may have changed.
    static ON_BUSY: RefCell<Option<Rc<dyn Fn()>>> = const { RefCell::new(None) };
}

/// Calls `tell` whenever a save begins or ends, or a hold begins or ends (so [`busy`] may
/// have changed), e.g. to say "saving" and to warn before the page is left.
pub fn on_busy(tell: impl Fn() + 'static) {
    ON_BUSY.with(|b| *b.borrow_mut() = Some(Rc::new(tell)));
}

fn busy_changed() {
    if let Some(tell) = ON_BUSY.with(|b| b.borrow().clone()) {
        tell();
    }
}

/// Whether a save is in flight or held: changes exist that are not on disk yet.
pub fn busy() -> bool {
    saves_in_flight() > 0 || HELD.with(Cell::get) > 0
}

/// Holds every save back until [`release`]: a replace of many tables written over many tasks
/// (the Design generator's "replace") then reaches the disk as one transaction, so the disk
/// holds the old tables until the new ones are complete, and never a mix. Changes made
/// meanwhile stay in the account's change feed; leaving the page loses them, and the old
/// state stays on disk.
pub fn hold() {
    HELD.with(|h| h.set(h.get() + 1));
    busy_changed();
}

/// Ends a [`hold`]; the next [`record`] saves everything held, in one transaction.
pub fn release() {
    HELD.with(|h| h.set(h.get().saturating_sub(1)));
    busy_changed();
}

/// Opens a namespace, loads it into `account` (e.g. an empty account with the browser's
/// clock) and returns the loaded account; from then on [`record`] persists its writes.
/// `on_error` hears about every failed save (with a message for the user in its `Display`).
///
/// Only one tab writes a namespace: when another tab already does, the stored tables still
/// load, `on_error` hears [`PersistError::InAnotherTab`] at once, and this tab's writes stay
/// in memory.
///
/// Until it resolves, keep the UI from writing: the loaded account replaces the one in use.
pub async fn attach(
    namespace: &str,
    account: Account,
    on_error: impl Fn(PersistError) + 'static,
) -> Result<Account, PersistError> {
    attach_with(namespace, account, on_error, false).await
}

/// [`attach`] for when it failed with [`PersistError::Corrupt`] and the user chose to go on
/// with what can be read: damaged records are skipped, each reported through `on_error`, and
/// dropped from disk by the next save (see [`Persist::load_recovering`]).
pub async fn attach_recovering(
    namespace: &str,
    account: Account,
    on_error: impl Fn(PersistError) + 'static,
) -> Result<Account, PersistError> {
    attach_with(namespace, account, on_error, true).await
}

async fn attach_with(
    namespace: &str,
    account: Account,
    on_error: impl Fn(PersistError) + 'static,
    recover: bool,
) -> Result<Account, PersistError> {
    detach();
    let mut persist = Persist::open(namespace).await?;
    let account = if recover {
        let (account, damaged) = persist.load_recovering(account).await?;
        damaged.into_iter().for_each(&on_error);
        account
    } else {
        persist.load_into(account).await?
    };
    // Taken after a successful load, so a failed attach holds nothing.
    let lock = lock::try_acquire(&db_name(namespace)).await;
    match lock {
        Some(lock) => {
            let on_error: Rc<dyn Fn(PersistError)> = Rc::new(on_error);
            let (restamped, repaired) = (persist.restamped(), persist.repaired());
            if restamped > 0 {
                on_error(PersistError::ClockRepaired(restamped));
            }
            if repaired > 0 {
                on_error(PersistError::ChunksRepaired(repaired));
            }
            if restamped > 0 || repaired > 0 {
                // What the load repaired goes to disk at once, not with the next write.
                let saving = persist.begin(&account, Vec::new());
                let report = on_error.clone();
                let in_flight = IN_FLIGHT.with(Rc::clone);
                in_flight.set(in_flight.get() + 1);
                wasm_bindgen_futures::spawn_local(async move {
                    let result = saving.await;
                    in_flight.set(in_flight.get().saturating_sub(1));
                    if let Err(e) = result {
                        report(e);
                    }
                });
            }
            SESSION.with(|s| {
                *s.borrow_mut() = Some(Session {
                    persist,
                    lock,
                    on_error,
                });
            });
        }
        None => {
            persist.close();
            on_error(PersistError::InAnotherTab);
        }
    }
    Ok(account)
}

/// Takes the account's pending changes and begins writing them, as one transaction; call it
/// right after every request that may have written, while still holding the account. Without
/// a session (not attached, or storage unavailable) the changes are dropped: the account then
/// lives in memory only.
pub fn record(account: &mut Account) {
    if HELD.with(Cell::get) > 0 {
        return;
    }
    let changes = account.take_changes();
    if changes.is_empty() {
        return;
    }
    let started = SESSION.with(|s| {
        let mut s = s.borrow_mut();
        let session = s.as_mut()?;
        Some((
            session.persist.begin(account, changes),
            session.on_error.clone(),
        ))
    });
    let Some((saving, on_error)) = started else {
        return;
    };
    let in_flight = IN_FLIGHT.with(Rc::clone);
    in_flight.set(in_flight.get() + 1);
    busy_changed();
    wasm_bindgen_futures::spawn_local(async move {
        let result = saving.await;
        in_flight.set(in_flight.get().saturating_sub(1));
        busy_changed();
        let unsaved = SESSION.with(|s| s.borrow().as_ref().map(|s| s.persist.unsaved()));
        match result {
            Err(cause) => {
                REPORTED_UNSAVED.with(|r| r.set(true));
                on_error(PersistError::NotSaved {
                    cause: Box::new(cause),
                    unsaved: unsaved.unwrap_or_default(),
                });
            }
            Ok(()) => {
                let all_saved = unsaved.is_some_and(|u| u.is_empty());
                if all_saved && REPORTED_UNSAVED.with(|r| r.replace(false)) {
                    on_error(PersistError::AllSaved);
                }
            }
        }
    });
}

/// Whether a session is attached.
pub fn is_attached() -> bool {
    SESSION.with(|s| s.borrow().is_some())
}

/// How many saves have begun and not yet finished (for a "saving…" hint).
pub fn saves_in_flight() -> u32 {
    IN_FLIGHT.with(|c| c.get())
}

/// Ends the session and closes the database; later writes stay in memory.
pub fn detach() {
    if let Some(session) = SESSION.with(|s| s.borrow_mut().take()) {
        session.persist.close();
        session.lock.release();
    }
}

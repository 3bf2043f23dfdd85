//! Group commit: the writes of one task go to IndexedDB as one transaction.
//!
//! A write hands its changes to `crate::persist::record`, which plans and issues a readwrite
//! transaction at once. One transaction per write costs about a millisecond of IndexedDB work
//! each, and every write re-encodes the chunks it touched: a loop of 10,000 batches (a fill, a
//! generator, SDK code) paid for 10,000 transactions and encoded its partitions' chunks over and
//! over. So [`AppState::write`](crate::ui::state::AppState) leaves its changes in the account's
//! change feed and queues one save for the end of the task ([`queue`]); that save takes every
//! change made meanwhile and writes them together, still atomically (a batch is never split).
//! While a save is still committing, the next one waits for it and gathers the writes of the
//! tasks in between.
//!
//! Invariant: while a save is queued, the account holds changes not yet handed to
//! persistence, and [`pending`] says so; `pagehide` hands them over at once, so leaving the page
//! right after a write does not wait for a timer that never fires. While anything is not on
//! disk yet ([`busy`]: queued, in flight, or held back by `crate::persist::hold`),
//! `Storage::busy` is true (the banner says "saving") and `beforeunload` asks the browser to
//! warn before the page is left.

use crate::engine::Account;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

type Shared = StoredValue<Account, LocalStorage>;

// Thread-locals, not context: the queue is read by a timer's and the `pagehide` listener's
// callbacks, which run outside any reactive owner.
thread_local! {
    /// The account whose changes wait for the queued save.
    static QUEUED: RefCell<Option<Shared>> = const { RefCell::new(None) };
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// Queues a save of `account`'s pending changes at the end of the current task (one per task,
/// however many writes it made).
pub fn queue(account: Shared) {
    let already = QUEUED.with(|q| q.borrow_mut().replace(account).is_some());
    if already {
        return;
    }
    watch();
    busy_changed();
    arm(0);
}

/// Whether some change is not on disk yet: a save queued, in flight or held.
pub fn busy() -> bool {
    pending() || crate::persist::busy()
}

/// Tells `Storage::busy` what [`busy`] says now.
pub fn busy_changed() {
    let storage = super::Storage::get();
    let now = busy();
    if storage.busy.try_get_untracked() != Some(now) {
        storage.busy.try_set(now);
    }
}

/// Runs [`when_idle`] after `ms`, or saves now when there is no timer (the page is going away).
fn arm(ms: i32) {
    let later = Closure::once_into_js(when_idle);
    let queued = web_sys::window().map(|w| {
        w.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), ms)
    });
    if !matches!(queued, Some(Ok(_))) {
        flush();
    }
}

/// Saves the queued changes once no save is in flight: while one commits, the writes of the
/// tasks that follow (SDK calls, one per message) gather into the next transaction instead of
/// each beginning its own.
fn when_idle() {
    if crate::persist::saves_in_flight() > 0 {
        arm(RETRY_MS);
    } else {
        flush();
    }
}

/// How often a queued save looks again whether the save before it has committed.
const RETRY_MS: i32 = 2;

/// Whether changes wait for a queued save (a save not yet begun).
pub fn pending() -> bool {
    QUEUED.with(|q| q.borrow().is_some())
}

/// Hands the queued account's changes to persistence (one transaction) now, if any wait.
pub fn flush() {
    if let Some(account) = QUEUED.with(|q| q.borrow_mut().take()) {
        let _ = account.try_update_value(crate::persist::record);
        busy_changed();
    }
}

/// Listens for the page being left (once per page): `pagehide` hands pending changes over,
/// `beforeunload` asks the browser to warn while any change is not on disk, and persistence
/// reports when a save begins or ends.
pub fn watch() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    crate::persist::on_busy(busy_changed);
    let Some(window) = web_sys::window() else {
        return;
    };
    let on_hide = Closure::<dyn Fn()>::new(flush);
    let _ = window.add_event_listener_with_callback("pagehide", on_hide.as_ref().unchecked_ref());
    let on_leave = Closure::<dyn Fn(web_sys::Event)>::new(|event: web_sys::Event| {
        if busy() {
            // Both: the standard way, and the `returnValue` older browsers still look for.
            event.prevent_default();
            let _ = js_sys::Reflect::set(&event, &"returnValue".into(), &"".into());
        }
    });
    let _ =
        window.add_event_listener_with_callback("beforeunload", on_leave.as_ref().unchecked_ref());
    // They live as long as the page.
    on_hide.forget();
    on_leave.forget();
}

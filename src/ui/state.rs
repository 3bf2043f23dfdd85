//! The app state: the account the page runs on, and the commands views call on it.

pub mod code_link;
pub mod model;
pub mod navigation;
pub mod perf;
pub mod save_queue;
pub mod wire_bridge;
pub mod workspace;

use crate::engine::{Account, DateTime, Error, Request, Response, TableInfo};
use crate::ui::text::import_text::Explain;
use crate::ui::text::notice_text::Say;
use leptos::prelude::*;
use std::sync::Arc;

// Thread-locals, not context: the saved tables load before the app mounts, when no reactive
// owner exists yet to hold a context. `SAVED` hands the loaded account to the app;
// `STORAGE` takes the load's problems then, and is read later by code that runs outside any
// owner (the in-page SDK transport, the save queue's callbacks), where context is out of reach.
thread_local! {
    /// The account [`load_saved_tables`] loaded, until the app takes it.
    static SAVED: std::cell::RefCell<Option<Account>> = const { std::cell::RefCell::new(None) };
    static STORAGE: std::cell::Cell<Option<Storage>> = const { std::cell::Cell::new(None) };
}

/// What the page knows about saving, shared by the banner, the storage panel and
/// [`AppState`]. Persistence reports from outside any view (before mount, from save
/// callbacks), so this lives in a thread-local rather than in context. The page creates it
/// before mounting, outside any reactive owner, so it lives as long as the page; where an app
/// is mounted and unmounted (wasm tests), a disposed one is replaced.
#[derive(Clone, Copy)]
pub struct Storage {
    /// Problems to show in the banner, oldest first; each is dismissible.
    pub notices: RwSignal<Vec<Notice>>,
    /// Another tab saves the tables: this one refuses writes.
    pub read_only: RwSignal<bool>,
    /// Whether writes are being saved (a session is attached).
    pub saving: RwSignal<bool>,
    /// Whether some change is not on disk yet (`save_queue::busy`).
    pub busy: RwSignal<bool>,
}

/// One banner message; `recover` offers to load what can be read of damaged data. `text`
/// (English) identifies it; `say` is what the banner shows, in the current language.
#[derive(Clone)]
pub struct Notice {
    pub text: String,
    pub recover: bool,
    pub say: crate::ui::text::notice_text::Say,
}

impl PartialEq for Notice {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.recover == other.recover
    }
}

impl Storage {
    fn new() -> Self {
        Storage {
            notices: RwSignal::new(Vec::new()),
            read_only: RwSignal::new(false),
            saving: RwSignal::new(false),
            busy: RwSignal::new(false),
        }
    }

    /// The page's storage status.
    pub fn get() -> Self {
        STORAGE.with(|cell| match cell.get() {
            Some(s) if !s.notices.is_disposed() => s,
            _ => {
                let s = Storage::new();
                cell.set(Some(s));
                s
            }
        })
    }

    /// Shows a message in the banner (once, however often it is reported), as it is.
    pub fn tell(&self, text: String, recover: bool) {
        let shown = text.clone();
        self.tell_as(text, recover, std::sync::Arc::new(move || shown.clone()));
    }

    /// Shows a message in the banner, identified by `text`, and shown as `say` renders it.
    pub fn tell_as(&self, text: String, recover: bool, say: crate::ui::text::notice_text::Say) {
        let notice = Notice { text, recover, say };
        self.notices.update(|n| {
            if !n.contains(&notice) {
                n.push(notice);
            }
        });
    }

    /// Shows a persistence failure; a second tab becomes read-only.
    pub fn report(&self, e: crate::persist::PersistError) {
        use crate::persist::PersistError;
        leptos::logging::warn!("{e}");
        match e {
            PersistError::InAnotherTab => {
                self.read_only.set(true);
                self.tell_as(
                    READ_ONLY.into(),
                    false,
                    crate::ui::text::notice_text::say(crate::i18n::msg::banner_read_only),
                );
            }
            PersistError::Corrupt { .. } => self.tell_as(
                e.to_string(),
                true,
                crate::ui::text::notice_text::say_persist_error(e),
            ),
            // The newest list of what is not on disk replaces the one before.
            PersistError::NotSaved { .. } | PersistError::AllSaved => {
                self.notices
                    .update(|n| n.retain(|n| !n.text.contains(crate::persist::NOT_ON_DISK)));
                self.tell_as(
                    e.to_string(),
                    false,
                    crate::ui::text::notice_text::say_persist_error(e),
                );
            }
            e => self.tell_as(
                e.to_string(),
                false,
                crate::ui::text::notice_text::say_persist_error(e),
            ),
        }
    }
}

/// Why a second tab refuses writes.
pub const READ_ONLY: &str = "Tablescope is open in another tab, and that tab saves your tables. \
     This tab is read-only: it shows the tables as they were when it opened and refuses changes. \
     Close the other tab and this one takes over.";

/// Loads the tables saved in this browser (IndexedDB, namespace `sandbox`) for the app mounted
/// next, and from then on saves every write (`crate::persist::attach`; [`AppState::write`]
/// hands each write's changes to `crate::persist::record`). When storage fails, the app runs
/// in memory and the banner says why; a second tab is read-only until the first one closes.
/// Fails, saying why, only when the app cannot start at all (its code is not all available).
pub async fn load_saved_tables() -> Result<(), String> {
    let storage = Storage::get();
    match crate::persist::attach(crate::persist::SANDBOX, browser_account(), reporter(false)).await
    {
        Ok(account) => SAVED.with(|s| *s.borrow_mut() = Some(account)),
        Err(e @ crate::persist::PersistError::CodeUnavailable(_)) => return Err(e.to_string()),
        Err(e) => storage.report(e),
    }
    storage.saving.set(crate::persist::is_attached());
    Ok(())
}

/// Loads the saved tables again and puts them in place of the ones in use: after a `Corrupt`
/// load with `recovering` (damaged records are skipped and named in the banner), or when the
/// tab that saved them closed. Returns whether the load itself worked.
pub async fn reload_saved_tables(state: AppState, recovering: bool) -> bool {
    use crate::persist::SANDBOX;
    let storage = Storage::get();
    let report = reporter(recovering);
    let loaded = if recovering {
        crate::persist::attach_recovering(SANDBOX, browser_account(), report).await
    } else {
        crate::persist::attach(SANDBOX, browser_account(), report).await
    };
    let ok = match loaded {
        Ok(account) => {
            let _ = state.account.try_update_value(|a| *a = account);
            state.revision.update(|r| *r += 1);
            true
        }
        Err(e) => {
            storage.report(e);
            false
        }
    };
    storage.saving.set(crate::persist::is_attached());
    ok
}

/// What hears persistence failures (one closure type for every attach, so the attach code is
/// instantiated once): the banner; with `recovering`, each skipped record is named as such.
fn reporter(recovering: bool) -> impl Fn(crate::persist::PersistError) + 'static {
    move |e| {
        let storage = Storage::get();
        match e {
            crate::persist::PersistError::Corrupt { key, detail } if recovering => {
                let text = format!(
                    "Skipped the damaged record \"{key}\" ({detail}); the next save removes \
                     it from storage."
                );
                let say =
                    std::sync::Arc::new(move || crate::i18n::msg::banner_skipped(&detail, &key));
                storage.tell_as(text, false, say)
            }
            e => storage.report(e),
        }
    }
}

/// In a read-only tab: waits until the tab that saves closes, then loads the tables as it
/// left them and saves from here on.
pub async fn take_over_when_free(state: AppState) {
    let storage = Storage::get();
    let lock = crate::persist::db_name(crate::persist::SANDBOX);
    loop {
        crate::persist::lock::wait_until_free(&lock).await;
        let ok = reload_saved_tables(state, false).await;
        if crate::persist::is_attached() {
            storage.read_only.set(false);
            storage
                .notices
                .update(|n| n.retain(|n| n.text != READ_ONLY));
            storage.tell_as(
                "The other Tablescope tab closed: this tab now saves your tables, loaded as \
                 that tab left them."
                    .into(),
                false,
                crate::ui::text::notice_text::say(crate::i18n::msg::banner_taken_over),
            );
            return;
        }
        if !ok {
            return;
        }
    }
}

fn browser_account() -> Account {
    let clock = || DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap_or(DateTime::MIN);
    Account::new(Box::new(clock))
}

/// How long views may lag a stream of coalesced changes ([`AppState::change_coalesced`]):
/// about a frame.
const COALESCE_MS: i32 = 16;

/// The one piece of state every panel shares, provided through context.
///
/// Invariant: `revision` is bumped after every request that changed the account, and every
/// read goes through [`AppState::read`], which subscribes to it, so views re-read exactly when
/// the account may have changed.
#[derive(Clone, Copy)]
pub struct AppState {
    account: StoredValue<Account, LocalStorage>,
    revision: RwSignal<u64>,
}

impl AppState {
    pub fn new(account: Account) -> Self {
        AppState {
            account: StoredValue::new_local(account),
            revision: RwSignal::new(0),
        }
    }

    /// The saved tables when [`load_saved_tables`] ran before the app mounted, else an empty
    /// account; Timestamps come from the browser's clock.
    pub fn with_browser_clock() -> Self {
        let saved = SAVED.with(|s| s.borrow_mut().take());
        Self::new(saved.unwrap_or_else(browser_account))
    }

    /// The state provided by the enclosing [`App`](super::App).
    pub fn expect() -> Self {
        expect_context::<AppState>()
    }

    /// Runs a request that only reads, and subscribes the caller to later writes.
    pub fn read(&self, request: &Request) -> Response {
        self.revision.track();
        self.account
            .try_update_value(|a| a.execute(request))
            .unwrap_or_else(disposed)
    }

    /// Runs `f` on the account for a caller that only reads but reaches the engine through
    /// `&mut Account` (`wire`: the in-page SDK transport's GETs, `wire_bridge`).
    /// Nothing is persisted and views do not re-read, so `f` must not write; writes go through
    /// [`AppState::change`]. `None` only while the page tears down.
    pub fn read_mut<R>(&self, f: impl FnOnce(&mut Account) -> R) -> Option<R> {
        self.account.try_update_value(f)
    }

    /// Runs `f` on the account without writing, and subscribes the caller to later writes
    /// (for views that draw the stored keys, such as the partition map). `None` only while
    /// the page tears down.
    pub fn inspect<R>(&self, f: impl FnOnce(&Account) -> R) -> Option<R> {
        self.revision.track();
        self.account.try_with_value(f)
    }

    /// Runs a request that may write. A success bumps the revision so views re-read. While
    /// this tab is read-only (another tab saves), every write is refused with a 403 that
    /// says why, and nothing changes.
    pub fn write(&self, request: &Request) -> Response {
        if Storage::get().read_only.get_untracked() {
            return read_only_response();
        }
        let response = self
            .account
            .try_update_value(|a| a.execute(request))
            .unwrap_or_else(disposed);
        // The hand-off to IndexedDB, once per task however many writes it made (group commit,
        // see save_queue): saves the changes when a session is attached, drops them otherwise
        // (so the change feed never grows).
        save_queue::queue(self.account);
        if response.is_success() {
            self.revision.update(|r| *r += 1);
        }
        response
    }

    /// Every table as the versioned snapshot JSON (for export and share links). `None` only
    /// while the page tears down.
    pub fn export_json(&self) -> Option<String> {
        self.inspect(|a| serde_json::to_string(&a.export()).ok())
            .flatten()
    }

    /// Runs `f`, which may write, without saving its changes or making views re-read yet:
    /// for a long generated write (the Design section's generator) that writes in many short
    /// slices and calls [`AppState::save_now`] every so often, which saves everything written
    /// since (persistence plans per partition chunk touched, so fewer, larger saves cost less)
    /// and makes views re-read. Refused in a read-only tab.
    pub fn write_unsaved<R>(&self, f: impl FnOnce(&mut Account) -> R) -> Result<R, String> {
        if Storage::get().read_only.get_untracked() {
            return Err(READ_ONLY.into());
        }
        self.account
            .try_update_value(f)
            .ok_or_else(crate::i18n::msg::storage_page_closing)
    }

    /// Runs a whole-account change (import, reset, loading a shared workspace) unless this
    /// tab is read-only; `Err` says why, in the language shown when it is shown (a view that
    /// keeps it re-renders it on a language switch). Like [`AppState::write`], what it
    /// changed is persisted and views re-read.
    pub fn change<R, E: Explain + Send + Sync + 'static>(
        &self,
        f: impl FnOnce(&mut Account) -> Result<R, E>,
    ) -> Result<R, Say> {
        if Storage::get().read_only.get_untracked() {
            return Err(Arc::new(crate::i18n::msg::banner_read_only));
        }
        let result = self.account.try_update_value(f);
        // Saved with the task's other writes, in one transaction (group commit, save_queue).
        save_queue::queue(self.account);
        self.revision.update(|r| *r += 1);
        match result {
            Some(result) => result.map_err(|e| Arc::new(move || e.explain()) as Say),
            None => Err(Arc::new(crate::i18n::msg::storage_page_closing)),
        }
    }

    /// Hands every change not yet saved to persistence now, in this task (not at the end of
    /// it, as [`AppState::write`] does), and makes views re-read: for a caller that sizes its
    /// saves by what they cost (the Design section's generator, after
    /// [`AppState::write_unsaved`]). Refused in a read-only tab.
    pub fn save_now(&self) -> Result<(), String> {
        self.change(|_| Ok::<(), String>(())).map_err(|say| say())?;
        save_queue::flush();
        Ok(())
    }

    /// Like [`AppState::change`] for one of a stream of requests (the in-page SDK transport:
    /// a message per request, hundreds a second): what it changed is saved the same way, but
    /// views re-read once per [`COALESCE_MS`] however many requests changed the account
    /// meanwhile, instead of once per request.
    ///
    /// Invariant: a change made here is followed, within `COALESCE_MS`, by a revision bump.
    pub fn change_coalesced<R>(&self, f: impl FnOnce(&mut Account) -> R) -> Result<R, String> {
        if Storage::get().read_only.get_untracked() {
            return Err(crate::i18n::msg::banner_read_only());
        }
        let result = self.account.try_update_value(f);
        save_queue::queue(self.account);
        self.bump_soon();
        result.ok_or_else(crate::i18n::msg::storage_page_closing)
    }

    /// Bumps the revision after `COALESCE_MS`, once for every call made before then.
    fn bump_soon(&self) {
        // One coalescing timer per page, not a field of the state: `AppState` is copied into
        // every panel's closures, and a field more would grow them all.
        thread_local! {
            static ARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        if ARMED.with(|a| a.replace(true)) {
            return;
        }
        let revision = self.revision;
        let bump = move || {
            ARMED.with(|a| a.set(false));
            revision.try_update(|r| *r += 1);
        };
        let later = wasm_bindgen::closure::Closure::once_into_js(bump);
        let armed = web_sys::window().map(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(
                wasm_bindgen::JsCast::unchecked_ref(&later),
                COALESCE_MS,
            )
        });
        if !matches!(armed, Some(Ok(_))) {
            bump();
        }
    }

    /// The current revision (subscribes the caller).
    pub fn revision(&self) -> u64 {
        self.revision.get()
    }

    // ---- commands ----

    pub fn create_table(&self, table: &str) -> Result<(), Error> {
        into_result(self.write(&Request::CreateTable {
            table: table.to_string(),
        }))
    }

    pub fn delete_table(&self, table: &str) -> Result<(), Error> {
        into_result(self.write(&Request::DeleteTable {
            table: table.to_string(),
        }))
    }

    /// Every table with its counts, in the service's order.
    pub fn describe_tables(&self) -> Vec<TableInfo> {
        self.read(&Request::DescribeTables {})
            .table_infos
            .unwrap_or_default()
    }
}

fn into_result(response: Response) -> Result<(), Error> {
    match response.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The answer to a write in a read-only tab.
///
/// The service answers a write it does not permit (a read-only SAS) with 403
/// AuthorizationPermissionMismatch; a read-only tab answers the same, and says why.
fn read_only_response() -> Response {
    Response::failure(Error::with_text(
        crate::engine::ErrorCode::AuthorizationPermissionMismatch,
        format!(
            "{} {}",
            crate::i18n::msg::read_only_refused(),
            crate::i18n::msg::banner_read_only()
        ),
    ))
}

/// The answer when the app's owner is gone (only while the page tears down).
fn disposed() -> Response {
    Response::status(503)
}

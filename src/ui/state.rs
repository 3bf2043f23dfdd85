//! The app state: the account the page runs on, and the commands views call on it.

use crate::engine::{Account, DateTime, Error, Request, Response, TableInfo};
use leptos::prelude::*;

thread_local! {
    /// The account [`load_saved_tables`] loaded, until the app takes it.
    static SAVED: std::cell::RefCell<Option<Account>> = const { std::cell::RefCell::new(None) };
}

/// Loads the tables saved in this browser (IndexedDB, namespace `sandbox`) for the app mounted
/// next, and from then on saves every write (`crate::persist::attach`; [`AppState::write`]
/// hands each write's changes to `crate::persist::record`). When storage fails, the app runs
/// in memory and the reason goes to the console.
pub async fn load_saved_tables() {
    let report = |e: crate::persist::PersistError| leptos::logging::warn!("{e}");
    match crate::persist::attach(crate::persist::SANDBOX, browser_account(), report).await {
        Ok(account) => SAVED.with(|s| *s.borrow_mut() = Some(account)),
        Err(e) => leptos::logging::warn!("{e}"),
    }
}

fn browser_account() -> Account {
    let clock = || DateTime::from_unix_millis(js_sys::Date::now() as i64).unwrap_or(DateTime::MIN);
    Account::new(Box::new(clock))
}

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

    /// Runs `f` on the account without writing, and subscribes the caller to later writes
    /// (for views that draw the stored keys, such as the partition map). `None` only while
    /// the page tears down.
    pub fn inspect<R>(&self, f: impl FnOnce(&Account) -> R) -> Option<R> {
        self.revision.track();
        self.account.try_with_value(f)
    }

    /// Runs a request that may write. A success bumps the revision so views re-read.
    pub fn write(&self, request: &Request) -> Response {
        let response = self
            .account
            .try_update_value(|a| {
                let response = a.execute(request);
                // The one hand-off to IndexedDB: saves the changes when a session is attached,
                // drops them otherwise (so the change feed never grows).
                crate::persist::record(a);
                response
            })
            .unwrap_or_else(disposed);
        if response.is_success() {
            self.revision.update(|r| *r += 1);
        }
        response
    }

    /// Runs `f` on the whole account as a write: what it changed is persisted and views
    /// re-read. For whole-account operations such as share links (export, import a
    /// snapshot). `None` only while the page tears down.
    pub fn with_account<R>(&self, f: impl FnOnce(&mut Account) -> R) -> Option<R> {
        let result = self.account.try_update_value(|a| {
            let result = f(a);
            crate::persist::record(a);
            result
        });
        self.revision.update(|r| *r += 1);
        result
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

/// The answer when the app's owner is gone (only while the page tears down).
fn disposed() -> Response {
    Response::status(503)
}

//! What can go wrong with browser storage, in words a user can act on.

use std::fmt;
use wasm_bindgen::{JsCast, JsValue};

/// A persistence failure. Every variant's `Display` is a plain-English message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PersistError {
    /// The browser offers no IndexedDB here (private browsing, blocked site data) or refused to
    /// open the database.
    Unavailable(String),
    /// The browser's storage quota for this site is used up (DOMException `QuotaExceededError`).
    QuotaExceeded,
    /// Another tab holds an older version of the database open, or upgraded it under us.
    Blocked,
    /// Another tab of this site already saves this namespace; this one stays in memory.
    InAnotherTab,
    /// A stored record cannot be read back.
    Corrupt { key: String, detail: String },
    /// Part of the app's own code, needed to read the stored tables, cannot be loaded (offline
    /// before the browser ever cached it): see `crate::split`.
    CodeUnavailable(String),
    /// Not a failure: this many stored entities had the Timestamp at the end of the clock's
    /// range (an older Tablescope's bug) and were given current ones, so writes work again.
    ClockRepaired(usize),
    /// Not a failure: the store had this many rows out of place (left by an older Tablescope
    /// after a failed save); they were put right, and the store is rewritten.
    ChunksRepaired(usize),
    /// A save failed: `cause` says why, and `unsaved` lists every change not on disk (in
    /// words, oldest first), which the next save rewrites.
    NotSaved {
        cause: Box<PersistError>,
        unsaved: Vec<String>,
    },
    /// Not a failure: after [`PersistError::NotSaved`], a save rewrote the store, and every
    /// change is on disk again.
    AllSaved,
    /// Anything else the browser reported.
    Other(String),
}

/// Part of every [`PersistError::NotSaved`] message, so a newer one can replace it.
pub const NOT_ON_DISK: &str = "Not on disk yet:";

/// How many unsaved changes a message names before it counts the rest.
const NAMED: usize = 8;

impl fmt::Display for PersistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PersistError::Unavailable(detail) => write!(
                f,
                "This browser does not let Tablescope store data ({detail}); private browsing \
                 or blocked site data can cause this. Your tables live in this tab only and \
                 are lost when it closes: export them to keep them."
            ),
            PersistError::QuotaExceeded => f.write_str(
                "The browser's storage for this site is full, so the last change was not saved. \
                 Delete tables you no longer need or export your data, then try again.",
            ),
            PersistError::Blocked => f.write_str(
                "Another Tablescope tab is using a different version of the stored data. Close \
                 the other Tablescope tabs and reload this one.",
            ),
            PersistError::InAnotherTab => f.write_str(
                "Tablescope is open in another tab, and that tab saves your tables. Changes made \
                 here are not saved: close the other tab and reload this one to keep working on \
                 your saved tables.",
            ),
            PersistError::Corrupt { key, detail } => write!(
                f,
                "Stored data is damaged and cannot be loaded (record \"{key}\": {detail}). \
                 Export what you can, then reset the stored data."
            ),
            PersistError::CodeUnavailable(detail) => write!(
                f,
                "part of its code that reads your saved tables cannot be loaded ({detail}). \
                 Connect to the network and reload."
            ),
            PersistError::ClockRepaired(n) => write!(
                f,
                "{n} saved entities had the Timestamp 9999-12-31T23:59:59.9999999Z, left by an \
                 older Tablescope after a refused import, which stopped every write. They now \
                 have current Timestamps and new ETags, and writes work again."
            ),
            PersistError::ChunksRepaired(n) => write!(
                f,
                "The stored data had {n} records out of place, left by an older Tablescope \
                 after a save that failed. They were put right and stored again; nothing was \
                 lost."
            ),
            PersistError::NotSaved { cause, unsaved } => {
                write!(f, "{cause} {NOT_ON_DISK} ")?;
                let named: Vec<&str> = unsaved.iter().take(NAMED).map(String::as_str).collect();
                f.write_str(&named.join("; "))?;
                if unsaved.len() > NAMED {
                    write!(f, "; and {} more", unsaved.len() - NAMED)?;
                }
                f.write_str(
                    ". Tablescope saves them with your next change; until then, export your \
                     data to keep them.",
                )
            }
            PersistError::AllSaved => f.write_str("Every change is saved again."),
            PersistError::Other(detail) => write!(f, "Saving to browser storage failed: {detail}"),
        }
    }
}

impl std::error::Error for PersistError {}

impl PersistError {
    pub(crate) fn corrupt(key: &str, detail: impl Into<String>) -> Self {
        PersistError::Corrupt {
            key: key.to_string(),
            detail: detail.into(),
        }
    }

    /// Classifies a DOMException by its name.
    pub(crate) fn from_dom_exception(e: &web_sys::DomException) -> Self {
        match e.name().as_str() {
            "QuotaExceededError" => PersistError::QuotaExceeded,
            "VersionError" => PersistError::Other(
                "the stored data was written by a newer Tablescope; reload to update".into(),
            ),
            name => PersistError::Other(format!("{name}: {}", e.message())),
        }
    }

    /// Classifies any JavaScript error value (a DOMException, an Error, or something else).
    pub(crate) fn from_js(value: &JsValue) -> Self {
        if let Some(e) = value.dyn_ref::<web_sys::DomException>() {
            return PersistError::from_dom_exception(e);
        }
        if let Some(e) = value.dyn_ref::<js_sys::Error>() {
            return PersistError::Other(String::from(e.message()));
        }
        PersistError::Other(format!("{value:?}"))
    }
}

impl From<idb::Error> for PersistError {
    fn from(e: idb::Error) -> Self {
        match &e {
            idb::Error::DomException(d) => PersistError::from_dom_exception(d),
            idb::Error::IndexedDbNotFound(_) => {
                PersistError::Unavailable("IndexedDB is not available".into())
            }
            idb::Error::AddFailed(v)
            | idb::Error::UpdateFailed(v)
            | idb::Error::DeleteFailed(v)
            | idb::Error::ClearFailed(v)
            | idb::Error::GetFailed(v)
            | idb::Error::GetAllFailed(v)
            | idb::Error::GetAllKeysFailed(v)
            | idb::Error::TransactionOpenFailed(v)
            | idb::Error::TransactionCommitError(v)
                if v.is_object() =>
            {
                PersistError::from_js(v)
            }
            _ => PersistError::Other(e.to_string()),
        }
    }
}

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
    /// Anything else the browser reported.
    Other(String),
}

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

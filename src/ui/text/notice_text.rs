//! The storage banner's messages in the reader's language.
//!
//! `crate::persist` describes its failures in English (`PersistError`'s `Display`, kept for
//! logs). The banner shows them through the catalogue instead, and keeps each notice's
//! description rather than its text, so a notice re-renders when the language changes.

use crate::i18n::msg;
use crate::persist::PersistError;
use std::sync::Arc;

/// How many unsaved changes a message names before it counts the rest (as `persist` does).
const NAMED: usize = 8;

/// A notice's text in the current language, read when shown.
pub type Say = Arc<dyn Fn() -> String + Send + Sync>;

/// `e` as the banner says it.
pub fn persist_error(e: &PersistError) -> String {
    match e {
        PersistError::Unavailable(detail) => msg::banner_unavailable(detail),
        PersistError::QuotaExceeded => msg::banner_quota(),
        PersistError::Blocked => msg::banner_blocked(),
        PersistError::InAnotherTab => msg::banner_read_only(),
        PersistError::Corrupt { key, detail } => msg::banner_corrupt(detail, key),
        PersistError::ClockRepaired(n) => msg::banner_clock_repaired(*n),
        PersistError::ChunksRepaired(n) => msg::banner_chunks_repaired(*n),
        PersistError::NotSaved { cause, unsaved } => {
            // The changes are named in the words `persist` chose (they quote keys and
            // tables: data).
            let mut changes: String = unsaved
                .iter()
                .take(NAMED)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("; ");
            if unsaved.len() > NAMED {
                changes.push_str(&msg::banner_and_more(unsaved.len() - NAMED));
            }
            msg::banner_not_saved(persist_error(cause), changes)
        }
        PersistError::AllSaved => msg::banner_all_saved(),
        PersistError::Other(detail) => msg::banner_other(detail),
        // CodeUnavailable and any variant added later: as `persist` words it.
        other => other.to_string(),
    }
}

/// The description of `e`, for a notice.
pub fn say_persist_error(e: PersistError) -> Say {
    Arc::new(move || persist_error(&e))
}

/// A notice of one catalogue message.
pub fn say(message: fn() -> String) -> Say {
    Arc::new(message)
}

/// A status line's text, said in the language shown when shown (a status set as a `String`
/// would stay in the language of the moment it was set).
pub fn said(text: impl Fn() -> String + Send + Sync + 'static) -> Option<Say> {
    Some(Arc::new(text))
}

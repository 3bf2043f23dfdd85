//! A logged value in the code cell's console as the Code section shows it
//! (`code_panel::output::json_tree`), built with plain DOM: a primitive as its JSON text, an
//! object or array as a `<details>` with a one-line summary and its members below, the
//! outermost open.
//!
//! Invariant: every name and value is the user's data, set as text, never as HTML.

use super::view::{append, attr, element, text};
use crate::ui::panels::code_panel::output::{members, preview, primitive_class};
use serde_json::Value;
use web_sys::{Document, Element};

/// Summaries are cut to this many characters (as in the Code section).
const SUMMARY_CHARS: usize = 80;

pub(super) fn json_tree(document: &Document, v: &Value, open: bool) -> Element {
    let Some(members) = members(v) else {
        let span = element(document, "span", primitive_class(v));
        text(&span, &v.to_string());
        return span;
    };
    let details = element(document, "details", "json-tree");
    if open {
        attr(&details, "open", "");
    }
    let summary = element(document, "summary", "");
    text(&summary, &preview(v, SUMMARY_CHARS));
    append(&details, &summary);
    let list = element(document, "ul", "");
    for (name, x) in members {
        let li = element(document, "li", "");
        let key = element(document, "span", "json-key");
        text(&key, &format!("{name}: "));
        append(&li, &key);
        append(&li, &json_tree(document, x, false));
        append(&list, &li);
    }
    append(&details, &list);
    details
}

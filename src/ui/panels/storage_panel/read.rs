//! Reading a chosen file for import: streamed from the `File` (`File.stream()`), decoded as it
//! comes (`engine::encoding`: UTF-8 with or without a byte order mark, UTF-16 with one) and,
//! for a workspace export, parsed as it comes (`engine::snapshot::stream`), with progress and
//! cancel.
//!
//! Invariant: the account is only read here (for its clock), never changed: a file refused or
//! cancelled at any point leaves everything as it was. A JSON export is never held as one
//! string, so the only limit on its size is the memory of the tables it builds (and, once
//! imported, the browser's storage quota).

use crate::engine::encoding::Decoder;
use crate::engine::snapshot::stream::{Imported, Reader};
use crate::i18n::msg;
use crate::ui::state::AppState;
use crate::ui::text::import_text::Explain;
use crate::ui::text::notice_text::Say;
use js_sys::{Reflect, Uint8Array};
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// What a file holds, read and checked.
pub enum Read {
    /// A workspace export, every table built and checked.
    Json(Imported),
    /// A CSV file's text (parsed when the user names the table).
    Csv(String),
}

/// How long reading runs before it lets the page paint and take input.
const SLICE_MS: f64 = 40.0;

/// Reads `file`; `progress` hears (bytes read, bytes in all); `cancelled` is asked between
/// pieces.
pub async fn read_file(
    state: AppState,
    file: &JsValue,
    name: &str,
    progress: impl Fn(f64, f64),
    cancelled: impl Fn() -> bool,
) -> Result<Read, Say> {
    let not_imported = |why: Say| super::not_imported(name, why);
    let unreadable = || not_imported(Arc::new(msg::storage_unreadable));
    let size = Reflect::get(file, &"size".into())
        .ok()
        .and_then(|s| s.as_f64())
        .unwrap_or(0.0);
    let stream = call(file, "stream").map_err(|_| unreadable())?;
    let reader = call(&stream, "getReader").map_err(|_| unreadable())?;
    let explain = |e: crate::engine::Error| not_imported(Arc::new(move || e.explain()));
    let mut decoder = Decoder::new();
    let json_name = name.to_ascii_lowercase().ends_with(".json");
    // Decided by the first text that is not blank: a `.json` name or a `{` means an export.
    let mut kind: Option<bool> = None;
    let mut json = state.inspect(Reader::new);
    let mut csv = String::new();
    let mut read = 0.0;
    let mut slice_start = crate::ui::kit::dom::now();
    loop {
        if cancelled() {
            if let Ok(stopped) = call(&reader, "cancel") {
                let _ = JsFuture::from(js_sys::Promise::from(stopped)).await;
            }
            return Err(not_imported(Arc::new(msg::storage_import_cancelled)));
        }
        let next = call(&reader, "read").map_err(|_| unreadable())?;
        let result = JsFuture::from(js_sys::Promise::from(next))
            .await
            .map_err(|_| unreadable())?;
        let done = Reflect::get(&result, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        let text = if done {
            decoder.finish().map_err(explain)?
        } else {
            let chunk: Uint8Array = Reflect::get(&result, &"value".into())
                .ok()
                .and_then(|v| v.dyn_into().ok())
                .ok_or_else(unreadable)?;
            read += f64::from(chunk.length());
            decoder.push(&chunk.to_vec()).map_err(explain)?
        };
        // Until the kind is known, text waits in `csv` (it is blank so far).
        let mut text = text;
        if kind.is_none() {
            csv.push_str(&text);
            text = String::new();
            if let Some(first) = csv.trim_start().chars().next() {
                kind = Some(json_name || first == '{');
                if kind == Some(true) {
                    text = std::mem::take(&mut csv);
                }
            }
        }
        match kind {
            Some(true) => {
                let fed = state.inspect(|a| json.as_mut().map(|r| r.feed(a, &text)));
                match fed.flatten() {
                    Some(result) => result.map_err(explain)?,
                    None => return Err(not_imported(Arc::new(msg::storage_page_closing))),
                }
            }
            _ => csv.push_str(&text),
        }
        if done {
            break;
        }
        if crate::ui::kit::dom::now() - slice_start > SLICE_MS {
            progress(read, size);
            crate::persist::pause().await;
            slice_start = crate::ui::kit::dom::now();
        }
    }
    if kind == Some(true) || (kind.is_none() && json_name) {
        let mut reader = json.ok_or_else(unreadable)?;
        if kind.is_none() {
            // Blanks only: read as JSON, they say where the file ended.
            let fed = state.inspect(|a| reader.feed(a, &csv));
            fed.ok_or_else(unreadable)?.map_err(explain)?;
        }
        let finished = state.inspect(|a| reader.finish(a));
        let imported = finished
            .ok_or_else(|| not_imported(Arc::new(msg::storage_page_closing)))?
            .map_err(explain)?;
        return Ok(Read::Json(imported));
    }
    Ok(Read::Csv(csv))
}

fn call(target: &JsValue, method: &str) -> Result<JsValue, JsValue> {
    Reflect::get(target, &method.into())?
        .dyn_into::<js_sys::Function>()?
        .call0(target)
}

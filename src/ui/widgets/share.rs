//! Share links: a workspace (the account's snapshot) or a scenario in the URL fragment,
//! `#share=w.<data>` or `#share=s.<data>`, where `<data>` is the JSON text compressed with
//! raw deflate and written in base64url. Opening the link offers to load it.
//!
//! Compression is the browser's own `CompressionStream("deflate-raw")`, reached through
//! `js_sys::Reflect` (web-sys marks it unstable): no compression crate in the wasm.

use super::super::state::AppState;
use crate::i18n::{msg, number, t};
use crate::ui::kit::address::{clear_fragment, page_base, page_fragment};
use crate::ui::kit::dom::{mark, measure};
use crate::ui::text::notice_text::{said, Say};
use base64::Engine as _;
use js_sys::{Array, Reflect, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Links longer than this may be cut by browsers, chat tools and mail clients.
pub const MAX_LINK: usize = 8_000;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// What a share link holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Workspace,
    Scenario,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Workspace => "w",
            Kind::Scenario => "s",
        }
    }
}

/// The fragment of a share link: `share=w.<base64url of deflated JSON>`.
pub async fn encode(kind: Kind, json: &str) -> Result<String, String> {
    let packed = compress(json.as_bytes()).await?;
    Ok(format!("share={}.{}", kind.tag(), B64.encode(packed)))
}

/// Why no link was made.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkProblem {
    /// The link would have this many characters, over [`MAX_LINK`].
    TooLong(usize),
    /// The browser could not compress the text.
    Failed(String),
}

/// The whole share link of `json`: the playground's address with the encoded fragment.
pub async fn make_link(kind: Kind, json: &str) -> Result<String, LinkProblem> {
    let fragment = encode(kind, json).await.map_err(LinkProblem::Failed)?;
    let url = format!("{}#{fragment}", page_base());
    if url.len() > MAX_LINK {
        return Err(LinkProblem::TooLong(url.len()));
    }
    Ok(url)
}

/// The most a share link may hold once decompressed: 8 MiB. A link Tablescope makes holds at
/// most [`MAX_LINK`] characters, which deflate cannot expand past about 6 MB; anything larger
/// is refused while decompressing, before it takes memory (a "deflate bomb" of 1 GB is
/// refused after reading its first few KB).
pub const MAX_SHARED_BYTES: usize = 8 * 1024 * 1024;

/// Compressed bytes handed to the decompressor at a time. Deflate expands a byte to at most
/// about 1,032, so one piece decompresses to at most about 4 MB, and reading stops at the cap.
const PIECE: usize = 4 * 1024;

/// Why a share link cannot be opened; its `Display` is the message for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareError {
    /// Not a link Tablescope made, or damaged; the message says how.
    Damaged(String),
    /// It decompresses to more than [`MAX_SHARED_BYTES`]; `packed` is its deflated data, to
    /// offer as a file ([`download_packed`]).
    TooLarge { packed: Vec<u8> },
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareError::Damaged(why) => f.write_str(why),
            ShareError::TooLarge { .. } => f.write_str(&too_large_text()),
        }
    }
}

/// The message for a link over the cap.
fn too_large_text() -> String {
    msg::share_too_large(number(MAX_SHARED_BYTES / (1024 * 1024)))
}

/// Reads a fragment (with or without its `#`); `None` when it is not a share link.
pub async fn decode(fragment: &str) -> Option<Result<(Kind, String), ShareError>> {
    let rest = fragment.trim_start_matches('#').strip_prefix("share=")?;
    let damaged = |why: &str| ShareError::Damaged(why.to_string());
    let (kind, data) = match rest.split_once('.') {
        Some(("w", d)) => (Kind::Workspace, d),
        Some(("s", d)) => (Kind::Scenario, d),
        _ => return Some(Err(damaged("this share link is not one Tablescope made"))),
    };
    // How long refusing or reading the link took (the share e2e tests read it).
    mark(DECODE_MARK);
    let decoded = async {
        let packed = B64
            .decode(data.trim())
            .map_err(|_| damaged("this share link is damaged (not base64url)"))?;
        let bytes = match inflate(&packed, MAX_SHARED_BYTES).await {
            Ok(bytes) => bytes,
            Err(Inflate::TooLarge) => return Err(ShareError::TooLarge { packed }),
            Err(Inflate::Failed) => {
                return Err(damaged(
                    "this share link is damaged (cannot be decompressed)",
                ))
            }
        };
        let text = String::from_utf8(bytes)
            .map_err(|_| damaged("this share link is damaged (not UTF-8)"))?;
        Ok((kind, text))
    }
    .await;
    measure(DECODE_MEASURE, DECODE_MARK);
    Some(decoded)
}

const DECODE_MARK: &str = "tablescope-share-decode-start";
const DECODE_MEASURE: &str = "tablescope-share-decode";

enum Inflate {
    TooLarge,
    Failed,
}

/// Decompresses raw deflate, refusing output over `cap` as soon as it is reached: the input
/// goes in [`PIECE`]s while the output is read and counted, so memory stays near `cap`.
async fn inflate(packed: &[u8], cap: usize) -> Result<Vec<u8>, Inflate> {
    let stream = decompressor().map_err(|_| Inflate::Failed)?;
    let member = |name: &str| Reflect::get(&stream, &JsValue::from_str(name));
    let (Ok(writable), Ok(readable)) = (member("writable"), member("readable")) else {
        return Err(Inflate::Failed);
    };
    let writer = call(&writable, "getWriter", None).map_err(|_| Inflate::Failed)?;
    let reader = call(&readable, "getReader", None).map_err(|_| Inflate::Failed)?;
    // The writer runs beside the reading below; it stops at the first failed write (the
    // reader cancelled), and every promise it makes is awaited, so none is left unhandled.
    let pieces: Vec<Uint8Array> = packed.chunks(PIECE).map(Uint8Array::from).collect();
    wasm_bindgen_futures::spawn_local(async move {
        for piece in pieces {
            let Ok(written) = call(&writer, "write", Some(&piece)) else {
                return;
            };
            if JsFuture::from(js_sys::Promise::from(written))
                .await
                .is_err()
            {
                return;
            }
        }
        if let Ok(closed) = call(&writer, "close", None) {
            let _ = JsFuture::from(js_sys::Promise::from(closed)).await;
        }
    });
    let mut out = Vec::new();
    loop {
        let read = call(&reader, "read", None).map_err(|_| Inflate::Failed)?;
        let result = JsFuture::from(js_sys::Promise::from(read))
            .await
            .map_err(|_| Inflate::Failed)?;
        if Reflect::get(&result, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true)
        {
            return Ok(out);
        }
        let chunk: Uint8Array = Reflect::get(&result, &JsValue::from_str("value"))
            .map_err(|_| Inflate::Failed)?
            .dyn_into()
            .map_err(|_| Inflate::Failed)?;
        if out.len() + chunk.length() as usize > cap {
            if let Ok(cancelled) = call(&reader, "cancel", None) {
                let _ = JsFuture::from(js_sys::Promise::from(cancelled)).await;
            }
            return Err(Inflate::TooLarge);
        }
        let at = out.len();
        out.resize(at + chunk.length() as usize, 0);
        if let Some(target) = out.get_mut(at..) {
            chunk.copy_to(target);
        }
    }
}

/// Pipes bytes through a `CompressionStream` of raw deflate.
async fn compress(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let class = "CompressionStream";
    let err = |e: JsValue| {
        crate::ui::kit::fetch::js_message(&e).unwrap_or_else(|| format!("{class} failed"))
    };
    let ctor: js_sys::Function = Reflect::get(&js_sys::global(), &JsValue::from_str(class))
        .map_err(err)?
        .dyn_into()
        .map_err(|_| format!("this browser has no {class}"))?;
    let stream =
        Reflect::construct(&ctor, &Array::of1(&JsValue::from_str("deflate-raw"))).map_err(err)?;
    let parts = Array::of1(&Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(err)?;
    let piped = blob
        .stream()
        .pipe_through(stream.unchecked_ref::<web_sys::ReadableWritablePair>());
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&piped)).map_err(err)?;
    let buffer = JsFuture::from(response.array_buffer().map_err(err)?)
        .await
        .map_err(err)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// A `DecompressionStream("deflate-raw")`.
fn decompressor() -> Result<JsValue, JsValue> {
    let ctor: js_sys::Function =
        Reflect::get(&js_sys::global(), &JsValue::from_str("DecompressionStream"))?.dyn_into()?;
    Reflect::construct(&ctor, &Array::of1(&JsValue::from_str("deflate-raw")))
}

/// Calls `target.method(arg?)`.
fn call(target: &JsValue, method: &str, arg: Option<&JsValue>) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = Reflect::get(target, &JsValue::from_str(method))?.dyn_into()?;
    match arg {
        Some(arg) => f.call1(target, arg),
        None => f.call0(target),
    }
}

/// Offers the whole decompressed data of a link over the cap as a file: the browser streams it
/// into a file-backed blob, never into this page's memory.
pub async fn download_packed(name: &str, packed: &[u8]) -> Result<(), String> {
    let fail = |_| msg::storage_download_failed();
    let stream = decompressor().map_err(fail)?;
    let parts = Array::of1(&Uint8Array::from(packed));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(fail)?;
    let piped = blob
        .stream()
        .pipe_through(stream.unchecked_ref::<web_sys::ReadableWritablePair>());
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&piped)).map_err(fail)?;
    let whole = JsFuture::from(response.blob().map_err(fail)?)
        .await
        .map_err(|_| "this share link is damaged (cannot be decompressed)".to_string())?;
    let blob: web_sys::Blob = whole.dyn_into().map_err(fail)?;
    download_blob(name, &blob)
}

/// Offers `text` as a file download.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |_| msg::storage_download_failed();
    let parts = Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    download_blob(name, &blob)
}

fn download_blob(name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let fail = |_| msg::storage_download_failed();
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "no anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// A link that was opened and waits for the user to load it.
#[derive(Debug, Clone, PartialEq)]
struct Pending {
    snapshot: String,
    tables: usize,
    entities: usize,
}

fn describe(snapshot: &str) -> Option<Pending> {
    let v: serde_json::Value = serde_json::from_str(snapshot).ok()?;
    let tables = v.get("tables")?.as_array()?;
    Some(Pending {
        snapshot: snapshot.to_string(),
        tables: tables.len(),
        entities: tables
            .iter()
            .filter_map(|t| t.get("entities")?.as_array().map(Vec::len))
            .sum(),
    })
}

/// Share the workspace as a link (or a file when too long), and load a shared workspace
/// opened from a link. A shared scenario opens in the Learn player (see `LearnPanel`).
#[component]
pub fn SharePanel() -> impl IntoView {
    let state = AppState::expect();
    let link = RwSignal::new(None::<String>);
    // Said in the language shown when shown (it follows a switch).
    let message = RwSignal::new(None::<Say>);
    let pending = RwSignal::new(None::<Pending>);
    // The deflated data of a link over the cap, offered as a file.
    let oversized = RwSignal::new(None::<Vec<u8>>);
    spawn_local(async move {
        match decode(&page_fragment()).await {
            Some(Ok((Kind::Workspace, text))) => match describe(&text) {
                Some(p) => {
                    pending.try_set(Some(p));
                }
                None => {
                    message.try_set(said(msg::share_not_workspace));
                }
            },
            Some(Err(e)) => {
                let shown = e.clone();
                message.try_set(said(move || shown.to_string()));
                if let ShareError::TooLarge { packed } = e {
                    oversized.try_set(Some(packed));
                }
            }
            _ => {}
        }
    });
    let download_oversized = move |_| {
        let Some(packed) = oversized.get_untracked() else {
            return;
        };
        spawn_local(async move {
            if let Err(e) = download_packed("tablescope-shared.json", &packed).await {
                message.try_set(said(move || e.clone()));
            }
        });
    };
    let make = move |_| {
        let Some(json) = state.export_json() else {
            message.set(said(msg::share_export_failed));
            return;
        };
        spawn_local(async move {
            match make_link(Kind::Workspace, &json).await {
                Ok(url) => {
                    let n = url.len();
                    message.try_set(said(move || msg::share_ready(number(n))));
                    link.try_set(Some(url));
                }
                Err(LinkProblem::TooLong(len)) => {
                    link.try_set(None);
                    message.try_set(said(move || {
                        msg::share_too_long(number(len), number(MAX_LINK))
                    }));
                }
                Err(LinkProblem::Failed(e)) => {
                    message.try_set(said(move || msg::share_no_link(&e)));
                }
            }
        });
    };
    let download_file = move |_| match state.export_json() {
        Some(json) => {
            if let Err(e) = download("tablescope-workspace.json", &json) {
                message.set(said(move || e.clone()));
            }
        }
        None => message.set(said(msg::share_export_failed)),
    };
    let load = move |_| {
        let Some(p) = pending.get_untracked() else {
            return;
        };
        match state.change(|a| a.import_json(&p.snapshot)) {
            Ok(()) => {
                pending.set(None);
                clear_fragment();
                let (entities, tables) = (p.entities, p.tables);
                message.set(said(move || {
                    msg::share_loaded(msg::count_entities(entities), msg::count_tables(tables))
                }));
            }
            Err(why) => message.set(said(move || msg::share_load_failed(why()))),
        }
    };
    let dismiss = move |_| {
        pending.set(None);
        clear_fragment();
    };
    view! {
        <section class="panel share-panel" aria-labelledby="share-heading">
            <h2 id="share-heading">{t(msg::share_heading)}</h2>
            {move || {
                pending
                    .get()
                    .map(|p| {
                        let what = move || {
                            msg::share_pending(
                                msg::count_entities(p.entities),
                                msg::count_tables(p.tables),
                            )
                        };
                        view! {
                            <div class="share-pending" role="group" aria-label=t(msg::share_pending_label)>
                                <p>{what}</p>
                                <button type="button" class="primary share-load" on:click=load>
                                    {t(msg::share_load)}
                                </button>
                                <button type="button" on:click=dismiss>
                                    {t(msg::share_keep)}
                                </button>
                            </div>
                        }
                    })
            }}
            <p class="hint">
                {t(msg::share_hint)}
            </p>
            <div class="field-row">
                <button type="button" class="share-make" on:click=make>
                    {t(msg::share_make)}
                </button>
                <button type="button" class="share-download" on:click=download_file>
                    {t(msg::share_download)}
                </button>
            </div>
            <p class="status share-status" aria-live="polite">{move || message.get().map(|say| say())}</p>
            {move || {
                oversized
                    .with(Option::is_some)
                    .then(|| {
                        view! {
                            <button type="button" class="share-oversized" on:click=download_oversized>
                                {t(msg::share_download_link)}
                            </button>
                        }
                    })
            }}
            {move || {
                link.get()
                    .map(|url| {
                        view! {
                            <input
                                class="share-link"
                                type="text"
                                readonly
                                aria-label=t(msg::share_link)
                                prop:value=url
                            />
                        }
                    })
            }}
        </section>
    }
}

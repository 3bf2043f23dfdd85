//! Share links: a workspace (the account's snapshot) or a scenario in the URL fragment,
//! `#share=w.<data>` or `#share=s.<data>`, where `<data>` is the JSON text compressed with
//! raw deflate and written in base64url. Opening the link offers to load it.
//!
//! Compression is the browser's own `CompressionStream("deflate-raw")`, reached through
//! `js_sys::Reflect` (web-sys marks it unstable): no compression crate in the wasm.

use super::super::state::AppState;
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
    let packed = transform(json.as_bytes(), "CompressionStream").await?;
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

/// Reads a fragment (with or without its `#`); `None` when it is not a share link.
pub async fn decode(fragment: &str) -> Option<Result<(Kind, String), String>> {
    let rest = fragment.trim_start_matches('#').strip_prefix("share=")?;
    let (kind, data) = match rest.split_once('.') {
        Some(("w", d)) => (Kind::Workspace, d),
        Some(("s", d)) => (Kind::Scenario, d),
        _ => return Some(Err("this share link is not one Tablescope made".into())),
    };
    Some(
        async {
            let packed = B64
                .decode(data.trim())
                .map_err(|_| "this share link is damaged (not base64url)".to_string())?;
            let bytes = transform(&packed, "DecompressionStream")
                .await
                .map_err(|_| "this share link is damaged (cannot be decompressed)".to_string())?;
            let text = String::from_utf8(bytes)
                .map_err(|_| "this share link is damaged (not UTF-8)".to_string())?;
            Ok((kind, text))
        }
        .await,
    )
}

/// Pipes bytes through a `CompressionStream` or `DecompressionStream` of raw deflate.
async fn transform(bytes: &[u8], class: &str) -> Result<Vec<u8>, String> {
    let err =
        |e: JsValue| super::fetch::js_message(&e).unwrap_or_else(|| format!("{class} failed"));
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

/// The full playground's address (origin and path, without query or fragment), for building
/// share links. Dropping the query matters: a link made inside the docs embed
/// (`?embed=1&scenario=…`) must open the playground, which reads the fragment, not another
/// embed, which would ignore it.
pub fn page_base() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    format!("{origin}{path}")
}

/// The page's fragment (`#...`), or an empty string.
pub fn page_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Drops the fragment from the address bar (without reloading or adding history).
pub fn clear_fragment() {
    if let Some(w) = web_sys::window() {
        if let Ok(history) = w.history() {
            let href = w.location().href().unwrap_or_default();
            let url = href.split_once('#').map_or(href.as_str(), |(base, _)| base);
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(url));
        }
    }
}

/// Offers `text` as a file download.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |_| "the download could not start".to_string();
    let parts = Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
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
    let message = RwSignal::new(String::new());
    let pending = RwSignal::new(None::<Pending>);
    spawn_local(async move {
        match decode(&page_fragment()).await {
            Some(Ok((Kind::Workspace, text))) => match describe(&text) {
                Some(p) => {
                    pending.try_set(Some(p));
                }
                None => {
                    message.try_set("This share link does not hold a workspace.".into());
                }
            },
            Some(Err(e)) => {
                message.try_set(e);
            }
            _ => {}
        }
    });
    let make = move |_| {
        let Some(json) = state.export_json() else {
            message.set("The workspace could not be exported.".into());
            return;
        };
        spawn_local(async move {
            match make_link(Kind::Workspace, &json).await {
                Ok(url) => {
                    message.try_set(format!("Link ready ({} characters).", url.len()));
                    link.try_set(Some(url));
                }
                Err(LinkProblem::TooLong(len)) => {
                    link.try_set(None);
                    message.try_set(format!(
                        "This workspace makes a link of {len} characters, too long to share \
                         safely (over {MAX_LINK}). Download it as a file instead."
                    ));
                }
                Err(LinkProblem::Failed(e)) => {
                    message.try_set(format!("No link: {e}"));
                }
            }
        });
    };
    let download_file = move |_| match state.export_json() {
        Some(json) => {
            if let Err(e) = download("tablescope-workspace.json", &json) {
                message.set(e);
            }
        }
        None => message.set("The workspace could not be exported.".into()),
    };
    let load = move |_| {
        let Some(p) = pending.get_untracked() else {
            return;
        };
        match state.change(|a| a.import_json(&p.snapshot)) {
            Ok(()) => {
                pending.set(None);
                clear_fragment();
                message.set(format!(
                    "Loaded the shared workspace: {} tables, {} entities.",
                    p.tables, p.entities
                ));
            }
            Err(e) => message.set(format!("The shared workspace cannot be loaded: {e}")),
        }
    };
    let dismiss = move |_| {
        pending.set(None);
        clear_fragment();
    };
    view! {
        <section class="panel share-panel" aria-labelledby="share-heading">
            <h2 id="share-heading">"Share"</h2>
            {move || {
                pending
                    .get()
                    .map(|p| {
                        let what = format!(
                            "This link holds a workspace of {} tables and {} entities. \
                             Loading it replaces your current tables.",
                            p.tables,
                            p.entities
                        );
                        view! {
                            <div class="share-pending" role="group" aria-label="Shared workspace">
                                <p>{what}</p>
                                <button type="button" class="primary share-load" on:click=load>
                                    "Load shared workspace"
                                </button>
                                <button type="button" on:click=dismiss>
                                    "Keep my tables"
                                </button>
                            </div>
                        }
                    })
            }}
            <p class="hint">
                "A link holds your whole workspace, compressed, in its #fragment: it never "
                "leaves your browser until you send it."
            </p>
            <div class="field-row">
                <button type="button" class="share-make" on:click=make>
                    "Make share link"
                </button>
                <button type="button" class="share-download" on:click=download_file>
                    "Download snapshot (.json)"
                </button>
            </div>
            <p class="status share-status" aria-live="polite">{move || message.get()}</p>
            {move || {
                link.get()
                    .map(|url| {
                        view! {
                            <input
                                class="share-link"
                                type="text"
                                readonly
                                aria-label="Share link"
                                prop:value=url
                            />
                        }
                    })
            }}
        </section>
    }
}

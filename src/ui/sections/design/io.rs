//! The design as a file and as a link: export (the versioned JSON the engine reads), import
//! (a file that does not read as a design is refused with the reason, and the design being
//! edited stays as it was), and a share link `#design=<data>`, where `<data>` is the JSON
//! deflated and written in base64url as workspace share links are (`widgets::share`).

use super::doc::Ctx;
use crate::design::{Design, VERSION};
use crate::i18n::{msg, t};
use crate::ui::kit::address;
use crate::ui::text::import_text;
use crate::ui::widgets::share;
use js_sys::Reflect;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};

/// The fragment's name.
const FRAGMENT: &str = "design=";

/// Reads a design file's text by its structure and version; the message says what is wrong.
pub fn read(text: &str) -> Result<Design, String> {
    let d = Design::parse(text).map_err(|p| msg::design_import_bad(import_text::json(&p)))?;
    if d.version != VERSION {
        return Err(msg::design_import_version(d.version, VERSION));
    }
    Ok(d)
}

/// When the page was opened by a design link: opens its design, and drops the fragment.
pub fn open_link(ctx: Ctx) {
    let fragment = address::page_fragment();
    let Some(data) = fragment.trim_start_matches('#').strip_prefix(FRAGMENT) else {
        return;
    };
    let data = data.to_string();
    let notice = ctx.notice;
    spawn_local(async move {
        // The same encoding as a workspace link, so the same decoder (and its size cap).
        let decoded = share::decode(&format!("share=w.{data}")).await;
        address::clear_fragment();
        match decoded {
            Some(Ok((_, text))) => match read(&text) {
                Ok(d) => {
                    notice.set(Some(msg::design_link_opened(&d.name)));
                    ctx.open(d);
                }
                Err(e) => notice.set(Some(e)),
            },
            Some(Err(e)) => notice.set(Some(e.to_string())),
            None => {}
        }
    });
}

/// Export, import, share link, new design.
#[component]
pub fn Files() -> impl IntoView {
    let ctx = Ctx::expect();
    let link = RwSignal::new(String::new());
    let export = move |_| {
        let d = ctx.design.get_untracked();
        let name = format!("{}.design.json", file_stem(&d.name));
        if let Err(e) = share::download(&name, &d.to_json()) {
            ctx.notice.set(Some(e));
        }
    };
    let choose = move |ev: leptos::ev::Event| {
        let file = crate::ui::kit::fields::take_chosen_file(&ev);
        let Some(file) = file else { return };
        spawn_local(async move {
            let text = match call_text(&file) {
                Some(p) => wasm_bindgen_futures::JsFuture::from(p).await.ok(),
                None => None,
            };
            let text = text.and_then(|t| t.as_string()).unwrap_or_default();
            match read(&text) {
                Ok(d) => {
                    ctx.notice.set(Some(msg::design_imported(&d.name)));
                    ctx.open(d);
                }
                // Nothing changes: the design being edited stays.
                Err(e) => ctx.notice.set(Some(e)),
            }
        });
    };
    let share_link = move |_| {
        let json = ctx.design.get_untracked().to_json();
        spawn_local(async move {
            match share::encode(share::Kind::Workspace, &json).await {
                Ok(fragment) => {
                    let data = fragment.trim_start_matches("share=w.");
                    let url = format!("{}#{FRAGMENT}{data}", address::page_base());
                    copy(&url);
                    link.set(url);
                }
                Err(e) => ctx.notice.set(Some(e)),
            }
        });
    };
    view! {
        <div class="editor-actions design-files">
            <button type="button" class="new-design" on:click=move |_| ctx.open(super::doc::empty())>{t(msg::design_new)}</button>
            <button type="button" class="export-design" on:click=export>{t(msg::design_export)}</button>
            <label class="import-design file-choice">
                <input type="file" class="import-file" accept=".json,application/json" on:change=choose />
                {t(msg::design_import)}
            </label>
            <button type="button" class="share-design" on:click=share_link>{t(msg::design_share)}</button>
        </div>
        <label class="field" hidden=move || link.with(String::is_empty)>
            <span>{t(msg::design_share_link)}</span>
            <input type="text" class="design-link" dir="ltr" readonly prop:value=move || link.get() />
        </label>
        <p class="status design-notice" role="status">{move || ctx.notice.get()}</p>
    }
}

/// A file name from the design's name (letters, digits and dashes).
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        "design".into()
    } else {
        stem.into()
    }
}

/// `file.text()`: the file's contents as a promise of a string.
fn call_text(file: &JsValue) -> Option<js_sys::Promise> {
    let f: js_sys::Function = Reflect::get(file, &"text".into()).ok()?.dyn_into().ok()?;
    f.call0(file).ok()?.dyn_into().ok()
}

/// Puts `text` on the clipboard when the browser allows it (the link is shown either way; a
/// refusal is not an error).
fn copy(text: &str) {
    if let Some(w) = web_sys::window() {
        let written = w.navigator().clipboard().write_text(text);
        spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(written).await;
        });
    }
}

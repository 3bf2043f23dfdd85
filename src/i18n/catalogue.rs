//! A catalogue's messages, how a message is filled, and how a catalogue is downloaded and read.

use super::{msg, Lang, KEYS_HASH, KEYS_HASH_HEX, KEY_COUNT, VERSIONS};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A CLDR cardinal plural category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Zero,
    One,
    Two,
    Few,
    Many,
    Other,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::Zero,
        Category::One,
        Category::Two,
        Category::Few,
        Category::Many,
        Category::Other,
    ];

    /// The category CLDR (and `Intl.PluralRules`) calls `name`.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Zero => "zero",
            Category::One => "one",
            Category::Two => "two",
            Category::Few => "few",
            Category::Many => "many",
            Category::Other => "other",
        }
    }
}

/// One message: a text, or a text per plural category.
#[derive(Debug, Clone, Copy)]
pub enum Message {
    Text(&'static str),
    Plural(&'static [(Category, &'static str)]),
}

/// The form of `category`, else `other` (build.rs makes sure every category of the message's
/// language is there).
pub fn form(forms: &'static [(Category, &'static str)], category: Category) -> &'static str {
    let find = |c: Category| forms.iter().find(|(k, _)| *k == c).map(|(_, t)| *t);
    find(category)
        .or_else(|| find(Category::Other))
        .unwrap_or("")
}

/// `text` with each `{name}` replaced by its argument (`{count}` by `count`). A `{` that opens
/// no known placeholder stays as it is.
pub fn fill(text: &str, args: &[(&str, &dyn std::fmt::Display)], count: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let name = after.find('}').map(|end| &after[..end]);
        // `{count}` is a plural message's number; a message without plural forms may name a
        // placeholder `count` too, filled from its arguments like any other.
        let value = name.and_then(|name| match (name, count) {
            ("count", Some(count)) => Some(count.to_string()),
            _ => args
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string()),
        });
        match (name, value) {
            (Some(name), Some(value)) => {
                out.push_str(&value);
                rest = &after[name.len() + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Downloads `lang`'s catalogue, relative to the page: the page's, `locales/<code>.json?v=<hash>`,
/// or a docs embed's (`module`), `locales/<module>/<code>.json?v=<hash>` (`scripts/locales.mjs`
/// writes both; the hash is the source catalogue's).
pub async fn fetch(lang: Lang, module: Option<&str>) -> Result<String, String> {
    let failed = |e: JsValue| msg::lang_load_failed(lang.own_name(), describe(&e));
    let window = web_sys::window().ok_or("no window")?;
    let dir = module.map(|m| format!("{m}/")).unwrap_or_default();
    let url = format!(
        "locales/{dir}{}.json?v={}",
        lang.code(),
        VERSIONS[lang.index()]
    );
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(failed)?
        .dyn_into()
        .map_err(failed)?;
    if !response.ok() {
        return Err(msg::lang_load_failed(
            lang.own_name(),
            format!("HTTP {}", response.status()),
        ));
    }
    let text = JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?;
    text.as_string()
        .ok_or_else(|| msg::lang_load_failed(lang.own_name(), "not text"))
}

/// A downloaded catalogue as `scripts/locales.mjs` writes it, or what is wrong with it: an
/// array of this build's key hash ([`KEYS_HASH_HEX`]) and then one entry per message in key
/// order, 0 for a message the file leaves out. Read with the browser's `JSON.parse`: no JSON
/// code of ours in the wasm for it. The messages are read by position ([`text`]); a catalogue
/// of another build (another hash or length) is refused (the page shows English) rather than
/// misread.
pub fn parse(text: &str) -> Result<Array, String> {
    let root = js_sys::JSON::parse(text).map_err(|e| describe(&e))?;
    if !Array::is_array(&root) {
        return Err("not a JSON array".into());
    }
    let root: Array = root.unchecked_into();
    if root.length() != KEY_COUNT + 1 || root.get(0).as_string().as_deref() != Some(KEYS_HASH_HEX) {
        return Err("its keys are not this build's".into());
    }
    Ok(root)
}

/// A source catalogue (`www/locales/<lang>.json`, an object of messages by key) in the form
/// [`parse`] returns, or what is wrong with it: its keys must be this build's, in order
/// ([`keys_hash`]). For tests, which install the source files directly.
pub fn parse_source(text: &str) -> Result<Array, String> {
    let root = js_sys::JSON::parse(text).map_err(|e| describe(&e))?;
    if !root.is_object() || Array::is_array(&root) {
        return Err("not a JSON object".into());
    }
    let root: Object = root.unchecked_into();
    let keys = Object::keys(&root);
    if keys.length() != KEY_COUNT
        || keys_hash(keys.iter().filter_map(|k| k.as_string())) != KEYS_HASH
    {
        return Err("its keys are not this build's".into());
    }
    let messages = Object::values(&root);
    messages.unshift(&JsValue::from_str(KEYS_HASH_HEX));
    Ok(messages)
}

include!("keys_hash.rs");

/// Message number `index` of a catalogue (as [`parse`] returns it): its text, or of a plural message the
/// form of `category`, else `other` (build.rs makes sure every category of the language is
/// there). None when it is not there (0: left out of the file).
pub fn text(catalogue: &Array, index: u32, category: Category) -> Option<String> {
    // Entry 0 is the key hash.
    let value = catalogue.get(index + 1);
    if let Some(text) = value.as_string() {
        return Some(text);
    }
    if !value.is_object() {
        return None;
    }
    let field = |object: &JsValue, name: &str| Reflect::get(object, &JsValue::from_str(name)).ok();
    field(&value, category.name())
        .and_then(|form| form.as_string())
        .or_else(|| field(&value, Category::Other.name())?.as_string())
}

fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

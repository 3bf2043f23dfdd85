//! The UI's languages: English, German, Dutch and Arabic (right to left).
//!
//! Every text a person reads comes from a catalogue, `www/locales/<lang>.json`. `build.rs`
//! checks the catalogues against each other (a missing key, placeholder or plural form fails
//! the build) and generates [`msg`]: one function per key, whose parameters are the message's
//! placeholders. A call reads the current language, so inside a closure in `view!` the text
//! follows a language switch: `{t(msg::tables_heading)}`, `{move || msg::tables_created(&name)}`.
//!
//! English is compiled in. Another language's catalogue is downloaded when it is first chosen
//! (`locales/<lang>.json?v=<hash of its contents>`), so a page load carries only the language
//! it shows. Plural forms are chosen by the browser's CLDR rules (`Intl.PluralRules`), and
//! numbers in prose are formatted by `Intl.NumberFormat`; no CLDR data ships in the wasm.
//!
//! The language of a page: `?lang=en|de|nl|ar`, else the saved choice (`localStorage`
//! `tablescope.lang`, shared by the playground and the lessons module), else the first of
//! `navigator.languages` we speak, else English. [`start`] applies it; [`choose`] switches.
//! `<html lang dir>` always names the language shown.

pub mod catalogue;
pub mod lang;

pub use catalogue::{Category, Message};
pub use lang::Lang;

use js_sys::{Array, Intl, Object};
use leptos::prelude::*;
use leptos::reactive::graph::Observer;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsValue;

include!(concat!(env!("OUT_DIR"), "/i18n_catalogue.rs"));

/// The localStorage key of the saved choice.
pub const SAVED_KEY: &str = "tablescope.lang";
/// The event dispatched on `window` after a switch (`<html lang>` names the new language), so
/// a second module on the page (the lessons) follows the playground's switcher.
pub const CHANGE_EVENT: &str = "tablescope-lang";

thread_local! {
    /// The language shown, and the trigger that re-runs what read it (a plain cell and a
    /// trigger: no signal type to instantiate for `Lang`).
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
    static CHANGED: ArcTrigger = ArcTrigger::new();
    /// The catalogues downloaded so far, by `Lang::index`: the messages as the browser parsed
    /// them, in key order, so a message is read by its position when it is shown. English is
    /// compiled in, each message's text in its own function of [`msg`], so it is never here.
    static LOADED: RefCell<[Option<Array>; 4]> = const { RefCell::new([None, None, None, None]) };
    /// Whose catalogues this module downloads: the page's (None), or those of the docs embed
    /// it starts, holding only its own messages ([`start_embed`]).
    static EMBED: Cell<Option<&'static str>> = const { Cell::new(None) };
    static PLURAL_RULES: RefCell<Vec<(Lang, Intl::PluralRules)>> = const { RefCell::new(Vec::new()) };
    static NUMBER_FORMATS: RefCell<Vec<(Lang, Intl::NumberFormat)>> = const { RefCell::new(Vec::new()) };
}

/// The language shown. Tracked inside a reactive closure, so text re-renders on a switch.
pub fn lang() -> Lang {
    if Observer::get().is_some() {
        CHANGED.with(|t| t.track());
    }
    CURRENT.with(Cell::get)
}

/// A message without placeholders as a reactive text or attribute value:
/// `<h2>{t(msg::tables_heading)}</h2>`, `title=t(msg::tables_select_title)`.
///
/// The short form of `move || msg::key()`, and one closure type for every call (Leptos builds
/// render code per closure type).
pub fn t(message: fn() -> String) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || message()
}

/// A number in prose (a count, a size, a time), formatted for the current language. Never
/// for data: entity values, JSON and filter literals keep their own spelling.
pub fn number(n: impl Count) -> String {
    let lang = lang();
    // Negative zero (a product or rounding of nothing) is written 0, never "-0".
    let n = n.value() + 0.0;
    NUMBER_FORMATS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let format = match cache.iter().find(|(l, _)| *l == lang) {
            Some((_, f)) => f.clone(),
            None => {
                let f = Intl::NumberFormat::new(&locales(lang), &Object::new());
                cache.push((lang, f.clone()));
                f
            }
        };
        format
            .format()
            .call1(&format, &JsValue::from_f64(n))
            .ok()
            .and_then(|s| s.as_string())
            // Intl always answers; were it not to, the whole part (no float formatting
            // code linked for a case that does not happen).
            .unwrap_or_else(|| (n as i64).to_string())
    })
}

/// A number with exactly `digits` fraction digits (an amount of money), formatted for the
/// current language: `22,734.30` in English, `22.734,30` in German.
pub fn fixed(n: f64, digits: u8) -> String {
    let options = Object::new();
    for name in ["minimumFractionDigits", "maximumFractionDigits"] {
        let _ = js_sys::Reflect::set(&options, &name.into(), &JsValue::from(digits));
    }
    let format = Intl::NumberFormat::new(&locales(lang()), &options);
    format
        .format()
        .call1(&format, &JsValue::from_f64(n + 0.0))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| (n as i64).to_string())
}

/// A large number in the language's short form, three significant digits (`650M`,
/// `52.6B` in English, `650 Mio.` in German): for tables whose figures reach 10⁹ and more,
/// each beside its exact figure ([`number`]) in a title.
pub fn compact(n: f64) -> String {
    let options = Object::new();
    let _ = js_sys::Reflect::set(&options, &"notation".into(), &"compact".into());
    let _ = js_sys::Reflect::set(
        &options,
        &"maximumSignificantDigits".into(),
        &JsValue::from(3),
    );
    let format = Intl::NumberFormat::new(&locales(lang()), &options);
    format
        .format()
        .call1(&format, &JsValue::from_f64(n + 0.0))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| number(n))
}

/// The CLDR cardinal plural category of `n` in `lang` (the browser's rules).
pub fn plural_category(lang: Lang, n: f64) -> Category {
    PLURAL_RULES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let rules = match cache.iter().find(|(l, _)| *l == lang) {
            Some((_, r)) => r.clone(),
            None => {
                let r = Intl::PluralRules::new(&locales(lang), &Object::new());
                cache.push((lang, r.clone()));
                r
            }
        };
        let name = rules.select(n).as_string().unwrap_or_default();
        Category::from_name(&name).unwrap_or(Category::Other)
    })
}

/// The browser's plural categories of `lang`, in its order (for the test against build.rs).
pub fn browser_plural_categories(lang: Lang) -> Vec<String> {
    let rules = Intl::PluralRules::new(&locales(lang), &Object::new());
    let options = rules.resolved_options();
    js_sys::Reflect::get(&options, &JsValue::from_str("pluralCategories"))
        .ok()
        .map(|v| {
            Array::from(&v)
                .iter()
                .filter_map(|c| c.as_string())
                .collect()
        })
        .unwrap_or_default()
}

fn locales(lang: Lang) -> Array {
    Array::of1(&JsValue::from_str(lang.number_locale()))
}

/// A number that chooses a plural form.
pub trait Count {
    fn value(&self) -> f64;
}

macro_rules! count_as_f64 {
    ($($t:ty),*) => {$(
        impl Count for $t {
            fn value(&self) -> f64 {
                *self as f64
            }
        }
    )*};
}
count_as_f64!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

/// Message number `index` (in key order; English: `en`) in the current language, its
/// placeholders filled; `count` chooses a plural message's form by the language's rules, and
/// is its `{count}`. A catalogue without it shows the English text.
fn render(
    index: u32,
    en: Message,
    count: Option<f64>,
    args: &[(&str, &dyn std::fmt::Display)],
) -> String {
    // Read through a pointer whatever the language, so a module that can show a message holds
    // its English text: scripts/locales.mjs finds a module's messages by those bytes.
    let en = std::hint::black_box(en);
    let lang = lang();
    let category = |lang| count.map_or(Category::Other, |n| plural_category(lang, n));
    let translated = (lang != Lang::En)
        .then(|| {
            LOADED.with(|loaded| {
                let loaded = loaded.borrow();
                catalogue::text(loaded[lang.index()].as_ref()?, index, category(lang))
            })
        })
        .flatten();
    let text = match translated {
        Some(text) => Cow::Owned(text),
        None => Cow::Borrowed(match en {
            Message::Text(text) => text,
            Message::Plural(forms) => catalogue::form(forms, category(Lang::En)),
        }),
    };
    let count = count.map(number);
    if lang.dir() == "rtl" {
        // Data in a right-to-left sentence (a key, a file name, `'x'`, a nested sentence
        // quoting one) is its own isolated run, so "N: 'x'" never reorders around it.
        let isolated: Vec<(&str, String)> = args
            .iter()
            .map(|(name, v)| (*name, isolate(v.to_string())))
            .collect();
        let isolated: Vec<(&str, &dyn std::fmt::Display)> = isolated
            .iter()
            .map(|(name, v)| (*name, v as &dyn std::fmt::Display))
            .collect();
        return catalogue::fill(&text, &isolated, count.as_deref());
    }
    catalogue::fill(&text, args, count.as_deref())
}

/// `value` between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE when it
/// holds a Latin letter (its direction then comes from its own first strong character);
/// numbers and values already isolated stay as they are.
fn isolate(value: String) -> String {
    if value.starts_with('\u{2068}') || !value.chars().any(|c| c.is_ascii_alphabetic()) {
        return value;
    }
    format!("\u{2068}{value}\u{2069}")
}

/// Applies the page's language ([`Lang::for_page`]), loading its catalogue first; on failure
/// the page stays English and says why in the console. Call once, before mounting.
pub async fn start() {
    start_with(Lang::for_page()).await;
}

/// [`start`] for a docs embed, the page of the lazily loaded module `module` (of
/// `www/modules.json`, marked `embed`): it downloads that module's catalogues, which hold
/// only the messages the module shows (`locales/<module>/<lang>.json`).
pub async fn start_embed(module: &'static str) {
    EMBED.with(|e| e.set(Some(module)));
    start().await;
}

/// [`start`] for a module mounted into a page that already shows a language (the lessons in
/// the playground): the one `<html lang>` names.
pub async fn start_as_page() {
    start_with(lang::shown_by_page().unwrap_or_else(Lang::for_page)).await;
}

async fn start_with(lang: Lang) {
    let shown = match load(lang).await {
        Ok(()) => lang,
        Err(e) => {
            web_sys::console::error_1(&JsValue::from_str(&format!(
                "Tablescope: the {} catalogue could not be loaded ({e}); showing English",
                lang.code()
            )));
            Lang::En
        }
    };
    apply(shown);
    follow_other_modules();
}

/// Switches to `lang` (loading its catalogue if needed) and saves the choice. On failure
/// nothing changes and the error says why (a message of the current language).
pub async fn choose(lang: Lang) -> Result<(), String> {
    load(lang).await?;
    lang::save(lang);
    apply(lang);
    lang::announce();
    Ok(())
}

/// Shows `lang` (its catalogue is loaded): the signal and `<html lang dir>`.
fn apply(lang: Lang) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", lang.code());
        let _ = root.set_attribute("dir", lang.dir());
    }
    if CURRENT.with(|c| c.replace(lang)) != lang {
        CHANGED.with(|t| t.notify());
    }
}

/// Downloads and checks `lang`'s catalogue, once per page.
async fn load(lang: Lang) -> Result<(), String> {
    if lang == Lang::En || LOADED.with(|l| l.borrow()[lang.index()].is_some()) {
        return Ok(());
    }
    let text = catalogue::fetch(lang, EMBED.with(Cell::get)).await?;
    keep(lang, catalogue::parse(&text))
}

/// Reads `text`, a source catalogue (`www/locales/<lang>.json`), as `lang`'s and keeps it for
/// the page: tests install the source files directly, where a page downloads the form
/// `scripts/locales.mjs` writes. Installing a language twice keeps the first.
pub fn install(lang: Lang, text: &str) -> Result<(), String> {
    keep(lang, catalogue::parse_source(text))
}

/// Keeps `messages` (a catalogue as read, or why it could not be) as `lang`'s.
fn keep(lang: Lang, messages: Result<Array, String>) -> Result<(), String> {
    if lang == Lang::En || LOADED.with(|l| l.borrow()[lang.index()].is_some()) {
        return Ok(());
    }
    let messages = messages.map_err(|e| msg::lang_load_failed(lang.own_name(), e))?;
    LOADED.with(|l| l.borrow_mut()[lang.index()] = Some(messages));
    Ok(())
}

/// When another module on the page switches language, this one follows.
fn follow_other_modules() {
    lang::on_announce(|lang| {
        wasm_bindgen_futures::spawn_local(async move {
            if load(lang).await.is_ok() {
                apply(lang);
            }
        });
    });
}

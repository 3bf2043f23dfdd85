//! The four languages, and which one a page shows.

use super::{CHANGE_EVENT, SAVED_KEY};
use wasm_bindgen::JsValue;

/// A language of the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    De,
    Nl,
    Ar,
}

impl Lang {
    /// In the switcher's order; also the order of build.rs's `LANGS`.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::De, Lang::Nl, Lang::Ar];

    /// The BCP 47 code: `?lang=`, `<html lang>`, the catalogue's file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Nl => "nl",
            Lang::Ar => "ar",
        }
    }

    /// The language's name in itself, as the switcher shows it.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
            Lang::Nl => "Nederlands",
            Lang::Ar => "العربية",
        }
    }

    /// `<html dir>`.
    pub fn dir(self) -> &'static str {
        match self {
            Lang::Ar => "rtl",
            _ => "ltr",
        }
    }

    /// The locale for `Intl`: Arabic with Latin digits, as the guide's Arabic pages write
    /// numbers ("20,000"), not Arabic-Indic ones.
    pub fn number_locale(self) -> &'static str {
        match self {
            Lang::Ar => "ar-u-nu-latn",
            other => other.code(),
        }
    }

    /// The position in [`Lang::ALL`].
    pub fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::De => 1,
            Lang::Nl => 2,
            Lang::Ar => 3,
        }
    }

    /// The language a BCP 47 tag asks for (`de`, `de-AT`, `AR-eg`), if we speak it.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The page's language: `?lang=`, else the saved choice, else the browser's languages in
    /// order, else English.
    pub fn for_page() -> Lang {
        query_lang()
            .or_else(saved)
            .or_else(|| browser_langs().iter().find_map(|t| Lang::from_tag(t)))
            .unwrap_or(Lang::En)
    }
}

fn query_lang() -> Option<Lang> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    Lang::from_tag(&params.get("lang")?)
}

fn saved() -> Option<Lang> {
    let storage = web_sys::window()?.local_storage().ok()??;
    Lang::from_tag(&storage.get_item(SAVED_KEY).ok()??)
}

fn browser_langs() -> Vec<String> {
    web_sys::window()
        .map(|w| {
            w.navigator()
                .languages()
                .iter()
                .filter_map(|v| v.as_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Saves the user's choice, and keeps a `?lang=` in the address in step with it (a reload
/// shows what was chosen). A browser that refuses storage just does not remember.
pub fn save(lang: Lang) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(Some(storage)) = window.local_storage() {
        let _ = storage.set_item(SAVED_KEY, lang.code());
    }
    if query_lang().is_some() {
        let location = window.location();
        if let (Ok(href), Ok(history)) = (location.href(), window.history()) {
            if let Ok(url) = web_sys::Url::new(&href) {
                url.search_params().set("lang", lang.code());
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url.href()));
            }
        }
    }
}

/// Tells the other module on the page (playground or lessons) that `lang` is now shown.
pub fn announce() {
    if let Some(window) = web_sys::window() {
        if let Ok(event) = web_sys::Event::new(CHANGE_EVENT) {
            let _ = window.dispatch_event(&event);
        }
    }
}

/// The language `<html lang>` names, if we speak it.
pub fn shown_by_page() -> Option<Lang> {
    let tag = web_sys::window()?
        .document()?
        .document_element()?
        .get_attribute("lang")?;
    Lang::from_tag(&tag)
}

/// Calls `follow` with the language `<html lang>` names after another module's switch.
pub fn on_announce(follow: impl Fn(Lang) + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    gloo::events::EventListener::new(&window, CHANGE_EVENT, move |_| {
        if let Some(lang) = shown_by_page() {
            follow(lang);
        }
    })
    .forget();
}

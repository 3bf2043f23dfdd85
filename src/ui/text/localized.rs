//! A text of a data file (a lesson index entry, a snippet's title) that may come in several
//! languages: one string, or an object `{"en": …, "de": …}` by language tag whose `en` is the
//! source text, as in lesson files (`crate::engine::scenario`).

use crate::engine::scenario::{translation, Translations};
use crate::i18n::lang;

/// A text and its translations.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Localized {
    pub source: String,
    pub translations: Translations,
}

impl Localized {
    /// Reads a string, or an object of strings by language tag that has `en`.
    pub fn read(value: &serde_json::Value) -> Option<Localized> {
        if let Some(text) = value.as_str() {
            return Some(Localized {
                source: text.to_string(),
                translations: Translations::new(),
            });
        }
        let object = value.as_object()?;
        let mut source = None;
        let mut translations = Translations::new();
        for (tag, text) in object {
            let text = text.as_str()?.to_string();
            if tag == "en" {
                source = Some(text);
            } else {
                translations.push((tag.clone(), text));
            }
        }
        Some(Localized {
            source: source?,
            translations,
        })
    }

    /// The text in the page's language, else the source text (read in a reactive closure,
    /// it follows a language switch).
    pub fn get(&self) -> String {
        translation(&self.translations, lang().code())
            .unwrap_or(&self.source)
            .to_string()
    }
}

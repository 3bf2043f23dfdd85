//! The starter gallery: the guide's own examples as designs, stored as JSON files beside
//! this one (the same format a user exports and imports).

use super::{Design, DesignError, Pattern};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Each entry: an id, and the design's JSON text.
pub const ENTRIES: [(&str, &str); 5] = [
    (
        "employees-by-department",
        include_str!("gallery/employees-by-department.json"),
    ),
    ("email-index", include_str!("gallery/email-index.json")),
    ("log-tail", include_str!("gallery/log-tail.json")),
    (
        "date-keyed-hot-partition",
        include_str!("gallery/date-keyed-hot-partition.json"),
    ),
    (
        "date-keyed-bucketed",
        include_str!("gallery/date-keyed-bucketed.json"),
    ),
];

/// The gallery's design `id`, read and checked like any imported design.
pub fn design(id: &str) -> Result<Design, DesignError> {
    let (_, text) = ENTRIES
        .iter()
        .find(|(i, _)| *i == id)
        .ok_or_else(|| DesignError::new("", format!("no gallery design {id:?}")))?;
    Design::from_json(text)
}

/// The gallery's translations (`gallery/translations.json`, served beside the designs as
/// `designs/translations.json`): by design id, then by language, the design's name and each
/// pattern's name keyed by its English name. Data, as a lesson's translations are: an author
/// adds a language without code. (`tests/gallery_translations.rs` checks every design has
/// every language, every pattern, and no name the design no longer has.)
pub type Translations = BTreeMap<String, BTreeMap<String, Translation>>;

/// One design's names in one language.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Translation {
    pub name: String,
    pub patterns: BTreeMap<String, String>,
}

/// The translations file's text, for native callers and tests.
pub const TRANSLATIONS: &str = include_str!("gallery/translations.json");

/// Gallery design `id` said in `lang`: its name and its patterns' names as the translations
/// give them; what they do not give stays as the file wrote it (English). Only names change:
/// tables, entity types, properties and templates are identifiers the patterns refer to.
pub fn localize(design: &mut Design, id: &str, lang: &str, translations: &Translations) {
    let Some(t) = translations.get(id).and_then(|by_lang| by_lang.get(lang)) else {
        return;
    };
    design.name.clone_from(&t.name);
    for pattern in &mut design.patterns {
        let name = match pattern {
            Pattern::Read(r) => &mut r.name,
            Pattern::Write(w) => &mut w.name,
        };
        if let Some(said) = t.patterns.get(name.as_str()) {
            name.clone_from(said);
        }
    }
}

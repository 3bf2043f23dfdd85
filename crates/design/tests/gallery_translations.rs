//! The starter gallery speaks the app's four languages: every gallery design has a
//! German, Dutch and Arabic name and a name for each of its patterns, translations name no
//! pattern the design does not have, and `localize` gives exactly those names while leaving
//! everything the patterns refer to (tables, entity types, conditions) as it was.

use tablescope_design::gallery::{self, Translations, ENTRIES, TRANSLATIONS};
use tablescope_design::Pattern;

const LANGS: [&str; 3] = ["de", "nl", "ar"];

fn pattern_names(d: &tablescope_design::Design) -> Vec<String> {
    d.patterns.iter().map(|p| p.name().to_string()).collect()
}

#[test]
fn every_gallery_design_has_every_language() {
    let translations: Translations = serde_json::from_str(TRANSLATIONS).unwrap();
    let ids: Vec<&str> = ENTRIES.iter().map(|(id, _)| *id).collect();
    let mut translated: Vec<&str> = translations.keys().map(String::as_str).collect();
    translated.sort_unstable();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(
        translated, sorted,
        "a translation for each design, and none for others"
    );
    for id in ids {
        let english = gallery::design(id).unwrap();
        let names = pattern_names(&english);
        for lang in LANGS {
            let t = &translations[id][lang];
            assert!(
                !t.name.is_empty() && t.name != english.name,
                "{id} {lang}: name"
            );
            let keys: Vec<&String> = t.patterns.keys().collect();
            let mut want: Vec<&String> = names.iter().collect();
            want.sort();
            want.dedup();
            assert_eq!(
                keys, want,
                "{id} {lang}: exactly the design's pattern names"
            );
            for (en, said) in &t.patterns {
                assert!(
                    !said.is_empty() && said != en,
                    "{id} {lang}: {en:?} is not translated"
                );
            }
            let mut local = english.clone();
            gallery::localize(&mut local, id, lang, &translations);
            assert_eq!(local.name, t.name);
            let expected: Vec<String> = names.iter().map(|n| t.patterns[n].clone()).collect();
            assert_eq!(pattern_names(&local), expected, "{id} {lang}");
            // Only names change.
            let mut back = local.clone();
            back.name.clone_from(&english.name);
            for (p, n) in back.patterns.iter_mut().zip(&names) {
                match p {
                    Pattern::Read(r) => r.name.clone_from(n),
                    Pattern::Write(w) => w.name.clone_from(n),
                }
            }
            assert_eq!(back, english, "{id} {lang}: only names changed");
        }
        // English, or a language without a translation, leaves the design as written.
        for lang in ["en", "fr"] {
            let mut same = english.clone();
            gallery::localize(&mut same, id, lang, &translations);
            assert_eq!(same, english);
        }
    }
}

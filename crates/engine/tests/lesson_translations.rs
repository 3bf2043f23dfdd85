#![cfg(not(target_arch = "wasm32"))]
//! Lessons in four languages: every shipped lesson (www/scenarios), the lesson list and the
//! starter snippets' titles carry English, German, Dutch and Arabic, and the scenario parser
//! reads translated texts (`{"en": …, "de": …}`) and refuses malformed ones.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use tablescope_engine::scenario;

/// The UI's languages besides English, the source (src/i18n/lang.rs).
const TRANSLATED: [&str; 3] = ["de", "nl", "ar"];

fn www(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../www")
        .join(dir)
}

fn read_json(path: &Path) -> Json {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn lesson_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(www("scenarios"))
        .expect("www/scenarios is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_shipped_lesson_speaks_every_language() {
    let files = lesson_files();
    assert!(files.len() >= 9, "the lessons are there: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lesson = scenario::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for lang in TRANSLATED {
            let missing = lesson.untranslated(lang);
            assert!(missing.is_empty(), "{path:?} lacks {lang} for {missing:?}");
            // A translation is a translation, not a copy of the English.
            assert_ne!(lesson.name_for(lang), lesson.name, "{path:?}: {lang} name");
            assert_ne!(
                lesson.description_for(lang),
                lesson.description,
                "{path:?}: {lang} description"
            );
        }
    }
}

/// `entry[field]` has a non-empty text for English and every translated language.
fn assert_translated(what: &str, entry: &Json, field: &str) {
    for lang in ["en"].into_iter().chain(TRANSLATED) {
        let text = entry[field][lang].as_str().unwrap_or_default();
        assert!(
            !text.trim().is_empty(),
            "{what}: {field} lacks {lang}: {entry}"
        );
    }
}

#[test]
fn the_lesson_list_and_the_snippet_titles_speak_every_language() {
    let index = read_json(&www("scenarios").join("index.json"));
    let lessons = index["scenarios"].as_array().expect("a scenarios list");
    assert_eq!(lessons.len(), lesson_files().len());
    for entry in lessons {
        assert_translated("scenarios/index.json", entry, "name");
        assert_translated("scenarios/index.json", entry, "summary");
    }
    let snippets = read_json(&www("snippets").join("index.json"));
    let snippets = snippets["snippets"].as_array().expect("a snippets list");
    assert!(!snippets.is_empty());
    for entry in snippets {
        assert_translated("snippets/index.json", entry, "name");
        assert_translated("snippets/index.json", entry, "summary");
    }
}

fn lesson(name: &str, note: &str) -> String {
    format!(
        r#"{{"format": 1, "name": {name}, "steps": [{{"op": "createTable", "table": "T", "note": {note}}}]}}"#
    )
}

#[test]
fn the_parser_reads_translated_texts() {
    let s = scenario::parse(&lesson(
        r#"{"en": "Keys", "de": "Schlüssel", "pt-BR": "Chaves"}"#,
        r#"{"en": "An empty table.", "ar": "جدول فارغ."}"#,
    ))
    .expect("translations are accepted");
    // The plain fields keep the source text, so every other reader sees the file as before.
    assert_eq!(s.name, "Keys");
    assert_eq!(s.name_for("de"), "Schlüssel");
    assert_eq!(s.name_for("pt-BR"), "Chaves");
    // A language the file lacks shows the source text.
    assert_eq!(s.name_for("nl"), "Keys");
    assert_eq!(s.steps[0].note.as_deref(), Some("An empty table."));
    assert_eq!(s.steps[0].note_for("ar"), Some("جدول فارغ."));
    assert_eq!(s.steps[0].note_for("de"), Some("An empty table."));
    assert_eq!(s.untranslated("ar"), vec!["name".to_string()]);
    assert_eq!(s.untranslated("de"), vec!["step 0 note".to_string()]);
    // A plain string still reads as before (and has no translations).
    let plain = scenario::parse(&lesson(r#""Keys""#, r#""A note.""#)).unwrap();
    assert_eq!(plain.name_for("de"), "Keys");
    assert_eq!(plain.steps[0].note_for("de"), Some("A note."));
    assert!(plain.name_in.is_empty() && plain.steps[0].note_in.is_empty());
    // The translated file runs like the plain one.
    assert!(scenario::run_text(&lesson(r#"{"en": "K", "nl": "S"}"#, r#""n""#)).is_ok());
}

#[test]
fn the_parser_refuses_malformed_translations() {
    let refused = |name: &str, note: &str, why: &str| {
        let e = scenario::parse(&lesson(name, note)).expect_err(why);
        assert!(e.contains(why), "{e:?} should say {why:?}");
    };
    refused(r#"{"de": "Schlüssel"}"#, r#""n""#, "need \"en\"");
    refused(
        r#""Keys""#,
        r#"{"nl": "Een lege tabel."}"#,
        "step 0: \"note\": the translations need \"en\"",
    );
    refused(
        r#"{"en": "Keys", "de": 3}"#,
        r#""n""#,
        "\"name\".de must be a string",
    );
    refused(
        r#"{"en": "Keys", "German": "x"}"#,
        r#""n""#,
        "'German' is not a language tag",
    );
    refused(
        r#"{"en": "Keys", "DE": "x"}"#,
        r#""n""#,
        "'DE' is not a language tag",
    );
    refused(
        r#"{"en": "Keys", "d": "x"}"#,
        r#""n""#,
        "'d' is not a language tag",
    );
    refused(
        r#"["Keys"]"#,
        r#""n""#,
        "\"name\" must be a string or an object of translations",
    );
    refused(
        r#""Keys""#,
        "7",
        "\"note\" must be a string or an object of translations",
    );
}

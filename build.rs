//! Checks the UI's translation catalogues (`www/locales/<lang>.json`) and turns them into Rust
//! (`$OUT_DIR/i18n_catalogue.rs`, included by `src/i18n.rs`):
//!
//! - one function per key in `i18n::msg`, whose parameters are the message's placeholders, so
//!   a missing key or a wrong argument is a compile error where the text is used;
//! - the English catalogue, compiled in (the default needs no download);
//! - a hash of each other catalogue, for its URL (`locales/de.json?v=<hash>`), so the service
//!   worker's cache never serves a catalogue of another build;
//! - a hash of the key list (`KEYS_HASH`): a message is looked up in a downloaded catalogue by
//!   its position, so no key name ships in the wasm, and a catalogue whose keys hash otherwise
//!   (another build's) is refused and the page shows English.
//!
//! The build FAILS when a catalogue's keys are not in sorted (byte) order -- naming the first
//! key out of order -- so engineers adding keys at the same time insert them in different
//! places and their merges do not conflict; when a catalogue lacks a key of `en.json` or has one it lacks, when a
//! translation's placeholders differ from the English ones, or when a plural message lacks a
//! plural category its language has (CLDR cardinal categories, `PLURAL_CATEGORIES`).
//!
//! Catalogue format: a JSON object; each key (`[a-z][a-z0-9_]*`) maps to a string with
//! `{name}` placeholders, or to a plural message: an object from CLDR category (`zero`, `one`,
//! `two`, `few`, `many`, `other`) to string, whose `{count}` is the number that chooses.

use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::Path;

/// The languages, English first (the source); the same order as `i18n::Lang::ALL`.
const LANGS: [&str; 4] = ["en", "de", "nl", "ar"];

/// The CLDR cardinal plural categories of each language (CLDR 46 `plurals.xml`); a wasm test
/// checks them against the browser's `Intl.PluralRules` (`tests/web_i18n.rs`).
const PLURAL_CATEGORIES: [(&str, &[&str]); 4] = [
    ("en", &["one", "other"]),
    ("de", &["one", "other"]),
    ("nl", &["one", "other"]),
    ("ar", &["zero", "one", "two", "few", "many", "other"]),
];
const ALL_CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

fn main() {
    let dir = Path::new("www/locales");
    println!("cargo:rerun-if-changed={}", dir.display());
    let catalogues: Vec<Map<String, Value>> = LANGS
        .iter()
        .map(|lang| {
            let path = dir.join(format!("{lang}.json"));
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
            match serde_json::from_str(&text) {
                Ok(Value::Object(map)) => map,
                Ok(_) => fail(&format!("{} is not a JSON object", path.display())),
                Err(e) => fail(&format!("{} is not valid JSON: {e}", path.display())),
            }
        })
        .collect();
    let mut errors = Vec::new();
    let en = &catalogues[0];
    for (lang, catalogue) in LANGS.iter().zip(&catalogues) {
        check(lang, catalogue, en, &mut errors);
    }
    if !errors.is_empty() {
        fail(&format!(
            "the translation catalogues in www/locales are not valid:\n  {}",
            errors.join("\n  ")
        ));
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| fail("no OUT_DIR")))
        .join("i18n_catalogue.rs");
    std::fs::write(&out, generate(&catalogues))
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", out.display())));
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

/// Every problem of `catalogue` (language `lang`) against the English one.
fn check(
    lang: &str,
    catalogue: &Map<String, Value>,
    en: &Map<String, Value>,
    errors: &mut Vec<String>,
) {
    let needed: &[&str] = PLURAL_CATEGORIES
        .iter()
        .find(|(l, _)| *l == lang)
        .map(|(_, c)| *c)
        .unwrap_or(&[]);
    // Keys in sorted order (serde_json's `preserve_order` keeps the file's order).
    let keys: Vec<&String> = catalogue.keys().collect();
    if let Some(pair) = keys.windows(2).find(|pair| pair[0] >= pair[1]) {
        errors.push(format!(
            "{lang}.json: key `{}` is out of order (it comes after `{}`; keep the keys sorted)",
            pair[1], pair[0]
        ));
    }
    for key in catalogue.keys() {
        if !en.contains_key(key) {
            errors.push(format!("{lang}.json: key `{key}` is not in en.json"));
        }
        if !key.starts_with(|c: char| c.is_ascii_lowercase())
            || !key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            errors.push(format!("{lang}.json: key `{key}` is not [a-z][a-z0-9_]*"));
        }
    }
    for (key, source) in en {
        let Some(value) = catalogue.get(key) else {
            errors.push(format!("{lang}.json lacks `{key}`"));
            continue;
        };
        let want = placeholders_of(source);
        match (value, source) {
            (Value::String(text), Value::String(_)) => {
                if placeholders(text) != want {
                    errors.push(format!(
                        "{lang}.json `{key}`: placeholders {:?}, en.json has {want:?}",
                        placeholders(text)
                    ));
                }
            }
            (Value::Object(forms), Value::Object(_)) => {
                for category in needed {
                    if !forms.contains_key(*category) {
                        errors.push(format!(
                            "{lang}.json `{key}` lacks plural form `{category}`"
                        ));
                    }
                }
                for (category, text) in forms {
                    let Value::String(text) = text else {
                        errors.push(format!("{lang}.json `{key}.{category}` is not a string"));
                        continue;
                    };
                    if !needed.contains(&category.as_str()) {
                        errors.push(format!(
                            "{lang}.json `{key}`: `{category}` is not a plural category of {lang}"
                        ));
                    }
                    // A form may leave out {count} ("one table"), never add another name.
                    let mut got = placeholders(text);
                    got.insert("count".into());
                    if got != want {
                        errors.push(format!(
                            "{lang}.json `{key}.{category}`: placeholders {got:?}, en.json has {want:?}"
                        ));
                    }
                }
            }
            _ => errors.push(format!(
                "{lang}.json `{key}`: a plural message in one catalogue and plain text in the other"
            )),
        }
    }
}

/// The placeholders of a message: of a plural one, `count` and those of every form.
fn placeholders_of(message: &Value) -> BTreeSet<String> {
    match message {
        Value::String(text) => placeholders(text),
        Value::Object(forms) => {
            let mut names: BTreeSet<String> = forms
                .values()
                .filter_map(Value::as_str)
                .flat_map(placeholders)
                .collect();
            names.insert("count".into());
            names
        }
        _ => BTreeSet::new(),
    }
}

/// The `{name}` placeholders of one text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                names.insert(after[..end].to_string());
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
    names
}

/// The Rust source of the catalogue module: one function per message, holding its key and its
/// English text. A module links only the messages it calls (the lessons module and the
/// playground each carry their own), so no table of every message ships in either wasm.
fn generate(catalogues: &[Map<String, Value>]) -> String {
    let en = &catalogues[0];
    let mut src =
        String::from("// Generated by build.rs from www/locales/*.json: do not edit.\n\n");
    src.push_str(
        "/// The CLDR plural categories build.rs requires, by language (`Lang::ALL` order).\n",
    );
    src.push_str("pub const PLURAL_CATEGORIES: [&[&str]; 4] = [");
    for lang in LANGS {
        let categories = PLURAL_CATEGORIES
            .iter()
            .find(|(l, _)| *l == lang)
            .map(|(_, c)| *c)
            .unwrap_or(&[]);
        let _ = write!(src, "&{categories:?}, ");
    }
    src.push_str("];\n\n/// Each catalogue's hash, for its URL (`Lang::ALL` order).\n");
    src.push_str("pub const VERSIONS: [&str; 4] = [");
    for catalogue in catalogues {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        serde_json::to_string(catalogue)
            .unwrap_or_default()
            .hash(&mut hasher);
        let _ = write!(src, "\"{:x}\", ", hasher.finish());
    }
    src.push_str("];\n\n");
    // Messages are looked up by position: every catalogue has en.json's keys in the same
    // (sorted) order, so no key name needs to be in the wasm. A downloaded catalogue is
    // accepted only when its keys hash to this (FNV-1a 64 of each key and a '\n').
    let _ = writeln!(
        src,
        "/// FNV-1a 64 of every key followed by a newline, in order: a downloaded catalogue's \
         keys must hash to it.\npub const KEYS_HASH: u64 = {:#x};\n/// How many messages a \
         catalogue holds.\npub const KEY_COUNT: u32 = {};\n",
        keys_hash(en.keys()),
        en.len()
    );
    src.push_str(
        "/// The English text of each message without plural forms, by key (shared by its\n",
    );
    src.push_str("/// function in [`msg`] and by code that recognises English text, such as the\n");
    src.push_str("/// engine's, to say it again in the reader's language).\n");
    src.push_str("#[allow(non_upper_case_globals, dead_code)]\npub mod en {\n");
    for (key, value) in en {
        if let Value::String(text) = value {
            let _ = writeln!(src, "    pub const {key}: &str = {text:?};");
        }
    }
    src.push_str(
        "}\n\n/// The position of each message without plural forms, by key (for [`say_text`]).\n",
    );
    src.push_str("#[allow(non_upper_case_globals, dead_code)]\npub mod index {\n");
    for (index, (key, value)) in en.iter().enumerate() {
        if value.is_string() {
            let _ = writeln!(src, "    pub const {key}: u32 = {index};");
        }
    }
    src.push_str("}\n\n/// One function per message: its placeholders are its parameters.\n");
    src.push_str("#[allow(non_snake_case, clippy::too_many_arguments)]\npub mod msg {\n");
    src.push_str("    use super::{Category, Message};\n\n");
    for (index, (key, value)) in en.iter().enumerate() {
        let names = placeholders_of(value);
        let (doc, english) = match value {
            Value::String(text) => (text.clone(), format!("Message::Text(super::en::{key})")),
            Value::Object(forms) => {
                let mut english = String::from("Message::Plural(&[");
                for category in ALL_CATEGORIES {
                    if let Some(text) = forms.get(category).and_then(Value::as_str) {
                        let _ =
                            write!(english, "(Category::{}, {text:?}), ", capitalised(category));
                    }
                }
                english.push_str("])");
                let other = forms
                    .get("other")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                (other.to_string(), english)
            }
            _ => (String::new(), "Message::Text(\"\")".to_string()),
        };
        let _ = writeln!(src, "    /// {}", doc.replace('\n', " "));
        let plural = value.is_object();
        let params: Vec<String> = names
            .iter()
            .map(|n| {
                if plural && n == "count" {
                    "count: impl super::Count".to_string()
                } else {
                    format!("{n}: impl ::std::fmt::Display")
                }
            })
            .collect();
        let args: Vec<String> = names
            .iter()
            .filter(|n| !(plural && *n == "count"))
            .map(|n| format!("({n:?}, &{n})"))
            .collect();
        let _ = writeln!(src, "    pub fn {key}({}) -> String {{", params.join(", "));
        let count = if plural {
            "Some(count.value())"
        } else {
            "None"
        };
        let _ = writeln!(
            src,
            "        super::render({index}, {english}, {count}, &[{}])",
            args.join(", ")
        );
        src.push_str("    }\n");
    }
    src.push_str("}\n");
    src
}

include!("src/i18n/keys_hash.rs");

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

//! Reading a scenario file strictly.

use super::expect::Expect;
use crate::json::RawEntity;
use serde_json::{Map, Value as Json};

pub const OPS: [&str; 13] = [
    "createTable",
    "deleteTable",
    "listTables",
    "insert",
    "upsertReplace",
    "upsertMerge",
    "replace",
    "merge",
    "delete",
    "get",
    "query",
    "batch",
    "switchTarget",
];
const BATCH_OPS: [&str; 7] = [
    "insert",
    "upsertReplace",
    "upsertMerge",
    "replace",
    "merge",
    "delete",
    "get",
];

/// A parsed scenario.
///
/// `name`, `description` and each step's `note` are given in a file either as one string or
/// as an object of translations keyed by language tag, `{"en": …, "de": …}`, whose `en` is the
/// source text. The plain fields hold that source text (or the one string); the `*_in` maps
/// hold the translations, so every reader of the plain fields sees the file as before.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub steps: Vec<Step>,
    /// Translations of `name`, by language tag (never `en`).
    pub name_in: Translations,
    /// Translations of `description`, by language tag (never `en`).
    pub description_in: Translations,
}

/// A text's translations as (language tag, text) pairs (`de`, `nl`, `ar`, `pt-BR`…), in the
/// file's order; the source text is kept beside it. (A list, not a map: a few entries, and
/// the lessons' wasm carries no map code for them.)
pub type Translations = Vec<(String, String)>;

/// The translation of a text into `lang`, if there is one.
pub fn translation<'a>(translations: &'a Translations, lang: &str) -> Option<&'a str> {
    translations
        .iter()
        .find(|(tag, _)| tag == lang)
        .map(|(_, text)| text.as_str())
}

impl Scenario {
    /// The name in `lang`, else the source text.
    pub fn name_for(&self, lang: &str) -> &str {
        in_lang(&self.name, &self.name_in, lang)
    }

    /// The description in `lang`, else the source text.
    pub fn description_for(&self, lang: &str) -> &str {
        in_lang(&self.description, &self.description_in, lang)
    }

    /// What lacks a `lang` translation: `name`, `description` (when the file has one) and
    /// `step N note`, for a test that every shipped lesson speaks every language.
    pub fn untranslated(&self, lang: &str) -> Vec<String> {
        let mut out = Vec::new();
        if translation(&self.name_in, lang).is_none() {
            out.push("name".to_string());
        }
        if !self.description.is_empty() && translation(&self.description_in, lang).is_none() {
            out.push("description".to_string());
        }
        for (i, step) in self.steps.iter().enumerate() {
            if step.note.is_some() && translation(&step.note_in, lang).is_none() {
                out.push(format!("step {i} note"));
            }
        }
        out
    }
}

impl Step {
    /// The note in `lang`, else the source text.
    pub fn note_for(&self, lang: &str) -> Option<&str> {
        let note = self.note.as_deref()?;
        Some(translation(&self.note_in, lang).unwrap_or(note))
    }
}

fn in_lang<'a>(source: &'a str, translations: &'a Translations, lang: &str) -> &'a str {
    translation(translations, lang).unwrap_or(source)
}

/// A value that may be given directly or taken from an earlier step's result.
#[derive(Debug, Clone, PartialEq)]
pub enum StepRef<T> {
    Value(T),
    /// The ETag (for `ifMatch`) or continuation (for `continuation`) returned by step N.
    Step(usize),
}

/// One step: the request as JSON (references still unresolved), its note and expectations.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub op: String,
    /// The step's request fields, `op` included, without `note` and `expect`.
    pub request: Map<String, Json>,
    pub note: Option<String>,
    /// Translations of `note`, by language tag (never `en`).
    pub note_in: Translations,
    pub expect: Option<Expect>,
    /// The step's entity as written, duplicate members kept (a JSON map would drop them,
    /// and a name given twice must fail with DuplicatePropertiesSpecified).
    pub entity: Option<RawEntity>,
    /// The same for each batch operation.
    pub operation_entities: Vec<Option<RawEntity>>,
}

/// Just the entities of each step, read with duplicates kept.
#[derive(serde::Deserialize)]
struct DupFile {
    steps: Vec<DupStep>,
}

#[derive(serde::Deserialize)]
struct DupStep {
    #[serde(default)]
    entity: Option<RawEntity>,
    #[serde(default)]
    operations: Option<Vec<DupStep>>,
}

fn err(msg: String) -> String {
    msg
}

/// Parses scenario JSON text. Errors name the step and field.
pub fn parse(text: &str) -> Result<Scenario, String> {
    let root: Json = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let Json::Object(mut root) = root else {
        return Err("a scenario is a JSON object".into());
    };
    for key in root.keys() {
        if !matches!(key.as_str(), "format" | "name" | "description" | "steps") {
            return Err(format!(
                "unknown field '{key}' (allowed: format, name, description, steps)"
            ));
        }
    }
    match root.get("format") {
        Some(f) if f == &Json::from(1) => {}
        other => {
            return Err(format!(
                "\"format\" must be 1, found {}",
                other.map_or("nothing".into(), |v| v.to_string())
            ))
        }
    }
    let (name, name_in) = text_field(root.get("name"), "name")?.unwrap_or_default();
    let (description, description_in) =
        text_field(root.get("description"), "description")?.unwrap_or_default();
    let Some(Json::Array(steps)) = root.remove("steps") else {
        return Err("\"steps\" must be a list".into());
    };
    let mut steps = steps
        .into_iter()
        .enumerate()
        .map(|(i, s)| parse_step(s, &OPS, true).map_err(|e| format!("step {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    // Shapes were checked above, so this second read only fails where an entity is not an
    // object; the request itself reports that when it runs.
    if let Ok(dups) = serde_json::from_str::<DupFile>(text) {
        for (step, dup) in steps.iter_mut().zip(dups.steps) {
            step.entity = dup.entity;
            step.operation_entities = dup
                .operations
                .unwrap_or_default()
                .into_iter()
                .map(|o| o.entity)
                .collect();
        }
    }
    Ok(Scenario {
        name,
        description,
        steps,
        name_in,
        description_in,
    })
}

/// A text field: one string, or an object of translations by language tag that has the
/// source text under `en`. Returns the source text and the other languages.
fn text_field(value: Option<&Json>, key: &str) -> Result<Option<(String, Translations)>, String> {
    let object = match value {
        None => return Ok(None),
        Some(Json::String(s)) => return Ok(Some((s.clone(), Translations::new()))),
        Some(Json::Object(object)) => object,
        Some(_) => {
            return Err(format!(
                "\"{key}\" must be a string or an object of translations ({{\"en\": …, \"de\": …}})"
            ))
        }
    };
    let mut source = None;
    let mut translations = Translations::new();
    for (lang, text) in object {
        if !is_language_tag(lang) {
            return Err(format!(
                "\"{key}\": '{lang}' is not a language tag (like en, de, nl, ar or pt-BR)"
            ));
        }
        let Json::String(text) = text else {
            return Err(format!("\"{key}\".{lang} must be a string"));
        };
        if lang == "en" {
            source = Some(text.clone());
        } else {
            translations.push((lang.clone(), text.clone()));
        }
    }
    match source {
        Some(source) => Ok(Some((source, translations))),
        None => Err(format!(
            "\"{key}\": the translations need \"en\", the source text"
        )),
    }
}

/// A BCP 47 tag as lesson files use them: a 2–3 letter lowercase language, then optional
/// subtags of 1–8 letters or digits (`en`, `de`, `ar`, `pt-BR`, `zh-Hant`).
fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let primary = parts.next().unwrap_or_default();
    (2..=3).contains(&primary.len())
        && primary.bytes().all(|b| b.is_ascii_lowercase())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn parse_step(step: Json, ops: &[&str], top_level: bool) -> Result<Step, String> {
    let Json::Object(mut map) = step else {
        return Err("a step is a JSON object".into());
    };
    let op = match map.get("op") {
        Some(Json::String(op)) if ops.contains(&op.as_str()) => op.clone(),
        Some(Json::String(op)) => {
            return Err(err(format!(
                "unknown op '{op}' (allowed: {})",
                ops.join(", ")
            )))
        }
        _ => return Err("every step needs an \"op\"".into()),
    };
    let (note, note_in) = match text_field(map.remove("note").as_ref(), "note")? {
        Some((note, translations)) => (Some(note), translations),
        None => (None, Translations::new()),
    };
    let expect = match map.remove("expect") {
        None => None,
        Some(e) => Some(serde_json::from_value::<Expect>(e).map_err(|e| format!("expect: {e}"))?),
    };
    if map.contains_key("trace") {
        return Err("unknown field 'trace'".into());
    }
    if !top_level && map.contains_key("table") {
        return Err("operations inside a batch have no \"table\"".into());
    }
    if op == "batch" {
        let Some(Json::Array(ops)) = map.get_mut("operations") else {
            return Err("a batch needs \"operations\": a list of steps".into());
        };
        for (j, o) in ops.iter_mut().enumerate() {
            let inner = parse_step(o.take(), &BATCH_OPS, false)
                .map_err(|e| format!("operation {j}: {e}"))?;
            if inner.note.is_some() || inner.expect.is_some() {
                return Err(format!(
                    "operation {j}: note and expect belong to the batch step"
                ));
            }
            *o = Json::Object(inner.request);
        }
    }
    Ok(Step {
        op,
        request: map,
        note,
        note_in,
        expect,
        entity: None,
        operation_entities: Vec::new(),
    })
}

/// Reads `{"step": N}` if that is what a field holds.
pub fn step_ref(v: &Json) -> Option<Result<usize, String>> {
    let obj = v.as_object()?;
    let n = obj.get("step")?;
    if obj.len() != 1 {
        return Some(Err("a step reference is exactly {\"step\": N}".into()));
    }
    Some(
        n.as_u64()
            .map(|n| n as usize)
            .ok_or_else(|| "\"step\" must be a step index".into()),
    )
}

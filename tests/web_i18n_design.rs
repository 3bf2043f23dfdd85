#![cfg(target_arch = "wasm32")]
//! A design's problems in the reader's language: the design crate's checks, key templates and
//! distributions, each a `design::Issue` said by `ui::sections::design::problem_text`. Each
//! case breaks the employees gallery design one way and makes the crate report it: in English
//! every problem reads as the issue's `Display`; in German and Arabic it is said differently
//! with no English words left, and German keeps the data. Some say exactly what they say in
//! English and German.

use serde_json::{json, Value};
use tablescope::design::{gallery, Design};
use tablescope::i18n::{self, Lang};
use tablescope::ui::sections::design::problem_text::problem;
use wasm_bindgen_test::*;

mod web_common;

use web_common::without_grouping;

wasm_bindgen_test_configure!(run_in_browser);

const DE: &str = include_str!("../www/locales/de.json");
const AR: &str = include_str!("../www/locales/ar.json");

/// Words of the English problems a translation must not keep.
const ENGLISH: &[&str] = &[
    "the ", " is ", "needs", " must ", "without", "write ", "property", "entity", "table ",
    "pattern", "modelled", "not ", "twice", "declared",
];

/// A JSON pointer into the employees design, the value put there, and what German keeps.
fn cases() -> Vec<(&'static str, Value, &'static str)> {
    let conditions = |c: Value| c;
    vec![
        ("/version", json!(2), "2"),
        ("/entityTypes/0/name", json!(""), "Entitätstypen"),
        (
            "/entityTypes/0/properties/5/distribution",
            json!({"kind": "uniform", "min": 0, "max": 3_000_000_000_u64}),
            "Int32",
        ),
        ("/name", json!(""), "Entwurf"),
        ("/tables/0", json!("ab"), "Tabellenname"),
        (
            "/tables",
            json!(["Employees", "employees"]),
            "\"employees\"",
        ),
        ("/entityTypes/0/table", json!("Other"), "\"Other\""),
        (
            "/patterns/1/name",
            json!("Employee by department and id"),
            "Employee by department",
        ),
        ("/patterns/0/rate", json!(-1), "Rate"),
        ("/entityTypes/0/count", json!(100_000_000), "Generator"),
        ("/patterns/0/entityType", json!("Nobody"), "\"Nobody\""),
        ("/entityTypes/0/properties/0/name", json!("1x"), "'1x'"),
        (
            "/entityTypes/0/properties/0/name",
            json!("PartitionKey"),
            "PartitionKey",
        ),
        (
            "/entityTypes/0/properties/1/name",
            json!("DepartmentId"),
            "\"DepartmentId\"",
        ),
        ("/entityTypes/0/partitionKey", json!("{Nope}"), "\"Nope\""),
        (
            "/entityTypes/0/partitionKey",
            json!("{DepartmentId:date}"),
            "{DepartmentId}",
        ),
        ("/entityTypes/0/partitionKey", json!("{DepartmentId"), "'{'"),
        ("/entityTypes/0/partitionKey", json!("Dept}"), "'}'"),
        (
            "/entityTypes/0/partitionKey",
            json!("{MaxTicks HireDate}"),
            "{MaxTicks - Name}",
        ),
        (
            "/entityTypes/0/partitionKey",
            json!("{hash(DepartmentId % 4}"),
            "hash(",
        ),
        (
            "/entityTypes/0/partitionKey",
            json!("{hash(DepartmentId) % 0}"),
            "hash(Name) % B",
        ),
        ("/entityTypes/0/partitionKey", json!("{EmployeeId:x}"), ":x"),
        (
            "/entityTypes/0/partitionKey",
            json!("{EmployeeId:099}"),
            ":099",
        ),
        (
            "/entityTypes/0/partitionKey",
            json!("a/{DepartmentId}"),
            "Schlüsselvorlage",
        ),
        ("/entityTypes/0/partitionKey", json!("{1x}"), "\"1x\""),
        (
            "/entityTypes/0/properties/5/distribution",
            json!({"kind": "uniform", "min": 5, "max": 1}),
            "min <= max",
        ),
        (
            "/entityTypes/0/properties/0/distribution",
            json!({"kind": "zipf", "n": 0, "s": 1}),
            "Zipf",
        ),
        (
            "/entityTypes/0/properties/1/distribution",
            json!({"kind": "choice", "values": []}),
            "100000",
        ),
        (
            "/entityTypes/0/properties/6/distribution",
            json!({"kind": "timestamps", "from": "nope", "to": "2026-01-01T00:00:00Z"}),
            "\"nope\"",
        ),
        (
            "/entityTypes/0/properties/6/distribution",
            json!({"kind": "timestamps", "from": "2026-01-01T00:00:00Z", "to": "2020-01-01T00:00:00Z"}),
            "from < to",
        ),
        (
            "/entityTypes/0/properties/5/type",
            json!("Boolean"),
            "Boolean",
        ),
        (
            "/patterns/0/conditions",
            conditions(json!([{"on": "PartitionKey", "op": "prefix", "length": 1}])),
            "PartitionKey",
        ),
        (
            "/patterns/0/conditions",
            json!([{"on": "RowKey", "op": "eq"}]),
            "PartitionKey eq",
        ),
        (
            "/patterns/0/conditions",
            json!([{"on": "PartitionKey", "op": "eq"}, {"on": "RowKey", "op": "prefix", "length": 9}]),
            "(4 Zeichen)",
        ),
        (
            "/patterns/0/conditions",
            json!([{"on": "PartitionKey", "op": "eq"}, {"on": "Age", "op": "prefix", "length": 1}]),
            "String",
        ),
        (
            "/patterns/0/conditions",
            json!([{"on": "PartitionKey", "op": "eq"}, {"on": "PartitionKey", "op": "eq"}]),
            "Schlüssel",
        ),
        (
            "/patterns/0/conditions",
            json!([{"on": "PartitionKey", "op": "eq"}, {"on": "Nope", "op": "eq"}]),
            "\"Nope\"",
        ),
        ("/entityTypes/0/properties/1/scale", json!("grows"), "Zipf"),
        ("/patterns/0/fanOut", json!(true), "hash(…)"),
        ("/patterns/0/resultSize", json!(0), "Ergebnisgröße"),
        ("/patterns/0/select", json!(true), "$select"),
        ("/patterns/0/needs", json!(["Nope"]), "\"Nope\""),
        ("/patterns/4/entityTypes", json!([]), "100"),
        ("/patterns/4/entityTypes", json!(["Nobody"]), "\"Nobody\""),
    ]
}

/// Sets `pointer` in `doc` to `value`, making the member if its parent has none.
fn put(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    let target = doc.pointer_mut(parent).unwrap();
    match target {
        Value::Array(items) => items[last.parse::<usize>().unwrap()] = value,
        Value::Object(members) => {
            members.insert(last.to_string(), value);
        }
        other => panic!("{pointer}: {other}"),
    }
}

#[wasm_bindgen_test]
async fn every_design_problem_is_said_in_the_language_shown() {
    i18n::install(Lang::De, DE).unwrap();
    i18n::install(Lang::Ar, AR).unwrap();
    let (_, text) = gallery::ENTRIES[0];
    let base: Value = serde_json::from_str(text).unwrap();
    let mut failures = Vec::new();
    for (pointer, value, keep) in cases() {
        let mut doc = base.clone();
        put(&mut doc, pointer, value.clone());
        let Err(e) = Design::from_json(&doc.to_string()) else {
            failures.push(format!("{pointer} = {value}: no problem"));
            continue;
        };
        let mut kept = false;
        for p in &e.problems {
            let english = &p.issue.to_string();
            let issue = &p.issue;
            i18n::choose(Lang::En).await.unwrap();
            // Limits are prose numbers: "10,000,000" where the engine wrote 10000000.
            if without_grouping(&problem(issue)) != *english {
                failures.push(format!("{english:?}: English {:?}", problem(issue)));
            }
            i18n::choose(Lang::De).await.unwrap();
            let de = problem(issue);
            kept |= de.contains(keep);
            i18n::choose(Lang::Ar).await.unwrap();
            let ar = problem(issue);
            for text in [&de, &ar] {
                if text == english {
                    failures.push(format!("{english:?}: not translated"));
                }
                for word in ENGLISH {
                    if text.contains(word) {
                        failures.push(format!("{english:?} → {text:?} keeps {word:?}"));
                    }
                }
            }
        }
        if !kept {
            failures.push(format!(
                "{pointer} = {value}: no German problem keeps {keep:?}"
            ));
        }
    }
    i18n::choose(Lang::En).await.unwrap();
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A JSON pointer into the employees design, the value put there, the path of the problem it
/// makes, and that problem exactly in English and in German.
const EXACT: &[(&str, &str, &str, &str, &str)] = &[
    (
        "/version",
        "2",
        "version",
        "version 2 is not one this build reads (1)",
        "Version 2 kann dieser Build nicht lesen (1)",
    ),
    (
        "/tables",
        r#"["Employees", "employees"]"#,
        "tables[1]",
        r#"table "employees" is listed twice"#,
        r#"Tabelle "employees" ist zweimal aufgeführt"#,
    ),
    (
        "/patterns/0/entityType",
        r#""Nobody""#,
        "patterns[0].entityType",
        r#"no entity type "Nobody""#,
        r#"kein Entitätstyp "Nobody""#,
    ),
    (
        "/entityTypes/0/partitionKey",
        r#""{DepartmentId:date}""#,
        "entityTypes[0].partitionKey",
        "{DepartmentId}: that format needs a timestamp (or, for ticks, a number)",
        "{DepartmentId}: dieses Format braucht einen Zeitstempel (oder, für Ticks, eine Zahl)",
    ),
    (
        "/entityTypes/0/partitionKey",
        r#""{DepartmentId""#,
        "entityTypes[0].partitionKey",
        r#"'{' without '}' in "{DepartmentId""#,
        r#"'{' ohne '}' in "{DepartmentId""#,
    ),
    (
        "/entityTypes/0/partitionKey",
        r#""{MaxTicks HireDate}""#,
        "entityTypes[0].partitionKey",
        "{MaxTicks HireDate}: write the inverted ticks as {MaxTicks - Name}",
        "{MaxTicks HireDate}: schreiben Sie die umgekehrten Ticks als {MaxTicks - Name}",
    ),
    (
        "/entityTypes/0/partitionKey",
        r#""a/{DepartmentId}""#,
        "entityTypes[0].partitionKey",
        "A key template may not contain '/'",
        "Eine Schlüsselvorlage darf '/' nicht enthalten",
    ),
    (
        "/patterns/0/conditions",
        r#"[{"on": "PartitionKey", "op": "eq"}, {"on": "RowKey", "op": "prefix", "length": 9}]"#,
        "patterns[0].conditions[1]",
        "a RowKey prefix is modelled within the template's leading text (4 characters)",
        "ein RowKey-Präfix wird innerhalb des festen Anfangstexts der Vorlage modelliert (4 Zeichen)",
    ),
];

#[wasm_bindgen_test]
async fn design_problems_say_exactly_this_in_english_and_german() {
    i18n::install(Lang::De, DE).unwrap();
    let (_, text) = gallery::ENTRIES[0];
    let base: Value = serde_json::from_str(text).unwrap();
    let mut failures = Vec::new();
    for &(pointer, value, path, en, de) in EXACT {
        let mut doc = base.clone();
        put(&mut doc, pointer, serde_json::from_str(value).unwrap());
        let Err(e) = Design::from_json(&doc.to_string()) else {
            failures.push(format!("{pointer} = {value}: no problem"));
            continue;
        };
        let Some(p) = e.problems.iter().find(|p| p.path == path) else {
            failures.push(format!("{pointer} = {value}: no problem at {path}: {e}"));
            continue;
        };
        i18n::choose(Lang::En).await.unwrap();
        let said_en = problem(&p.issue);
        i18n::choose(Lang::De).await.unwrap();
        let said_de = problem(&p.issue);
        if (said_en.as_str(), said_de.as_str()) != (en, de) {
            failures.push(format!("{path}: {said_en:?} / {said_de:?}"));
        }
    }
    i18n::choose(Lang::En).await.unwrap();
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#![cfg(target_arch = "wasm32")]
//! Import and JSON errors in the reader's language: a refused workspace file, a refused CSV
//! file, an entity's JSON, a design file, and each problem the JSON parser finds. Each case
//! makes the engine (and serde_json inside it) refuse a real text: in English the text is the
//! explanation's `Display`; in German and Arabic it is said differently, keeps its data (names,
//! keys, positions, quoted values), and has no English words left. Every JSON problem is
//! checked word for word in English and German.

use tablescope::design::Design;
use tablescope::engine::{json, Account, FixedClock, JsonProblem, RawEntity};
use tablescope::i18n::{self, Lang};
use tablescope::ui::sections::design::problem_text;
use tablescope::ui::text::import_text::{self, Explain};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DE: &str = include_str!("../www/locales/de.json");
const AR: &str = include_str!("../www/locales/ar.json");

/// Words of the English sentences that a translation must not keep.
const ENGLISH: &[&str] = &[
    " expected",
    "invalid",
    "field",
    "line ",
    "column",
    "while",
    "must",
    "not ",
    "table ",
    "entity",
    "appears",
    "twice",
    "unknown",
    "missing",
    "string",
    "sequence",
    "struct",
    "quote",
    "header",
    "file",
    "number",
    "value",
];

/// A workspace file the engine refuses, and the data its explanation must keep.
const FILES: &[(&str, &str)] = &[
    ("{", "Zeile 1, Spalte 1"),
    ("hello", "Zeile 1, Spalte 1"),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[}"#,
        "Spalte 54",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[]} x"#,
        "Spalte 57",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[],}"#,
        "Spalte 56",
    ),
    (
        r#"{"format":"tablescope-account" "version":1}"#,
        "Spalte 32",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":["\q"]}"#,
        "Spalte 56",
    ),
    ("[1]", "\"tablescope-account\""),
    (
        r#"{"format":"other","version":1,"tables":[]}"#,
        "\"tablescope-account\"",
    ),
    (
        r#"{"format":"tablescope-account","version":9,"tables":[]}"#,
        "9",
    ),
    (
        r#"{"format":"tablescope-account","version":"1","tables":[]}"#,
        "\"1\"",
    ),
    (r#"{"format":"tablescope-account","tables":[]}"#, "1"),
    (r#"{"format":"tablescope-account","version":1}"#, "`tables`"),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[],"x":1}"#,
        "`x`",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[],"tables":[]}"#,
        "`tables`",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":{}}"#,
        "Array",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":5,"entities":[]}]}"#,
        "`5`",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"T"}]}"#,
        "`entities`",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Tab","entities":[1]}]}"#,
        "`1`",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"x","entities":[]}]}"#,
        "'x'",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[]},{"name":"good","entities":[]}]}"#,
        "'good'",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a/b","RowKey":"r"}]}]}"#,
        "'a/b'",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a","RowKey":"r","L@odata.type":"Edm.Int64","L":"x"}]}]}"#,
        "L: kein Int64",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a","RowKey":"r"},{"PartitionKey":"a","RowKey":"r"}]}]}"#,
        "Entität 1",
    ),
    (
        r#"{"format":"tablescope-account","version":1,"tables":[{"name":"Good","entities":[{"PartitionKey":"a","RowKey":"r","Timestamp":"soon"}]}]}"#,
        "'soon'",
    ),
];

/// A CSV file the engine refuses (imported into `Things`), and the data to keep.
const CSV: &[(&str, &str)] = &[
    ("", "Kopfzeile"),
    ("RowKey,N\r\n1,2\r\n", "Zeile 1"),
    ("PartitionKey,N\r\n1,2\r\n", "RowKey"),
    ("PartitionKey,RowKey,N,N\r\np,1,2,3\r\n", "Spalte N"),
    ("PartitionKey,RowKey,N@type\r\np,1,Edm.Int32\r\n", "N"),
    ("PartitionKey,RowKey\r\np,1,2\r\n", "Zeile 2"),
    ("PartitionKey,RowKey\r\np,\"never closed\r\n", "Zeile 2"),
    ("PartitionKey,RowKey\r\np,\"a\"b\"\r\n", "Zeile 2"),
    ("PartitionKey,RowKey\r\np,a\"b\r\n", "Zeile 2"),
    ("PartitionKey,RowKey,N,N@type\r\np,9,x,Edm.Int32\r\n", "'x'"),
    (
        "PartitionKey,RowKey,N,N@type\r\np,9,x,Edm.Decimal\r\n",
        "'Edm.Decimal'",
    ),
    (
        "PartitionKey,RowKey,Timestamp\r\np,9,yesterday\r\n",
        "'yesterday'",
    ),
    ("PartitionKey,RowKey\r\np,1\r\np,1\r\n", "'p'"),
    ("PartitionKey,RowKey\r\na#b,1\r\n", "OutOfRangeInput"),
];

/// An entity's JSON the engine refuses, and the data to keep.
const ENTITIES: &[(&str, &str)] = &[
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":5,"A":"x"}"#,
        "A@odata.type",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Decimal","A":"x"}"#,
        "'Edm.Decimal'",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A":3000000000}"#,
        "Int32",
    ),
    (r#"{"PartitionKey":"p","RowKey":"r","A":[1]}"#, "A:"),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.String","A":1}"#,
        "Edm.String",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Boolean","A":1}"#,
        "true",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Int32","A":"x"}"#,
        "Int32",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Double","A":"x"}"#,
        "Double",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.DateTime","A":1}"#,
        "ISO 8601",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.DateTime","A":"x"}"#,
        "ISO 8601",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Guid","A":"x"}"#,
        "Guid",
    ),
    (
        r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Binary","A":"*"}"#,
        "Base64",
    ),
    (r#"{"PartitionKey":5,"RowKey":"r"}"#, "PartitionKey"),
];

/// Text typed as an entity's JSON (the batch stager) that is not a JSON object.
const TYPED: &[(&str, &str)] = &[
    ("[1]", "Array"),
    ("{\"a\":", "Spalte 5"),
    ("\"PartitionKey\"", "\"PartitionKey\""),
    ("{\"a\":tru}", "true, false"),
    ("{\"a\":\"\u{1}\"}", "\\u0000"),
    ("{1:2}", "Objektschlüssel"),
    ("{\"a\":1e99999}", "Wertebereich"),
    ("{\"a\":\"\\ud800\"}", "\\u-Escape"),
    ("{\"a\":\"\\ud800\\u0041\"}", "Surrogat"),
    ("{\"a\":\"\\u12\"}", "Escape"),
    ("{\"a\":-}", "Zahl"),
];

fn install() {
    i18n::install(Lang::De, DE).unwrap();
    i18n::install(Lang::Ar, AR).unwrap();
}

/// Says `english` in English, German and Arabic through `say`, and checks each; what is wrong
/// goes to `failures`, so one run names every sentence that drifted.
async fn check(failures: &mut Vec<String>, english: &str, keep: &str, say: &dyn Fn() -> String) {
    let mut fail = |why: String| failures.push(format!("{english:?}: {why}"));
    i18n::choose(Lang::En).await.unwrap();
    let en = say();
    if en != english {
        fail(format!("English {en:?}"));
    }
    i18n::choose(Lang::De).await.unwrap();
    let de = say();
    if !de.contains(keep) {
        fail(format!("{de:?} lacks {keep:?}"));
    }
    i18n::choose(Lang::Ar).await.unwrap();
    let ar = say();
    if ar == english {
        fail("not said in Arabic".into());
    }
    for word in ENGLISH {
        for text in [&de, &ar] {
            if text.contains(word) {
                fail(format!("{text:?} keeps {word:?}"));
            }
        }
    }
    i18n::choose(Lang::En).await.unwrap();
}

fn none_failed(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn account() -> Account {
    let mut a = Account::new(Box::new(FixedClock::default()));
    a.create_table("Things").unwrap();
    a
}

#[wasm_bindgen_test]
async fn refused_workspace_files_are_explained_in_the_language_shown() {
    install();
    let mut failures = Vec::new();
    for (file, keep) in FILES {
        let e = account().import_json(file).expect_err(file);
        let detail = e.detail.clone().unwrap();
        check(&mut failures, &detail.to_string(), keep, &|| {
            import_text::detail(&detail)
        })
        .await;
        // As the storage panel shows it: the code as sent, then the explanation.
        check(
            &mut failures,
            &format!("{}: {detail}", e.code),
            keep,
            &|| e.explain(),
        )
        .await;
    }
    // Bytes that are not UTF-8, refused before parsing.
    let e = account()
        .import_json_bytes(b"{\"a\":\"caf\xe9\"}")
        .unwrap_err();
    let detail = e.detail.unwrap();
    check(&mut failures, &detail.to_string(), "8", &|| {
        import_text::detail(&detail)
    })
    .await;
    none_failed(failures);
}

#[wasm_bindgen_test]
async fn refused_csv_files_are_explained_in_the_language_shown() {
    install();
    let mut failures = Vec::new();
    for (file, keep) in CSV {
        let e = account().import_csv("Things", file).expect_err(file);
        check(&mut failures, &e.to_string(), keep, &|| e.explain()).await;
    }
    let e = account()
        .import_csv("x", "PartitionKey,RowKey\r\n")
        .unwrap_err();
    check(&mut failures, &e.to_string(), "'x'", &|| e.explain()).await;
    none_failed(failures);
}

#[wasm_bindgen_test]
async fn refused_entity_json_is_explained_in_the_language_shown() {
    install();
    let mut failures = Vec::new();
    for (text, keep) in ENTITIES {
        let raw = RawEntity::parse(text).unwrap();
        let e = json::decode_stored(&raw).expect_err(text);
        let detail = e.detail.unwrap();
        check(&mut failures, &detail.to_string(), keep, &|| {
            import_text::detail(&detail)
        })
        .await;
    }
    for (text, keep) in TYPED {
        let e = RawEntity::parse(text).expect_err(text);
        let detail = e.detail.unwrap();
        check(&mut failures, &detail.to_string(), keep, &|| {
            import_text::detail(&detail)
        })
        .await;
    }
    none_failed(failures);
}

/// Where a bad JSON text is read.
#[derive(Clone, Copy, Debug)]
enum Read {
    /// As an entity's JSON (the batch stager's typed entity): `Detail::Json`.
    Entity,
    /// As a workspace file: `Detail::NotJson` or `Detail::Malformed`.
    Workspace,
    /// As a design file: `design::Issue::NotDesign`.
    Design,
    /// By serde_json as a map with number keys, a shape no document of Tablescope's has.
    NumberKeys,
    /// By serde_json from bytes, which Tablescope checks for UTF-8 before parsing.
    Bytes,
    /// By serde_json as a pair, a shape no document of Tablescope's has (so serde's own
    /// description of it, "a tuple of size 2", has no message and stays as written).
    Pair,
    /// By serde_json as an object without members, a shape no document of Tablescope's has.
    NoMembers,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NoMembers {}

/// `text` read as `read`, said in the current language.
fn said(read: Read, text: &str) -> String {
    let problem = |e: serde_json::Error| import_text::json(&JsonProblem::from(&e));
    match read {
        Read::Entity => import_text::detail(&RawEntity::parse(text).unwrap_err().detail.unwrap()),
        Read::Workspace => {
            import_text::detail(&account().import_json(text).unwrap_err().detail.unwrap())
        }
        Read::Design => match Design::from_json(text) {
            Err(e) => problem_text::problem(&e.problems[0].issue),
            Ok(_) => "accepted".into(),
        },
        Read::NumberKeys => {
            problem(serde_json::from_str::<std::collections::BTreeMap<u32, u8>>(text).unwrap_err())
        }
        Read::Bytes => {
            // U+FFFD stands for the byte 0xFF, which no text holds.
            let bytes: Vec<u8> = text
                .chars()
                .flat_map(|c| match c {
                    '\u{fffd}' => vec![0xff],
                    c => c.to_string().into_bytes(),
                })
                .collect();
            problem(serde_json::from_slice::<serde_json::Value>(&bytes).unwrap_err())
        }
        Read::Pair => problem(serde_json::from_str::<(u8, u8)>(text).unwrap_err()),
        Read::NoMembers => problem(serde_json::from_str::<NoMembers>(text).unwrap_err()),
    }
}

/// Each JSON problem, from a real bad text: where it is read, the text, and what it says in
/// English and in German.
const JSON: &[(Read, &str, &str, &str)] = &[
    (Read::Entity, r#"{"a":[1"#, "EOF while parsing a list at line 1 column 7", "der Text endet mitten in einem Array in Zeile 1, Spalte 7"),
    (Read::Entity, r#"{"a":1"#, "EOF while parsing an object at line 1 column 6", "der Text endet mitten in einem Objekt in Zeile 1, Spalte 6"),
    (Read::Entity, r#"{"a":"x"#, "EOF while parsing a string at line 1 column 7", "der Text endet mitten in einer Zeichenkette in Zeile 1, Spalte 7"),
    (Read::Entity, r#"{"a":"#, "EOF while parsing a value at line 1 column 5", "der Text endet, wo ein Wert stehen müsste in Zeile 1, Spalte 5"),
    (Read::Entity, r#"{"a" 1}"#, "expected `:` at line 1 column 6", "erwartet wird `:` in Zeile 1, Spalte 6"),
    (Read::Entity, r#"{"a":[1 2]}"#, "expected `,` or `]` at line 1 column 9", "erwartet wird `,` oder `]` in Zeile 1, Spalte 9"),
    (Read::Entity, "{\"a\":1\n\"b\":2}", "expected `,` or `}` at line 2 column 1", "erwartet wird `,` oder `}` in Zeile 2, Spalte 1"),
    (Read::Entity, r#"{"a":tru}"#, "expected ident at line 1 column 9", "erwartet wird true, false oder null in Zeile 1, Spalte 9"),
    (Read::Entity, r#"{"a":}"#, "expected value at line 1 column 6", "erwartet wird ein Wert in Zeile 1, Spalte 6"),
    (Read::NumberKeys, r#"{"1x":2}"#, "expected `\"` at line 1 column 4", "erwartet wird `\"` in Zeile 1, Spalte 4"),
    (Read::Entity, r#"{"a":"\q"}"#, "invalid escape at line 1 column 8", "ungültige Escape-Sequenz in Zeile 1, Spalte 8"),
    (Read::Entity, r#"{"a":-}"#, "invalid number at line 1 column 7", "ungültige Zahl in Zeile 1, Spalte 7"),
    (Read::Entity, r#"{"a":1e99999}"#, "number out of range at line 1 column 12", "Zahl außerhalb des Wertebereichs in Zeile 1, Spalte 12"),
    (Read::Bytes, "\"\u{fffd}\"", "invalid unicode code point at line 1 column 2", "ungültiger Unicode-Codepunkt in Zeile 1, Spalte 2"),
    (Read::Entity, "{\"a\":\"\u{1}\"}", "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 7", "Steuerzeichen (\\u0000-\\u001F) in einer Zeichenkette in Zeile 1, Spalte 7"),
    (Read::Entity, "{1:2}", "key must be a string at line 1 column 2", "ein Objektschlüssel muss eine Zeichenkette sein in Zeile 1, Spalte 2"),
    (Read::Entity, r#"{"a":"\ud800\u0041"}"#, "lone leading surrogate in hex escape at line 1 column 18", "einzelnes hohes Surrogat in einer \\u-Escape-Sequenz in Zeile 1, Spalte 18"),
    (Read::Entity, r#"{"a":1,}"#, "trailing comma at line 1 column 8", "überzähliges Komma am Ende in Zeile 1, Spalte 8"),
    (Read::Entity, r#"{"a":1} x"#, "trailing characters at line 1 column 9", "überzählige Zeichen nach dem Ende in Zeile 1, Spalte 9"),
    (Read::Entity, r#"{"a":"\ud800"}"#, "unexpected end of hex escape at line 1 column 13", "unvollständige \\u-Escape-Sequenz in Zeile 1, Spalte 13"),
    (Read::Workspace, "{", "not valid JSON: EOF while parsing an object at line 1 column 1", "kein gültiges JSON: der Text endet mitten in einem Objekt in Zeile 1, Spalte 1"),
    (Read::Workspace, r#"{"format":"tablescope-account","version":1}"#, "malformed export: missing field `tables` at line 1 column 43", "fehlerhafter Export: das Feld `tables` fehlt in Zeile 1, Spalte 43"),
    (Read::NoMembers, r#"{"x":1}"#, "unknown field `x`, there are no fields at line 1 column 4", "unbekanntes Feld `x`, hier gibt es keine Felder in Zeile 1, Spalte 4"),
    (Read::Workspace, r#"{"format":"tablescope-account","version":1,"tables":[],"x":1}"#, "malformed export: unknown field `x`, expected one of `format`, `version`, `target`, `serviceProperties`, `tables` at line 1 column 58", "fehlerhafter Export: unbekanntes Feld `x`, erwartet wird eines von `format`, `version`, `target`, `serviceProperties`, `tables` in Zeile 1, Spalte 58"),
    (Read::Workspace, r#"{"format":"tablescope-account","version":1,"tables":[],"tables":[]}"#, "malformed export: duplicate field `tables` at line 1 column 63", "fehlerhafter Export: das Feld `tables` kommt zweimal vor in Zeile 1, Spalte 63"),
    (Read::Design, r#"{"patterns":[{"kind":"read","conditions":[{"on":"a","op":"eqq"}]}]}"#, "This is not a design file: unknown variant `eqq`, expected one of `eq`, `prefix`, `range` at line 1 column 66", "Das ist keine Entwurfsdatei: unbekannter Wert `eqq`, erwartet wird eines von `eq`, `prefix`, `range` in Zeile 1, Spalte 66"),
    (Read::Workspace, r#"{"format":"tablescope-account","version":1,"tables":{}}"#, "malformed export: invalid type: map, expected a sequence at line 1 column 52", "fehlerhafter Export: falscher Typ: ein Objekt, erwartet wird ein Array in Zeile 1, Spalte 52"),
    (Read::Workspace, r#"{"format":"tablescope-account","version":1,"tables":[{"name":5,"entities":[]}]}"#, "malformed export: invalid type: integer `5`, expected a string at line 1 column 62", "fehlerhafter Export: falscher Typ: die ganze Zahl `5`, erwartet wird eine Zeichenkette in Zeile 1, Spalte 62"),
    (Read::Workspace, r#"{"format":"tablescope-account","version":1,"tables":[{"name":"T","entities":[1]}]}"#, "malformed export: invalid type: integer `1`, expected an entity as a JSON object at line 1 column 78", "fehlerhafter Export: falscher Typ: die ganze Zahl `1`, erwartet wird eine Entität als JSON-Objekt in Zeile 1, Spalte 78"),
    (Read::Design, r#"{"version":true}"#, "This is not a design file: invalid type: boolean `true`, expected a whole number (u32) at line 1 column 15", "Das ist keine Entwurfsdatei: falscher Typ: der Wahrheitswert `true`, erwartet wird eine ganze Zahl (u32) in Zeile 1, Spalte 15"),
    (Read::Design, r#"{"version":1.5}"#, "This is not a design file: invalid type: floating point `1.5`, expected a whole number (u32) at line 1 column 14", "Das ist keine Entwurfsdatei: falscher Typ: die Kommazahl `1.5`, erwartet wird eine ganze Zahl (u32) in Zeile 1, Spalte 14"),
    (Read::Design, r#"{"name":null}"#, "This is not a design file: invalid type: null, expected a string at line 1 column 12", "Das ist keine Entwurfsdatei: falscher Typ: null, erwartet wird eine Zeichenkette in Zeile 1, Spalte 12"),
    (Read::Design, r#"{"tables":"T"}"#, "This is not a design file: invalid type: string \"T\", expected a sequence at line 1 column 13", "Das ist keine Entwurfsdatei: falscher Typ: die Zeichenkette \"T\", erwartet wird ein Array in Zeile 1, Spalte 13"),
    (Read::Design, r#"{"entityTypes":[5]}"#, "This is not a design file: invalid type: integer `5`, expected struct EntityType at line 1 column 17", "Das ist keine Entwurfsdatei: falscher Typ: die ganze Zahl `5`, erwartet wird ein Objekt (EntityType) in Zeile 1, Spalte 17"),
    (Read::Design, r#"{"seed":{}}"#, "This is not a design file: invalid type: map, expected a whole number (u64) at line 1 column 8", "Das ist keine Entwurfsdatei: falscher Typ: ein Objekt, erwartet wird eine ganze Zahl (u64) in Zeile 1, Spalte 8"),
    (Read::Design, r#"{"version":-1}"#, "This is not a design file: invalid value: integer `-1`, expected a whole number (u32) at line 1 column 13", "Das ist keine Entwurfsdatei: ungültiger Wert: die ganze Zahl `-1`, erwartet wird eine ganze Zahl (u32) in Zeile 1, Spalte 13"),
    (Read::Pair, "[1]", "invalid length 1, expected a tuple of size 2 at line 1 column 3", "falsche Länge 1, erwartet wird a tuple of size 2 in Zeile 1, Spalte 3"),
];

#[wasm_bindgen_test]
async fn every_json_problem_is_said_exactly_in_english_and_german() {
    install();
    let mut failures = Vec::new();
    for &(read, text, english, german) in JSON {
        i18n::choose(Lang::En).await.unwrap();
        let en = said(read, text);
        if en != english {
            failures.push(format!(
                "{read:?} {text:?}: English {en:?}, not {english:?}"
            ));
        }
        i18n::choose(Lang::De).await.unwrap();
        let de = said(read, text);
        if de != german {
            failures.push(format!("{read:?} {text:?}: German {de:?}, not {german:?}"));
        }
    }
    i18n::choose(Lang::En).await.unwrap();
    none_failed(failures);
}

#![cfg(target_arch = "wasm32")]
//! Import and JSON errors in the reader's language (issue #14): a refused workspace file, a
//! refused CSV file, an entity's JSON, and the JSON parser's own messages. Each case makes the
//! engine (and serde_json inside it) produce the English text, so a template of
//! `ui::text::import_text` that drifts from their wording fails here: in English the text comes back
//! unchanged; in German and Arabic it is said differently, keeps its data (names, keys,
//! positions, quoted values), and has no English words left.

use tablescope::engine::{json, Account, FixedClock, RawEntity};
use tablescope::i18n::{self, Lang};
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

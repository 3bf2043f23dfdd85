#![cfg(target_arch = "wasm32")]
//! The engine's error explanations in the reader's language: the filter parser's
//! syntax errors and `Error::detail`. Each case makes the engine itself produce the English
//! text, so a template of `ui::text::error_text` that drifts from the engine's wording fails here:
//! in English the text must come back unchanged (the data in the right places), and in
//! German it must be said differently, with the data (quoted filter text, names) kept.

use tablescope::engine::settings::{CorsList, SettingProblem};
use tablescope::engine::{
    filter, json, validate, Account, CorsRule, Detail, Entity, ErrorCode, FixedClock,
    PropertiesUpdate, RawEntity, Request, SignedIdentifier, Value,
};
use tablescope::i18n::{self, Lang};
use tablescope::ui::text::error_text;
use wasm_bindgen_test::*;

mod web_common;

use web_common::without_grouping;

wasm_bindgen_test_configure!(run_in_browser);

const DE: &str = include_str!("../www/locales/de.json");
const AR: &str = include_str!("../www/locales/ar.json");

/// A filter that does not parse, and what its German message must contain (the data).
const BAD_FILTERS: &[(&str, &str)] = &[
    ("a eq 1)", "')'"),
    ("a eq 1 b", "'b'"),
    ("a eq 1 and", "'and'"),
    ("and", "'and'"),
    ("a eq 1 and )", "')'"),
    ("(a eq 1", "Position 0"),
    ("(a eq 1 b", "'b'"),
    ("a foo 1", "'foo'"),
    ("a 1", "'1'"),
    ("a eq", "'eq'"),
    ("a eq )", "')'"),
    ("1 eq 2", "Konstanten"),
    ("a eq b", "Eigenschaften"),
    ("1", "'1'"),
    ("a eq 'x", "'"),
    ("a eq -x", "'-'"),
    ("a eq datetime'nope'", "datetime'2024-01-31T12:00:00Z'"),
    ("a eq guid'x'", "guid'c9da6455-213d-42c9-9a79-3e9149a57833'"),
    ("a eq 1.", "Dezimalpunkt"),
    ("a eq 1e", "Exponenten"),
    ("a eq 1.5L", "Int64"),
    ("a eq 12x", "'x'"),
    ("a eq 3000000000", "Int32"),
    ("a eq 99999999999999999999", "9223372036854775807"),
    ("a eq 1e999", "INF"),
    ("a eq X'0G'", "'G'"),
    ("a eq X'0'", "Hexadezimalziffern"),
    ("a = 1", "'='"),
    ("a eq 1 && b eq 2", "'&'"),
    ("a eq 1 || b eq 2", "'|'"),
    ("a eq \"x\"", "'\"'"),
    ("a eq 1 @", "'@'"),
];

fn install() {
    i18n::install(Lang::De, DE).unwrap();
    i18n::install(Lang::Ar, AR).unwrap();
}

#[wasm_bindgen_test]
async fn every_filter_syntax_error_is_said_in_the_language_shown() {
    install();
    let mut nested = "not ".repeat(filter::MAX_NESTING + 1);
    nested.push_str("a eq 1");
    let chained = vec!["a eq 1"; filter::MAX_DEPTH + 2].join(" and ");
    let mut cases: Vec<(String, &str)> = BAD_FILTERS
        .iter()
        .map(|(f, keep)| (f.to_string(), *keep))
        .collect();
    cases.push((nested, "Klammern"));
    cases.push((chained, "Ebenen"));
    for (text, keep) in &cases {
        let e = filter::parse(text).expect_err(text);
        i18n::choose(Lang::En).await.unwrap();
        let english = e.kind.to_string();
        assert_eq!(error_text::syntax(&e.kind), english, "English of {text:?}");
        i18n::choose(Lang::De).await.unwrap();
        let de = error_text::syntax(&e.kind);
        assert_ne!(de, english, "{text:?}: {english} is not said");
        assert!(de.contains(keep), "{text:?}: {de:?} lacks {keep:?}");
        // As a service error's detail: the position kept, the message translated.
        let detail = tablescope::engine::Error::from(e.clone()).detail.unwrap();
        assert_eq!(
            error_text::detail(&detail),
            format!("Position {}: {de}", e.position),
            "{text:?}"
        );
    }
    i18n::choose(Lang::Ar).await.unwrap();
    let e = filter::parse("a eq").unwrap_err();
    // The quoted filter text is data: its own isolated run (U+2068 … U+2069) in the
    // right-to-left sentence.
    assert_eq!(
        error_text::syntax(&e.kind),
        "المتوقع قيمة بعد '\u{2068}eq\u{2069}'"
    );
    i18n::choose(Lang::En).await.unwrap();
}

/// The engine's explanations of refused names, keys, entities and queries.
fn details() -> Vec<(Box<Detail>, &'static str)> {
    let mut out = Vec::new();
    let mut push = |r: Result<(), tablescope::engine::Error>, keep: &'static str| {
        out.push((r.unwrap_err().detail.unwrap(), keep));
    };
    push(validate::table_name("ab"), "2");
    push(validate::table_name("1abc"), "Buchstaben");
    push(validate::table_name("tables"), "'tables'");
    push(validate::key("PartitionKey", "a/b"), "'/'");
    push(validate::key("RowKey", "a\u{1}"), "U+0001");
    push(validate::key("RowKey", &"x".repeat(1100)), "1.100");
    push(validate::property_name("1x"), "'1x'");
    // An empty name is quoted empty: the template's `{name}` takes nothing.
    push(validate::property_name(""), "'' ist kein");
    push(validate::property_name(&"p".repeat(300)), "300");
    let entity = Entity::new("p", "r").with("Timestamp", Value::String("x".into()));
    push(validate::entity(&entity), "'Timestamp'");
    for raw in [r#"{"RowKey":"r"}"#, r#"{"PartitionKey":"p"}"#] {
        let e = json::decode(&RawEntity::parse(raw).unwrap()).unwrap_err();
        out.push((e.detail.unwrap(), "erforderlich"));
    }
    out
}

#[wasm_bindgen_test]
async fn error_details_are_said_in_the_language_shown() {
    install();
    let mut cases = details();
    // A query the service refuses: too many comparisons, and a filter that names no property.
    let mut account = Account::new(Box::new(FixedClock::default()));
    account.create_table("Things").unwrap();
    for (filter, keep) in [
        (["a eq 1"; 16].join(" or "), "16"),
        ("true and false".to_string(), "Eigenschaft"),
    ] {
        let r = account.execute(&Request::Query {
            table: "Things".into(),
            filter: Some(filter),
            select: None,
            top: None,
            continuation: None,
            page_budget: None,
            trace: false,
        });
        let e = r.error.unwrap();
        assert_eq!(e.code, ErrorCode::InvalidInput);
        cases.push((e.detail.unwrap(), keep));
    }
    for (detail, keep) in &cases {
        // English: the engine's words, its counts formatted as prose ("1,100").
        i18n::choose(Lang::En).await.unwrap();
        let english = detail.to_string();
        assert_eq!(without_grouping(&error_text::detail(detail)), english);
        i18n::choose(Lang::De).await.unwrap();
        let de = error_text::detail(detail);
        assert_ne!(de, english, "{detail:?} is not said");
        assert!(de.contains(keep), "{de:?} lacks {keep:?}");
    }
    i18n::choose(Lang::En).await.unwrap();
}

/// One of each of the settings' problems, as the engine writes them.
fn setting_problems() -> Vec<SettingProblem> {
    use SettingProblem::*;
    let mut out = vec![
        TooManyCorsRules { count: 6, limit: 5 },
        CorsMethod {
            method: "PATCH".into(),
        },
        RetentionDays { days: Some(400) },
        RetentionDays { days: None },
        IncludeApisMissing,
        TooManySignedIdentifiers { count: 6, limit: 5 },
        SignedIdentifierId { len: 65 },
        SignedIdentifierTwice { id: "p1".into() },
        Permission {
            permission: "dr".into(),
        },
        CorsTooLong {
            len: 2049,
            limit: 2048,
        },
    ];
    for list in [
        CorsList::AllowedOrigins,
        CorsList::AllowedMethods,
        CorsList::AllowedHeaders,
        CorsList::ExposedHeaders,
    ] {
        out.push(CorsEmpty { list });
        out.push(CorsListTooLong {
            list,
            count: 65,
            limit: 64,
        });
        out.push(CorsPrefixes { list, count: 3 });
        out.push(CorsEntryTooLong { list, len: 257 });
    }
    out
}

#[wasm_bindgen_test]
async fn every_settings_problem_is_said_in_the_language_shown() {
    install();
    for problem in setting_problems() {
        let detail = Detail::Setting(problem.clone());
        i18n::choose(Lang::En).await.unwrap();
        let english = problem.to_string();
        assert_eq!(without_grouping(&error_text::detail(&detail)), english);
        i18n::choose(Lang::De).await.unwrap();
        assert_ne!(
            error_text::detail(&detail),
            english,
            "{problem:?} is not said"
        );
    }
    i18n::choose(Lang::En).await.unwrap();
}

#[wasm_bindgen_test]
async fn the_settings_editors_refusals_are_said_exactly() {
    install();
    let mut account = Account::new(Box::new(FixedClock::default()));
    account.create_table("Things").unwrap();
    // A CORS rule without a method, and a policy id given twice, as the engine refuses them.
    let rule = CorsRule {
        allowed_origins: vec!["https://example.com".into()],
        allowed_methods: Vec::new(),
        allowed_headers: Vec::new(),
        exposed_headers: Vec::new(),
        max_age_in_seconds: 60,
    };
    let cors = account
        .set_service_properties(&PropertiesUpdate {
            cors: Some(vec![rule]),
            ..PropertiesUpdate::default()
        })
        .unwrap_err();
    let policy = SignedIdentifier {
        id: "p1".into(),
        access_policy: None,
    };
    let acl = account
        .set_table_acl("Things", vec![policy.clone(), policy])
        .unwrap_err();
    for e in [&cors, &acl] {
        assert_eq!(e.code, ErrorCode::InvalidXmlDocument);
    }
    let (cors, acl) = (cors.detail.unwrap(), acl.detail.unwrap());
    i18n::choose(Lang::En).await.unwrap();
    assert_eq!(
        error_text::detail(&cors),
        "a CORS rule needs at least one entry in AllowedMethods"
    );
    assert_eq!(
        error_text::detail(&acl),
        "the stored access policy \"p1\" is given twice"
    );
    i18n::choose(Lang::De).await.unwrap();
    assert_eq!(
        error_text::detail(&cors),
        "eine CORS-Regel braucht mindestens einen Eintrag in AllowedMethods (erlaubte Methoden)"
    );
    assert_eq!(
        error_text::detail(&acl),
        "die gespeicherte Zugriffsrichtlinie \"p1\" ist zweimal angegeben"
    );
    i18n::choose(Lang::Ar).await.unwrap();
    assert_eq!(
        error_text::detail(&acl),
        "نهج الوصول المخزّن \u{2068}\"p1\"\u{2069} مذكور مرتين"
    );
    i18n::choose(Lang::En).await.unwrap();
}

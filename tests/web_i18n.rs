#![cfg(target_arch = "wasm32")]
//! The UI's languages in headless Chromium: the plural rules build.rs requires are the
//! browser's (CLDR), every catalogue's plural forms at 0, 1, 2, 3, 11 and 100, and the app
//! shell and tables panel switching language through the header's switcher, `<html lang dir>`
//! following.
//!
//! The runner serves no `locales/`, so the catalogues are installed from `www/locales` as a
//! download would install them.

mod web_common;

use leptos::task::tick;
use tablescope::i18n::{self, msg, Lang};
use wasm_bindgen_test::*;
use web_common::Mounted;

wasm_bindgen_test_configure!(run_in_browser);

const CATALOGUES: [(Lang, &str); 3] = [
    (Lang::De, include_str!("../www/locales/de.json")),
    (Lang::Nl, include_str!("../www/locales/nl.json")),
    (Lang::Ar, include_str!("../www/locales/ar.json")),
];

fn install_all() {
    for (lang, text) in CATALOGUES {
        i18n::install(lang, text).unwrap();
    }
}

/// Back to English, nothing saved: the tests share one page.
async fn reset() {
    i18n::choose(Lang::En).await.unwrap();
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item(i18n::SAVED_KEY).unwrap();
}

#[wasm_bindgen_test]
fn build_rs_requires_the_browsers_plural_categories() {
    for lang in Lang::ALL {
        let mut browser = i18n::browser_plural_categories(lang);
        let mut required: Vec<String> = i18n::PLURAL_CATEGORIES[lang.index()]
            .iter()
            .map(|c| c.to_string())
            .collect();
        browser.sort();
        required.sort();
        assert_eq!(browser, required, "{}", lang.code());
    }
}

#[wasm_bindgen_test]
async fn plural_forms_at_0_1_2_3_11_100_in_every_language() {
    install_all();
    let expected: [(Lang, [&str; 6]); 4] = [
        (
            Lang::En,
            [
                "0 entities",
                "1 entity",
                "2 entities",
                "3 entities",
                "11 entities",
                "100 entities",
            ],
        ),
        (
            Lang::De,
            [
                "0 Entitäten",
                "1 Entität",
                "2 Entitäten",
                "3 Entitäten",
                "11 Entitäten",
                "100 Entitäten",
            ],
        ),
        (
            Lang::Nl,
            [
                "0 entiteiten",
                "1 entiteit",
                "2 entiteiten",
                "3 entiteiten",
                "11 entiteiten",
                "100 entiteiten",
            ],
        ),
        // zero, one, two, few (3–10), many (11–99), other (100).
        (
            Lang::Ar,
            [
                "لا كيانات",
                "كيان واحد",
                "كيانان",
                "3 كيانات",
                "11 كيانًا",
                "100 كيان",
            ],
        ),
    ];
    for (lang, forms) in expected {
        i18n::choose(lang).await.unwrap();
        let got: Vec<String> = [0u64, 1, 2, 3, 11, 100]
            .into_iter()
            .map(msg::count_entities)
            .collect();
        assert_eq!(got, forms, "{}", lang.code());
    }
    // Prose numbers follow the language; Arabic keeps the guide's Latin digits.
    i18n::choose(Lang::De).await.unwrap();
    assert_eq!(msg::count_partitions(1234), "1.234 Partitionen");
    i18n::choose(Lang::Ar).await.unwrap();
    // 1234 ends in 34: Arabic's "many" form.
    assert_eq!(msg::count_partitions(1234), "1,234 قسمًا");
    reset().await;
}

#[wasm_bindgen_test]
fn language_tags_and_own_names() {
    assert_eq!(Lang::from_tag("de-AT"), Some(Lang::De));
    assert_eq!(Lang::from_tag("AR-eg"), Some(Lang::Ar));
    assert_eq!(Lang::from_tag("nl_BE"), Some(Lang::Nl));
    assert_eq!(Lang::from_tag("fr"), None);
    let names: Vec<&str> = Lang::ALL.iter().map(|l| l.own_name()).collect();
    assert_eq!(names, ["English", "Deutsch", "Nederlands", "العربية"]);
}

#[wasm_bindgen_test]
async fn the_switcher_translates_the_shell_and_tables_panel() {
    install_all();
    let app = Mounted::new();
    app.create_table("Employees").await;
    assert_eq!(app.text("#nav-data"), "Entities");
    let options = app.all_text("#lang-select option");
    assert_eq!(options, ["English", "Deutsch", "Nederlands", "العربية"]);

    app.choose("#lang-select", "de");
    for _ in 0..5 {
        tick().await;
    }
    let root = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    assert_eq!(root.get_attribute("lang").as_deref(), Some("de"));
    assert_eq!(root.get_attribute("dir").as_deref(), Some("ltr"));
    assert_eq!(app.text("#tables-heading"), "Tabellen");
    assert_eq!(app.text("#nav-data"), "Entitäten");
    assert_eq!(
        app.text("[data-table=Employees] .table-counts"),
        "0 Entitäten · 0 Partitionen"
    );
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    assert_eq!(
        storage.get_item(i18n::SAVED_KEY).unwrap().as_deref(),
        Some("de")
    );

    app.choose("#lang-select", "ar");
    for _ in 0..5 {
        tick().await;
    }
    assert_eq!(root.get_attribute("lang").as_deref(), Some("ar"));
    assert_eq!(root.get_attribute("dir").as_deref(), Some("rtl"));
    assert_eq!(app.text("#tables-heading"), "الجداول");
    assert_eq!(
        app.text("[data-table=Employees] .table-counts"),
        "لا كيانات · لا أقسام"
    );
    // The table name is data: an isolated left-to-right run.
    let name = app.get("[data-table=Employees] .table-name");
    assert_eq!(name.tag_name(), "BDI");
    assert_eq!(name.get_attribute("dir").as_deref(), Some("ltr"));
    reset().await;
}

#[wasm_bindgen_test]
async fn the_panels_plurals_at_0_1_2_3_11_100_in_every_language() {
    install_all();
    let n = [0u64, 1, 2, 3, 11, 100];
    let expected: [(Lang, [&str; 6], [&str; 6]); 4] = [
        (
            Lang::En,
            [
                "0 pages",
                "1 page",
                "2 pages",
                "3 pages",
                "11 pages",
                "100 pages",
            ],
            [
                "Commit 0 operations",
                "Commit 1 operation",
                "Commit 2 operations",
                "Commit 3 operations",
                "Commit 11 operations",
                "Commit 100 operations",
            ],
        ),
        (
            Lang::De,
            [
                "0 Seiten",
                "1 Seite",
                "2 Seiten",
                "3 Seiten",
                "11 Seiten",
                "100 Seiten",
            ],
            [
                "0 Vorgänge übernehmen",
                "1 Vorgang übernehmen",
                "2 Vorgänge übernehmen",
                "3 Vorgänge übernehmen",
                "11 Vorgänge übernehmen",
                "100 Vorgänge übernehmen",
            ],
        ),
        (
            Lang::Nl,
            [
                "0 pagina's",
                "1 pagina",
                "2 pagina's",
                "3 pagina's",
                "11 pagina's",
                "100 pagina's",
            ],
            [
                "0 bewerkingen doorvoeren",
                "1 bewerking doorvoeren",
                "2 bewerkingen doorvoeren",
                "3 bewerkingen doorvoeren",
                "11 bewerkingen doorvoeren",
                "100 bewerkingen doorvoeren",
            ],
        ),
        // zero, one, two, few (3–10), many (11–99), other (100).
        (
            Lang::Ar,
            [
                "لا صفحات",
                "صفحة واحدة",
                "صفحتين",
                "3 صفحات",
                "11 صفحة",
                "100 صفحة",
            ],
            [
                "لا عمليات للتنفيذ",
                "نفّذ عملية واحدة",
                "نفّذ عمليتين",
                "نفّذ 3 عمليات",
                "نفّذ 11 عملية",
                "نفّذ 100 عملية",
            ],
        ),
    ];
    for (lang, pages, commit) in expected {
        i18n::choose(lang).await.unwrap();
        let got: Vec<String> = n.into_iter().map(msg::count_pages).collect();
        assert_eq!(got, pages, "{} pages", lang.code());
        let got: Vec<String> = n.into_iter().map(msg::batch_commit).collect();
        assert_eq!(got, commit, "{} commit", lang.code());
    }
    reset().await;
}

#[wasm_bindgen_test]
async fn the_engines_explanations_in_the_readers_language() {
    use tablescope::engine::query::{AdviceKind, Summary};
    use tablescope::ui::text::explain_text::{kind_name, sentence};
    install_all();
    let summary = Summary::PartitionScan {
        pk: "'Mar''keting'".into(),
    };
    let advice = AdviceKind::OrPartitions { n: 1200 };
    let summary_en = "Partition scan: every entity in partition 'Mar''keting' is read, because no RowKey range narrows it.";
    let advice_en = "An `or` of PartitionKeys is a table scan. Run 1200 partition queries instead: each reads only its own partition.";
    assert_eq!(summary.to_string(), summary_en);
    assert_eq!(advice.to_string(), advice_en);
    i18n::choose(Lang::En).await.unwrap();
    // English shows exactly what the engine writes (its counts as prose).
    assert_eq!(sentence(&summary), summary_en);
    assert_eq!(sentence(&advice), advice_en.replace("1200", "1,200"));
    i18n::choose(Lang::De).await.unwrap();
    assert_eq!(
        sentence(&summary),
        "Partitionsscan: Jede Entität in Partition 'Mar''keting' wird gelesen, weil kein RowKey-Bereich sie eingrenzt."
    );
    assert_eq!(
        sentence(&advice),
        "Ein `or` aus PartitionKeys ist ein Tabellenscan. Führen Sie stattdessen 1.200 Partitionsabfragen aus: Jede liest nur ihre eigene Partition."
    );
    assert_eq!(kind_name("Table scan"), "Tabellenscan");
    // A label that names no kind is shown as written.
    assert_eq!(kind_name("Something new"), "Something new");
    i18n::choose(Lang::Ar).await.unwrap();
    assert_eq!(kind_name("Point query"), "استعلام نقطي");
    reset().await;
}

/// Messages are read from a catalogue by position, so a source catalogue whose keys are not
/// this build's (renamed, missing, reordered) is refused rather than misread.
#[wasm_bindgen_test]
fn a_source_catalogue_of_another_build_is_refused() {
    use i18n::catalogue::parse_source;
    let de = CATALOGUES[0].1;
    let values = parse_source(de).unwrap();
    // The key hash first, as in a downloaded catalogue, then every message.
    assert_eq!(values.length(), i18n::KEY_COUNT + 1);
    assert_eq!(
        values.get(0).as_string().as_deref(),
        Some(i18n::KEYS_HASH_HEX)
    );
    let first: serde_json::Map<String, serde_json::Value> = serde_json::from_str(de).unwrap();
    let (key, text) = first.iter().next().unwrap();
    assert_eq!(values.get(1).as_string().as_deref(), text.as_str());
    // A key renamed.
    let renamed = de.replacen(&format!("\"{key}\""), "\"aaa_renamed\"", 1);
    assert!(parse_source(&renamed).is_err());
    // A key missing.
    let mut fewer = first.clone();
    fewer.shift_remove(key);
    assert!(parse_source(&serde_json::to_string(&fewer).unwrap()).is_err());
    // The same keys in another order.
    let mut reordered = serde_json::Map::new();
    for (k, v) in first.iter().rev() {
        reordered.insert(k.clone(), v.clone());
    }
    assert!(parse_source(&serde_json::to_string(&reordered).unwrap()).is_err());
}

/// A downloaded catalogue (as scripts/locales.mjs writes it) is this build's key hash and one
/// entry per message, 0 for a message left out, which then shows in English; one of another
/// build (another hash or length) is refused.
#[wasm_bindgen_test]
fn a_downloaded_catalogue_is_read_by_position_and_checked_by_its_key_hash() {
    use i18n::catalogue::{parse, text};
    use i18n::Category;
    let source: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(CATALOGUES[0].1).unwrap();
    let keys: Vec<&String> = source.keys().collect();
    let kept = keys.iter().position(|k| *k == "tables_heading").unwrap();
    let left_out = keys.iter().position(|k| *k == "learn_heading").unwrap();
    let mut shipped = vec![serde_json::Value::from(i18n::KEYS_HASH_HEX)];
    shipped.extend(keys.iter().map(|k| {
        if *k == "learn_heading" {
            serde_json::Value::from(0)
        } else {
            source[*k].clone()
        }
    }));
    let catalogue = parse(&serde_json::to_string(&shipped).unwrap()).unwrap();
    assert_eq!(
        text(&catalogue, kept as u32, Category::Other).as_deref(),
        source["tables_heading"].as_str()
    );
    assert_eq!(text(&catalogue, left_out as u32, Category::Other), None);
    // Another build's hash.
    let mut other = shipped.clone();
    other[0] = serde_json::Value::from("0123456789abcdef");
    assert!(parse(&serde_json::to_string(&other).unwrap()).is_err());
    // One message fewer.
    let mut fewer = shipped.clone();
    fewer.pop();
    assert!(parse(&serde_json::to_string(&fewer).unwrap()).is_err());
    // The source form, keys and all, is not what a page downloads.
    assert!(parse(CATALOGUES[0].1).is_err());
}

/// A message without plural forms may call a placeholder `{count}`: it is filled like any
/// other (it was left as "{count}" on the page).
#[wasm_bindgen_test]
async fn a_count_placeholder_outside_a_plural_is_filled() {
    install_all();
    i18n::choose(Lang::En).await.unwrap();
    assert_eq!(msg::learn_n_as_listed("12"), "12 as listed");
    assert!(msg::map_unit_many("1,200").starts_with("Each square is 1,200 consecutive entities"));
    i18n::choose(Lang::De).await.unwrap();
    assert!(
        !msg::map_unit_many("7").contains('{'),
        "{}",
        msg::map_unit_many("7")
    );
    assert!(msg::map_unit_many("7").contains('7'));
    reset().await;
}

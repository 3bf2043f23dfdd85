#![cfg(not(target_arch = "wasm32"))]
//! The model property test of `query_model.rs` on both targets: over random entities and
//! random filters, Table storage and Cosmos DB for Table return the same entities (storage in
//! key order, Cosmos in insertion order), every page within `$top`, and Cosmos never reads
//! more entities than storage scans for the same query.

mod common;
use common::*;
use proptest::prelude::*;
use tablescope_engine::filter::{self, Row};
use tablescope_engine::{cmp_utf16, Account, FixedClock, Response, Target, Value};

#[derive(Debug, Clone)]
struct Ent {
    pk: String,
    rk: String,
    age: Option<i32>,
    name: Option<String>,
}

fn key_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a"),
        Just("b"),
        Just("bb"),
        Just("c"),
        Just("é"),
        Just("😀"),
        Just("\u{E000}"),
        Just("")
    ]
    .prop_map(String::from)
}

fn ent() -> impl Strategy<Value = Ent> {
    (
        key_text(),
        key_text(),
        proptest::option::of(-3i32..4),
        // Long names too: an entity of more than 54 bytes of values is stored boxed, a
        // shorter one inline (engine `record.rs`); both forms are scanned and returned.
        proptest::option::of(prop_oneof![
            key_text(),
            key_text().prop_map(|s| format!("{s}{}", "~".repeat(60)))
        ]),
    )
        .prop_map(|(pk, rk, age, name)| Ent { pk, rk, age, name })
}

fn cmp_op() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("eq"),
        Just("ne"),
        Just("gt"),
        Just("ge"),
        Just("lt"),
        Just("le")
    ]
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        (cmp_op(), key_text()).prop_map(|(o, k)| format!("PartitionKey {o} '{k}'")),
        (cmp_op(), key_text()).prop_map(|(o, k)| format!("RowKey {o} '{k}'")),
        (cmp_op(), -3i32..4).prop_map(|(o, v)| format!("Age {o} {v}")),
        (cmp_op(), -3i64..4).prop_map(|(o, v)| format!("Age {o} {v}L")),
        (cmp_op(), key_text()).prop_map(|(o, k)| format!("Name {o} '{k}'")),
        (cmp_op(), key_text()).prop_map(|(o, k)| format!("Age {o} '{k}'")),
    ]
}

fn filter_text() -> impl Strategy<Value = String> {
    atom().prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) and ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) or ({b})")),
            inner.prop_map(|a| format!("not ({a})")),
        ]
    })
}

fn entity_json(e: &Ent) -> String {
    let mut s = format!(
        r#"{{"PartitionKey":{},"RowKey":{}"#,
        serde_json::to_string(&e.pk).unwrap(),
        serde_json::to_string(&e.rk).unwrap()
    );
    if let Some(a) = e.age {
        s.push_str(&format!(r#","Age":{a}"#));
    }
    if let Some(n) = &e.name {
        s.push_str(&format!(r#","Name":{}"#, serde_json::to_string(n).unwrap()));
    }
    s + "}"
}

fn account_on(target: Target) -> Account {
    let mut a = Account::for_target(target, Box::new(FixedClock::default()));
    a.create_table("Model").expect("create");
    a
}

/// Every page of the query, followed to the end: the entities in order, entities read.
fn all_pages(
    a: &mut Account,
    text: &str,
    top: Option<u32>,
) -> Result<(Vec<(String, String)>, u64), TestCaseError> {
    let mut got = Vec::new();
    let mut token = None;
    let mut scanned = 0;
    for _ in 0..200 {
        let r: Response = query_with(a, "Model", text, top, token.clone(), None);
        prop_assert_eq!(r.status, 200, "{:?}", r.error);
        let s = r.stats.unwrap();
        prop_assert!(s.returned <= u64::from(top.unwrap_or(1000)));
        scanned += s.scanned;
        got.extend(keys(&r));
        token = r.continuation;
        if token.is_none() {
            return Ok((got, scanned));
        }
    }
    Err(TestCaseError::fail("more than 200 pages"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn both_targets_match_the_brute_force_model(ents in proptest::collection::vec(ent(), 0..25), text in filter_text(), top in proptest::option::of(1u32..6)) {
        let mut storage = account_on(Target::TableStorage);
        let mut cosmos = account_on(Target::CosmosTable);
        // Insertion order of the entities both accepted (a repeated key is refused on both).
        let mut inserted: Vec<Ent> = Vec::new();
        for e in &ents {
            let s = insert(&mut storage, "Model", &entity_json(e)).status;
            let c = insert(&mut cosmos, "Model", &entity_json(e)).status;
            prop_assert_eq!(s, c);
            if s == 201 {
                inserted.push(e.clone());
            }
        }
        if text.matches("Key ").count() + text.matches("Age ").count() + text.matches("Name ").count() > 15 {
            prop_assert_eq!(query_with(&mut storage, "Model", &text, top, None, None).status, 400);
            prop_assert_eq!(query_with(&mut cosmos, "Model", &text, top, None, None).status, 400);
            return Ok(());
        }
        let expr = filter::normalize(filter::parse(&text).unwrap());
        let matching: Vec<(String, String)> = inserted
            .iter()
            .filter(|e| {
                let mut props: Vec<(std::sync::Arc<str>, Value)> = Vec::new();
                if let Some(v) = e.age { props.push(("Age".into(), Value::Int32(v))); }
                if let Some(n) = &e.name { props.push(("Name".into(), Value::string(n.as_str()))); }
                filter::eval(&expr, &Row { partition_key: &e.pk, row_key: &e.rk, timestamp: tablescope_engine::DateTime::MIN, properties: &props })
            })
            .map(|e| (e.pk.clone(), e.rk.clone()))
            .collect();
        let mut in_key_order = matching.clone();
        in_key_order.sort_by(|x, y| cmp_utf16(&x.0, &y.0).then(cmp_utf16(&x.1, &y.1)));

        let (from_storage, storage_scanned) = all_pages(&mut storage, &text, top)?;
        let (from_cosmos, cosmos_scanned) = all_pages(&mut cosmos, &text, top)?;
        prop_assert_eq!(&from_storage, &in_key_order, "storage, {}", text);
        // Cosmos: the same entities, in insertion order.
        prop_assert_eq!(&from_cosmos, &matching, "cosmos, {}", text);
        prop_assert!(cosmos_scanned <= storage_scanned, "cosmos read {} > storage {} for {}", cosmos_scanned, storage_scanned, text);
    }
}

#![cfg(not(target_arch = "wasm32"))]
//! Property test: query results, order, scanned counts and kinds against a brute-force model
//! that sorts every entity and checks each one, over random entities and random filters.

mod common;
use common::*;
use proptest::prelude::*;
use tablescope_engine::filter::{self, CmpOp, Expr, Row, Target};
use tablescope_engine::{cmp_utf16, Account, QueryKind, Request, Value};

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

/// The spec's scan range by brute force (docs/service/queries.md): the entities that satisfy every top-level
/// `and`ed PartitionKey comparison (string constant, not `ne`), and — only when those pin a
/// single PartitionKey — every such RowKey comparison too. Also the kind the spec names.
fn model_range(all: &[Ent], expr: &Expr) -> (u64, QueryKind) {
    let mut conj = Vec::new();
    flatten(expr, &mut conj);
    let key_atoms = |t: Target| -> Vec<(CmpOp, String)> {
        conj.iter()
            .filter_map(|e| match e {
                Expr::Compare {
                    target,
                    op,
                    literal: Value::String(s),
                } if *target == t && *op != CmpOp::Ne => Some((*op, s.to_string())),
                _ => None,
            })
            .collect()
    };
    let (pks, rks) = (key_atoms(Target::PartitionKey), key_atoms(Target::RowKey));
    let holds = |v: &str, atoms: &[(CmpOp, String)]| {
        atoms.iter().all(|(op, lit)| {
            let o = cmp_utf16(v, lit);
            match op {
                CmpOp::Eq => o.is_eq(),
                CmpOp::Gt => o.is_gt(),
                CmpOp::Ge => o.is_ge(),
                CmpOp::Lt => o.is_lt(),
                CmpOp::Le => o.is_le(),
                CmpOp::Ne => true,
            }
        })
    };
    // Single partition: some key value is pinned by eq, or by ge/le of the same value.
    let pinned = |atoms: &[(CmpOp, String)]| {
        atoms.iter().any(|(op, v)| {
            *op == CmpOp::Eq || (*op == CmpOp::Ge && atoms.contains(&(CmpOp::Le, v.clone())))
        })
    };
    let single_pk = pinned(&pks);
    let scanned = all
        .iter()
        .filter(|e| holds(&e.pk, &pks) && (!single_pk || holds(&e.rk, &rks)))
        .count() as u64;
    let kind = match (single_pk, pinned(&rks), !rks.is_empty()) {
        (true, true, _) => QueryKind::Point,
        (true, false, true) => QueryKind::PartitionRange,
        (true, false, false) => QueryKind::PartitionScan,
        (false, ..) if !pks.is_empty() => QueryKind::TableRange,
        _ => QueryKind::TableScan,
    };
    (scanned, kind)
}

fn flatten<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::And(a, b) => {
            flatten(a, out);
            flatten(b, out);
        }
        other => out.push(other),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn engine_matches_brute_force(ents in proptest::collection::vec(ent(), 0..25), text in filter_text(), top in proptest::option::of(1u32..6)) {
        let mut a = account_with("Model");
        let mut model: Vec<Ent> = Vec::new();
        for e in &ents {
            if insert(&mut a, "Model", &entity_json(e)).status == 201 {
                model.push(e.clone());
            }
        }
        model.sort_by(|x, y| cmp_utf16(&x.pk, &y.pk).then(cmp_utf16(&x.rk, &y.rk)));
        let parsed = filter::parse(&text).unwrap();
        if text.matches("Key ").count() + text.matches("Age ").count() + text.matches("Name ").count() > 15 {
            // Over the service's limit of 15 comparisons: refused, never run.
            let r = query_with(&mut a, "Model", &text, top, None, None);
            prop_assert_eq!(r.status, 400);
            return Ok(());
        }
        let expr = filter::normalize(parsed);
        let expected: Vec<(String, String)> = model
            .iter()
            .filter(|e| {
                let mut props: Vec<(std::sync::Arc<str>, tablescope_engine::Value)> = Vec::new();
                if let Some(v) = e.age { props.push(("Age".into(), tablescope_engine::Value::Int32(v))); }
                if let Some(n) = &e.name { props.push(("Name".into(), tablescope_engine::Value::string(n.as_str()))); }
                filter::eval(&expr, &Row { partition_key: &e.pk, row_key: &e.rk, timestamp: tablescope_engine::DateTime::MIN, properties: &props })
            })
            .map(|e| (e.pk.clone(), e.rk.clone()))
            .collect();

        // Follow continuation tokens to the end: the union of pages is the model's answer, in order.
        let mut got = Vec::new();
        let mut token = None;
        let mut scanned = 0;
        let mut kind = None;
        for _ in 0..200 {
            let r = query_with(&mut a, "Model", &text, top, token.clone(), None);
            prop_assert_eq!(r.status, 200);
            let s = r.stats.unwrap();
            prop_assert!(s.returned <= u64::from(top.unwrap_or(1000)));
            scanned += s.scanned;
            kind = Some(s.kind);
            got.extend(keys(&r));
            token = r.continuation;
            if token.is_none() { break; }
        }
        prop_assert_eq!(&got, &expected);
        let (model_scanned, model_kind) = model_range(&model, &expr);
        prop_assert_eq!(kind.unwrap(), model_kind, "kind of {}", text);
        // Across all pages, each entity of the range is scanned exactly once.
        prop_assert_eq!(scanned, model_scanned, "scanned for {}", text);
        if model_kind == QueryKind::Point {
            prop_assert!(scanned <= 1);
        }
    }
}

#[test]
fn a_table_scan_reads_every_entity_once_across_pages() {
    let mut a: Account = account_with("Model");
    for i in 0..30 {
        insert(
            &mut a,
            "Model",
            &format!(r#"{{"PartitionKey":"p{}","RowKey":"{i}"}}"#, i % 4),
        );
    }
    let mut total = 0;
    let mut token = None;
    loop {
        let r = a.execute(&Request::Query {
            table: "Model".into(),
            filter: Some("RowKey eq 'none'".into()),
            select: None,
            top: None,
            continuation: token,
            page_budget: Some(7),
            trace: false,
        });
        total += r.stats.unwrap().scanned;
        token = r.continuation;
        if token.is_none() {
            break;
        }
    }
    assert_eq!(total, 30);
}

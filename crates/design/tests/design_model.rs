//! The design document (strict versioned JSON, clear errors) and the generator
//! (deterministic, chunked, exact stratified counts, ordinary entities).

use tablescope_design::{self as design, gallery, Design, Generator};
use tablescope_engine::{Account, Request};

fn employees() -> Design {
    gallery::design("employees-by-department").unwrap()
}

fn problems(text: &str) -> Vec<(String, String)> {
    match Design::from_json(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e
            .problems
            .into_iter()
            .map(|p| (p.path, p.issue.to_string()))
            .collect(),
    }
}

#[test]
fn every_gallery_design_reads_and_round_trips_exactly() {
    for (id, _) in gallery::ENTRIES {
        let d = gallery::design(id).unwrap();
        let again = Design::from_json(&d.to_json()).unwrap();
        assert_eq!(again, d, "{id}");
        assert_eq!(again.to_json(), d.to_json(), "{id}");
    }
}

#[test]
fn bad_json_is_refused_with_the_reason_and_never_panics() {
    for text in ["", "null", "{", "[]", "{\"version\":1}", "\u{0}"] {
        let p = problems(text);
        assert_eq!(p.len(), 1, "{text:?}");
        assert!(
            p[0].1.starts_with("This is not a design file:"),
            "{:?}",
            p[0]
        );
    }
    let unknown = employees()
        .to_json()
        .replacen("\"seed\"", "\"colour\": 1, \"seed\"", 1);
    assert!(problems(&unknown)[0].1.contains("unknown field `colour`"));
    let cond = employees()
        .to_json()
        .replacen("\"op\": \"eq\"", "\"op\": \"eq\", \"length\": 2", 1);
    assert!(problems(&cond)[0]
        .1
        .contains("an eq condition takes no length"));
}

#[test]
fn meaning_errors_name_the_element_to_fix() {
    let edit = |f: &dyn Fn(&mut Design)| {
        let mut d = employees();
        f(&mut d);
        problems(&serde_json::to_string(&d).unwrap())
    };
    assert_eq!(
        edit(&|d| d.version = 2),
        [(
            "version".to_string(),
            "version 2 is not one this build reads (1)".to_string()
        )]
    );
    let p = edit(&|d| d.entity_types[0].partition_key = "{Department}".into());
    assert_eq!(p[0].0, "entityTypes[0].partitionKey");
    assert!(p[0].1.contains("no property \"Department\""), "{p:?}");
    let p = edit(&|d| d.entity_types[0].row_key = "emp/{EmployeeId}".into());
    assert_eq!(p[0].0, "entityTypes[0].rowKey");
    assert!(p[0].1.contains("'/'"), "{p:?}");
    let p = edit(&|d| d.entity_types[0].table = "Other".into());
    assert_eq!(p[0].0, "entityTypes[0].table");
    let p = edit(&|d| {
        d.entity_types[0].properties[0].distribution = design::Distribution::Zipf { n: 0, s: 1.0 }
    });
    assert_eq!(p[0].0, "entityTypes[0].properties[0].distribution");
    let p = edit(&|d| {
        if let design::Pattern::Read(r) = &mut d.patterns[1] {
            r.conditions.push(design::Condition {
                on: "RowKey".into(),
                op: design::ConditionOp::Prefix { length: 9 },
            });
        }
    });
    assert_eq!(p[0].0, "patterns[1].conditions[1]");
    assert!(p[0].1.contains("leading text (4 characters)"), "{p:?}");
    let p = edit(&|d| {
        let copy = d.patterns[0].clone();
        d.patterns.push(copy);
    });
    assert_eq!(p[0].0, "patterns[6]");
    // Several problems are all reported.
    let p = edit(&|d| {
        d.name = " ".into();
        d.tables[0] = "1bad".into();
    });
    assert_eq!(
        p.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(),
        ["name", "tables[0]", "entityTypes[0].table"]
    );
}

/// Every entity of a table, in key order, as JSON text.
fn dump(account: &mut Account, table: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut continuation = None;
    loop {
        let r = account.execute(&Request::Query {
            table: table.into(),
            filter: None,
            select: None,
            top: None,
            continuation: continuation.take(),
            page_budget: None,
            trace: false,
        });
        for e in r.entities.unwrap() {
            let mut e = e.to_raw().to_json();
            if let Some(o) = e.as_object_mut() {
                o.remove("Timestamp");
                o.remove("odata.etag");
            }
            out.push(e.to_string());
        }
        match r.continuation {
            Some(c) => continuation = Some(c),
            None => return out,
        }
    }
}

#[test]
fn generation_is_deterministic_chunked_or_not_and_the_seed_matters() {
    let mut d = employees();
    d.entity_types[0].count = 3_000;
    let mut whole = Account::default();
    assert_eq!(Generator::new(&d).unwrap().run(&mut whole).unwrap(), 3_000);
    let mut chunked = Account::default();
    let mut g = Generator::new(&d).unwrap();
    let mut steps = Vec::new();
    loop {
        let p = g.step(&mut chunked, 777).unwrap();
        steps.push(p.done);
        if p.is_complete() {
            break;
        }
    }
    assert_eq!(steps, [777, 1554, 2331, 3000]);
    let a = dump(&mut whole, "Employees");
    assert_eq!(a.len(), 3_000);
    assert_eq!(a, dump(&mut chunked, "Employees"));
    d.seed = 99;
    let mut other = Account::default();
    Generator::new(&d).unwrap().run(&mut other).unwrap();
    let b = dump(&mut other, "Employees");
    assert_ne!(a, b);
    // Same keys (sequential ids, same department shares), shuffled differently.
    assert_eq!(a.len(), b.len());
}

#[test]
fn generated_entities_are_exact_and_stratified() {
    let mut d = employees();
    d.entity_types[0].count = 10_000;
    let mut account = Account::default();
    Generator::new(&d).unwrap().run(&mut account).unwrap();
    // Zipf(20, 0.8): department k holds round(10000·F(k)) − round(10000·F(k−1)).
    let h: f64 = (1..=20).map(|k| (k as f64).powf(-0.8)).sum();
    let mut cum = 0.0;
    let mut prev = 0u64;
    for k in 1..=20 {
        cum += (k as f64).powf(-0.8) / h;
        let bound = (10_000.0 * cum + 0.5).floor() as u64;
        let r = account.execute(&Request::Query {
            table: "Employees".into(),
            filter: Some(format!("PartitionKey eq 'dept-{k:02}'")),
            select: Some(vec!["RowKey".into()]),
            top: None,
            continuation: None,
            page_budget: Some(u64::MAX),
            trace: false,
        });
        let mut n = r.stats.unwrap().returned;
        // Pages hold at most 1000; follow the continuation.
        let mut c = r.continuation;
        while let Some(next) = c {
            let r = account.execute(&Request::Query {
                table: "Employees".into(),
                filter: Some(format!("PartitionKey eq 'dept-{k:02}'")),
                select: Some(vec!["RowKey".into()]),
                top: None,
                continuation: Some(next),
                page_budget: None,
                trace: false,
            });
            n += r.stats.unwrap().returned;
            c = r.continuation;
        }
        assert_eq!(n, bound - prev, "dept-{k:02}");
        prev = bound;
    }
    // Entity 1's keys and typed properties: a point read finds it with the template's padding.
    let all = dump(&mut account, "Employees");
    let one = all
        .iter()
        .find(|e| e.contains("\"RowKey\":\"emp_000001\""))
        .unwrap();
    assert!(one.contains("\"EmployeeId\":1,"), "{one}");
    assert!(
        one.contains("\"Email\":\"employee000001@contoso.com\""),
        "{one}"
    );
    assert!(
        one.contains("\"HireDate@odata.type\":\"Edm.DateTime\""),
        "{one}"
    );
}

#[test]
fn the_generator_refuses_a_table_with_data_and_reports_key_collisions() {
    let d = employees();
    let mut account = Account::default();
    account.create_table("Employees").unwrap();
    account
        .insert("Employees", tablescope_engine::Entity::new("a", "b"))
        .unwrap();
    let e = Generator::new(&d)
        .unwrap()
        .step(&mut account, 10)
        .unwrap_err();
    assert_eq!(e.problems[0].path, "tables[0]");
    assert!(
        e.problems[0]
            .issue
            .to_string()
            .contains("already holds 1 entities"),
        "{e}"
    );

    let mut d = employees();
    d.entity_types[0].row_key = "{Age}".into();
    let mut account = Account::default();
    let e = Generator::new(&d).unwrap().run(&mut account).unwrap_err();
    assert_eq!(e.problems[0].path, "entityTypes[0]");
    assert!(
        e.problems[0]
            .issue
            .to_string()
            .contains("keys must be unique"),
        "{e}"
    );
}

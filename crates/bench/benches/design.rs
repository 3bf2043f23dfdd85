//! Design studio benchmarks (native; the browser figures come with the UI):
//! generate 1,000,000 entities (< 3 s), evaluate 10 access patterns on them (< 1 s),
//! project 10 patterns to 10⁹ entities (< 50 ms). Run: `cargo bench --bench design`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tablescope_design::{self as design, gallery, Design, EvalOptions, Prices, Target};
use tablescope_engine::Account;

/// The employees gallery design with ten patterns (its six and four more), at 1,000,000.
fn ten_patterns() -> Design {
    let mut text = gallery::design("employees-by-department")
        .expect("gallery")
        .to_json();
    let extra = r#"
    { "kind": "read", "name": "Employees of a department at an age", "entityType": "Employee", "rate": 1,
      "conditions": [ { "on": "PartitionKey", "op": "eq" }, { "on": "Age", "op": "eq" } ] },
    { "kind": "read", "name": "First 20 employees of a department", "entityType": "Employee", "rate": 10,
      "conditions": [ { "on": "PartitionKey", "op": "eq" } ], "resultSize": 20 },
    { "kind": "read", "name": "A page of 100 employee rows", "entityType": "Employee", "rate": 10,
      "conditions": [ { "on": "PartitionKey", "op": "eq" }, { "on": "RowKey", "op": "prefix", "length": 4 } ], "resultSize": 100 },
    { "kind": "write", "name": "Change an employee", "op": "update", "entityTypes": ["Employee"], "rate": 5, "readFirst": true },"#;
    let at = text.find("\"patterns\": [").expect("patterns") + "\"patterns\": [".len();
    text.insert_str(at, extra);
    let mut d = Design::from_json(&text).expect("bench design");
    d.entity_types[0].count = 1_000_000;
    assert_eq!(d.patterns.len(), 10);
    d
}

fn bench(c: &mut Criterion) {
    let d = ten_patterns();
    let mut g = c.benchmark_group("design");
    g.sample_size(10);
    g.bench_function("generate 1,000,000 entities", |b| {
        b.iter(|| {
            let mut account = Account::default();
            let n = design::Generator::new(&d)
                .expect("design")
                .run(&mut account)
                .expect("generate");
            black_box((n, account))
        })
    });
    let mut account = Account::default();
    design::Generator::new(&d)
        .expect("design")
        .run(&mut account)
        .expect("generate");
    g.bench_function("evaluate 10 patterns on 1,000,000 entities", |b| {
        b.iter(|| {
            black_box(design::evaluate(&d, &account, &EvalOptions::default()).expect("evaluate"))
        })
    });
    let target = Target::scaled(&d, 1_000_000_000);
    g.sample_size(50);
    g.bench_function("project 10 patterns to 10^9 entities", |b| {
        b.iter(|| black_box(design::project(&d, &target, &Prices::default()).expect("project")))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

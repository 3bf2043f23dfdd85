//! `design-bench [runs]`: the three design-studio figures natively, as
//! `benches/design.rs` measures them (the employees gallery design with ten access patterns,
//! 1,000,000 entities, the change feed on as the app has it) but as a plain binary: each
//! figure is printed per run and as the median, in seconds. Build with the serve profile
//! (`cargo build --profile serve -p tablescope-bench --bin design-bench`).

use std::time::Instant;
use tablescope_design::{self as design, gallery, Design, EvalOptions, Prices, Target};
use tablescope_engine::Account;

/// The employees gallery design with ten patterns (its six and four more), at 1,000,000:
/// the same design as `benches/design.rs`.
fn ten_patterns() -> Result<Design, String> {
    let mut text = gallery::design("employees-by-department")
        .map_err(|e| format!("{e:?}"))?
        .to_json();
    let extra = r#"
    { "kind": "read", "name": "Employees of a department at an age", "entityType": "Employee", "rate": 1,
      "conditions": [ { "on": "PartitionKey", "op": "eq" }, { "on": "Age", "op": "eq" } ] },
    { "kind": "read", "name": "First 20 employees of a department", "entityType": "Employee", "rate": 10,
      "conditions": [ { "on": "PartitionKey", "op": "eq" } ], "resultSize": 20 },
    { "kind": "read", "name": "A page of 100 employee rows", "entityType": "Employee", "rate": 10,
      "conditions": [ { "on": "PartitionKey", "op": "eq" }, { "on": "RowKey", "op": "prefix", "length": 4 } ], "resultSize": 100 },
    { "kind": "write", "name": "Change an employee", "op": "update", "entityTypes": ["Employee"], "rate": 5, "readFirst": true },"#;
    let at = text.find("\"patterns\": [").ok_or("no patterns")? + "\"patterns\": [".len();
    text.insert_str(at, extra);
    let mut d = Design::from_json(&text).map_err(|e| format!("{e:?}"))?;
    d.entity_types[0].count = 1_000_000;
    Ok(d)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), String> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let d = ten_patterns()?;
    let (mut generate, mut evaluate, mut project) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let mut account = Account::default();
        let start = Instant::now();
        let n = design::Generator::new(&d)
            .map_err(|e| format!("{e:?}"))?
            .run(&mut account)
            .map_err(|e| format!("{e:?}"))?;
        generate.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let e = design::evaluate(&d, &account, &EvalOptions::default())
            .map_err(|e| format!("{e:?}"))?;
        evaluate.push(start.elapsed().as_secs_f64());
        std::hint::black_box((n, e));
        let target = Target::scaled(&d, 1_000_000_000);
        let start = Instant::now();
        for _ in 0..10 {
            std::hint::black_box(
                design::project(&d, &target, &Prices::default()).map_err(|e| format!("{e:?}"))?,
            );
        }
        project.push(start.elapsed().as_secs_f64() / 10.0);
        println!(
            "run: generate {:.3} s, evaluate {:.3} s, project {:.3} ms",
            generate.last().unwrap_or(&0.0),
            evaluate.last().unwrap_or(&0.0),
            project.last().unwrap_or(&0.0) * 1e3
        );
    }
    println!(
        "median of {runs}: generate 1,000,000 {:.3} s, evaluate 10 patterns {:.3} s, project to 10^9 {:.3} ms",
        median(generate),
        median(evaluate),
        median(project) * 1e3
    );
    Ok(())
}

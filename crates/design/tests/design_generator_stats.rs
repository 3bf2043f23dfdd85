//! The generator's data against the declared distributions, at fixed seeds: every property
//! takes each of its values with its declared frequency (a chi-square goodness-of-fit test,
//! or Kolmogorov–Smirnov for instants), and every pair of properties is independent (a
//! chi-square test of independence on their contingency table), each at the 0.1% level.
//! The generated entities are read back from the engine's tables, as a user counting them
//! with an SDK would.

use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::{BTreeMap, HashMap};
use tablescope_design::{gallery, Design};
use tablescope_engine::{Account, Entity, QueryOptions, Value};

mod common;
use common::generated;

/// The significance level of every test here: with the seeds fixed, a test passes or fails
/// the same way on every run; 0.1% keeps a correct generator passing across the many tests.
const ALPHA: f64 = 0.001;

/// Every entity of `table`, through the query API.
fn entities(account: &Account, table: &str) -> Vec<Entity> {
    let t = account.table(table).unwrap();
    let mut out = Vec::new();
    let mut options = QueryOptions::default();
    loop {
        let all = tablescope_engine::filter::parse("PartitionKey ge ''").unwrap();
        let plan = tablescope_engine::query::plan(all);
        let page = tablescope_engine::query::execute_page(t, plan, &options, false).unwrap();
        out.extend(page.entities.iter().map(|f| f.to_entity()));
        match page.continuation {
            Some(c) => options.continuation = Some(c),
            None => break,
        }
    }
    out
}

fn text(e: &Entity, property: &str) -> String {
    e.properties
        .iter()
        .find(|(n, _)| &**n == property)
        .map(|(_, v)| v.display_text())
        .unwrap_or_default()
}

fn counts(es: &[Entity], property: &str) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for e in es {
        *m.entry(text(e, property)).or_default() += 1;
    }
    m
}

/// The upper `ALPHA` critical value of chi-square with `df` degrees of freedom.
fn critical(df: f64) -> f64 {
    ChiSquared::new(df).unwrap().inverse_cdf(1.0 - ALPHA)
}

/// Chi-square goodness of fit of observed counts to expected shares (values by text).
fn fits(what: &str, observed: &BTreeMap<String, u64>, expected: &[(String, f64)]) {
    let n: u64 = observed.values().sum();
    let mut stat = 0.0;
    for (value, share) in expected {
        let e = share * n as f64;
        let o = observed.get(value).copied().unwrap_or(0) as f64;
        stat += (o - e).powi(2) / e;
    }
    let unexpected: Vec<&String> = observed
        .keys()
        .filter(|v| !expected.iter().any(|(x, _)| x == *v))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{what}: undeclared values {unexpected:?}"
    );
    let c = critical(expected.len() as f64 - 1.0);
    assert!(
        stat <= c,
        "{what}: chi-square {stat:.1} > {c:.1} ({} distinct of {} declared)",
        observed.len(),
        expected.len()
    );
}

/// Chi-square test of independence of two properties over the entities.
fn independent(what: &str, es: &[Entity], a: &str, b: &str) {
    let mut table: HashMap<(String, String), f64> = HashMap::new();
    let (ra, rb) = (counts(es, a), counts(es, b));
    for e in es {
        *table.entry((text(e, a), text(e, b))).or_default() += 1.0;
    }
    let n = es.len() as f64;
    let mut stat = 0.0;
    for (va, ca) in &ra {
        for (vb, cb) in &rb {
            let e = *ca as f64 * *cb as f64 / n;
            let o = table.get(&(va.clone(), vb.clone())).copied().unwrap_or(0.0);
            stat += (o - e).powi(2) / e;
        }
    }
    let df = (ra.len() as f64 - 1.0) * (rb.len() as f64 - 1.0);
    assert!(df >= 1.0, "{what}: {a} or {b} has a single value");
    let c = critical(df);
    assert!(
        stat <= c,
        "{what}: {a} × {b} chi-square {stat:.1} > {c:.1} (df {df})"
    );
}

fn uniform(min: i64, max: i64) -> Vec<(String, f64)> {
    let k = (max - min + 1) as f64;
    (min..=max).map(|v| (v.to_string(), 1.0 / k)).collect()
}

const GEN: &str = r#"{
  "version": 1, "name": "Gen", "seed": 7, "tables": ["Gen"],
  "entityTypes": [{
    "name": "Item", "table": "Gen", "partitionKey": "p{Bucket:02}", "rowKey": "{Id:06}", "count": 10000,
    "properties": [
      { "name": "Id", "type": "Int32", "distribution": { "kind": "sequential", "start": 1 } },
      { "name": "Bucket", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 10 } },
      { "name": "A", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 100 } },
      { "name": "B", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 100 } },
      { "name": "C", "type": "String", "distribution": { "kind": "choice", "values": ["w", "x", "y", "z"] } }
    ]
  }],
  "patterns": []
}"#;

#[test]
fn uniform_and_choice_properties_take_every_value_independently() {
    let d = Design::from_json(GEN).unwrap();
    let es = entities(&generated(&d), "Gen");
    assert_eq!(es.len(), 10_000);
    assert_eq!(counts(&es, "B").len(), 100, "B takes every value of 1..100");
    assert_eq!(counts(&es, "C").len(), 4, "C takes every choice");
    fits("Bucket", &counts(&es, "Bucket"), &uniform(1, 10));
    fits("A", &counts(&es, "A"), &uniform(1, 100));
    fits("B", &counts(&es, "B"), &uniform(1, 100));
    let choices: Vec<(String, f64)> = ["w", "x", "y", "z"]
        .iter()
        .map(|c| (c.to_string(), 0.25))
        .collect();
    fits("C", &counts(&es, "C"), &choices);
    for (a, b) in [
        ("Bucket", "A"),
        ("Bucket", "B"),
        ("Bucket", "C"),
        ("A", "B"),
        ("A", "C"),
        ("B", "C"),
    ] {
        independent("Gen", &es, a, b);
    }
    // Within one partition, C still takes all four values.
    let p03: Vec<Entity> = es
        .iter()
        .filter(|e| e.partition_key.as_str() == "p03")
        .cloned()
        .collect();
    assert_eq!(counts(&p03, "C").len(), 4);
}

#[test]
fn employees_ages_are_independent_of_the_department() {
    let d = gallery::design("employees-by-department").unwrap();
    let es = entities(&generated(&d), "Employees");
    let dept07: Vec<Entity> = es
        .iter()
        .filter(|e| e.partition_key.as_str() == "dept-07")
        .cloned()
        .collect();
    assert!(
        counts(&dept07, "Age").len() >= 40,
        "Age inside dept-07 takes {} values",
        counts(&dept07, "Age").len()
    );
    let ages = counts(&es, "Age");
    // 10,000 / 46 ages: 217.4 each, exactly stratified.
    assert!((217..=218).contains(&ages["42"]), "Age 42: {}", ages["42"]);
    assert!((217..=218).contains(&ages["20"]), "Age 20: {}", ages["20"]);
    fits("Age", &ages, &uniform(20, 65));
    for (a, b) in [
        ("DepartmentId", "Age"),
        ("DepartmentId", "LastName"),
        ("LastName", "FirstName"),
        ("FirstName", "Age"),
    ] {
        independent("Employees", &es, a, b);
    }
}

const SKEWED: &str = r#"{
  "version": 1, "name": "Skewed", "seed": 11, "tables": ["Skewed"],
  "entityTypes": [{
    "name": "Event", "table": "Skewed", "partitionKey": "{Tenant}", "rowKey": "{Id:06}", "count": 20000,
    "properties": [
      { "name": "Id", "type": "Int32", "distribution": { "kind": "sequential", "start": 1 } },
      { "name": "Tenant", "type": "String", "distribution": { "kind": "zipf", "n": 50, "s": 1.1 }, "prefix": "t" },
      { "name": "Status", "type": "String", "distribution": { "kind": "choice", "values": ["new", "paid", "shipped", "void"], "weights": [1, 6, 2, 1] } },
      { "name": "Score", "type": "Double", "distribution": { "kind": "uniform", "min": 5, "max": 500 } },
      { "name": "At", "type": "DateTime", "distribution": { "kind": "timestamps", "from": "2025-01-01T00:00:00Z", "to": "2025-03-01T00:00:00Z" } }
    ]
  }],
  "patterns": []
}"#;

#[test]
fn zipf_weighted_choices_and_instants_follow_their_declarations() {
    let d = Design::from_json(SKEWED).unwrap();
    let es = entities(&generated(&d), "Skewed");
    let h: f64 = (1..=50).map(|k| (k as f64).powf(-1.1)).sum();
    let zipf: Vec<(String, f64)> = (1..=50)
        .map(|k| (format!("t{k}"), (k as f64).powf(-1.1) / h))
        .collect();
    fits("Tenant", &counts(&es, "Tenant"), &zipf);
    let status: Vec<(String, f64)> = [("new", 0.1), ("paid", 0.6), ("shipped", 0.2), ("void", 0.1)]
        .iter()
        .map(|(v, w)| (v.to_string(), *w))
        .collect();
    fits("Status", &counts(&es, "Status"), &status);
    // A Double shows as 5.0: counted by its whole number.
    let scores: BTreeMap<String, u64> = counts(&es, "Score")
        .into_iter()
        .map(|(v, c)| (v.trim_end_matches(".0").to_string(), c))
        .collect();
    assert_eq!(scores.len(), 496, "Score takes every value of 5..500");
    fits("Score", &scores, &uniform(5, 500));
    for (a, b) in [("Tenant", "Status"), ("Status", "Score")] {
        independent("Skewed", &es, a, b);
    }
    // Instants: Kolmogorov–Smirnov against the uniform distribution over the range.
    let from = tablescope_engine::DateTime::parse("2025-01-01T00:00:00Z")
        .unwrap()
        .ticks();
    let to = tablescope_engine::DateTime::parse("2025-03-01T00:00:00Z")
        .unwrap()
        .ticks();
    let mut xs: Vec<f64> = es
        .iter()
        .map(|e| match e.properties.iter().find(|(n, _)| &**n == "At") {
            Some((_, Value::DateTime(t))) => (t.ticks() - from) as f64 / (to - from) as f64,
            other => panic!("At is {other:?}"),
        })
        .collect();
    xs.sort_by(f64::total_cmp);
    let n = xs.len() as f64;
    let ks = xs
        .iter()
        .enumerate()
        .map(|(i, x)| ((i as f64 + 1.0) / n - x).max(x - i as f64 / n))
        .fold(0.0, f64::max);
    // The asymptotic critical value of the one-sample test at 0.1%: 1.949 / sqrt(n).
    assert!(ks <= 1.949 / n.sqrt(), "At: KS distance {ks}");
    // Status and the day of the instant are independent too.
    let with_day: Vec<Entity> = es
        .iter()
        .map(|e| {
            let mut e = e.clone();
            let month = text(&e, "At")[..7].to_string();
            e.properties.push(("Month".into(), Value::string(month)));
            e
        })
        .collect();
    independent("Skewed", &with_day, "Status", "Month");
}

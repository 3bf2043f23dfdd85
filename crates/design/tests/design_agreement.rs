//! Measured against projected selectivity at the size generated: they agree within sampling
//! error on the generator's data, and a difference is named from the data's profile.

use tablescope_design::{self as design, Design, Difference, EvalOptions, Prices, Target};
use tablescope_engine::Account;

fn orders(statuses: &str) -> Design {
    Design::from_json(&format!(
        r#"{{
  "version": 1, "name": "Orders", "seed": 3, "tables": ["Orders"],
  "entityTypes": [{{
    "name": "Order", "table": "Orders", "partitionKey": "c{{CustomerId:05}}", "rowKey": "o{{OrderId:07}}", "count": 30000,
    "properties": [
      {{ "name": "OrderId", "type": "Int64", "distribution": {{ "kind": "sequential", "start": 1 }} }},
      {{ "name": "CustomerId", "type": "Int32", "distribution": {{ "kind": "uniform", "min": 1, "max": 3000 }} }},
      {{ "name": "Status", "type": "String", "distribution": {{ "kind": "choice", "values": [{statuses}] }} }},
      {{ "name": "Total", "type": "Double", "distribution": {{ "kind": "uniform", "min": 5, "max": 500 }} }}
    ]
  }}],
  "patterns": [
    {{ "kind": "read", "name": "Orders with a status", "entityType": "Order", "rate": 0.1,
      "conditions": [ {{ "on": "Status", "op": "eq" }} ] }},
    {{ "kind": "read", "name": "Orders of a customer with a status", "entityType": "Order", "rate": 5,
      "conditions": [ {{ "on": "PartitionKey", "op": "eq" }}, {{ "on": "Status", "op": "eq" }} ] }}
  ]
}}"#
    ))
    .unwrap()
}

const FOUR: &str = r#""new", "paid", "shipped", "void""#;

fn agreement_on(generated: &Design, declared: &Design) -> Vec<design::Selectivity> {
    let mut account = Account::default();
    design::Generator::new(generated)
        .unwrap()
        .run(&mut account)
        .unwrap();
    let measured = design::evaluate(declared, &account, &EvalOptions::default()).unwrap();
    let projected =
        design::project(declared, &Target::of_design(declared), &Prices::default()).unwrap();
    let profile = design::profile(declared, &account).unwrap();
    design::agreement(declared, &measured, &projected, &profile)
}

#[test]
fn the_status_filter_returns_the_declared_quarter() {
    let d = orders(FOUR);
    let rows = agreement_on(&d, &d);
    assert_eq!(rows.len(), 2);
    let status = &rows[0];
    assert_eq!(status.pattern, "Orders with a status");
    // One property: stratified exactly, 7,500 of 30,000.
    assert_eq!(status.measured, 0.25);
    assert_eq!(status.projected, 0.25);
    assert!(status.differences.is_empty());
    // A customer's orders with a status: about 10 × 1/4 per call, within sampling error.
    let both = &rows[1];
    assert!(both.sampling_sd > 0.0);
    assert!(
        (both.measured - both.projected).abs() <= 4.0 * both.sampling_sd,
        "{both:?}"
    );
    assert!(both.differences.is_empty(), "{both:?}");
}

#[test]
fn data_with_one_status_is_named_as_the_difference() {
    let declared = orders(FOUR);
    let rows = agreement_on(&orders(r#""paid""#), &declared);
    let status = &rows[0];
    assert_eq!(status.projected, 0.25);
    assert_eq!(
        status.measured, 0.0,
        "the draws ask for statuses the data lacks"
    );
    assert_eq!(
        status.differences,
        vec![Difference::FewerValues {
            property: "Status".into(),
            values: 1,
            declared: 4
        }]
    );
    let p = design::profile(&declared, &{
        let mut a = Account::default();
        design::Generator::new(&orders(r#""paid""#))
            .unwrap()
            .run(&mut a)
            .unwrap();
        a
    })
    .unwrap();
    let s = p.get("Order", "Status").unwrap();
    assert_eq!((s.values, s.declared_values, s.entities), (1, 4, 30_000));
    let c = p.get("Order", "CustomerId").unwrap();
    assert_eq!((c.values, c.declared_values), (3000, 3000));
    assert!(!c.departs());
}

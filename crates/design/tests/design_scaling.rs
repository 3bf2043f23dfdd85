//! The projection's scaling: a property keeps its declared range at the target size unless
//! it says `"scale": "grows"`, and the projection reports each property's distinct values
//! at the target and whether it grew. The orders design: 30,000 orders of customers
//! `uniform 1..10000` beside 70,000 events, projected to 10⁹ entities (3·10⁸ orders).

use tablescope_design::{
    project, Design, Distribution, Issue, Pattern, Prices, Projection, PropertyScaling, Scale,
    Target,
};

const ORDERS: &str = r#"{
  "version": 1, "name": "Orders", "seed": 5, "tables": ["Orders", "Events"],
  "entityTypes": [{
    "name": "Order", "table": "Orders", "partitionKey": "c{CustomerId:05}", "rowKey": "o{OrderId:09}", "count": 30000,
    "properties": [
      { "name": "OrderId", "type": "Int64", "distribution": { "kind": "sequential", "start": 1 } },
      { "name": "CustomerId", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 10000 } },
      { "name": "Status", "type": "String", "distribution": { "kind": "choice", "values": ["new", "paid", "sent", "done"] } },
      { "name": "Placed", "type": "DateTime", "distribution": { "kind": "timestamps", "from": "2026-01-01T00:00:00Z", "to": "2026-02-01T00:00:00Z" } },
      { "name": "Region", "type": "Int32", "distribution": { "kind": "zipf", "n": 100, "s": 1.0 } }
    ]
  }, {
    "name": "Event", "table": "Events", "partitionKey": "e{EventId:010}", "rowKey": "x", "count": 70000,
    "properties": [
      { "name": "EventId", "type": "Int64", "distribution": { "kind": "sequential", "start": 1 } }
    ]
  }],
  "patterns": [
    { "kind": "read", "name": "orders of a customer", "entityType": "Order",
      "conditions": [{ "on": "PartitionKey", "op": "eq" }], "rate": 10 },
    { "kind": "read", "name": "orders by status", "entityType": "Order",
      "conditions": [{ "on": "Status", "op": "eq" }], "rate": 0.001 }
  ]
}"#;

fn orders(customer: Scale) -> Design {
    let mut d = Design::from_json(ORDERS).unwrap();
    d.entity_types[0].properties[1].scale = customer;
    d
}

fn at_billion(d: &Design) -> Projection {
    project(d, &Target::scaled(d, 1_000_000_000), &Prices::default()).unwrap()
}

fn read<'p>(p: &'p Projection, name: &str) -> &'p tablescope_design::Figures {
    &p.patterns
        .iter()
        .find(|x| x.figures.pattern == name)
        .unwrap()
        .figures
}

fn scaling<'p>(p: &'p Projection, property: &str) -> &'p PropertyScaling {
    p.scaling.iter().find(|s| s.property == property).unwrap()
}

#[test]
fn a_fixed_customer_range_gives_each_customer_30000_orders_at_a_billion() {
    let p = at_billion(&orders(Scale::Fixed));
    assert_eq!(
        p.counts,
        vec![
            ("Order".to_string(), 300_000_000),
            ("Event".to_string(), 700_000_000)
        ]
    );
    let of_customer = read(&p, "orders of a customer");
    assert_eq!(of_customer.returned.mean, 30_000.0);
    assert_eq!(of_customer.scanned.mean, 30_000.0);
    // 30,000 returned at 1,000 a page.
    assert_eq!(of_customer.requests.mean, 30.0);
    // The table scan reads every customer's partition: still 10,000.
    assert_eq!(read(&p, "orders by status").partitions.mean, 10_000.0);
    let c = scaling(&p, "CustomerId");
    assert_eq!(
        (c.scale, c.grew, c.unique, c.distinct),
        (Scale::Fixed, false, false, Some(10_000))
    );
    assert_eq!(
        c.projected,
        Distribution::Uniform {
            min: 1,
            max: 10_000
        }
    );
}

#[test]
fn a_growing_customer_range_keeps_3_orders_a_customer_at_a_billion() {
    let p = at_billion(&orders(Scale::Grows));
    let of_customer = read(&p, "orders of a customer");
    assert_eq!(of_customer.returned.mean, 3.0);
    assert_eq!(of_customer.requests.mean, 1.0);
    // 1..10000 at 30,000 orders is 1..10⁸ at 3·10⁸: the key built from it has 10⁸ partitions.
    assert_eq!(read(&p, "orders by status").partitions.mean, 100_000_000.0);
    let c = scaling(&p, "CustomerId");
    assert_eq!(
        (c.scale, c.grew, c.distinct),
        (Scale::Grows, true, Some(100_000_000))
    );
    assert_eq!(
        c.projected,
        Distribution::Uniform {
            min: 1,
            max: 100_000_000
        }
    );
    assert_eq!(
        c.declared,
        Distribution::Uniform {
            min: 1,
            max: 10_000
        }
    );
}

#[test]
fn the_report_names_every_property_of_every_type_with_its_values_at_the_target() {
    let p = at_billion(&orders(Scale::Fixed));
    let rows: Vec<(&str, &str, Option<u64>, bool, bool)> = p
        .scaling
        .iter()
        .map(|s| {
            (
                s.entity_type.as_str(),
                s.property.as_str(),
                s.distinct,
                s.unique,
                s.grew,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("Order", "OrderId", Some(300_000_000), true, false),
            ("Order", "CustomerId", Some(10_000), false, false),
            ("Order", "Status", Some(4), false, false),
            ("Order", "Placed", None, false, false),
            ("Order", "Region", Some(100), false, false),
            ("Event", "EventId", Some(700_000_000), true, false),
        ]
    );
}

#[test]
fn a_growing_time_range_reaches_back_from_its_end_and_a_zipf_gains_ranks() {
    let mut d = orders(Scale::Fixed);
    d.entity_types[0].properties[3].scale = Scale::Grows;
    d.entity_types[0].properties[4].scale = Scale::Grows;
    // Twice the orders: 31 days become 62, ending where they ended; 100 ranks become 200.
    let mut target = Target::of_design(&d);
    target.counts[0].1 = 60_000;
    let p = project(&d, &target, &Prices::default()).unwrap();
    assert_eq!(
        scaling(&p, "Placed").projected,
        Distribution::Timestamps {
            from: "2025-12-01T00:00:00Z".into(),
            to: "2026-02-01T00:00:00Z".into()
        }
    );
    let z = scaling(&p, "Region");
    assert_eq!(
        (&z.projected, z.distinct, z.grew),
        (&Distribution::Zipf { n: 200, s: 1.0 }, Some(200), true)
    );
    // A Zipf's table is held in memory: at a billion it stops at 1,000,000 ranks.
    let p = at_billion(&d);
    assert_eq!(
        scaling(&p, "Region").projected,
        Distribution::Zipf {
            n: 1_000_000,
            s: 1.0
        }
    );
}

#[test]
fn at_the_designs_own_counts_growing_and_fixed_project_the_same() {
    let fixed = orders(Scale::Fixed);
    let grows = orders(Scale::Grows);
    let at = |d: &Design| project(d, &Target::of_design(d), &Prices::default()).unwrap();
    let (a, b) = (at(&fixed), at(&grows));
    assert_eq!(a.patterns, b.patterns);
    assert_eq!(read(&a, "orders of a customer").returned.mean, 3.0);
    assert!(!scaling(&b, "CustomerId").grew);
}

#[test]
fn scale_is_written_only_when_it_grows_and_refused_where_nothing_can_grow() {
    let fixed = orders(Scale::Fixed);
    assert!(!fixed.to_json().contains("\"scale\""));
    let grows = orders(Scale::Grows);
    let text = grows.to_json();
    assert!(text.contains("\"scale\": \"grows\""), "{text}");
    assert_eq!(Design::from_json(&text).unwrap(), grows);
    // A choice keeps its listed values; sequential values are unique anyway.
    let mut bad = orders(Scale::Fixed);
    bad.entity_types[0].properties[2].scale = Scale::Grows;
    bad.entity_types[0].properties[0].scale = Scale::Grows;
    let e = project(&bad, &Target::of_design(&bad), &Prices::default()).unwrap_err();
    let paths: Vec<(&str, &Issue)> = e
        .problems
        .iter()
        .map(|p| (p.path.as_str(), &p.issue))
        .collect();
    assert_eq!(
        paths,
        vec![
            ("entityTypes[0].properties[0].scale", &Issue::ScaleGrows),
            ("entityTypes[0].properties[2].scale", &Issue::ScaleGrows),
        ]
    );
    let unknown = ORDERS.replace(
        r#""min": 1, "max": 10000 }"#,
        r#""min": 1, "max": 10000 }, "scale": "doubles""#,
    );
    assert!(Design::from_json(&unknown).is_err());
    assert!(matches!(grows.patterns[0], Pattern::Read(_)));
}

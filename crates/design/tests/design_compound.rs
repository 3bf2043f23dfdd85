//! Key prefixes built from template fields ("the lines of one order", "the sales of a region")
//! and writes that cover several entity types in one entity group transaction (an order and
//! its lines), measured on generated data and projected, and graded by the review.

use tablescope_design::{
    self as design, ConditionOp, Design, EvalOptions, Grade, Kind, Pattern, Prices, Rule, Target,
};

mod common;
use common::generated;

/// 2,000 orders and 10,000 lines (exactly 5 per order: `OrderId` of a line is uniform over the
/// 2,000 orders), in partitions by a hash of the order, the lines keyed by order then line.
fn orders(lines_per_order: u32, line_pk: &str) -> Design {
    Design::from_json(&format!(
        r#"{{
  "version": 1, "name": "Orders and lines", "seed": 5, "tables": ["Orders"],
  "entityTypes": [
    {{ "name": "Order", "table": "Orders", "partitionKey": "{{hash(OrderId) % 16}}", "rowKey": "order_{{OrderId:08}}", "count": 2000,
      "properties": [
        {{ "name": "OrderId", "type": "Int32", "distribution": {{ "kind": "sequential", "start": 1 }} }},
        {{ "name": "CustomerId", "type": "Int32", "distribution": {{ "kind": "uniform", "min": 1, "max": 200 }} }},
        {{ "name": "Status", "type": "String", "distribution": {{ "kind": "choice", "values": ["new", "paid", "shipped", "void"] }} }}
      ] }},
    {{ "name": "Line", "table": "Orders", "partitionKey": "{line_pk}", "rowKey": "{{OrderId:08}}_{{LineId:08}}", "count": 10000,
      "properties": [
        {{ "name": "OrderId", "type": "Int32", "distribution": {{ "kind": "uniform", "min": 1, "max": 2000 }} }},
        {{ "name": "CustomerId", "type": "Int32", "distribution": {{ "kind": "uniform", "min": 1, "max": 200 }} }},
        {{ "name": "LineId", "type": "Int32", "distribution": {{ "kind": "sequential", "start": 1 }} }},
        {{ "name": "Quantity", "type": "Int32", "distribution": {{ "kind": "uniform", "min": 1, "max": 10 }} }}
      ] }}
  ],
  "patterns": [
    {{ "kind": "read", "name": "Lines of one order", "entityType": "Line", "rate": 50,
      "conditions": [ {{ "on": "PartitionKey", "op": "eq" }}, {{ "on": "RowKey", "op": "prefix", "through": "OrderId" }} ] }},
    {{ "kind": "read", "name": "Lines of one order with a quantity", "entityType": "Line", "rate": 1,
      "conditions": [ {{ "on": "PartitionKey", "op": "eq" }}, {{ "on": "RowKey", "op": "prefix", "through": "OrderId" }}, {{ "on": "Quantity", "op": "eq" }} ] }},
    {{ "kind": "write", "name": "Place an order", "op": "insert", "entityTypes": ["Order", "Line"], "perCall": {{ "Line": {lines_per_order} }}, "rate": 2, "batch": true }}
  ]
}}"#
    ))
    .unwrap()
}

const BY_ORDER: &str = "{hash(OrderId) % 16}";

#[test]
fn a_rowkey_prefix_through_a_field_reads_the_lines_of_one_order() {
    let d = orders(5, BY_ORDER);
    let Pattern::Read(r) = &d.patterns[0] else {
        panic!()
    };
    assert_eq!(
        r.conditions[1].op,
        ConditionOp::Through {
            field: "OrderId".into()
        }
    );
    let account = generated(&d);
    let measured = design::evaluate(&d, &account, &EvalOptions::default()).unwrap();
    let lines = &measured.patterns[0];
    assert_eq!(lines.kind, Kind::PartitionRange);
    // A range of one partition that holds the order's 5 lines and nothing else.
    assert_eq!(lines.scanned.mean, 5.0);
    assert_eq!(lines.scanned.worst, 5.0);
    assert_eq!(lines.returned.mean, 5.0);
    assert_eq!(lines.requests.mean, 1.0);
    assert_eq!(lines.partitions.mean, 1.0);
    // The filter binds the key's expansion through OrderId and the "_" after it.
    let f = &lines.example_filter;
    assert!(f.starts_with("PartitionKey eq '"), "{f}");
    let prefix = f
        .split("RowKey ge '")
        .nth(1)
        .and_then(|t| t.split('\'').next())
        .unwrap();
    assert_eq!(prefix.len(), 9, "{f}");
    assert!(prefix.ends_with('_') && prefix[..8].bytes().all(|b| b.is_ascii_digit()));
    assert!(
        f.ends_with(&format!("RowKey lt '{}`'", &prefix[..8])),
        "{f}"
    );

    let projected = design::project(&d, &Target::of_design(&d), &Prices::default()).unwrap();
    let p = &projected.patterns[0].figures;
    assert_eq!(p.kind, Kind::PartitionRange);
    assert_eq!(p.scanned.mean, 5.0);
    assert_eq!(p.returned.mean, 5.0);
    assert_eq!(p.requests.mean, 1.0);
    // Selectivity: one order's lines, 5 of 10,000.
    let profile = design::profile(&d, &account).unwrap();
    let rows = design::agreement(&d, &measured, &projected, &profile);
    assert_eq!(rows[0].pattern, "Lines of one order");
    assert_eq!(rows[0].projected, 0.0005);
    assert_eq!(rows[0].measured, 0.0005);

    // With a property condition too: the 5 lines are scanned, a tenth of them returned by
    // expectation (the drawn line itself always matches, so the measure is at least 1).
    let q = &measured.patterns[1];
    assert_eq!(q.scanned.mean, 5.0);
    let pq = &projected.patterns[1].figures;
    assert_eq!(pq.scanned.mean, 5.0);
    assert_eq!(pq.returned.mean, 0.5);
    assert!(q.returned.mean >= 1.0 && q.returned.mean <= 5.0, "{q:?}");

    // At 10⁹ entities a line's OrderId keeps its declared range 1..2000: 833,333,333 lines
    // over 2,000 orders, so the range of one order holds 416,667 of them.
    let big = design::project(&d, &Target::scaled(&d, 1_000_000_000), &Prices::default()).unwrap();
    assert_eq!(big.counts[1], ("Line".to_string(), 833_333_333));
    let scanned = big.patterns[0].figures.scanned.mean;
    assert!((scanned - 833_333_333.0 / 2000.0).abs() < 1.0, "{scanned}");
}

#[test]
fn an_order_and_its_lines_are_one_entity_group_transaction() {
    let d = orders(5, BY_ORDER);
    let account = generated(&d);
    let measured = design::evaluate(&d, &account, &EvalOptions::default()).unwrap();
    let w = &measured.patterns[2];
    assert_eq!(w.kind, Kind::Write);
    assert_eq!(w.written, 6.0);
    assert_eq!(w.batchable, Some(true));
    assert_eq!(w.partitions.worst, 1.0);
    assert_eq!(w.requests.mean, 1.0);
    let projected = design::project(&d, &Target::of_design(&d), &Prices::default()).unwrap();
    let p = &projected.patterns[2];
    assert_eq!(p.figures.written, 6.0);
    assert_eq!(p.figures.batchable, Some(true));
    assert_eq!(p.entities_per_sec, 12.0);
    let batches = design::review(&d, &projected)
        .into_iter()
        .find(|f| f.rule == Rule::Batches)
        .unwrap();
    assert_eq!(batches.grade, Grade::Pass);
    assert_eq!(batches.operations, None);
    assert_eq!(
        batches.evidence,
        "\"Place an order\" writes its entities in one entity group transaction"
    );
}

#[test]
fn more_than_100_operations_fail_the_batch_with_the_reason() {
    let d = orders(100, BY_ORDER);
    let projected = design::project(&d, &Target::of_design(&d), &Prices::default()).unwrap();
    let p = &projected.patterns[2].figures;
    assert_eq!(p.written, 101.0);
    assert_eq!(p.batchable, Some(false));
    assert_eq!(p.partitions.worst, 1.0);
    // Not one batch: one request per entity.
    assert_eq!(p.requests.mean, 101.0);
    let batches = design::review(&d, &projected)
        .into_iter()
        .find(|f| f.rule == Rule::Batches)
        .unwrap();
    assert_eq!(batches.grade, Grade::Fail);
    assert_eq!(batches.operations, Some(101));
    assert_eq!((batches.measure, batches.limit), (101.0, 100.0));
    assert_eq!(batches.element.as_deref(), Some("patterns[2].perCall"));
    assert_eq!(
        batches.evidence,
        "\"Place an order\" writes 101 entities per call: an entity group transaction takes at most 100 operations"
    );
}

#[test]
fn lines_in_other_partitions_than_their_order_fail_the_batch() {
    // The lines keyed by customer: a line's CustomerId is its order's, but the order is
    // partitioned by its OrderId.
    let d = orders(5, "c{CustomerId:03}");
    let account = generated(&d);
    let measured = design::evaluate(&d, &account, &EvalOptions::default()).unwrap();
    let w = &measured.patterns[2];
    assert_eq!(w.batchable, Some(false));
    assert_eq!(w.partitions.worst, 2.0);
    assert_eq!(w.requests.mean, 6.0);
    let projected = design::project(&d, &Target::of_design(&d), &Prices::default()).unwrap();
    let batches = design::review(&d, &projected)
        .into_iter()
        .find(|f| f.rule == Rule::Batches)
        .unwrap();
    assert_eq!(batches.grade, Grade::Fail);
    assert_eq!(batches.operations, None);
    // Blamed on the lines' template, the one keyed unlike the order's.
    assert_eq!(
        batches.element.as_deref(),
        Some("entityTypes[1].partitionKey")
    );
}

/// 20,000 sales in 200 partitions `north-001` … `west-050`.
fn sales() -> Design {
    Design::from_json(
        r#"{
  "version": 1, "name": "Sales", "seed": 9, "tables": ["Sales"],
  "entityTypes": [
    { "name": "Sale", "table": "Sales", "partitionKey": "{Region}-{Store:03}", "rowKey": "{SaleId:08}", "count": 20000,
      "properties": [
        { "name": "Region", "type": "String", "distribution": { "kind": "choice", "values": ["north", "south", "east", "west"] } },
        { "name": "Store", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 50 } },
        { "name": "SaleId", "type": "Int32", "distribution": { "kind": "sequential", "start": 1 } }
      ] }
  ],
  "patterns": [
    { "kind": "read", "name": "Sales of a region", "entityType": "Sale", "rate": 0.5,
      "conditions": [ { "on": "PartitionKey", "op": "prefix", "through": "Region" } ] }
  ]
}"#,
    )
    .unwrap()
}

#[test]
fn a_partitionkey_prefix_through_a_field_reads_the_partitions_that_share_it() {
    let d = sales();
    let account = generated(&d);
    let measured = design::evaluate(&d, &account, &EvalOptions::default()).unwrap();
    let m = &measured.patterns[0];
    assert_eq!(m.kind, Kind::TableRange);
    // A quarter of the sales, in the region's 50 partitions.
    assert_eq!(m.returned.mean, 5000.0);
    assert_eq!(m.partitions.mean, 50.0);
    assert!(
        m.example_filter.starts_with("PartitionKey ge '"),
        "{}",
        m.example_filter
    );
    let projected = design::project(&d, &Target::of_design(&d), &Prices::default()).unwrap();
    let p = &projected.patterns[0].figures;
    assert_eq!(p.kind, Kind::TableRange);
    assert_eq!(p.scanned.mean, 5000.0);
    assert_eq!(p.returned.mean, 5000.0);
    assert_eq!(p.partitions.mean, 50.0);
    assert_eq!(m.scanned.mean, p.scanned.mean);
}

#[test]
fn a_prefix_through_names_a_field_of_the_key() {
    let problems = |text: String| match Design::from_json(&text) {
        Ok(_) => panic!("accepted"),
        Err(e) => e
            .problems
            .into_iter()
            .map(|p| (p.path, p.issue.to_string()))
            .collect::<Vec<_>>(),
    };
    let json = orders(5, BY_ORDER).to_json();
    assert!(json.contains("\"through\": \"OrderId\""), "{json}");
    assert!(
        json.contains("\"perCall\": {\n        \"Line\": 5\n      }"),
        "{json}"
    );
    assert_eq!(
        problems(json.replacen("\"through\": \"OrderId\"", "\"through\": \"Sku\"", 1)),
        vec![(
            "patterns[0].conditions[1]".to_string(),
            "the RowKey template has no field \"Sku\" (its fields: OrderId, LineId)".to_string()
        )]
    );
    let both = json.replacen(
        "\"through\": \"OrderId\"",
        "\"through\": \"OrderId\", \"length\": 3",
        1,
    );
    assert!(problems(both)[0]
        .1
        .contains("a prefix condition takes a length or a through field, not both"));
    assert_eq!(
        problems(json.replacen("\"Line\": 5", "\"Lines\": 5", 1)),
        vec![(
            "patterns[2].perCall".to_string(),
            "\"Lines\" is not one of the write's entity types".to_string()
        )]
    );
    assert_eq!(
        problems(json.replacen("\"Line\": 5", "\"Line\": 0", 1)),
        vec![(
            "patterns[2].perCall".to_string(),
            "\"Line\": a write call writes 1 to 1000 entities of a type".to_string()
        )]
    );
}

/// 100,000 readings of 10 sensors over 100 days, keyed by sensor then day; and 52,000 sales
/// of 10 stores over 52 weeks, keyed by store then week.
fn series() -> Design {
    Design::from_json(
        r#"{
  "version": 1, "name": "Series", "seed": 11, "tables": ["Readings", "Sales"],
  "entityTypes": [
    { "name": "Reading", "table": "Readings", "partitionKey": "{Sensor}", "rowKey": "{At:date}_{Id:08}", "count": 100000,
      "properties": [
        { "name": "Sensor", "type": "String", "distribution": { "kind": "choice", "values": ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"] } },
        { "name": "At", "type": "DateTime", "distribution": { "kind": "timestamps", "from": "2026-01-01T00:00:00Z", "to": "2026-04-11T00:00:00Z" } },
        { "name": "Id", "type": "Int32", "distribution": { "kind": "sequential", "start": 1 } }
      ] },
    { "name": "Sale", "table": "Sales", "partitionKey": "store{Store:02}", "rowKey": "{Week:03}_{Id:08}", "count": 52000,
      "properties": [
        { "name": "Store", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 10 } },
        { "name": "Week", "type": "Int32", "distribution": { "kind": "uniform", "min": 1, "max": 52 } },
        { "name": "Id", "type": "Int32", "distribution": { "kind": "sequential", "start": 1 } }
      ] }
  ],
  "patterns": [
    { "kind": "read", "name": "A sensor's week", "entityType": "Reading", "rate": 1,
      "conditions": [ { "on": "PartitionKey", "op": "eq" }, { "on": "RowKey", "op": "range", "through": "At", "span": 7 } ] },
    { "kind": "read", "name": "A store's four weeks", "entityType": "Sale", "rate": 1,
      "conditions": [ { "on": "PartitionKey", "op": "eq" }, { "on": "RowKey", "op": "range", "through": "Week", "span": 4 } ] }
  ]
}"#,
    )
    .unwrap()
}

#[test]
fn a_rowkey_range_steps_a_field_by_days_or_values() {
    let d = series();
    let account = generated(&d);
    let measured = design::evaluate(&d, &account, &EvalOptions::default()).unwrap();
    let projected = design::project(&d, &Target::of_design(&d), &Prices::default()).unwrap();
    for (i, per_step) in [(0, 100.0), (1, 100.0)] {
        let (m, p) = (&measured.patterns[i], &projected.patterns[i].figures);
        assert_eq!(m.kind, Kind::PartitionRange, "{m:?}");
        assert_eq!(p.kind, Kind::PartitionRange);
        // A range scans what it returns, in one partition.
        assert_eq!(m.scanned.mean, m.returned.mean);
        assert_eq!(p.scanned.mean, p.returned.mean);
        assert_eq!(m.partitions.mean, 1.0);
        // About `span` steps of 100 (fewer when the range runs past the last day or week),
        // measured within sampling error of the projection.
        let span = if i == 0 { 7.0 } else { 4.0 };
        assert!(p.returned.mean <= span * per_step + 1e-9, "{p:?}");
        assert!(p.returned.mean >= 0.8 * span * per_step, "{p:?}");
        let sd = p.returned_sampling_sd.max(1.0);
        assert!(
            (m.returned.mean - p.returned.mean).abs() <= 4.0 * sd,
            "{i}: measured {} projected {} sd {sd}",
            m.returned.mean,
            p.returned.mean
        );
    }
    let f = &measured.patterns[0].example_filter;
    let (lower, upper) = (bound(f, "ge"), bound(f, "lt"));
    assert_eq!((lower.len(), upper.len()), (11, 11), "{f}");
    assert!(
        lower.ends_with('_') && upper.ends_with('_') && lower < upper,
        "{f}"
    );
    let f = &measured.patterns[1].example_filter;
    let (lower, upper) = (bound(f, "ge"), bound(f, "lt"));
    let week = |s: &str| s.trim_end_matches('_').parse::<u32>().unwrap();
    assert_eq!(week(upper), week(lower) + 4, "{f}");
}

#[test]
fn a_range_needs_a_field_it_can_step() {
    let text = series().to_json();
    assert!(text.contains("\"op\": \"range\""), "{text}");
    let bad = text.replacen("\"through\": \"Week\"", "\"through\": \"Id\"", 1);
    let e = Design::from_json(&bad.replace("{Id:08}", "{Id}")).unwrap_err();
    assert_eq!(e.problems.len(), 1, "{e}");
    assert_eq!(e.problems[0].path, "patterns[1].conditions[1]");
    assert!(
        e.problems[0]
            .issue
            .to_string()
            .ends_with("by 1 to 100000: \"Id\" is not one"),
        "{e}"
    );
    let e = Design::from_json(&text.replacen("\"span\": 4", "\"span\": 0", 1)).unwrap_err();
    assert_eq!(e.problems[0].path, "patterns[1].conditions[1]");
    let e = Design::from_json(&text.replacen("\"span\": 4", "\"length\": 4", 1)).unwrap_err();
    assert!(e
        .to_string()
        .contains("a range condition takes a through field and a span, no length"));
}

/// The quoted RowKey bound of `filter` after `RowKey <op> '`.
fn bound<'a>(filter: &'a str, op: &str) -> &'a str {
    filter
        .split(&format!("RowKey {op} '"))
        .nth(1)
        .and_then(|t| t.split('\'').next())
        .unwrap()
}

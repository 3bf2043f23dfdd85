#![cfg(not(target_arch = "wasm32"))]
//! The scenario runner accepts exactly format 1 and reports each failing field.

use tablescope_engine::scenario::{self, run_text};

#[test]
fn runs_and_resolves_step_references() {
    let text = r#"{"format":1,"name":"n","description":"d","steps":[
      {"op":"createTable","table":"Emp","expect":{"status":201,"code":null}},
      {"op":"insert","table":"Emp","entity":{"PartitionKey":"p","RowKey":"1","Age":3},
       "expect":{"status":201,"entity":{"PartitionKey":"p","RowKey":"1","Age":3}}},
      {"op":"insert","table":"Emp","entity":{"PartitionKey":"p","RowKey":"2"}},
      {"op":"replace","table":"Emp","entity":{"PartitionKey":"p","RowKey":"1","Age":4},"ifMatch":{"step":1},"expect":{"status":204}},
      {"op":"replace","table":"Emp","entity":{"PartitionKey":"p","RowKey":"1"},"ifMatch":{"step":1},"expect":{"status":412,"code":"UpdateConditionNotSatisfied"}},
      {"op":"query","table":"Emp","top":1,"expect":{"count":1,"continuation":{"nextPartitionKey":"p","nextRowKey":"2"}}},
      {"op":"query","table":"Emp","continuation":{"step":5},"expect":{"count":1,"continuation":false,"scanned":1,"kind":"tableScan",
        "entities":[{"PartitionKey":"p","RowKey":"2"}]}},
      {"op":"batch","table":"Emp","operations":[{"op":"delete","partitionKey":"p","rowKey":"2","ifMatch":"*"},{"op":"insert","entity":{"PartitionKey":"q","RowKey":"1"}}],
       "expect":{"status":400,"code":"CommandsInBatchActOnDifferentPartitions","messagePrefix":"1:"}},
      {"op":"listTables","expect":{"tables":["Emp"]}}
    ]}"#;
    let outcome = run_text(text).unwrap();
    assert_eq!(outcome.failures(), Vec::<String>::new());
    assert_eq!(outcome.steps.len(), 9);
}

#[test]
fn reports_the_step_field_expected_and_actual() {
    let text = r#"{"format":1,"steps":[
      {"op":"createTable","table":"Emp"},
      {"op":"insert","table":"Emp","entity":{"PartitionKey":"p","RowKey":"1","Age":3}},
      {"op":"query","table":"Emp","filter":"Age gt 1","expect":{"scanned":2,"count":1,"kind":"point",
        "entities":[{"PartitionKey":"p","RowKey":"1","Age@odata.type":"Edm.Int64","Age":"3"}]}}
    ]}"#;
    let outcome = run_text(text).unwrap();
    assert_eq!(outcome.failures(), vec![
        "step 2: entities: expected {Age: Int64 = 3, PartitionKey: String = p, RowKey: String = 1}, got {Age: Int32 = 3, PartitionKey: String = p, RowKey: String = 1}".to_string(),
        "step 2: scanned: expected 2, got 1".to_string(),
        "step 2: kind: expected Point, got TableScan".to_string(),
    ]);
}

#[test]
fn rejects_unknown_ops_fields_and_formats() {
    let err = |t: &str| scenario::parse(t).unwrap_err();
    assert_eq!(
        err(r#"{"format":2,"steps":[]}"#),
        "\"format\" must be 1, found 2"
    );
    assert_eq!(
        err(r#"{"format":1,"steps":[],"extra":1}"#),
        "unknown field 'extra' (allowed: format, name, description, steps)"
    );
    assert!(err(r#"{"format":1,"steps":[{"op":"explode"}]}"#)
        .starts_with("step 0: unknown op 'explode'"));
    assert!(
        err(r#"{"format":1,"steps":[{"op":"query","table":"T","expect":{"scaned":1}}]}"#)
            .starts_with("step 0: expect: unknown field `scaned`")
    );
    assert!(err(
        r#"{"format":1,"steps":[{"op":"batch","table":"T","operations":[{"op":"query"}]}]}"#
    )
    .starts_with("step 0: operation 0: unknown op 'query'"));
    // An unknown field in a request is found when the step runs, and reported for that step.
    let outcome =
        run_text(r#"{"format":1,"steps":[{"op":"createTable","table":"Emp","colour":"red"}]}"#)
            .unwrap();
    assert!(
        outcome.failures()[0]
            .starts_with("step 0: step: expected a runnable step, got unknown field `colour`"),
        "{:?}",
        outcome.failures()
    );
}

/// A `switchTarget` step moves the account with its data; later steps run on the other
/// service and may expect its index reads and request units.
#[test]
fn switch_target_moves_the_account_and_cosmos_figures_are_expected() {
    let text = r#"{"format":1,"steps":[
      {"op":"createTable","table":"Emp"},
      {"op":"insert","table":"Emp","entity":{"PartitionKey":"p","RowKey":"2","Age":3}},
      {"op":"insert","table":"Emp","entity":{"PartitionKey":"p","RowKey":"1","Age":4}},
      {"op":"switchTarget","target":"cosmosTable","expect":{"status":200}},
      {"op":"query","table":"Emp","filter":"Age eq 4","expect":{"count":1,"scanned":1,"indexEntries":1,"requestUnits":1}},
      {"op":"query","table":"Emp","expect":{"entities":[{"PartitionKey":"p","RowKey":"2","Age":3},{"PartitionKey":"p","RowKey":"1","Age":4}],
        "indexEntries":5,"requestUnits":2.5}},
      {"op":"switchTarget","target":"tableStorage"},
      {"op":"query","table":"Emp","filter":"Age eq 4","expect":{"count":1,"scanned":2,"requestUnits":1}}
    ]}"#;
    let outcome = run_text(text).unwrap();
    let report = outcome.steps[3].switched.as_ref().unwrap();
    assert_eq!((report.tables, report.entities), (1, 2));
    assert_eq!(outcome.steps[6].switched.as_ref().unwrap().entities, 2);
    assert_eq!(
        outcome.failures(),
        [
            "step 5: indexEntries: expected 5, got 0",
            "step 5: requestUnits: expected 2.50, got 2.00",
            "step 7: requestUnits: expected 1.00, got none",
        ]
    );
}

#[test]
fn a_switch_target_step_names_what_is_wrong() {
    for (step, message) in [
        (
            r#"{"op":"switchTarget","target":"cosmos"}"#,
            r#"step 0: step: expected a runnable step, got switchTarget needs "target": "tableStorage" or "cosmosTable""#,
        ),
        (
            r#"{"op":"switchTarget"}"#,
            r#"step 0: step: expected a runnable step, got switchTarget needs "target": "tableStorage" or "cosmosTable""#,
        ),
        (
            r#"{"op":"switchTarget","target":"cosmosTable","table":"T"}"#,
            "step 0: step: expected a runnable step, got unknown field 'table' (switchTarget takes target)",
        ),
    ] {
        let text = format!(r#"{{"format":1,"steps":[{step}]}}"#);
        let outcome = run_text(&text).unwrap();
        assert_eq!(outcome.failures(), [message], "{step}");
        assert!(outcome.steps[0].switched.is_none());
    }
}

//! Each checklist rule fires on a design made to break it, blaming the right element, and
//! stays quiet (pass) on the fixed design.

use tablescope_design::{self as design, Design, Finding, Grade, Prices, Rule, Target};

/// A one-table design from entity types and patterns (JSON fragments).
fn design(types: &str, patterns: &str) -> Design {
    let text = format!(
        r#"{{"version":1,"name":"test","seed":7,"tables":["Things"],"entityTypes":[{types}],"patterns":[{patterns}]}}"#
    );
    Design::from_json(&text).unwrap_or_else(|e| panic!("{e}"))
}

const EMPLOYEE_PROPS: &str = r#""properties":[
  {"name":"DepartmentId","type":"String","distribution":{"kind":"uniform","min":1,"max":10},"prefix":"d"},
  {"name":"LastName","type":"String","distribution":{"kind":"choice","values":["Ada","Bo","Cy","Di"]}},
  {"name":"FirstName","type":"String","distribution":{"kind":"choice","values":["Al","Bea"]}},
  {"name":"EmployeeId","type":"Int32","distribution":{"kind":"sequential","start":1}},
  {"name":"Email","type":"String","distribution":{"kind":"sequential","start":1},"prefix":"e","suffix":"@x.org"}]"#;

fn employee(name: &str, pk: &str, rk: &str, copy_of: Option<&str>) -> String {
    let copy = copy_of.map_or(String::new(), |c| format!(r#""copyOf":"{c}","#));
    format!(
        r#"{{"name":"{name}","table":"Things",{copy}"partitionKey":"{pk}","rowKey":"{rk}","count":1000,{EMPLOYEE_PROPS}}}"#
    )
}

fn events(pk: &str) -> String {
    format!(
        r#"{{"name":"Event","table":"Things","partitionKey":"{pk}","rowKey":"{{EventId:010}}","count":1000,"properties":[
  {{"name":"EventId","type":"Int64","distribution":{{"kind":"sequential","start":1}}}},
  {{"name":"Region","type":"String","distribution":{{"kind":"choice","values":["eu","us"]}}}},
  {{"name":"At","type":"DateTime","distribution":{{"kind":"timestamps","from":"2026-11-01T00:00:00Z","to":"2026-11-21T00:00:00Z"}}}}]}}"#
    )
}

fn finding(d: &Design, rule: Rule) -> Finding {
    let p = design::project(d, &Target::scaled(d, 1_000_000), &Prices::default()).unwrap();
    let findings = design::review(d, &p);
    assert_eq!(findings.len(), 9);
    let f = findings.into_iter().find(|f| f.rule == rule).unwrap();
    assert_eq!(f.lesson, rule.lesson());
    assert_eq!(f.checklist_item, rule.checklist_item().1);
    f
}

const POINT: &str = r#"{"kind":"read","name":"by id","entityType":"Employee","rate":1,"conditions":[{"on":"PartitionKey","op":"eq"},{"on":"RowKey","op":"eq"}]}"#;

#[test]
fn query_scope_fails_when_most_reads_scan_the_table() {
    let ty = employee("Employee", "{DepartmentId}", "emp_{EmployeeId:06}", None);
    let scan = r#"{"kind":"read","name":"by name","entityType":"Employee","rate":10,"conditions":[{"on":"LastName","op":"eq"}]}"#;
    let f = finding(&design(&ty, &format!("{scan},{POINT}")), Rule::QueryScope);
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Fail, Some("patterns[0]"))
    );
    // Weighted by load: the scan reads every entity per call, the point read one.
    assert!(f.measure < 0.001, "{}", f.measure);
    assert!(f.scan_share.unwrap() > 0.999);
    let fixed = r#"{"kind":"read","name":"by name","entityType":"Employee","rate":10,"conditions":[{"on":"PartitionKey","op":"eq"},{"on":"LastName","op":"eq"}]}"#;
    let f = finding(&design(&ty, &format!("{fixed},{POINT}")), Rule::QueryScope);
    assert_eq!((f.grade, f.measure), (Grade::Pass, 1.0));
}

#[test]
fn a_rare_admin_scan_that_dominates_the_load_fails_query_scope() {
    let ty = employee("Employee", "{DepartmentId}", "emp_{EmployeeId:06}", None);
    let point = POINT.replace(r#""rate":1"#, r#""rate":2000"#);
    let admin = r#"{"kind":"read","name":"admin export","entityType":"Employee","rate":0.1,"conditions":[{"on":"LastName","op":"eq"}]}"#;
    let d = design(&ty, &format!("{point},{admin}"));
    let f = finding(&d, Rule::QueryScope);
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Fail, Some("patterns[1]"))
    );
    // 2,000 point reads of one entity against 0.1 scans of the whole table (10⁶ entities).
    let n = 1_000_000.0;
    let scan = 0.1 * n / (0.1 * n + 2000.0);
    assert!(
        (f.scan_share.unwrap() - scan).abs() < 1e-6,
        "{:?}",
        f.scan_share
    );
    assert!(
        f.evidence.contains("\"admin export\" scans the table"),
        "{}",
        f.evidence
    );
    // The same scan at a tenth of the load share passes the scan limit and is weighed.
    let light = admin.replace(r#""rate":0.1"#, r#""rate":0.0001"#);
    let f = finding(&design(&ty, &format!("{point},{light}")), Rule::QueryScope);
    let share = 0.0001 * n / (0.0001 * n + 2000.0);
    assert!(share < tablescope_design::SCAN_LOAD_LIMIT);
    assert_eq!((f.grade, f.scan_share), (Grade::Pass, None));
}

#[test]
fn query_density_fails_on_a_scan_for_one_entity() {
    let ty = employee("Employee", "{DepartmentId}", "emp_{EmployeeId:06}", None);
    let scan = r#"{"kind":"read","name":"by email","entityType":"Employee","rate":1,"conditions":[{"on":"Email","op":"eq"}]}"#;
    let f = finding(&design(&ty, scan), Rule::QueryDensity);
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Fail, Some("patterns[0]"))
    );
    assert_eq!(f.measure, 1_000_000.0);
    let f = finding(&design(&ty, POINT), Rule::QueryDensity);
    assert_eq!((f.grade, f.measure), (Grade::Pass, 1.0));
}

#[test]
fn projection_warns_without_select_and_passes_with_it() {
    let ty = employee("Employee", "{DepartmentId}", "emp_{EmployeeId:06}", None);
    let read = |select: bool| {
        format!(
            r#"{{"kind":"read","name":"names","entityType":"Employee","rate":1,"conditions":[{{"on":"PartitionKey","op":"eq"}}],"needs":["LastName"],"select":{select}}}"#
        )
    };
    let f = finding(&design(&ty, &read(false)), Rule::Projection);
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Warn, Some("patterns[0]"))
    );
    assert!(
        f.limit < f.measure / 2.0,
        "selected {} of {} bytes",
        f.limit,
        f.measure
    );
    assert_eq!(
        finding(&design(&ty, &read(true)), Rule::Projection).grade,
        Grade::Pass
    );
}

#[test]
fn denormalisation_fails_on_a_frequent_fan_out() {
    let read = |fan: bool| {
        format!(
            r#"{{"kind":"read","name":"of a day","entityType":"Event","rate":5,"conditions":[{{"on":"PartitionKey","op":"eq"}}],"fanOut":{fan}}}"#
        )
    };
    let f = finding(
        &design(&events("{hash(EventId) % 16}_{At:date}"), &read(true)),
        Rule::Denormalisation,
    );
    assert_eq!(
        (f.grade, f.measure, f.element.as_deref()),
        (Grade::Fail, 16.0, Some("patterns[0]"))
    );
    let f = finding(
        &design(&events("{At:date}"), &read(false)),
        Rule::Denormalisation,
    );
    assert_eq!(f.grade, Grade::Pass);
}

#[test]
fn batches_fail_across_partitions_warn_unbatched_and_pass_batched() {
    let write = |batch: bool| {
        format!(
            r#"{{"kind":"write","name":"hire","op":"insert","entityTypes":["Employee","ByEmail"],"rate":1,"batch":{batch}}}"#
        )
    };
    let types = |index_pk: &str| {
        format!(
            "{},{}",
            employee("Employee", "{DepartmentId}", "emp_{EmployeeId:06}", None),
            employee("ByEmail", index_pk, "email_{Email}", Some("Employee"))
        )
    };
    let f = finding(
        &design(&types("email_{Email}"), &write(true)),
        Rule::Batches,
    );
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Fail, Some("entityTypes[1].partitionKey"))
    );
    let f = finding(
        &design(&types("{DepartmentId}"), &write(false)),
        Rule::Batches,
    );
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Warn, Some("patterns[0]"))
    );
    let f = finding(
        &design(&types("{DepartmentId}"), &write(true)),
        Rule::Batches,
    );
    assert_eq!((f.grade, f.element), (Grade::Pass, None));
}

#[test]
fn upsert_warns_on_read_then_write() {
    let ty = employee("Employee", "{DepartmentId}", "emp_{EmployeeId:06}", None);
    let f = finding(
        &design(
            &ty,
            r#"{"kind":"write","name":"save","op":"update","entityTypes":["Employee"],"rate":1,"readFirst":true}"#,
        ),
        Rule::Upsert,
    );
    assert_eq!(
        (f.grade, f.measure, f.limit, f.element.as_deref()),
        (Grade::Warn, 2.0, 1.0, Some("patterns[0]"))
    );
    let f = finding(
        &design(
            &ty,
            r#"{"kind":"write","name":"save","op":"upsert","entityTypes":["Employee"],"rate":1}"#,
        ),
        Rule::Upsert,
    );
    assert_eq!(f.grade, Grade::Pass);
}

const RECORD: &str =
    r#"{"kind":"write","name":"record","op":"insert","entityTypes":["Event"],"rate":RATE}"#;

#[test]
fn append_only_flags_a_date_partition_key_and_passes_a_bucketed_one() {
    let write = RECORD.replace("RATE", "10");
    let f = finding(&design(&events("{At:date}"), &write), Rule::AppendOnly);
    assert_eq!(
        (f.grade, f.element.as_deref()),
        (Grade::Warn, Some("entityTypes[0].partitionKey"))
    );
    assert_eq!(f.measure, 10.0);
    assert!(f.evidence.contains("2026-11-21"), "{}", f.evidence);
    let f = finding(
        &design(&events("{At:date}"), &RECORD.replace("RATE", "3000")),
        Rule::AppendOnly,
    );
    assert_eq!(f.grade, Grade::Fail);
    let f = finding(
        &design(&events("{hash(EventId) % 16}_{At:date}"), &write),
        Rule::AppendOnly,
    );
    assert_eq!(f.grade, Grade::Pass);
}

#[test]
fn write_spread_fails_when_one_partition_takes_more_than_its_target() {
    let write = RECORD.replace("RATE", "5000");
    let f = finding(&design(&events("{Region}"), &write), Rule::WriteSpread);
    assert_eq!(
        (f.grade, f.measure, f.element.as_deref()),
        (Grade::Fail, 2500.0, Some("patterns[0]"))
    );
    assert_eq!(
        finding(&design(&events("{Region}"), &write), Rule::AppendOnly).grade,
        Grade::Pass
    );
    let f = finding(
        &design(&events("{hash(EventId) % 32}"), &write),
        Rule::WriteSpread,
    );
    assert_eq!(f.grade, Grade::Pass);
    assert!((f.measure - 5000.0 / 32.0).abs() < 1e-6, "{}", f.measure);
}

#[test]
fn data_series_warns_on_many_one_value_entities_read_together() {
    let series = r#"{"name":"Cpu","table":"Things","partitionKey":"{Host}","rowKey":"{At:ticks}","count":1000,"properties":[
      {"name":"Host","type":"String","distribution":{"kind":"uniform","min":1,"max":5},"prefix":"h"},
      {"name":"At","type":"DateTime","distribution":{"kind":"timestamps","from":"2026-11-01T00:00:00Z","to":"2026-11-21T00:00:00Z"}},
      {"name":"Load","type":"Double","distribution":{"kind":"uniform","min":0,"max":100}}]}"#;
    let read = r#"{"kind":"read","name":"last day","entityType":"Cpu","rate":1,"conditions":[{"on":"PartitionKey","op":"eq"}],"resultSize":24}"#;
    let f = finding(&design(series, read), Rule::DataSeries);
    assert_eq!(
        (f.grade, f.measure, f.element.as_deref()),
        (Grade::Warn, 24.0, Some("patterns[0]"))
    );
    let day = r#"{"name":"CpuDay","table":"Things","partitionKey":"{Host}","rowKey":"{At:date}","count":1000,"properties":[
      {"name":"Host","type":"String","distribution":{"kind":"uniform","min":1,"max":5},"prefix":"h"},
      {"name":"At","type":"DateTime","distribution":{"kind":"timestamps","from":"2026-11-01T00:00:00Z","to":"2026-11-21T00:00:00Z"}},
      {"name":"H00","type":"Double","distribution":{"kind":"uniform","min":0,"max":100}},
      {"name":"H01","type":"Double","distribution":{"kind":"uniform","min":0,"max":100}}]}"#;
    let read = r#"{"kind":"read","name":"last day","entityType":"CpuDay","rate":1,"conditions":[{"on":"PartitionKey","op":"eq"},{"on":"RowKey","op":"eq"}]}"#;
    assert_eq!(
        finding(&design(day, read), Rule::DataSeries).grade,
        Grade::Pass
    );
}

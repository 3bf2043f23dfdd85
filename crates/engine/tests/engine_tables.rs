#![cfg(not(target_arch = "wasm32"))]
//! Tables: name rules, case-insensitive lookup, list with a filter.

mod common;
use common::*;
use tablescope_engine::{Account, ErrorCode, Request};

fn create(a: &mut Account, name: &str) -> (u16, Option<String>) {
    let r = a.execute(&Request::CreateTable { table: name.into() });
    (r.status, code(&r))
}

#[test]
fn name_rules_answer_with_the_services_codes() {
    let mut a = Account::default();
    assert_eq!(create(&mut a, "ab"), (400, Some("OutOfRangeInput".into())));
    assert_eq!(
        create(&mut a, &"a".repeat(64)),
        (400, Some("OutOfRangeInput".into()))
    );
    assert_eq!(
        create(&mut a, "1abc"),
        (400, Some("InvalidResourceName".into()))
    );
    assert_eq!(
        create(&mut a, "ab_c"),
        (400, Some("InvalidResourceName".into()))
    );
    assert_eq!(
        create(&mut a, "tables"),
        (400, Some("InvalidResourceName".into()))
    );
    assert_eq!(create(&mut a, "abc"), (201, None));
    assert_eq!(create(&mut a, &"a".repeat(63)), (201, None));
}

#[test]
fn lookup_is_case_insensitive_and_keeps_display_case() {
    let mut a = Account::default();
    assert_eq!(create(&mut a, "Employees"), (201, None));
    assert_eq!(
        create(&mut a, "EMPLOYEES"),
        (409, Some("TableAlreadyExists".into()))
    );
    let r = insert(&mut a, "employees", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    assert_eq!(r.status, 201);
    let list = a.execute(&Request::ListTables {
        filter: None,
        top: None,
        next_table_name: None,
    });
    assert_eq!(list.tables, Some(vec!["Employees".to_string()]));
}

#[test]
fn missing_tables() {
    let mut a = Account::default();
    let r = a.execute(&Request::DeleteTable {
        table: "Nope".into(),
    });
    assert_eq!((r.status, code(&r)), (404, Some("ResourceNotFound".into())));
    assert_eq!(
        r.error.unwrap().message,
        "The specified resource does not exist."
    );
    let r = insert(&mut a, "Nope", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    assert_eq!((r.status, code(&r)), (404, Some("TableNotFound".into())));
    let r = query(&mut a, "Nope", "");
    assert_eq!((r.status, code(&r)), (404, Some("TableNotFound".into())));
}

#[test]
fn list_tables_in_order_with_filter_and_top() {
    let mut a = Account::default();
    for n in ["Zeta", "alpha", "Beta", "gamma"] {
        create(&mut a, n);
    }
    let all = a.execute(&Request::ListTables {
        filter: None,
        top: None,
        next_table_name: None,
    });
    assert_eq!(all.tables.unwrap(), vec!["alpha", "Beta", "gamma", "Zeta"]);
    let some = a.execute(&Request::ListTables {
        filter: Some("TableName ge 'a' and TableName lt 'h'".into()),
        top: None,
        next_table_name: None,
    });
    assert_eq!(some.tables.unwrap(), vec!["alpha", "gamma"]);
    let top = a.execute(&Request::ListTables {
        filter: None,
        top: Some(2),
        next_table_name: None,
    });
    assert_eq!(top.tables.unwrap(), vec!["alpha", "Beta"]);
    assert_eq!(top.next_table_name.as_deref(), Some("gamma"));
    let rest = a.execute(&Request::ListTables {
        filter: None,
        top: Some(2),
        next_table_name: Some("GAMMA".into()),
    });
    assert_eq!(rest.tables.unwrap(), vec!["gamma", "Zeta"]);
    assert_eq!(rest.next_table_name, None);
    let over = a.execute(&Request::ListTables {
        filter: None,
        top: Some(1001),
        next_table_name: None,
    });
    assert_eq!(over.error.unwrap().code, ErrorCode::InvalidInput);
}

#[test]
fn describe_counts_entities_partitions_and_column_types() {
    let mut a = account_with("Mixed");
    insert(
        &mut a,
        "Mixed",
        r#"{"PartitionKey":"a","RowKey":"1","Age":3}"#,
    );
    insert(
        &mut a,
        "Mixed",
        r#"{"PartitionKey":"a","RowKey":"2","Age":"three"}"#,
    );
    insert(&mut a, "Mixed", r#"{"PartitionKey":"b","RowKey":"1"}"#);
    let info = a.describe_tables();
    assert_eq!(info.len(), 1);
    assert_eq!((info[0].entities, info[0].partitions), (3, 2));
    assert_eq!(info[0].columns[0].name, "Age");
    assert_eq!(format!("{:?}", info[0].columns[0].types), "[String, Int32]");
}

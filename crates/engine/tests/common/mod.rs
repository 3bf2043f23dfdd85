//! Helpers shared by the native engine tests.
#![allow(dead_code)]

use tablescope_engine::{Account, Continuation, RawEntity, Request, Response};

pub fn account_with(table: &str) -> Account {
    let mut a = Account::default();
    let r = a.execute(&Request::CreateTable {
        table: table.into(),
    });
    assert_eq!(r.status, 201, "{r:?}");
    a
}

pub fn raw(json: &str) -> RawEntity {
    RawEntity::parse(json).expect("test entity JSON")
}

pub fn insert(a: &mut Account, table: &str, json: &str) -> Response {
    a.execute(&Request::Insert {
        table: table.into(),
        entity: raw(json),
    })
}

pub fn query(a: &mut Account, table: &str, filter: &str) -> Response {
    query_with(a, table, filter, None, None, None)
}

pub fn query_with(
    a: &mut Account,
    table: &str,
    filter: &str,
    top: Option<u32>,
    continuation: Option<Continuation>,
    page_budget: Option<u64>,
) -> Response {
    a.execute(&Request::Query {
        table: table.into(),
        filter: Some(filter.into()),
        select: None,
        top,
        continuation,
        page_budget,
        trace: false,
    })
}

/// The (PartitionKey, RowKey) of each returned entity.
pub fn keys(r: &Response) -> Vec<(String, String)> {
    r.entities
        .iter()
        .flatten()
        .map(|e| {
            let e = e.to_raw();
            let get = |k: &str| {
                e.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string()
            };
            (get("PartitionKey"), get("RowKey"))
        })
        .collect()
}

pub fn code(r: &Response) -> Option<String> {
    r.error.as_ref().map(|e| e.code.to_string())
}

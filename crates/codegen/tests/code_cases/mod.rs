//! The requests "show as code" is checked on (crates/codegen/tests/code_golden.rs, crates/serve/tests/code_sdk.rs): a
//! query with its options and paging, every entity write with and without an ETag, a batch,
//! table create/delete/list, with keys and values that each SDK must write in its own way
//! (`'`, `%`, Int64 beyond 2^53, seven-digit DateTime, Guid, Binary, integral Double, NaN).
#![allow(dead_code)]

use serde_json::json;
use tablescope_engine::{BatchRequest, RawEntity, Request, Response, Returned};

pub struct Case {
    pub name: &'static str,
    /// Run first, in order; each must succeed.
    pub setup: Vec<Request>,
    pub request: Request,
    /// The request takes the ETag of this entity (partition key, row key) as it is after
    /// the setup; the golden files use [`GOLDEN_ETAG`].
    pub etag_of: Option<(&'static str, &'static str)>,
}

/// The ETag written in golden files where a case takes an entity's current one.
pub const GOLDEN_ETAG: &str = "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"";

/// An ETag no entity has: its condition fails with 412.
pub const STALE_ETAG: &str = "W/\"datetime'2001-01-01T00%3A00%3A00Z'\"";

pub const TABLE: &str = "Showcode";

pub fn request(value: serde_json::Value) -> Request {
    serde_json::from_value(value).expect("a request in scenario JSON")
}

/// Every property type, keys with `'`, `%`, a space, a comma and non-ASCII text.
pub fn typed_entity() -> serde_json::Value {
    json!({
        "PartitionKey": "O'Brien 100%",
        "RowKey": "100% sure, it's é",
        "Name": "Say \"hi\"\nit's 100%",
        "Age": 42,
        "Big@odata.type": "Edm.Int64", "Big": "9007199254740993",
        "Small@odata.type": "Edm.Int64", "Small": "-5",
        "Ratio": 0.25,
        "Whole@odata.type": "Edm.Double", "Whole": 2.0,
        "Nan@odata.type": "Edm.Double", "Nan": "NaN",
        "Active": true,
        "Joined@odata.type": "Edm.DateTime", "Joined": "2024-02-29T23:59:58.1234567Z",
        "Seen@odata.type": "Edm.DateTime", "Seen": "2024-01-02T03:04:05.678Z",
        "Id@odata.type": "Edm.Guid", "Id": "c9da6455-213d-42c9-9a79-3e9149a57833",
        "Blob@odata.type": "Edm.Binary", "Blob": "AAH/Ilw=",
    })
}

fn seed() -> Vec<Request> {
    let mut setup = vec![request(json!({"op": "createTable", "table": TABLE}))];
    for (pk, rk, n) in [
        ("O'Brien 100%", "001", 1),
        ("O'Brien 100%", "002", 2),
        ("O'Brien 100%", "it's 50%", 3),
        ("Sales", "001", 4),
        ("Sales", "002", 5),
        ("Sales", "009", 9),
    ] {
        setup.push(request(json!({
            "op": "insert", "table": TABLE,
            "entity": {"PartitionKey": pk, "RowKey": rk, "N": n, "Name": format!("n{n}"),
                       "Big@odata.type": "Edm.Int64", "Big": format!("{}", 1i64 << 40 | n)},
        })));
    }
    setup
}

pub fn cases() -> Vec<Case> {
    let plain = |name, setup, request| Case {
        name,
        setup,
        request,
        etag_of: None,
    };
    vec![
        plain(
            "create_table",
            vec![],
            request(json!({"op": "createTable", "table": TABLE})),
        ),
        plain(
            "delete_table",
            seed(),
            request(json!({"op": "deleteTable", "table": TABLE})),
        ),
        plain(
            "list_tables",
            {
                let mut s = seed();
                for t in ["Showcodea", "Showcodeb", "Zebra"] {
                    s.push(request(json!({"op": "createTable", "table": t})));
                }
                s
            },
            request(
                json!({"op": "listTables", "filter": "TableName ge 'Showcode' and TableName lt 'T'", "top": 2}),
            ),
        ),
        plain(
            "insert_typed",
            seed(),
            request(json!({"op": "insert", "table": TABLE, "entity": typed_entity()})),
        ),
        plain(
            "upsert_replace",
            seed(),
            request(json!({"op": "upsertReplace", "table": TABLE,
                "entity": {"PartitionKey": "O'Brien 100%", "RowKey": "it's 50%", "Only": "this"}})),
        ),
        plain(
            "upsert_merge",
            seed(),
            request(json!({"op": "upsertMerge", "table": TABLE, "entity": typed_entity()})),
        ),
        Case {
            name: "replace_if_match",
            setup: seed(),
            request: request(
                json!({"op": "replace", "table": TABLE, "ifMatch": GOLDEN_ETAG,
                "entity": {"PartitionKey": "Sales", "RowKey": "001", "N": 40,
                           "When@odata.type": "Edm.DateTime", "When": "2030-12-31T00:00:00Z"}}),
            ),
            etag_of: Some(("Sales", "001")),
        },
        Case {
            name: "merge_if_match",
            setup: seed(),
            request: request(
                json!({"op": "merge", "table": TABLE, "ifMatch": GOLDEN_ETAG,
                "entity": {"PartitionKey": "O'Brien 100%", "RowKey": "it's 50%", "Extra": 1.5}}),
            ),
            etag_of: Some(("O'Brien 100%", "it's 50%")),
        },
        plain(
            "merge_any",
            seed(),
            request(json!({"op": "merge", "table": TABLE, "ifMatch": "*",
                "entity": {"PartitionKey": "Sales", "RowKey": "002", "N": 50}})),
        ),
        plain(
            "replace_stale",
            seed(),
            request(
                json!({"op": "replace", "table": TABLE, "ifMatch": STALE_ETAG,
                "entity": {"PartitionKey": "Sales", "RowKey": "002", "N": 0}}),
            ),
        ),
        Case {
            name: "delete_if_match",
            setup: seed(),
            request: request(
                json!({"op": "delete", "table": TABLE, "ifMatch": GOLDEN_ETAG,
                "partitionKey": "O'Brien 100%", "rowKey": "it's 50%"}),
            ),
            etag_of: Some(("O'Brien 100%", "it's 50%")),
        },
        plain(
            "delete_any",
            seed(),
            request(json!({"op": "delete", "table": TABLE, "ifMatch": "*",
                "partitionKey": "Sales", "rowKey": "001"})),
        ),
        plain(
            "get_select",
            seed(),
            request(
                json!({"op": "get", "table": TABLE, "partitionKey": "O'Brien 100%",
                "rowKey": "it's 50%", "select": ["Name", "Big"]}),
            ),
        ),
        plain(
            "query_filter_select_top",
            seed(),
            request(json!({"op": "query", "table": TABLE,
                "filter": "PartitionKey eq 'O''Brien 100%' and N ge 2 or Big eq 1099511627780L",
                "select": ["Name", "N"], "top": 2})),
        ),
        plain(
            "query_continuation",
            seed(),
            request(json!({"op": "query", "table": TABLE, "top": 2,
                "continuation": {"nextPartitionKey": "O'Brien 100%", "nextRowKey": "it's 50%"}})),
        ),
        plain(
            "query_all",
            seed(),
            request(json!({"op": "query", "table": TABLE})),
        ),
        plain(
            "batch",
            seed(),
            request(json!({"op": "batch", "table": TABLE, "operations": [
                {"op": "insert", "entity": {"PartitionKey": "Sales", "RowKey": "003", "N": 6,
                    "Id@odata.type": "Edm.Guid", "Id": "00000000-0000-0000-0000-000000000001"}},
                {"op": "upsertReplace", "entity": {"PartitionKey": "Sales", "RowKey": "001", "N": 7}},
                {"op": "upsertMerge", "entity": {"PartitionKey": "Sales", "RowKey": "004",
                    "Big@odata.type": "Edm.Int64", "Big": "-9223372036854775808"}},
                {"op": "merge", "ifMatch": "*", "entity": {"PartitionKey": "Sales", "RowKey": "002", "M": true}},
                {"op": "delete", "ifMatch": "*", "partitionKey": "Sales", "rowKey": "009"},
            ]})),
        ),
        Case {
            name: "batch_if_match",
            setup: seed(),
            request: request(json!({"op": "batch", "table": TABLE, "operations": [
                {"op": "replace", "ifMatch": GOLDEN_ETAG,
                    "entity": {"PartitionKey": "Sales", "RowKey": "002", "N": 8}},
                {"op": "insert", "entity": {"PartitionKey": "Sales", "RowKey": "it's 100%", "N": 9}},
            ]})),
            etag_of: Some(("Sales", "002")),
        },
        plain(
            "batch_get",
            seed(),
            request(json!({"op": "batch", "table": TABLE, "operations": [
                {"op": "get", "partitionKey": "Sales", "rowKey": "002"},
            ]})),
        ),
    ]
}

/// The case's request with `etag` as its condition (where it takes one).
pub fn with_etag(request: &Request, etag: &str) -> Request {
    let mut value = serde_json::to_value(request).expect("a request serialises");
    fn visit(v: &mut serde_json::Value, etag: &str) {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(m) = map.get_mut("ifMatch") {
                    if m == GOLDEN_ETAG {
                        *m = serde_json::Value::String(etag.to_string());
                    }
                }
                map.values_mut().for_each(|v| visit(v, etag));
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| visit(v, etag)),
            _ => {}
        }
    }
    visit(&mut value, etag);
    serde_json::from_value(value).expect("the request reads back")
}

/// What the runners print, from the engine's answer.
pub fn expected_output(request: &Request, response: &Response) -> serde_json::Value {
    let error = response
        .error
        .as_ref()
        .map(|e| json!({ "code": serde_json::to_value(e.code).unwrap() }));
    let describe = |returned: &Returned| {
        let raw: RawEntity = returned.to_raw();
        let mut names: Vec<String> = raw
            .0
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| {
                !n.contains("@odata.")
                    && !n.starts_with("odata.")
                    && !["PartitionKey", "RowKey", "Timestamp"].contains(&n.as_str())
            })
            .collect();
        names.sort();
        json!([raw.get("PartitionKey"), raw.get("RowKey"), names])
    };
    let mut entities: Vec<serde_json::Value> = Vec::new();
    let mut lines: Vec<serde_json::Value> = Vec::new();
    if response.error.is_none() {
        match request {
            Request::Query { .. } => {
                entities = response.entities.iter().flatten().map(describe).collect()
            }
            Request::Get { .. } => entities = response.entity.iter().map(describe).collect(),
            Request::Batch { operations, .. }
                if matches!(operations.as_slice(), [BatchRequest::Get { .. }]) =>
            {
                let results = response.results.as_ref().expect("batch results");
                entities = results
                    .iter()
                    .filter_map(|r| r.entity.as_ref())
                    .map(describe)
                    .collect()
            }
            Request::ListTables { .. } => {
                lines = response.tables.iter().flatten().map(|t| json!(t)).collect()
            }
            _ => {}
        }
    }
    json!({ "error": error, "entities": entities, "lines": lines })
}

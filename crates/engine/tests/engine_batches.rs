#![cfg(not(target_arch = "wasm32"))]
//! Entity group transactions: every rule of docs/service/batches.md.

mod common;
use common::*;
use tablescope_engine::{Account, BatchRequest, Request, Response};

fn ins(pk: &str, rk: &str) -> BatchRequest {
    BatchRequest::Insert {
        entity: raw(&format!(
            r#"{{"PartitionKey":"{pk}","RowKey":"{rk}","V":1}}"#
        )),
    }
}

fn batch(a: &mut Account, table: &str, ops: Vec<BatchRequest>) -> Response {
    a.execute(&Request::Batch {
        table: table.into(),
        operations: ops,
    })
}

fn count(a: &mut Account) -> usize {
    query(a, "Bat", "").entities.unwrap().len()
}

fn failure(r: &Response) -> (u16, String, String) {
    let e = r.error.clone().expect("a failure");
    (r.status, e.code.to_string(), e.message)
}

#[test]
fn commits_all_with_one_change_set() {
    let mut a = account_with("Bat");
    a.take_changes();
    let r = batch(
        &mut a,
        "Bat",
        vec![
            ins("p", "1"),
            ins("p", "2"),
            BatchRequest::UpsertMerge {
                entity: raw(r#"{"PartitionKey":"p","RowKey":"3"}"#),
            },
        ],
    );
    assert_eq!(r.status, 202);
    let statuses: Vec<u16> = r.results.unwrap().iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![201, 201, 204]);
    assert_eq!(count(&mut a), 3);
    assert_eq!(a.take_changes().len(), 1);
}

#[test]
fn each_failure_row_of_the_spec() {
    let mut a = account_with("Bat");
    insert(&mut a, "Bat", r#"{"PartitionKey":"p","RowKey":"exists"}"#);
    let r = batch(&mut a, "Nope", vec![ins("p", "1")]);
    assert_eq!(
        failure(&r),
        (
            404,
            "TableNotFound".into(),
            "0:The table specified does not exist.".into()
        )
    );
    let r = batch(
        &mut a,
        "Bat",
        vec![ins("p", "1"), ins("p", "2"), ins("q", "3")],
    );
    assert_eq!(
        failure(&r),
        (
            400,
            "CommandsInBatchActOnDifferentPartitions".into(),
            "2:All commands in a batch must operate on same entity group.".into()
        )
    );
    let r = batch(&mut a, "Bat", vec![ins("p", "1"), ins("p", "1")]);
    assert_eq!(failure(&r), (400, "InvalidDuplicateRow".into(), "1:The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.".into()));
    let r = batch(
        &mut a,
        "Bat",
        (0..101).map(|i| ins("p", &i.to_string())).collect(),
    );
    assert_eq!(
        failure(&r),
        (
            400,
            "InvalidInput".into(),
            "99:The batch request operation exceeds the maximum 100 changes per change set.".into()
        )
    );
    let r = batch(
        &mut a,
        "Bat",
        vec![ins("p", "1"), ins("p", "2"), ins("p", "exists")],
    );
    assert_eq!(
        failure(&r),
        (
            409,
            "EntityAlreadyExists".into(),
            "2:The specified entity already exists.".into()
        )
    );
    let r = batch(
        &mut a,
        "Bat",
        vec![
            ins("p", "1"),
            BatchRequest::Delete {
                partition_key: "p".into(),
                row_key: "gone".into(),
                if_match: Some("*".into()),
            },
        ],
    );
    assert_eq!(
        failure(&r),
        (
            404,
            "ResourceNotFound".into(),
            "1:The specified resource does not exist.".into()
        )
    );
    // Nothing of any failed batch was applied.
    assert_eq!(count(&mut a), 1);
    let r = batch(
        &mut a,
        "Bat",
        (0..100).map(|i| ins("p", &i.to_string())).collect(),
    );
    assert_eq!(r.status, 202);
    assert_eq!(count(&mut a), 101);
}

#[test]
fn a_point_read_must_be_alone() {
    let mut a = account_with("Bat");
    insert(&mut a, "Bat", r#"{"PartitionKey":"p","RowKey":"r","V":7}"#);
    let r = batch(
        &mut a,
        "Bat",
        vec![BatchRequest::Get {
            partition_key: "p".into(),
            row_key: "r".into(),
        }],
    );
    assert_eq!(r.status, 202);
    assert_eq!(r.results.unwrap()[0].status, 200);
    let r = batch(
        &mut a,
        "Bat",
        vec![
            ins("p", "1"),
            BatchRequest::Get {
                partition_key: "p".into(),
                row_key: "r".into(),
            },
        ],
    );
    assert_eq!((r.status, code(&r)), (400, Some("InvalidInput".into())));
    assert!(r.error.unwrap().message.starts_with("1:"));
}

#[test]
fn a_batch_operation_sent_alone_is_the_same_request() {
    use tablescope_engine::RawEntity;
    let entity = RawEntity::parse(r#"{"PartitionKey":"p","RowKey":"r","N":1}"#).unwrap();
    let etag = Some("*".to_string());
    let t = || "T".to_string();
    let cases = [
        (
            BatchRequest::Insert {
                entity: entity.clone(),
            },
            Request::Insert {
                table: t(),
                entity: entity.clone(),
            },
        ),
        (
            BatchRequest::Merge {
                entity: entity.clone(),
                if_match: etag.clone(),
            },
            Request::Merge {
                table: t(),
                entity: entity.clone(),
                if_match: etag.clone(),
            },
        ),
        (
            BatchRequest::Delete {
                partition_key: "p".into(),
                row_key: "r".into(),
                if_match: etag.clone(),
            },
            Request::Delete {
                table: t(),
                partition_key: "p".into(),
                row_key: "r".into(),
                if_match: etag.clone(),
            },
        ),
        (
            BatchRequest::Get {
                partition_key: "p".into(),
                row_key: "r".into(),
            },
            Request::Get {
                table: t(),
                partition_key: "p".into(),
                row_key: "r".into(),
                select: None,
            },
        ),
    ];
    for (op, request) in cases {
        assert_eq!(op.into_request(t()), request);
    }
}

/// Production gives a batch's inserts one ETag and its other writes a second, later one.
#[test]
fn a_batch_commits_at_one_instant() {
    let mut a = account_with("Bat");
    batch(&mut a, "Bat", vec![ins("p", "0")]);
    let r = batch(
        &mut a,
        "Bat",
        vec![
            ins("p", "1"),
            BatchRequest::UpsertMerge {
                entity: raw(r#"{"PartitionKey":"p","RowKey":"0","W":2}"#),
            },
            ins("p", "2"),
            BatchRequest::Delete {
                partition_key: "p".into(),
                row_key: "x".into(),
                if_match: Some("*".into()),
            },
        ],
    );
    // The delete of a missing entity fails the whole batch: nothing is stamped.
    assert_eq!(r.status, 404);
    let r = batch(
        &mut a,
        "Bat",
        vec![
            ins("p", "1"),
            BatchRequest::UpsertMerge {
                entity: raw(r#"{"PartitionKey":"p","RowKey":"0","W":2}"#),
            },
            ins("p", "2"),
        ],
    );
    let etags: Vec<String> = r
        .results
        .unwrap()
        .into_iter()
        .map(|r| r.etag.map(String::from).unwrap())
        .collect();
    assert_eq!(etags[0], etags[2]);
    assert_eq!(etags[0], "W/\"datetime'2026-01-01T00%3A00%3A00.0000001Z'\"");
    assert_eq!(etags[1], "W/\"datetime'2026-01-01T00%3A00%3A00.0000002Z'\"");
}

/// Operations are read in order: the first operation that is wrong names the failure, be it
/// its entity, its partition or a repeat of an earlier operation's entity.
#[test]
fn the_first_wrong_operation_names_the_failure() {
    let mut a = account_with("Bat");
    let bad = || BatchRequest::Insert {
        entity: raw(r#"{"PartitionKey":"p","RowKey":"bad","V":{"nested":1}}"#),
    };
    let code_at = |r: &Response| {
        let (_, code, message) = failure(r);
        (code, message.split(':').next().unwrap_or("").to_string())
    };
    let r = batch(&mut a, "Bat", vec![ins("p", "1"), ins("p", "1"), bad()]);
    assert_eq!(code_at(&r), ("InvalidDuplicateRow".into(), "1".into()));
    let r = batch(&mut a, "Bat", vec![ins("p", "1"), bad(), ins("p", "1")]);
    assert_eq!(code_at(&r), ("InvalidInput".into(), "1".into()));
    let r = batch(
        &mut a,
        "Bat",
        vec![ins("p", "1"), ins("q", "2"), ins("p", "1")],
    );
    assert_eq!(
        code_at(&r),
        ("CommandsInBatchActOnDifferentPartitions".into(), "1".into())
    );
    let r = batch(
        &mut a,
        "Bat",
        vec![ins("p", "1"), ins("p", "2"), bad(), ins("q", "3")],
    );
    assert_eq!(code_at(&r), ("InvalidInput".into(), "2".into()));
    assert_eq!(count(&mut a), 0, "nothing of a refused batch is applied");
}

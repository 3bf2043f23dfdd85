#![cfg(not(target_arch = "wasm32"))]
//! Imports are as strict as the service, and a refused one leaves no trace: neither the tables
//! nor the clock (the next write's ETag) change. The clock never issues one Timestamp twice.

mod common;
use common::*;
use tablescope_engine::{
    Account, BatchRequest, DateTime, ErrorCode, FixedClock, Request, Response,
};

const MAX: &str = "9999-12-31T23:59:59.9999999Z";

/// An account with one entity written; every call builds the same one, with the same clock.
fn fresh() -> Account {
    let mut a = account_with("Good");
    let r = insert(&mut a, "Good", r#"{"PartitionKey":"a","RowKey":"r","N":1}"#);
    assert_eq!(r.status, 201, "{r:?}");
    a
}

fn export(a: &Account) -> String {
    serde_json::to_string(&a.export()).unwrap()
}

fn replace(a: &mut Account, if_match: &str) -> Response {
    a.execute(&Request::Replace {
        table: "Good".into(),
        entity: raw(r#"{"PartitionKey":"a","RowKey":"r","N":2}"#),
        if_match: Some(if_match.into()),
    })
}

/// The ETag the next write gets (it writes a new entity).
fn next_etag(a: &mut Account) -> String {
    let r = insert(a, "Good", r#"{"PartitionKey":"a","RowKey":"next"}"#);
    assert_eq!(r.status, 201, "{r:?}");
    r.etag.map(String::from).unwrap()
}

fn workspace(entities: &str) -> String {
    format!(
        r#"{{"format":"tablescope-account","version":1,"tables":[{{"name":"Good","entities":[{entities}]}}]}}"#
    )
}

/// Runs `import` on a fresh account and checks it is refused with `code` and `detail`, and that
/// the account and its clock are exactly those of an account that never saw the import.
fn assert_refused(
    import: impl Fn(&mut Account) -> tablescope_engine::Result<()>,
    code: ErrorCode,
    detail: &str,
) {
    let mut control = fresh();
    let mut a = fresh();
    let e = import(&mut a).unwrap_err();
    assert_eq!(e.code, code, "{e:?}");
    assert_eq!(
        e.detail.as_ref().map(ToString::to_string).as_deref(),
        Some(detail)
    );
    assert_eq!(export(&a), export(&control));
    assert_eq!(next_etag(&mut a), next_etag(&mut control));
}

#[test]
fn a_refused_max_timestamp_import_does_not_move_the_clock() {
    let text = workspace(&format!(
        r#"{{"PartitionKey":"a","RowKey":"r","Timestamp":"{MAX}"}}"#
    ));
    assert_refused(
        |a| a.import_json(&text),
        ErrorCode::OutOfRangeInput,
        &format!(
            "table 'Good', entity 0 (PartitionKey 'a', RowKey 'r'): Timestamp {MAX} leaves no \
             later Timestamp for the next write"
        ),
    );
    // Optimistic concurrency still holds after a refused import that held the maximum
    // Timestamp (refused here by a later entity, so that it is refused whatever the check on
    // the maximum decides): a replayed ETag fails with 412.
    let text = workspace(&format!(
        r#"{{"PartitionKey":"a","RowKey":"r","Timestamp":"{MAX}"}},{{"PartitionKey":"a/b","RowKey":"r"}}"#
    ));
    let mut a = fresh();
    let first = a.get("Good", "a", "r").unwrap().etag().unwrap();
    assert!(a.import_json(&text).is_err());
    let second = replace(&mut a, &first);
    assert_eq!(second.status, 204, "{second:?}");
    let second = second.etag.map(String::from).unwrap();
    let third = replace(&mut a, &second);
    assert_eq!(third.status, 204, "{third:?}");
    assert_ne!(
        third.etag.map(String::from).as_deref(),
        Some(second.as_str())
    );
    let replayed = replace(&mut a, &second);
    assert_eq!(replayed.status, 412, "{replayed:?}");
    assert_eq!(
        replayed.error.map(|e| e.code),
        Some(ErrorCode::UpdateConditionNotSatisfied)
    );
}

#[test]
fn a_timestamp_just_below_the_end_is_imported_and_the_clock_follows_it() {
    let below = "9999-12-31T23:59:59.9999998Z";
    let mut a = fresh();
    a.import_json(&workspace(&format!(
        r#"{{"PartitionKey":"a","RowKey":"r","Timestamp":"{below}"}}"#
    )))
    .unwrap();
    assert_eq!(
        next_etag(&mut a),
        "W/\"datetime'9999-12-31T23%3A59%3A59.9999999Z'\""
    );
    // The clock has reached its end: the next write is refused, not given a used ETag.
    let r = insert(&mut a, "Good", r#"{"PartitionKey":"a","RowKey":"late"}"#);
    assert_eq!(r.status, 500, "{r:?}");
    assert_eq!(r.error.map(|e| e.code), Some(ErrorCode::InternalError));
    assert!(a.get("Good", "a", "late").is_err());
}

#[test]
fn strict_json_imports_refuse_what_a_batch_refuses() {
    let at = "table 'Good', entity 0 (PartitionKey 'a', RowKey 'r')";
    let cases = [
        (
            workspace(r#"{"PartitionKey":"a","RowKey":"r","A":1,"A":2}"#),
            ErrorCode::DuplicatePropertiesSpecified,
            format!("{at}: A"),
        ),
        (
            workspace(r#"{"PartitionKey":"a","PartitionKey":"b","RowKey":"r"}"#),
            ErrorCode::DuplicatePropertiesSpecified,
            format!("{at}: PartitionKey"),
        ),
        (
            workspace(r#"{"PartitionKey":"a","RowKey":"r","Timestamp":"yesterday"}"#),
            ErrorCode::InvalidInput,
            format!(
                "{at}: Timestamp: 'yesterday' is not an ISO 8601 DateTime between 1601-01-01 \
                 and 9999-12-31"
            ),
        ),
        (
            workspace(r#"{"PartitionKey":"a","RowKey":"r","Timestamp":5}"#),
            ErrorCode::InvalidInput,
            format!("{at}: Timestamp must be ISO 8601 text"),
        ),
        (
            r#"{"format":"tablescope-account","version":1,"tables":[],"tables":[{"name":"Other","entities":[]}]}"#.into(),
            ErrorCode::InvalidInput,
            "malformed export: duplicate field `tables` at line 1 column 63".into(),
        ),
        (
            r#"{"format":"tablescope-account","format":"tablescope-account","version":1,"tables":[]}"#.into(),
            ErrorCode::InvalidInput,
            "malformed export: duplicate field `format` at line 1 column 39".into(),
        ),
    ];
    for (text, code, detail) in cases {
        assert_refused(|a| a.import_json(&text), code, &detail);
        assert_refused(|a| a.import_json_bytes(text.as_bytes()), code, &detail);
    }
}

#[test]
fn bytes_that_are_not_utf8_are_refused() {
    let mut bytes = workspace(r#"{"PartitionKey":"a","RowKey":"r","S":"x"}"#).into_bytes();
    let at = bytes.iter().position(|&b| b == b'x').unwrap();
    bytes[at] = 0xff;
    assert_refused(
        |a| a.import_json_bytes(&bytes),
        ErrorCode::InvalidInput,
        &format!("not UTF-8: the byte at offset {at} does not start a valid character"),
    );
    // The same file in UTF-8 is accepted.
    bytes[at] = b'x';
    let mut a = fresh();
    a.import_json_bytes(&bytes).unwrap();
    assert_eq!(
        a.get("Good", "a", "r")
            .unwrap()
            .get("S")
            .map(|v| v.display_text()),
        Some("x".into())
    );
}

#[test]
fn a_refused_csv_import_does_not_move_the_clock() {
    let csv = format!("PartitionKey,RowKey,Timestamp\r\nb,1,{MAX}\r\n");
    let mut control = fresh();
    let mut a = fresh();
    let e = a.import_csv("Other", &csv).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "OutOfRangeInput: PartitionKey 'b' RowKey '1': Timestamp {MAX} leaves no later \
             Timestamp for the next write"
        )
    );
    assert_eq!(export(&a), export(&control));
    assert_eq!(next_etag(&mut a), next_etag(&mut control));
}

#[test]
fn the_clock_refuses_writes_at_the_end_of_its_range_and_batches_take_both_stamps_or_none() {
    let one_before = DateTime::from_ticks(DateTime::MAX.ticks() - 1).unwrap();
    let mut a = Account::new(Box::new(FixedClock(one_before)));
    let r = a.execute(&Request::CreateTable {
        table: "Good".into(),
    });
    assert_eq!(r.status, 201);
    // Insert and replace in one batch need two Timestamps; only one is left (the maximum).
    let r = insert(&mut a, "Good", r#"{"PartitionKey":"a","RowKey":"r"}"#);
    assert_eq!(
        r.etag.map(String::from).as_deref(),
        Some("W/\"datetime'9999-12-31T23%3A59%3A59.9999998Z'\"")
    );
    let before = export(&a);
    let batch = a.execute(&Request::Batch {
        table: "Good".into(),
        operations: vec![
            BatchRequest::Insert {
                entity: raw(r#"{"PartitionKey":"a","RowKey":"s"}"#),
            },
            BatchRequest::Replace {
                entity: raw(r#"{"PartitionKey":"a","RowKey":"r","N":1}"#),
                if_match: None,
            },
        ],
    });
    assert_eq!(batch.status, 500, "{batch:?}");
    assert_eq!(batch.error.map(|e| e.code), Some(ErrorCode::InternalError));
    assert_eq!(export(&a), before);
    // The refused batch took no Timestamp: the last one is still there for one write.
    let r = insert(&mut a, "Good", r#"{"PartitionKey":"a","RowKey":"s"}"#);
    assert_eq!(
        r.etag.map(String::from).as_deref(),
        Some("W/\"datetime'9999-12-31T23%3A59%3A59.9999999Z'\"")
    );
    let before = export(&a);
    let r = insert(&mut a, "Good", r#"{"PartitionKey":"a","RowKey":"t"}"#);
    assert_eq!(r.status, 500, "{r:?}");
    let e = r.error.unwrap();
    assert_eq!(e.code, ErrorCode::InternalError);
    assert_eq!(
        e.detail.as_ref().map(ToString::to_string).as_deref(),
        Some(
            "the account's clock has reached 9999-12-31T23:59:59.9999999Z: no later Timestamp \
             (and so no new ETag) can be issued"
        )
    );
    assert_eq!(export(&a), before);
}

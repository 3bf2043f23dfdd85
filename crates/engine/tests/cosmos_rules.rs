#![cfg(not(target_arch = "wasm32"))]
//! Every rule of `tablescope_engine::target::rules` on both targets: the same input, and the
//! answer each target gives, exactly.

mod common;
use common::*;
use tablescope_engine::query::Summary;
use tablescope_engine::target::{rules, IndexRead, IndexUse, RuEstimate};
use tablescope_engine::{
    Account, BatchRequest, DateTime, ErrorCode, FixedClock, Request, Response, Rule, Target,
    Unsupported,
};

fn on(target: Target) -> Account {
    let mut a = Account::for_target(target, Box::new(FixedClock::default()));
    assert_eq!(a.execute(&create("Tbl")).status, 201);
    a
}

fn create(table: &str) -> Request {
    Request::CreateTable {
        table: table.into(),
    }
}

fn both() -> [Account; 2] {
    [on(Target::TableStorage), on(Target::CosmosTable)]
}

fn row_keys(r: &Response) -> Vec<String> {
    keys(r).into_iter().map(|(_, rk)| rk).collect()
}

fn batch(a: &mut Account, operations: Vec<BatchRequest>) -> Response {
    a.execute(&Request::Batch {
        table: "Tbl".into(),
        operations,
    })
}

fn insert_op(json: &str) -> BatchRequest {
    BatchRequest::Insert { entity: raw(json) }
}

#[test]
fn insertion_order() {
    let [mut s, mut c] = both();
    for a in [&mut s, &mut c] {
        for i in 1..=10 {
            insert(
                a,
                "Tbl",
                &format!(r#"{{"PartitionKey":"p","RowKey":"{i}"}}"#),
            );
        }
    }
    let filter = "PartitionKey eq 'p'";
    assert_eq!(
        row_keys(&query(&mut s, "Tbl", filter)),
        ["1", "10", "2", "3", "4", "5", "6", "7", "8", "9"]
    );
    assert_eq!(
        row_keys(&query(&mut c, "Tbl", filter)),
        ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    );
    // A whole-table query too, across partitions.
    insert(&mut s, "Tbl", r#"{"PartitionKey":"a","RowKey":"z"}"#);
    insert(&mut c, "Tbl", r#"{"PartitionKey":"a","RowKey":"z"}"#);
    assert_eq!(row_keys(&query(&mut s, "Tbl", "RowKey ge '1'"))[0], "z");
    assert_eq!(row_keys(&query(&mut c, "Tbl", "RowKey ge '1'"))[10], "z");
}

/// FNV-1a of the name: the documented model of the Cosmos listing order.
fn fnv(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn table_listing_order() {
    let names = ["Zeta", "alpha", "Mid", "beta", "Omega"];
    let list = |a: &mut Account| {
        a.execute(&Request::ListTables {
            filter: None,
            top: None,
            next_table_name: None,
        })
        .tables
        .unwrap()
    };
    let mut s = Account::default();
    let mut c = Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()));
    for n in names {
        s.execute(&create(n));
        c.execute(&create(n));
    }
    assert_eq!(list(&mut s), ["alpha", "beta", "Mid", "Omega", "Zeta"]);
    let mut by_hash = names.to_vec();
    by_hash.sort_by_key(|n| fnv(n));
    assert_eq!(list(&mut c), by_hash);
    assert_ne!(by_hash, ["alpha", "beta", "Mid", "Omega", "Zeta"]);
    assert_ne!(by_hash, names);
    // Paging follows each target's order: two tables, then the rest from the named one.
    let page = c.execute(&Request::ListTables {
        filter: None,
        top: Some(2),
        next_table_name: None,
    });
    assert_eq!(page.tables.unwrap(), by_hash[..2]);
    let next = page.next_table_name.unwrap();
    assert_eq!(next, by_hash[2]);
    let rest = c.execute(&Request::ListTables {
        filter: None,
        top: None,
        next_table_name: Some(next),
    });
    assert_eq!(rest.tables.unwrap(), by_hash[2..]);
}

#[test]
fn automatic_index() {
    let [mut s, mut c] = both();
    for a in [&mut s, &mut c] {
        for i in 0..100 {
            insert(
                a,
                "Tbl",
                &format!(
                    r#"{{"PartitionKey":"p{}","RowKey":"{i:03}","Bucket":{}}}"#,
                    i % 7,
                    i % 10
                ),
            );
        }
    }
    let filter = "Bucket eq 7";
    let rs = query(&mut s, "Tbl", filter);
    let rc = query(&mut c, "Tbl", filter);
    let (ss, sc) = (rs.stats.unwrap(), rc.stats.unwrap());
    assert_eq!((ss.scanned, ss.returned), (100, 10));
    assert_eq!((sc.scanned, sc.returned), (10, 10));
    assert_eq!(rs.index, None);
    assert_eq!(
        rc.index,
        Some(IndexRead {
            entries: 10,
            properties: vec!["Bucket".into()]
        })
    );
    let (es, ec) = (rs.explain.unwrap(), rc.explain.unwrap());
    assert_eq!(es.summary, Summary::TableScan);
    assert_eq!(es.index_use, None);
    assert_eq!(ec.summary, Summary::TableScan);
    assert_eq!(
        ec.index_use,
        Some(IndexUse::Lookup {
            properties: vec!["Bucket".into()]
        })
    );
    // A range, and two properties joined by `and`: still no entity read in vain.
    let rc = query(&mut c, "Tbl", "Bucket ge 8 and PartitionKey eq 'p1'");
    let sc = rc.stats.unwrap();
    // i = 8, 29, 78 and 99 (i % 7 == 1, i % 10 >= 8).
    assert_eq!((sc.scanned, sc.returned), (4, 4));
    // `ne` is not looked up: every entity is read.
    let rc = query(&mut c, "Tbl", "Bucket ne 7");
    assert_eq!(rc.stats.unwrap().scanned, 100);
    assert_eq!(rc.explain.unwrap().index_use, Some(IndexUse::KeyBoundsOnly));
}

#[test]
fn timestamp_per_batch_operation() {
    let [mut s, mut c] = both();
    let ops = || {
        (1..=3)
            .map(|i| insert_op(&format!(r#"{{"PartitionKey":"p","RowKey":"{i}"}}"#)))
            .collect::<Vec<_>>()
    };
    let etags = |r: &Response| -> Vec<DateTime> {
        r.results
            .as_ref()
            .unwrap()
            .iter()
            .map(|p| p.etag.unwrap().timestamp())
            .collect()
    };
    let es = etags(&batch(&mut s, ops()));
    let ec = etags(&batch(&mut c, ops()));
    assert_eq!(es[0], es[1]);
    assert_eq!(es[1], es[2]);
    assert!(ec[0] < ec[1] && ec[1] < ec[2], "{ec:?}");
}

#[test]
fn seven_fraction_digits() {
    let t = DateTime::parse("2021-06-07T08:09:16.1941Z").unwrap();
    assert_eq!(
        Target::TableStorage.etag_text(t),
        "W/\"datetime'2021-06-07T08%3A09%3A16.1941Z'\""
    );
    assert_eq!(
        Target::CosmosTable.etag_text(t),
        "W/\"datetime'2021-06-07T08%3A09%3A16.1941000Z'\""
    );
    assert_eq!(
        Target::TableStorage.timestamp_text(t),
        "2021-06-07T08:09:16.1941Z"
    );
    assert_eq!(
        Target::CosmosTable.timestamp_text(t),
        "2021-06-07T08:09:16.1941000Z"
    );
}

#[test]
fn create_table_etag() {
    let mut s = Account::default();
    let mut c = Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()));
    let rs = s.execute(&create("Orders"));
    let rc = c.execute(&create("Orders"));
    assert_eq!((rs.status, rc.status), (201, 201));
    assert_eq!(rs.etag, None);
    assert_eq!(
        rc.etag.unwrap().timestamp().to_string(),
        "2026-01-01T00:00:00Z"
    );
    // A refused create spends no Timestamp: the next write gets the next tick.
    assert_eq!(c.execute(&create("Orders")).status, 409);
    let r = insert(&mut c, "Orders", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    assert_eq!(r.etag.unwrap().timestamp().ticks(), 134_116_992_000_000_001);
}

#[test]
fn duplicate_row_refused_at_top() {
    let [mut s, mut c] = both();
    let ops = || {
        vec![
            insert_op(r#"{"PartitionKey":"p","RowKey":"1"}"#),
            insert_op(r#"{"PartitionKey":"p","RowKey":"1"}"#),
        ]
    };
    let (rs, rc) = (batch(&mut s, ops()), batch(&mut c, ops()));
    for r in [&rs, &rc] {
        assert_eq!(r.status, 400);
        let e = r.error.as_ref().unwrap();
        assert_eq!(e.code, ErrorCode::InvalidDuplicateRow);
        assert_eq!(e.message, "1:The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.");
    }
    assert_eq!(rs.error.unwrap().rule, None);
    assert_eq!(rc.error.unwrap().rule, Some(Rule::DuplicateRowRefusedAtTop));
    // Nothing was applied on either.
    assert_eq!(
        query(&mut s, "Tbl", "RowKey eq '1'")
            .stats
            .unwrap()
            .returned,
        0
    );
    assert_eq!(
        query(&mut c, "Tbl", "RowKey eq '1'")
            .stats
            .unwrap()
            .returned,
        0
    );
}

#[test]
fn continuation_token() {
    let [mut s, mut c] = both();
    for a in [&mut s, &mut c] {
        for rk in ["1", "2", "3"] {
            insert(
                a,
                "Tbl",
                &format!(r#"{{"PartitionKey":"p","RowKey":"{rk}"}}"#),
            );
        }
    }
    let f = "PartitionKey eq 'p'";
    let ps = query_with(&mut s, "Tbl", f, Some(1), None, None);
    let pc = query_with(&mut c, "Tbl", f, Some(1), None, None);
    assert_eq!(
        (row_keys(&ps), row_keys(&pc)),
        (vec!["1".to_string()], vec!["1".to_string()])
    );
    let (ts, tc) = (ps.continuation.unwrap(), pc.continuation.unwrap());
    assert_eq!(
        (ts.next_partition_key.as_str(), ts.next_row_key.as_str()),
        ("p", "2")
    );
    assert_eq!(tc.next_row_key, "NA");
    let doc: serde_json::Value = serde_json::from_str(&tc.next_partition_key).unwrap();
    assert_eq!(doc["range"], serde_json::json!({"min": "", "max": "FF"}));
    assert!(doc["token"].is_string());
    let keys_of = |a: &mut Account, t| row_keys(&query_with(a, "Tbl", f, None, Some(t), None));
    assert_eq!(keys_of(&mut s, ts), ["2", "3"]);
    assert_eq!(keys_of(&mut c, tc.clone()), ["2", "3"]);
    // A storage token on Cosmos is not a Cosmos token: 400.
    let storage_form = tablescope_engine::Continuation {
        next_partition_key: "p".into(),
        next_row_key: "2".into(),
    };
    let r = query_with(&mut c, "Tbl", f, None, Some(storage_form), None);
    assert_eq!(r.status, 400);
    assert_eq!(r.error.unwrap().code, ErrorCode::InvalidInput);
}

#[test]
fn row_key_limit() {
    let [mut s, mut c] = both();
    let at = |n: usize| format!(r#"{{"PartitionKey":"p","RowKey":"{}"}}"#, "k".repeat(n));
    assert_eq!(insert(&mut s, "Tbl", &at(255)).status, 201);
    assert_eq!(insert(&mut c, "Tbl", &at(255)).status, 201);
    assert_eq!(insert(&mut s, "Tbl", &at(256)).status, 201);
    let r = insert(&mut c, "Tbl", &at(256));
    assert_eq!(r.status, 400);
    let e = r.error.unwrap();
    assert_eq!(
        (e.code, e.rule),
        (ErrorCode::KeyValueTooLarge, Some(Rule::RowKeyLimit))
    );
    // Bytes, not characters: 128 two-byte characters are 256 bytes.
    let wide = format!(r#"{{"PartitionKey":"p","RowKey":"{}"}}"#, "é".repeat(128));
    assert_eq!(insert(&mut s, "Tbl", &wide).status, 201);
    assert_eq!(insert(&mut c, "Tbl", &wide).status, 400);
}

#[test]
fn batch_size_limit() {
    let [mut s, mut c] = both();
    // 100 entities of 30,000 characters each: about 2.9 MiB, over 2 MiB and under 4 MiB.
    let ops = || {
        (0..100)
            .map(|i| {
                insert_op(&format!(
                    r#"{{"PartitionKey":"p","RowKey":"{i}","Text":"{}"}}"#,
                    "x".repeat(30_000)
                ))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(batch(&mut s, ops()).status, 202);
    let r = batch(&mut c, ops());
    assert_eq!(r.status, 413);
    let e = r.error.unwrap();
    assert_eq!(
        (e.code, e.rule),
        (ErrorCode::RequestBodyTooLarge, Some(Rule::BatchSizeLimit))
    );
    assert_eq!(rules::MAX_BATCH_BYTES, 2 * 1024 * 1024);
}

#[test]
fn top_uncapped() {
    let [mut s, mut c] = both();
    for a in [&mut s, &mut c] {
        let ops: Vec<BatchRequest> = (0..100)
            .map(|i| insert_op(&format!(r#"{{"PartitionKey":"p","RowKey":"{i:04}"}}"#)))
            .collect();
        assert_eq!(batch(a, ops).status, 202);
        for i in 100..1001 {
            insert(
                a,
                "Tbl",
                &format!(r#"{{"PartitionKey":"p","RowKey":"{i:04}"}}"#),
            );
        }
    }
    let rs = query_with(&mut s, "Tbl", "PartitionKey eq 'p'", Some(1001), None, None);
    assert_eq!(rs.status, 400);
    assert_eq!(rs.error.unwrap().code, ErrorCode::InvalidInput);
    let rc = query_with(&mut c, "Tbl", "PartitionKey eq 'p'", Some(1001), None, None);
    assert_eq!(rc.status, 200);
    assert_eq!(rc.stats.unwrap().returned, 1001);
    assert!(rc.continuation.is_none());
    assert_eq!(
        (
            Target::TableStorage.max_top(),
            Target::CosmosTable.max_top()
        ),
        (Some(1000), None)
    );
}

#[test]
fn binary_room() {
    let [mut s, mut c] = both();
    // 15 binary properties of 64 KiB: 960 KiB of bytes, under storage's 1 MiB; as base64
    // 1.25 MiB.
    let b64 = base64_of(&vec![7u8; 65_536]);
    let mut json = String::from(r#"{"PartitionKey":"p","RowKey":"r""#);
    for i in 0..15 {
        json.push_str(&format!(
            r#","B{i}@odata.type":"Edm.Binary","B{i}":"{b64}""#
        ));
    }
    json.push('}');
    assert_eq!(insert(&mut s, "Tbl", &json).status, 201);
    let r = insert(&mut c, "Tbl", &json);
    assert_eq!(r.status, 400);
    let e = r.error.unwrap();
    assert_eq!(
        (e.code, e.rule),
        (ErrorCode::EntityTooLarge, Some(Rule::BinaryRoom))
    );
}

fn base64_of(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn case_sensitive_table_names() {
    let [mut s, mut c] = both();
    let r = s.execute(&create("tbl"));
    assert_eq!(
        (r.status, r.error.unwrap().code),
        (409, ErrorCode::TableAlreadyExists)
    );
    assert_eq!(c.execute(&create("tbl")).status, 201);
    insert(&mut s, "Tbl", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    insert(&mut c, "Tbl", r#"{"PartitionKey":"p","RowKey":"r"}"#);
    let get = |a: &mut Account, table: &str| {
        a.execute(&Request::Get {
            table: table.into(),
            partition_key: "p".into(),
            row_key: "r".into(),
            select: None,
        })
        .status
    };
    assert_eq!(get(&mut s, "tbl"), 200);
    assert_eq!(get(&mut c, "Tbl"), 200);
    assert_eq!(get(&mut c, "tbl"), 404);
}

#[test]
fn reserved_property_names() {
    for name in rules::RESERVED_PROPERTY_NAMES {
        let [mut s, mut c] = both();
        let json = format!(r#"{{"PartitionKey":"p","RowKey":"r","{name}":1}}"#);
        assert_eq!(insert(&mut s, "Tbl", &json).status, 201, "{name}");
        let r = insert(&mut c, "Tbl", &json);
        assert_eq!(r.status, 400, "{name}");
        let e = r.error.unwrap();
        assert_eq!(
            (e.code, e.rule),
            (
                ErrorCode::PropertyNameInvalid,
                Some(Rule::ReservedPropertyNames)
            )
        );
    }
    // Matched exactly: `ID` is an ordinary name on both.
    let [mut s, mut c] = both();
    let json = r#"{"PartitionKey":"p","RowKey":"r","ID":1}"#;
    assert_eq!(insert(&mut s, "Tbl", json).status, 201);
    assert_eq!(insert(&mut c, "Tbl", json).status, 201);
}

#[test]
fn unsupported_operations() {
    let requests = [
        (
            Request::GetServiceProperties {},
            Unsupported::GetServiceProperties,
            200,
        ),
        (
            Request::SetServiceProperties {
                properties: Default::default(),
            },
            Unsupported::SetServiceProperties,
            202,
        ),
        (
            Request::GetTableAcl {
                table: "Tbl".into(),
            },
            Unsupported::GetTableAcl,
            200,
        ),
        (
            Request::SetTableAcl {
                table: "Tbl".into(),
                identifiers: Vec::new(),
            },
            Unsupported::SetTableAcl,
            204,
        ),
    ];
    for (request, operation, storage_status) in requests {
        let [mut s, mut c] = both();
        assert_eq!(s.execute(&request).status, storage_status, "{request:?}");
        let r = c.execute(&request);
        assert_eq!(r.status, 501, "{request:?}");
        let e = r.error.unwrap();
        assert_eq!(e.code, ErrorCode::NotImplemented);
        assert_eq!(e.rule, Some(Rule::UnsupportedOperations));
        assert_eq!(e.unsupported, Some(operation));
    }
}

#[test]
fn request_units() {
    let [mut s, mut c] = both();
    let small = r#"{"PartitionKey":"p","RowKey":"r","N":1}"#;
    let (is, ic) = (insert(&mut s, "Tbl", small), insert(&mut c, "Tbl", small));
    assert_eq!(is.ru, None);
    assert_eq!(ic.ru, Some(RuEstimate::write(0)));
    assert_eq!(ic.ru.unwrap().value, Some(4.95));
    let get = Request::Get {
        table: "Tbl".into(),
        partition_key: "p".into(),
        row_key: "r".into(),
        select: None,
    };
    assert_eq!(s.execute(&get).ru, None);
    assert_eq!(c.execute(&get).ru.unwrap().value, Some(1.0));
    // A query: one point read per entity read.
    for a in [&mut s, &mut c] {
        for i in 0..9 {
            insert(
                a,
                "Tbl",
                &format!(r#"{{"PartitionKey":"q","RowKey":"{i}","N":{i}}}"#),
            );
        }
    }
    assert_eq!(query(&mut s, "Tbl", "N ge 0").ru, None);
    let q = query(&mut c, "Tbl", "N ge 5");
    assert_eq!(q.stats.unwrap().scanned, 4);
    assert_eq!(q.ru.unwrap().value, Some(4.0));
    // A batch: its parts' sum, each part its own.
    let ops: Vec<BatchRequest> = (0..3)
        .map(|i| insert_op(&format!(r#"{{"PartitionKey":"b","RowKey":"{i}"}}"#)))
        .collect();
    let rc = batch(&mut c, ops.clone());
    assert_eq!(rc.ru.unwrap().value, Some(14.85));
    assert!(rc
        .results
        .unwrap()
        .iter()
        .all(|p| p.ru.unwrap().value == Some(4.95)));
    let rs = batch(&mut s, ops);
    assert_eq!(rs.ru, None);
    assert!(rs.results.unwrap().iter().all(|p| p.ru.is_none()));
    // Table operations: no published figure, so no value, on Cosmos only.
    assert_eq!(s.execute(&create("Other")).ru, None);
    let r = c.execute(&create("Other"));
    assert_eq!(r.ru, Some(RuEstimate::unpublished()));
    assert_eq!(r.ru.unwrap().value, None);
}

#[test]
fn every_rule_has_a_source_and_the_list_is_complete() {
    assert_eq!(Rule::ALL.len(), 17);
    for rule in Rule::ALL {
        assert!(Target::CosmosTable.applies(rule));
        assert!(!Target::TableStorage.applies(rule));
        let _ = rule.source();
    }
    assert_eq!(rules::MAX_LOGICAL_PARTITION_BYTES, 20 * 1024 * 1024 * 1024);
}

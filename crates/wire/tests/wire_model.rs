#![cfg(not(target_arch = "wasm32"))]
//! Property test: random operations sent as HTTP through `tablescope_wire` and as `Request`s
//! through `Account::execute` leave identical accounts and answer the same statuses. Both
//! accounts run on the same fixed clock, so Timestamps and ETags must match too.

use proptest::prelude::*;
use tablescope_engine::{Account, BatchRequest, DateTime, RawEntity, Request};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};

const TABLE: &str = "Orders";

fn key_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a"),
        Just("it's"),
        Just("100%"),
        Just("é 日本"),
        Just("😀"),
        Just("a+b"),
        Just("")
    ]
    .prop_map(String::from)
}

fn entity() -> impl Strategy<Value = RawEntity> {
    (
        key_text(),
        key_text(),
        proptest::option::of(-3i32..4),
        proptest::option::of(any::<i64>()),
        proptest::option::of(key_text()),
    )
        .prop_map(|(pk, rk, n, big, s)| {
            let mut text = format!("{{\"PartitionKey\":{},\"RowKey\":{}", json(&pk), json(&rk));
            if let Some(n) = n {
                text.push_str(&format!(",\"N\":{n}"));
            }
            if let Some(big) = big {
                text.push_str(&format!(
                    ",\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"{big}\""
                ));
            }
            if let Some(s) = s {
                text.push_str(&format!(",\"S\":{}", json(&s)));
            }
            text.push('}');
            RawEntity::parse(&text).unwrap()
        })
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn if_match() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("*".to_string())),
        Just(Some(
            "W/\"datetime'2026-01-01T00%3A00%3A00.0000001Z'\"".to_string()
        )),
    ]
}

fn request() -> impl Strategy<Value = Request> {
    let table = || TABLE.to_string();
    prop_oneof![
        entity().prop_map(move |entity| Request::Insert {
            table: table(),
            entity
        }),
        entity().prop_map(move |entity| Request::UpsertReplace {
            table: table(),
            entity
        }),
        entity().prop_map(move |entity| Request::UpsertMerge {
            table: table(),
            entity
        }),
        (entity(), if_match()).prop_map(move |(entity, m)| Request::Replace {
            table: table(),
            entity,
            if_match: Some(m.unwrap_or_else(|| "*".into())),
        }),
        (entity(), if_match()).prop_map(move |(entity, m)| Request::Merge {
            table: table(),
            entity,
            if_match: Some(m.unwrap_or_else(|| "*".into())),
        }),
        (key_text(), key_text(), if_match()).prop_map(move |(pk, rk, m)| Request::Delete {
            table: table(),
            partition_key: pk,
            row_key: rk,
            if_match: Some(m.unwrap_or_else(|| "*".into())),
        }),
        (key_text(), proptest::collection::vec(entity(), 1..4)).prop_map(move |(pk, es)| {
            Request::Batch {
                table: table(),
                operations: es
                    .into_iter()
                    .map(|mut e| {
                        e.0[0].1 = serde_json::Value::String(pk.clone());
                        BatchRequest::UpsertMerge { entity: e }
                    })
                    .collect(),
            }
        }),
    ]
}

/// The SDK's URL for an entity: `'` doubled, then percent-encoded.
fn entity_url(pk: &str, rk: &str) -> String {
    let quote = |k: &str| enc(&k.replace('\'', "''"));
    format!(
        "/devstoreaccount1/{TABLE}(PartitionKey='{}',RowKey='{}')",
        quote(pk),
        quote(rk)
    )
}

fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~'".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn keys(e: &RawEntity) -> (String, String) {
    let get = |n| e.get(n).and_then(|v| v.as_str()).unwrap_or("").to_string();
    (get("PartitionKey"), get("RowKey"))
}

/// The HTTP request the SDKs would send for `request`: (method, url, if-match, body).
fn http_parts(request: &Request) -> (String, String, Option<String>, Option<String>) {
    let body = |e: &RawEntity| Some(serde_json::to_string(e).unwrap());
    match request {
        Request::Insert { entity, .. } => (
            "POST".into(),
            format!("/devstoreaccount1/{TABLE}"),
            None,
            body(entity),
        ),
        Request::UpsertReplace { entity, .. } | Request::Replace { entity, .. } => {
            let (pk, rk) = keys(entity);
            let m = match request {
                Request::Replace { if_match, .. } => if_match.clone(),
                _ => None,
            };
            ("PUT".into(), entity_url(&pk, &rk), m, body(entity))
        }
        Request::UpsertMerge { entity, .. } | Request::Merge { entity, .. } => {
            let (pk, rk) = keys(entity);
            let m = match request {
                Request::Merge { if_match, .. } => if_match.clone(),
                _ => None,
            };
            ("MERGE".into(), entity_url(&pk, &rk), m, body(entity))
        }
        Request::Delete {
            partition_key,
            row_key,
            if_match,
            ..
        } => (
            "DELETE".into(),
            entity_url(partition_key, row_key),
            if_match.clone(),
            None,
        ),
        other => panic!("not generated: {other:?}"),
    }
}

fn batch_body(operations: &[BatchRequest]) -> String {
    let mut out =
        String::from("--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n");
    for op in operations {
        let BatchRequest::UpsertMerge { entity } = op else {
            panic!("not generated")
        };
        let (pk, rk) = keys(entity);
        out.push_str(&format!(
            "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
             MERGE http://127.0.0.1:10002{} HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\n\r\n{}\r\n",
            entity_url(&pk, &rk),
            serde_json::to_string(entity).unwrap()
        ));
    }
    out.push_str("--changeset_c--\r\n--batch_b--\r\n");
    out
}

fn to_http(request: &Request) -> HttpRequest {
    if let Request::Batch { operations, .. } = request {
        return HttpRequest::new("POST", "/devstoreaccount1/$batch")
            .header("Content-Type", "multipart/mixed; boundary=batch_b")
            .body(batch_body(operations).into_bytes());
    }
    let (method, url, if_match, body) = http_parts(request);
    let mut r = HttpRequest::new(&method, &url)
        .header("Content-Type", "application/json")
        .header("Prefer", "return-no-content");
    if let Some(m) = if_match {
        r = r.header("If-Match", &m);
    }
    r.body(body.unwrap_or_default().into_bytes())
}

fn new_account() -> Account {
    let mut a = Account::default();
    a.execute(&Request::CreateTable {
        table: TABLE.into(),
    });
    a
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn wire_and_request_leave_identical_accounts(requests in proptest::collection::vec(request(), 1..25)) {
        let mut direct = new_account();
        let mut over_http = new_account();
        let endpoint = Endpoint::anonymous("devstoreaccount1");
        let context = Context { now: DateTime::MIN, request_id: "r".into() };
        for request in &requests {
            let expected = direct.execute(request);
            let out = wire::handle(&mut over_http, &endpoint, &context, &to_http(request));
            let status = out.response.status;
            let inner_failed = request_is_batch(request)
                && String::from_utf8_lossy(&out.response.body).contains("odata.error");
            if request_is_batch(request) {
                prop_assert_eq!(status, 202);
                prop_assert_eq!(inner_failed, expected.error.is_some(), "{:?}", expected);
            } else {
                let want = if expected.status == 201 { 204 } else { expected.status };
                prop_assert_eq!(status, want, "{:?} → {}", request, String::from_utf8_lossy(&out.response.body));
            }
        }
        prop_assert_eq!(direct.export(), over_http.export());
    }
}

fn request_is_batch(r: &Request) -> bool {
    matches!(r, Request::Batch { .. })
}

//! Golden wire tests for what production's recordings show beyond the REST reference: lenient
//! DateTime reading, ETags with the Timestamp's own digits, `Content-Length: 0` on a bodiless
//! 204, the code of a JSON error in its body only, `Preference-Applied` kept on a refused
//! insert, and `x-ms-version` checked (docs/service/wire.md#details-production-shows).

mod golden;

use golden::{error_code, json_req, req, send, text, with_table, BASE, RID};
use tablescope_engine::{Account, DateTime, FixedClock};

fn json(r: &tablescope_wire::HttpResponse) -> serde_json::Value {
    serde_json::from_slice(&r.body).unwrap_or_else(|e| panic!("{e}: {}", text(r)))
}

#[test]
fn a_datetime_without_a_designator_is_stored_as_utc() {
    let mut a = with_table("Times");
    let body = r#"{"PartitionKey":"p","RowKey":"1",
        "Bare@odata.type":"Edm.DateTime","Bare":"2023-01-01T23:00:00",
        "Offset@odata.type":"Edm.DateTime","Offset":"2023-01-02T01:30:00+02:30",
        "Millis@odata.type":"Edm.DateTime","Millis":"2023-01-01T23:00:00.120",
        "Ticks@odata.type":"Edm.DateTime","Ticks":"2023-01-01T23:00:00.1234567"}"#;
    let r = send(&mut a, json_req("POST", "/Times", body));
    assert_eq!(r.status, 201, "{}", text(&r));
    let entity = json(&r);
    assert_eq!(entity["Bare"], "2023-01-01T23:00:00Z");
    assert_eq!(entity["Offset"], "2023-01-01T23:00:00Z");
    assert_eq!(entity["Millis"], "2023-01-01T23:00:00.12Z");
    assert_eq!(entity["Ticks"], "2023-01-01T23:00:00.1234567Z");
    assert_eq!(entity["Bare@odata.type"], "Edm.DateTime");

    // A filter literal without a designator means the same instant.
    let r = send(
        &mut a,
        req(
            "GET",
            "/Times()?$filter=Bare%20eq%20datetime'2023-01-01T23:00:00'%20and%20Offset%20eq%20datetime'2023-01-01T23:00:00Z'",
        ),
    );
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(json(&r)["value"].as_array().map(Vec::len), Some(1));

    // And so does a batch part.
    let batch = format!(
        "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n\
         --changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
         POST {BASE}/Times HTTP/1.1\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\n\r\n\
         {{\"PartitionKey\":\"p\",\"RowKey\":\"2\",\"Bare@odata.type\":\"Edm.DateTime\",\"Bare\":\"2023-01-01T23:00:00\"}}\r\n\
         --changeset_1--\r\n--batch_1--\r\n"
    );
    let r = send(
        &mut a,
        req("POST", "/$batch")
            .header("Content-Type", "multipart/mixed; boundary=batch_1")
            .body(batch.into_bytes()),
    );
    assert_eq!(r.status, 202, "{}", text(&r));
    assert!(text(&r).contains("HTTP/1.1 204 No Content"), "{}", text(&r));
    let r = send(&mut a, req("GET", "/Times(PartitionKey='p',RowKey='2')"));
    assert_eq!(json(&r)["Bare"], "2023-01-01T23:00:00Z");

    // Text that is not a date and time stays refused.
    let r = send(
        &mut a,
        json_req(
            "POST",
            "/Times",
            r#"{"PartitionKey":"p","RowKey":"3","D@odata.type":"Edm.DateTime","D":"2023-01-01"}"#,
        ),
    );
    assert_eq!(
        (r.status, error_code(&r).as_deref()),
        (400, Some("InvalidInput"))
    );
}

#[test]
fn the_etag_keeps_the_timestamps_digits() {
    let at = DateTime::parse("2021-09-10T14:40:21.5Z").unwrap();
    let mut a = Account::new(Box::new(FixedClock(at)));
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"Things"}"#)
            .header("Prefer", "return-no-content"),
    );
    assert_eq!(r.status, 204);
    let r = send(
        &mut a,
        json_req("POST", "/Things", r#"{"PartitionKey":"p","RowKey":"1"}"#),
    );
    let etag = "W/\"datetime'2021-09-10T14%3A40%3A21.5Z'\"";
    assert_eq!(r.header_value("ETag"), Some(etag));
    let entity = json(&r);
    assert_eq!(entity["odata.etag"], etag);
    assert_eq!(entity["Timestamp"], "2021-09-10T14:40:21.5Z");
}

#[test]
fn a_weak_etag_that_does_not_match_is_412() {
    let mut a = with_table("Things");
    let r = send(
        &mut a,
        json_req(
            "POST",
            "/Things",
            r#"{"PartitionKey":"p","RowKey":"1","V":1}"#,
        ),
    );
    let current = r.header_value("ETag").unwrap().to_string();
    let stale = "W/\"datetime'2001-01-01T00%3A00%3A00Z'\"";
    let entity = r#"{"PartitionKey":"p","RowKey":"1","V":2}"#;
    for method in ["PUT", "MERGE", "PATCH"] {
        let r = send(
            &mut a,
            json_req(method, "/Things(PartitionKey='p',RowKey='1')", entity)
                .header("If-Match", stale),
        );
        assert_eq!(
            (r.status, error_code(&r).as_deref()),
            (412, Some("UpdateConditionNotSatisfied")),
            "{method}"
        );
    }
    let r = send(
        &mut a,
        req("DELETE", "/Things(PartitionKey='p',RowKey='1')").header("If-Match", stale),
    );
    assert_eq!(
        (r.status, error_code(&r).as_deref()),
        (412, Some("UpdateConditionNotSatisfied"))
    );
    let r = send(
        &mut a,
        req("DELETE", "/Things(PartitionKey='p',RowKey='1')").header("If-Match", &current),
    );
    assert_eq!(r.status, 204);
}

#[test]
fn a_bodiless_204_says_content_length_0() {
    let mut a = with_table("Things");
    let put = |a: &mut Account, method: &str| {
        send(
            a,
            json_req(method, "/Things(PartitionKey='p',RowKey='1')", r#"{"V":1}"#),
        )
    };
    for method in ["PUT", "MERGE", "PATCH"] {
        let r = put(&mut a, method);
        assert_eq!(r.status, 204, "{method}: {}", text(&r));
        assert_eq!(r.header_value("Content-Length"), Some("0"), "{method}");
        assert_eq!(r.header_value("Content-Type"), None, "{method}");
        assert!(r.body.is_empty());
    }
    let r = send(
        &mut a,
        req("DELETE", "/Things(PartitionKey='p',RowKey='1')").header("If-Match", "*"),
    );
    assert_eq!(
        text(&r).lines().take(3).collect::<Vec<_>>(),
        [
            "204 No Content",
            "Cache-Control: no-cache",
            "Content-Length: 0"
        ]
    );
    let r = send(&mut a, req("DELETE", "/Tables('Things')"));
    assert_eq!(r.status, 204);
    assert_eq!(r.header_value("Content-Length"), Some("0"));
    // A 200 with a body gives no Content-Length of its own: the HTTP layer counts the body.
    let r = send(&mut a, req("GET", "/Tables"));
    assert_eq!((r.status, r.header_value("Content-Length")), (200, None));
}

#[test]
fn a_refused_insert_keeps_preference_applied_only_for_a_missing_value() {
    let mut a = with_table("Things");
    let no_content =
        |body: &str| json_req("POST", "/Things", body).header("Prefer", "return-no-content");
    let r = send(&mut a, no_content(r#"{"PartitionKey":"p"}"#));
    assert_eq!(
        (r.status, error_code(&r).as_deref()),
        (400, Some("PropertiesNeedValue"))
    );
    assert_eq!(
        text(&r).lines().take(8).collect::<Vec<_>>(),
        [
            "400 Bad Request",
            "Cache-Control: no-cache",
            "Content-Type: application/json; odata=minimalmetadata; streaming=true; charset=utf-8",
            &format!("x-ms-request-id: {RID}"),
            "x-ms-version: 2019-02-02",
            "X-Content-Type-Options: nosniff",
            "Preference-Applied: return-no-content",
            "Date: Fri, 10 Sep 2021 14:40:22 GMT",
        ]
    );
    // Without the preference, or for another refusal, there is none.
    let r = send(
        &mut a,
        json_req("POST", "/Things", r#"{"PartitionKey":"p"}"#),
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.header_value("Preference-Applied"), None);
    assert_eq!(
        send(&mut a, no_content(r#"{"PartitionKey":"p","RowKey":"1"}"#)).status,
        204
    );
    let r = send(&mut a, no_content(r#"{"PartitionKey":"p","RowKey":"1"}"#));
    assert_eq!(
        (r.status, error_code(&r).as_deref()),
        (409, Some("EntityAlreadyExists"))
    );
    assert_eq!(r.header_value("Preference-Applied"), None);
}

/// `GET /Tables` naming API `version`.
fn list_tables(version: &str) -> tablescope_wire::HttpRequest {
    tablescope_wire::HttpRequest::new("GET", "/devstoreaccount1/Tables")
        .header("x-ms-version", version)
        .header("DataServiceVersion", "3.0")
}

#[test]
fn only_a_published_x_ms_version_is_served() {
    let mut a = with_table("Things");
    let r = send(&mut a, list_tables("2019-02-03"));
    assert_eq!(
        (r.status, error_code(&r).as_deref()),
        (400, Some("InvalidHeaderValue"))
    );
    assert!(
        json(&r)["odata.error"]["message"]["value"]
            .as_str()
            .unwrap()
            .starts_with("The value for one of the HTTP headers is not in the correct format.\n"),
        "{}",
        text(&r)
    );
    for version in ["2015-12-11", "2025-11-05"] {
        let r = send(&mut a, list_tables(version));
        assert_eq!(r.status, 200, "{version}: {}", text(&r));
        assert_eq!(r.header_value("x-ms-version"), Some(version));
    }
}

/// Inserts `properties` (JSON members after the keys) as row `rk` of `Things`; the status and
/// the error code, if any.
fn insert_with(a: &mut Account, rk: &str, properties: &str) -> (u16, Option<String>) {
    let body = format!(r#"{{"PartitionKey":"p","RowKey":"{rk}",{properties}}}"#);
    let r = send(
        a,
        json_req("POST", "/Things", &body).header("Prefer", "return-no-content"),
    );
    let code = (r.status != 204).then(|| error_code(&r)).flatten();
    (r.status, code)
}

#[test]
fn value_and_entity_sizes_at_their_limits() {
    use base64::Engine as _;
    let mut a = with_table("Things");
    let too_large = |code: &str| (400, Some(code.to_string()));
    // A String: 32,768 UTF-16 code units.
    for (n, expect) in [
        (32_767, (204, None)),
        (32_768, (204, None)),
        (32_769, too_large("PropertyValueTooLarge")),
    ] {
        let s = "x".repeat(n);
        assert_eq!(
            insert_with(&mut a, &format!("s{n}"), &format!(r#""S":"{s}""#)),
            expect,
            "String of {n}"
        );
    }
    // A Binary: 65,536 bytes.
    for (n, expect) in [
        (65_535, (204, None)),
        (65_536, (204, None)),
        (65_537, too_large("PropertyValueTooLarge")),
    ] {
        let b = base64::engine::general_purpose::STANDARD.encode(vec![7u8; n]);
        let members = format!(r#""B@odata.type":"Edm.Binary","B":"{b}""#);
        assert_eq!(
            insert_with(&mut a, &format!("b{n}"), &members),
            expect,
            "Binary of {n}"
        );
    }
    // An entity: 1 MiB by the service's rule, 4 + 2·(keys) + Σ (8 + 2·name + 4 + 2·value).
    // Keys "p" and "eNN": 4 + 2·4 = 12 bytes; each of 15 strings S00..S14 of 32,768 units is
    // 8 + 6 + 4 + 65,536 bytes; S15 takes the rest.
    let fixed = 12 + 15 * (8 + 6 + 4 + 65_536);
    let at_limit = (1_048_576 - fixed - (8 + 6 + 4)) / 2;
    for (extra, rk, expect) in [
        (-1i64, "e-1", (204, None)),
        (0, "e=0", (204, None)),
        (1, "e+1", too_large("EntityTooLarge")),
    ] {
        let mut members: Vec<String> = (0..15)
            .map(|i| format!(r#""S{i:02}":"{}""#, "x".repeat(32_768)))
            .collect();
        members.push(format!(
            r#""S15":"{}""#,
            "x".repeat((at_limit as i64 + extra) as usize)
        ));
        assert_eq!(
            insert_with(&mut a, rk, &members.join(",")),
            expect,
            "entity {extra:+} units from 1 MiB"
        );
    }
    // The request body: at most tablescope_wire::MAX_BODY_BYTES, then 413 RequestBodyTooLarge.
    let limit = tablescope_wire::MAX_BODY_BYTES;
    let envelope = r#"{"PartitionKey":"p","RowKey":"big","S":""}"#.len();
    for (size, status, code) in [
        (limit - 1, 400, "PropertyValueTooLarge"),
        (limit, 400, "PropertyValueTooLarge"),
        (limit + 1, 413, "RequestBodyTooLarge"),
    ] {
        let body = format!(
            r#"{{"PartitionKey":"p","RowKey":"big","S":"{}"}}"#,
            "x".repeat(size - envelope)
        );
        assert_eq!(body.len(), size);
        let r = send(&mut a, json_req("POST", "/Things", &body));
        assert_eq!(
            (r.status, error_code(&r).as_deref()),
            (status, Some(code)),
            "a body of {size} bytes"
        );
    }
    let r = send(&mut a, req("GET", "/Things()"));
    let mut kept: Vec<String> = json(&r)["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["RowKey"].as_str().unwrap().to_string())
        .collect();
    kept.sort();
    assert_eq!(kept, ["b65535", "b65536", "e-1", "e=0", "s32767", "s32768"]);
}

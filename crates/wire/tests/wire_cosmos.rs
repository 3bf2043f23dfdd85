//! Golden wire tests for a Cosmos DB for Table account: the bytes follow the "On the wire"
//! facts of docs/service/cosmos.md (recordings of the same SDK tests against both services).
//! The time and request id are injected, so nothing is masked.

mod golden;

use golden::{send, RID};
use tablescope_engine::{Account, DateTime, FixedClock, Target};
use tablescope_wire::{HttpRequest, HttpResponse};

const BASE: &str = "http://127.0.0.1:10002/devstoreaccount1";
const JSON: &str = "application/json; odata=minimalmetadata";
const FULL: &str = "application/json; odata=fullmetadata";
const DATE: &str = "Date: Fri, 10 Sep 2021 14:40:22 GMT";

fn cosmos() -> Account {
    let at = DateTime::parse("2021-09-10T14:40:21.6047768Z").unwrap();
    Account::for_target(Target::CosmosTable, Box::new(FixedClock(at)))
}

fn req(method: &str, path: &str) -> HttpRequest {
    HttpRequest::new(method, &format!("/devstoreaccount1{path}"))
        .header("x-ms-version", "2019-02-02")
        .header("DataServiceVersion", "3.0")
}

fn json_req(method: &str, path: &str, body: &str) -> HttpRequest {
    req(method, path)
        .header("Content-Type", "application/json")
        .body(body.as_bytes().to_vec())
}

fn text(r: &HttpResponse) -> String {
    let mut out = format!("{} {}\n", r.status, r.reason());
    for (n, v) in &r.headers {
        out.push_str(&format!("{n}: {v}\n"));
    }
    out.push('\n');
    out.push_str(&String::from_utf8_lossy(&r.body));
    out
}

fn with_table(name: &str) -> Account {
    let mut a = cosmos();
    let r = send(
        &mut a,
        json_req("POST", "/Tables", &format!(r#"{{"TableName":"{name}"}}"#))
            .header("Prefer", "return-no-content"),
    );
    assert_eq!(r.status, 204, "{}", text(&r));
    a
}

fn insert(a: &mut Account, body: &str) -> HttpResponse {
    send(
        a,
        json_req("POST", "/people", body).header("Prefer", "return-no-content"),
    )
}

#[test]
fn create_table_puts_table_name_first_and_has_no_storage_headers() {
    let mut a = cosmos();
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"people"}"#),
    );
    let etag = r.header_value("ETag").map(str::to_string);
    // A create-table answer carries an ETag, with 7 fraction digits.
    assert_eq!(
        etag.as_deref(),
        Some("W/\"datetime'2021-09-10T14%3A40%3A21.6047768Z'\"")
    );
    assert_eq!(
        text(&r),
        format!(
            "201 Created\n\
             Content-Type: {JSON}\n\
             {}\
             Location: {BASE}/Tables('people')\n\
             x-ms-request-id: {RID}\n\
             {DATE}\n\
             \n\
             {{\"TableName\":\"people\",\"odata.metadata\":\"{BASE}/$metadata#Tables/@Element\"}}",
            etag.map(|e| format!("ETag: {e}\n")).unwrap_or_default()
        )
    );
    for absent in [
        "Server",
        "x-ms-version",
        "Cache-Control",
        "X-Content-Type-Options",
    ] {
        assert_eq!(r.header_value(absent), None, "{absent}");
    }
}

#[test]
fn insert_answers_etag_location_preference_and_no_data_service_id() {
    let mut a = with_table("people");
    let r = insert(&mut a, r#"{"PartitionKey":"p","RowKey":"1","Name":"Ann"}"#);
    assert_eq!(
        text(&r),
        format!(
            "204 No Content\n\
             ETag: W/\"datetime'2021-09-10T14%3A40%3A21.6047769Z'\"\n\
             Location: {BASE}/people(PartitionKey='p',RowKey='1')\n\
             x-ms-request-id: {RID}\n\
             Preference-Applied: return-no-content\n\
             {DATE}\n\n"
        )
    );
}

#[test]
fn point_read_has_the_table_segment_and_timestamp_last_with_seven_digits() {
    let mut a = with_table("people");
    insert(
        &mut a,
        r#"{"PartitionKey":"p","RowKey":"1","Zed":"z","Age":7}"#,
    );
    let r = send(&mut a, req("GET", "/people(PartitionKey='p',RowKey='1')"));
    let etag = "W/\\\"datetime'2021-09-10T14%3A40%3A21.6047769Z'\\\"";
    assert_eq!(
        text(&r),
        format!(
            "200 OK\n\
             Content-Type: {JSON}\n\
             ETag: W/\"datetime'2021-09-10T14%3A40%3A21.6047769Z'\"\n\
             x-ms-request-id: {RID}\n\
             {DATE}\n\
             \n\
             {{\"odata.metadata\":\"{BASE}/people/$metadata#people/@Element\",\
             \"odata.etag\":\"{etag}\",\"PartitionKey\":\"p\",\"RowKey\":\"1\",\
             \"Zed\":\"z\",\"Age\":7,\"Timestamp\":\"2021-09-10T14:40:21.6047769Z\"}}"
        )
    );
}

#[test]
fn a_query_page_puts_value_first_and_continues_with_the_cosmos_token() {
    let mut a = with_table("people");
    for rk in ["1", "2", "10"] {
        insert(
            &mut a,
            &format!(r#"{{"PartitionKey":"p","RowKey":"{rk}"}}"#),
        );
    }
    let r = send(&mut a, req("GET", "/people()?$top=2&$select=RowKey"));
    let pk = r
        .header_value("x-ms-continuation-NextPartitionKey")
        .unwrap()
        .to_string();
    assert!(
        pk.starts_with("{\"token\":\"") && pk.ends_with(r#"","range":{"min":"","max":"FF"}}"#),
        "{pk}"
    );
    assert_eq!(
        text(&r),
        format!(
            "200 OK\n\
             Content-Type: {JSON}\n\
             x-ms-continuation-NextPartitionKey: {pk}\n\
             x-ms-continuation-NextRowKey: NA\n\
             x-ms-request-id: {RID}\n\
             {DATE}\n\
             \n\
             {{\"value\":[{{\"odata.etag\":\"W/\\\"datetime'2021-09-10T14%3A40%3A21.6047769Z'\\\"\",\"RowKey\":\"1\"}},\
             {{\"odata.etag\":\"W/\\\"datetime'2021-09-10T14%3A40%3A21.6047770Z'\\\"\",\"RowKey\":\"2\"}}],\
             \"odata.metadata\":\"{BASE}/$metadata#people&$select=RowKey\"}}"
        )
    );
    // The SDKs send the header's text back as it came (percent-encoded in the query string).
    let next = format!(
        "/people()?$top=2&$select=RowKey&NextPartitionKey={}&NextRowKey=NA",
        percent(&pk)
    );
    let r = send(&mut a, req("GET", &next));
    assert_eq!(r.status, 200, "{}", text(&r));
    let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(body["value"][0]["RowKey"], "10");
    assert_eq!(body["value"].as_array().unwrap().len(), 1);
    assert_eq!(r.header_value("x-ms-continuation-NextPartitionKey"), None);
}

fn percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn an_error_says_en_us_and_ends_with_the_request_id() {
    let mut a = with_table("people");
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"people"}"#),
    );
    assert_eq!(
        text(&r),
        format!(
            "409 Conflict\n\
             Content-Type: {JSON}\n\
             x-ms-request-id: {RID}\n\
             {DATE}\n\
             \n\
             {{\"odata.error\":{{\"code\":\"TableAlreadyExists\",\"message\":{{\"lang\":\"en-us\",\
             \"value\":\"The specified table already exists.\\nRequestID:{RID}\\n\"}}}}}}"
        )
    );
}

#[test]
fn a_failed_condition_answers_in_fullmetadata() {
    let mut a = with_table("people");
    insert(&mut a, r#"{"PartitionKey":"p","RowKey":"1"}"#);
    let r = send(
        &mut a,
        json_req("PUT", "/people(PartitionKey='p',RowKey='1')", r#"{"A":1}"#).header(
            "If-Match",
            "W/\"datetime'2000-01-01T00%3A00%3A00.0000000Z'\"",
        ),
    );
    assert_eq!(r.status, 412, "{}", text(&r));
    assert_eq!(r.header_value("Content-Type"), Some(FULL));
}

const BATCH_HEAD: &str = "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n";

fn batch(rows: &[&str]) -> HttpRequest {
    let mut body = String::from(BATCH_HEAD);
    for rk in rows {
        body.push_str(&format!(
            "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
             POST {BASE}/people HTTP/1.1\r\nContent-Type: application/json\r\nPrefer: return-no-content\r\n\r\n\
             {{\"PartitionKey\":\"p\",\"RowKey\":\"{rk}\"}}\r\n"
        ));
    }
    body.push_str("--changeset_c--\r\n--batch_b--\r\n");
    req("POST", "/$batch")
        .header("Content-Type", "multipart/mixed; boundary=batch_b")
        .body(body.into_bytes())
}

#[test]
fn a_batch_answer_frames_in_lf_and_numbers_its_parts() {
    let mut a = with_table("people");
    let r = send(&mut a, batch(&["1", "2"]));
    let part = |n: u32, rk: &str, t: &str| {
        format!(
            "--changesetresponse_{RID}\n\
             Content-Type: application/http\n\
             Content-Transfer-Encoding: binary\n\
             \n\
             HTTP/1.1 204 No Content\r\n\
             ETag: W/\"datetime'2021-09-10T14%3A40%3A21.{t}Z'\"\r\n\
             Preference-Applied: return-no-content\r\n\
             Location: {BASE}/people(PartitionKey='p',RowKey='{rk}')\r\n\
             Content-ID: {n}\r\n\
             \r\n\
             \r\n"
        )
    };
    assert_eq!(r.status, 202);
    assert_eq!(
        String::from_utf8_lossy(&r.body),
        format!(
            "--batchresponse_{RID}\n\
             Content-Type: multipart/mixed; boundary=changesetresponse_{RID}\n\
             \n\
             {}{}\
             --changesetresponse_{RID}--\n\
             --batchresponse_{RID}--\n",
            part(1, "1", "6047769"),
            part(2, "2", "6047770"),
        )
    );
}

#[test]
fn a_failing_part_says_en_us_with_an_empty_line_before_the_request_id() {
    let mut a = with_table("people");
    insert(&mut a, r#"{"PartitionKey":"p","RowKey":"2"}"#);
    let r = send(&mut a, batch(&["1", "2"]));
    let body = String::from_utf8_lossy(&r.body).to_string();
    assert!(
        body.contains(&format!(
            "HTTP/1.1 409 Conflict\r\nPreference-Applied: return-no-content\r\nContent-ID: 2\r\n\
             Content-Type: {JSON}\r\n\r\n"
        )),
        "{body}"
    );
    assert!(
        body.contains(&format!(
            "\"lang\":\"en-us\",\"value\":\"1:The specified entity already exists.\\n\\nRequestID:{RID}\\n\""
        )),
        "{body}"
    );
}

#[test]
fn a_duplicate_row_is_refused_at_the_top_in_fullmetadata() {
    let mut a = with_table("people");
    let r = send(&mut a, batch(&["1", "1"]));
    assert_eq!(
        text(&r),
        format!(
            "400 Bad Request\n\
             Content-Type: {FULL}\n\
             x-ms-request-id: {RID}\n\
             {DATE}\n\
             \n\
             {{\"odata.error\":{{\"code\":\"InvalidDuplicateRow\",\"message\":{{\"lang\":\"en-us\",\
             \"value\":\"1:The batch request contains multiple changes with same row key. An entity \
             can appear only once in a batch request.\\nRequestID:{RID}\\n\"}}}}}}"
        )
    );
    let r = send(&mut a, req("GET", "/people()"));
    assert_eq!(&r.body[..10], b"{\"value\":[");
    assert_eq!(
        r.body.windows(8).filter(|w| w == b"RowKey\":").count(),
        0,
        "nothing written"
    );
}

#[test]
fn the_account_level_operations_answer_not_implemented() {
    // The documentation lists them as not supported without saying what a request answers;
    // the model answers the engine's refusal (docs/service/cosmos.md, "Silences").
    let mut a = with_table("people");
    let properties = r#"<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties></StorageServiceProperties>"#;
    let acl = r#"<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers></SignedIdentifiers>"#;
    for request in [
        req("GET", "/?restype=service&comp=properties"),
        req("PUT", "/?restype=service&comp=properties").body(properties.as_bytes().to_vec()),
        req("GET", "/?restype=service&comp=stats"),
        req("GET", "/people?comp=acl"),
        req("PUT", "/people?comp=acl").body(acl.as_bytes().to_vec()),
    ] {
        let described = format!("{} {}", request.method, request.url);
        let r = send(&mut a, request);
        assert_eq!(r.status, 501, "{described}: {}", text(&r));
        let error_code = r
            .headers
            .iter()
            .find(|(n, _)| n == "x-ms-error-code")
            .map(|(_, v)| v.as_str());
        assert_eq!(error_code, Some("NotImplemented"), "{described}");
    }
}

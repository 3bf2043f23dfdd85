//! Golden wire tests for how a request's credentials are read: bytes in, bytes out, through
//! `wire::handle` with the development account's key (docs/service/wire.md#authorization).
//! The signed requests are the JS SDK's own (`@azure/data-tables` 13.3.2, SharedKeyLite, for
//! devstoreaccount1 at `x-ms-date: Mon, 23 Nov 2026 20:24:50 GMT`), as in
//! crates/wire/src/auth/tests.rs.

use tablescope_engine::{Account, DateTime, FixedClock};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest, HttpResponse};

const BASE: &str = "http://127.0.0.1:10002/devstoreaccount1";
const RID: &str = "c2e1f4a8-0000-4000-8000-000000000002";
const JS_DATE: &str = "Mon, 23 Nov 2026 20:24:50 GMT";
/// The JS SDK's SharedKeyLite signature of `GET /Tables` at JS_DATE.
const LIST_TABLES_SIGNATURE: &str = "a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=";
/// A read-only SAS for table Employees, as `generateTableSas` wrote it.
const TABLE_SAS: &str = "sv=2019-02-02&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=r&sig=wUZ9hhtbqfcvpWHvaSRShtuvG1aqeCGBYEvwbQKINBI%3D&tn=Employees";

fn send(endpoint: &Endpoint, request: HttpRequest) -> HttpResponse {
    let at = DateTime::parse("2026-11-23T20:25:00Z").unwrap();
    let mut account = Account::new(Box::new(FixedClock(at)));
    let context = Context {
        now: at,
        request_id: RID.into(),
    };
    let request = request
        .header("Host", "127.0.0.1:10002")
        .header("x-ms-version", "2019-02-02")
        .header("Accept", "application/json;odata=minimalmetadata");
    wire::handle(&mut account, endpoint, &context, &request).response
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

/// The JSON error the service writes: status line, headers, `odata.error` body.
fn error(status: &str, code: &str, message: &str) -> String {
    format!(
        "{status}\n\
         Cache-Control: no-cache\n\
         Content-Type: application/json; odata=minimalmetadata; streaming=true; charset=utf-8\n\
         x-ms-request-id: {RID}\n\
         x-ms-version: 2019-02-02\n\
         X-Content-Type-Options: nosniff\n\
         Date: Mon, 23 Nov 2026 20:25:00 GMT\n\
         \n\
         {{\"odata.error\":{{\"code\":\"{code}\",\"message\":{{\"lang\":\"en-US\",\"value\":\"{message}\\nRequestId:{RID}\\nTime:2026-11-23T20:25:00.0000000Z\"}}}}}}"
    )
}

fn list_tables(query: &str) -> HttpRequest {
    HttpRequest::new("GET", &format!("{BASE}/Tables{query}"))
}

fn signed(request: HttpRequest) -> HttpRequest {
    request.header("x-ms-date", JS_DATE).header(
        "Authorization",
        &format!("SharedKeyLite devstoreaccount1:{LIST_TABLES_SIGNATURE}"),
    )
}

const INVALID_AUTHENTICATION_INFO: &str = "Authentication information is not given in the correct format. Check the value of Authorization header.";
const AUTHENTICATION_FAILED: &str = "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.";

#[test]
fn a_sas_beside_an_authorization_header_is_400_invalid_authentication_info() {
    let dev = Endpoint::development();
    // Each alone is served.
    assert_eq!(send(&dev, signed(list_tables(""))).status, 200);
    let sas_alone = send(
        &dev,
        HttpRequest::new("GET", &format!("{BASE}/Employees()?{TABLE_SAS}")),
    );
    // (the SAS is good; the table does not exist)
    assert_eq!(sas_alone.status, 404, "{}", text(&sas_alone));
    // Together, on any endpoint, whether either would pass or not.
    let expected = error(
        "400 Bad Request",
        "InvalidAuthenticationInfo",
        INVALID_AUTHENTICATION_INFO,
    );
    let both = signed(list_tables(&format!("?{TABLE_SAS}")));
    let bearer = HttpRequest::new("GET", &format!("{BASE}/Employees()?{TABLE_SAS}"))
        .header("Authorization", "Bearer eyJ0eXAi");
    for endpoint in [&dev, &Endpoint::anonymous("devstoreaccount1")] {
        for request in [&both, &bearer] {
            assert_eq!(text(&send(endpoint, request.clone())), expected);
        }
    }
}

#[test]
fn a_shared_key_request_without_a_date_is_403_authentication_failed() {
    let expected = error(
        "403 Forbidden",
        "AuthenticationFailed",
        AUTHENTICATION_FAILED,
    );
    let header = format!("SharedKeyLite devstoreaccount1:{LIST_TABLES_SIGNATURE}");
    let undated = list_tables("").header("Authorization", &header);
    let empty = undated.clone().header("x-ms-date", "");
    let stale = list_tables("")
        .header("x-ms-date", "Mon, 23 Nov 2026 20:09:59 GMT")
        .header("Authorization", &header);
    let full = list_tables("").header(
        "Authorization",
        "SharedKey devstoreaccount1:wKydAfnTBfGnVmXwT/qWivpm0Q3FVGhrCq1/WBP8ytE=",
    );
    for request in [undated, empty, stale, full] {
        assert_eq!(
            text(&send(&Endpoint::development(), request.clone())),
            expected,
            "{request:?}"
        );
    }
    // Signed over `Date` alone, the same request is served.
    let dated = list_tables("")
        .header("Date", JS_DATE)
        .header("Authorization", &header);
    assert_eq!(send(&Endpoint::development(), dated).status, 200);
}

#[test]
fn an_unreadable_authorization_header_is_400_invalid_authentication_info() {
    let expected = error(
        "400 Bad Request",
        "InvalidAuthenticationInfo",
        INVALID_AUTHENTICATION_INFO,
    );
    for header in [
        "SharedKeyLite".to_string(),
        "SharedKeyLite devstoreaccount1".to_string(),
        format!("SharedKeyLite devstoreaccount1:x:{LIST_TABLES_SIGNATURE}"),
        "SharedKeyLite devstoreaccount1:not base64!".to_string(),
    ] {
        let request = list_tables("")
            .header("x-ms-date", JS_DATE)
            .header("Authorization", &header);
        assert_eq!(
            text(&send(&Endpoint::development(), request)),
            expected,
            "{header}"
        );
    }
}

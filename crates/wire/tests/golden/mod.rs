//! What the golden wire tests share: an account whose clock stands at a known instant, a
//! fixed request context, and requests and responses as text.
#![allow(dead_code)]

use tablescope_engine::{Account, DateTime, FixedClock};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest, HttpResponse};

pub const BASE: &str = "http://127.0.0.1:10002/devstoreaccount1";
pub const RID: &str = "c2e1f4a8-0000-4000-8000-000000000001";

pub fn account() -> Account {
    // Timestamps start at 2021-09-10T14:40:21.6047768Z and step one tick per write.
    let at = DateTime::parse("2021-09-10T14:40:21.6047768Z").unwrap();
    Account::new(Box::new(FixedClock(at)))
}

pub fn context() -> Context {
    Context {
        now: DateTime::parse("2021-09-10T14:40:22Z").unwrap(),
        request_id: RID.into(),
    }
}

pub fn send(account: &mut Account, request: HttpRequest) -> HttpResponse {
    let request = request.header("Host", "127.0.0.1:10002");
    wire::handle(
        account,
        &Endpoint::anonymous("devstoreaccount1"),
        &context(),
        &request,
    )
    .response
}

/// The error's code, from the `odata.error` body: production's JSON errors carry it there
/// only, never in an `x-ms-error-code` header (this asserts so).
pub fn error_code(r: &HttpResponse) -> Option<String> {
    assert_eq!(
        r.header_value("x-ms-error-code"),
        None,
        "a JSON error has no x-ms-error-code"
    );
    let body: serde_json::Value = serde_json::from_slice(&r.body).ok()?;
    Some(body["odata.error"]["code"].as_str()?.to_string())
}

pub fn req(method: &str, path: &str) -> HttpRequest {
    HttpRequest::new(method, &format!("/devstoreaccount1{path}"))
        .header("x-ms-version", "2019-02-02")
        .header("DataServiceVersion", "3.0")
}

pub fn json_req(method: &str, path: &str, body: &str) -> HttpRequest {
    req(method, path)
        .header("Content-Type", "application/json")
        .body(body.as_bytes().to_vec())
}

pub fn text(r: &HttpResponse) -> String {
    let mut out = format!("{} {}\n", r.status, r.reason());
    for (n, v) in &r.headers {
        out.push_str(&format!("{n}: {v}\n"));
    }
    out.push('\n');
    out.push_str(&String::from_utf8_lossy(&r.body));
    out
}

pub fn with_table(name: &str) -> Account {
    let mut a = account();
    let r = send(
        &mut a,
        json_req("POST", "/Tables", &format!(r#"{{"TableName":"{name}"}}"#))
            .header("Prefer", "return-no-content"),
    );
    assert_eq!(r.status, 204, "{}", text(&r));
    a
}

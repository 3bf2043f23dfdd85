//! The few responses the server writes itself (CORS refusals, a data directory that can no
//! longer be written), in the wire layer's error format: the service's headers and the
//! `odata.error` body with the request id and time after the message. `Date` is added by
//! the HTTP layer.

use crate::engine::wire::Context;
use crate::engine::wire::{HttpRequest, HttpResponse, Metadata};

/// The API version echoed when the request names none (as `engine::wire` does).
const DEFAULT_VERSION: &str = "2019-02-02";

/// An error response with the service's `status`, `code` and `message`.
pub fn error(
    request: &HttpRequest,
    context: &Context,
    status: u16,
    code: &str,
    message: &str,
) -> HttpResponse {
    let value = format!(
        "{message}\nRequestId:{}\nTime:{}",
        context.request_id,
        context.now.to_string_7()
    );
    let body = serde_json::json!({"odata.error": {"code": code, "message": {"lang": "en-US", "value": value}}});
    let h = |n: &str, v: &str| (n.to_string(), v.to_string());
    HttpResponse {
        status,
        headers: vec![
            h("Cache-Control", "no-cache"),
            h("Content-Type", Metadata::Minimal.content_type()),
            h("x-ms-request-id", &context.request_id),
            h("x-ms-version", version(request)),
            h("X-Content-Type-Options", "nosniff"),
            h("x-ms-error-code", code),
        ],
        body: body.to_string().into_bytes(),
    }
}

/// The request's `x-ms-version`, echoed as production does.
pub fn version(request: &HttpRequest) -> &str {
    request
        .header_value("x-ms-version")
        .unwrap_or(DEFAULT_VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::DateTime;

    #[test]
    fn errors_look_like_the_wire_layers() {
        let context = Context {
            now: DateTime::parse("2026-01-02T03:04:05.5Z").unwrap(),
            request_id: "r-1".into(),
        };
        let request = HttpRequest::new("GET", "/").header("x-ms-version", "2020-12-06");
        let r = error(&request, &context, 500, "InternalError", "Oops.");
        assert_eq!(r.status, 500);
        assert_eq!(
            String::from_utf8(r.body).unwrap(),
            r#"{"odata.error":{"code":"InternalError","message":{"lang":"en-US","value":"Oops.\nRequestId:r-1\nTime:2026-01-02T03:04:05.5000000Z"}}}"#
        );
        assert_eq!(r.headers[3], ("x-ms-version".into(), "2020-12-06".into()));
        assert_eq!(
            r.headers[5],
            ("x-ms-error-code".into(), "InternalError".into())
        );
    }
}

//! The few responses the server writes itself (CORS refusals, a data directory that can no
//! longer be written), through the wire layer's error writer, so they look like every other
//! error the service sends.

use tablescope_engine::{Error, ErrorCode};
use tablescope_wire::{self as wire, Context, HttpRequest, HttpResponse};

/// The service's error response for `code`, written by the wire layer's own writer.
pub fn error(request: &HttpRequest, context: &Context, code: ErrorCode) -> HttpResponse {
    wire::error_response(context, request, &Error::new(code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablescope_engine::DateTime;

    #[test]
    fn errors_are_the_wire_layers() {
        let context = Context {
            now: DateTime::parse("2026-01-02T03:04:05.5Z").unwrap(),
            request_id: "r-1".into(),
        };
        let request = HttpRequest::new("GET", "/").header("x-ms-version", "2020-12-06");
        let r = error(&request, &context, ErrorCode::InternalError);
        assert_eq!(r.status, 500);
        assert_eq!(
            String::from_utf8(r.body.clone()).unwrap(),
            r#"{"odata.error":{"code":"InternalError","message":{"lang":"en-US","value":"Server encountered an internal error. Please try again after some time.\nRequestId:r-1\nTime:2026-01-02T03:04:05.5000000Z"}}}"#
        );
        assert_eq!(r.header_value("x-ms-version"), Some("2020-12-06"));
        assert_eq!(
            r.header_value("x-ms-error-code"),
            None,
            "JSON errors carry the code in the body only"
        );
    }
}

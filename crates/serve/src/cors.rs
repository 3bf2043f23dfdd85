//! CORS, so that a page (the playground, a learner's app) can call the endpoint.
//!
//! The service answers CORS by the rules set with Set Table Service Properties; this server
//! behaves as if one rule allowed every origin, the service's verbs and any header, and exposed
//! every response header (a browser hides the others, and the SDK needs `ETag` and the
//! continuation headers to page). As the service and Azurite do for a rule naming the
//! origin: a preflight gets 200 with the origin, the requested method and headers echoed,
//! `Access-Control-Max-Age` and `Access-Control-Allow-Credentials`; a preflight without
//! `Origin` or `Access-Control-Request-Method` is 400 InvalidHeaderValue; a method outside the
//! rule is 403 CorsPreflightFailure.

use super::reply;
use tablescope_wire::{Context, HttpRequest, HttpResponse};

/// The verbs the service allows in a CORS rule, and PATCH (the SDKs' merge).
const METHODS: [&str; 8] = [
    "DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH",
];

/// How long a browser may keep a preflight's answer (browsers cap it: Chromium at 2 hours).
pub const MAX_AGE_SECONDS: &str = "86400";

/// Response headers exposed even when a response does not carry them, so the list is the
/// same whichever response a page sees first.
pub const EXPOSED: [&str; 15] = [
    "Cache-Control",
    "Content-Type",
    "Date",
    "ETag",
    "Location",
    "DataServiceId",
    "DataServiceVersion",
    "Preference-Applied",
    "X-Content-Type-Options",
    "x-ms-request-id",
    "x-ms-version",
    "x-ms-continuation-NextPartitionKey",
    "x-ms-continuation-NextRowKey",
    "x-ms-continuation-NextTableName",
    "x-ms-error-code",
];

/// Answers an `OPTIONS` request (a preflight).
pub fn preflight(request: &HttpRequest, context: &Context) -> HttpResponse {
    let origin = request.header_value("Origin").filter(|o| !o.is_empty());
    let method = request
        .header_value("Access-Control-Request-Method")
        .filter(|m| !m.is_empty());
    let (Some(origin), Some(method)) = (origin, method) else {
        return reply::error(
            request,
            context,
            tablescope_engine::ErrorCode::InvalidHeaderValue,
        );
    };
    if !METHODS
        .iter()
        .any(|m| m.eq_ignore_ascii_case(method.trim()))
    {
        return reply::error(
            request,
            context,
            tablescope_engine::ErrorCode::CorsPreflightFailure,
        );
    }
    let h = |n: &str, v: &str| (n.to_string(), v.to_string());
    let mut headers = vec![
        h("Access-Control-Allow-Origin", origin),
        h("Access-Control-Allow-Methods", method.trim()),
    ];
    if let Some(asked) = request.header_value("Access-Control-Request-Headers") {
        headers.push(h("Access-Control-Allow-Headers", asked));
    }
    headers.extend([
        h("Access-Control-Max-Age", MAX_AGE_SECONDS),
        h("Access-Control-Allow-Credentials", "true"),
        h("Vary", "Origin"),
        h("x-ms-request-id", &context.request_id),
        h("x-ms-version", tablescope_wire::api_version(request)),
    ]);
    HttpResponse {
        status: 200,
        headers,
        body: Vec::new(),
    }
}

/// Lets the page that sent `origin` read `response`: the origin allowed, and every header
/// the response carries (and those of [`EXPOSED`]) exposed.
pub fn allow(origin: &str, response: &mut HttpResponse) {
    let mut exposed: Vec<&str> = Vec::with_capacity(response.headers.len() + EXPOSED.len());
    for name in response
        .headers
        .iter()
        .map(|(n, _)| n.as_str())
        .chain(EXPOSED)
    {
        if !exposed.iter().any(|e| e.eq_ignore_ascii_case(name)) {
            exposed.push(name);
        }
    }
    let exposed = exposed.join(",");
    let h = |n: &str, v: &str| (n.to_string(), v.to_string());
    response.headers.extend([
        h("Access-Control-Allow-Origin", origin),
        h("Access-Control-Expose-Headers", &exposed),
        h("Access-Control-Allow-Credentials", "true"),
        h("Vary", "Origin"),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablescope_engine::DateTime;

    fn context() -> Context {
        Context {
            now: DateTime::MIN,
            request_id: "id".into(),
        }
    }

    #[test]
    fn a_preflight_echoes_what_was_asked() {
        let request = HttpRequest::new("OPTIONS", "/devstoreaccount1/T()")
            .header("Origin", "http://localhost:8080")
            .header("Access-Control-Request-Method", "PATCH")
            .header("Access-Control-Request-Headers", "if-match,x-ms-date");
        let r = preflight(&request, &context());
        assert_eq!(r.status, 200);
        let h = |n: &str, v: &str| (n.to_string(), v.to_string());
        assert_eq!(
            r.headers,
            vec![
                h("Access-Control-Allow-Origin", "http://localhost:8080"),
                h("Access-Control-Allow-Methods", "PATCH"),
                h("Access-Control-Allow-Headers", "if-match,x-ms-date"),
                h("Access-Control-Max-Age", "86400"),
                h("Access-Control-Allow-Credentials", "true"),
                h("Vary", "Origin"),
                h("x-ms-request-id", "id"),
                h("x-ms-version", "2019-02-02"),
            ]
        );
        assert_eq!(r.body, b"");
    }

    /// The code of a JSON error, from its body: production sends no `x-ms-error-code` with one.
    fn code(r: &HttpResponse) -> Option<String> {
        assert_eq!(r.header_value("x-ms-error-code"), None);
        let body: serde_json::Value = serde_json::from_slice(&r.body).ok()?;
        Some(body["odata.error"]["code"].as_str()?.to_string())
    }

    #[test]
    fn a_preflight_without_its_headers_or_with_another_verb_is_refused() {
        let no_method = HttpRequest::new("OPTIONS", "/").header("Origin", "http://localhost:8080");
        let r = preflight(&no_method, &context());
        assert_eq!(
            (r.status, code(&r).as_deref()),
            (400, Some("InvalidHeaderValue"))
        );
        let no_origin =
            HttpRequest::new("OPTIONS", "/").header("Access-Control-Request-Method", "GET");
        assert_eq!(preflight(&no_origin, &context()).status, 400);
        let trace = no_method.header("Access-Control-Request-Method", "TRACE");
        let r = preflight(&trace, &context());
        assert_eq!(
            (r.status, code(&r).as_deref()),
            (403, Some("CorsPreflightFailure"))
        );
    }

    #[test]
    fn responses_expose_their_headers_once() {
        let mut r = HttpResponse {
            status: 204,
            headers: vec![
                ("etag".into(), "W/\"x\"".into()),
                ("Extra".into(), "1".into()),
            ],
            body: Vec::new(),
        };
        allow("https://example.org", &mut r);
        assert_eq!(
            r.header_value("Access-Control-Expose-Headers"),
            Some(
                "etag,Extra,Cache-Control,Content-Type,Date,Location,DataServiceId,\
                 DataServiceVersion,Preference-Applied,X-Content-Type-Options,x-ms-request-id,\
                 x-ms-version,x-ms-continuation-NextPartitionKey,x-ms-continuation-NextRowKey,\
                 x-ms-continuation-NextTableName,x-ms-error-code"
            )
        );
        assert_eq!(
            r.header_value("Access-Control-Allow-Origin"),
            Some("https://example.org")
        );
    }
}

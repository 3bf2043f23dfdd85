//! The wire layer's response handed to hyper: its status, its headers in order, its body.
//!
//! The names the wire layer writes are a small fixed set; each is a static `HeaderName`, which
//! costs no parsing and no allocation, instead of being parsed from the string on every
//! response. A value keeps the wire layer's bytes: the `String` is handed
//! over, not copied. hyper writes names in lower case either way, so the bytes on the wire are
//! the same as with names parsed from the strings.

use super::body::Body;
use hyper::body::Bytes;
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::{Response, StatusCode};
use tablescope_wire::HttpResponse;

/// The header name `name`: static, neither parsed nor allocated, for every name the wire layer
/// writes, spelled as it writes them; parsed for any other. `None` for a string that is not a
/// header name.
fn name(name: &str) -> Option<HeaderName> {
    Some(match name {
        "Cache-Control" => header::CACHE_CONTROL,
        "Content-Length" => header::CONTENT_LENGTH,
        "Content-Type" => header::CONTENT_TYPE,
        "x-ms-request-id" => HeaderName::from_static("x-ms-request-id"),
        "x-ms-version" => HeaderName::from_static("x-ms-version"),
        "X-Content-Type-Options" => header::X_CONTENT_TYPE_OPTIONS,
        "Date" => header::DATE,
        "ETag" => header::ETAG,
        "Preference-Applied" => HeaderName::from_static("preference-applied"),
        "Location" => header::LOCATION,
        "DataServiceId" => HeaderName::from_static("dataserviceid"),
        "DataServiceVersion" => HeaderName::from_static("dataserviceversion"),
        "x-ms-continuation-NextPartitionKey" => {
            HeaderName::from_static("x-ms-continuation-nextpartitionkey")
        }
        "x-ms-continuation-NextRowKey" => HeaderName::from_static("x-ms-continuation-nextrowkey"),
        "x-ms-continuation-NextTableName" => {
            HeaderName::from_static("x-ms-continuation-nexttablename")
        }
        "x-ms-error-code" => HeaderName::from_static("x-ms-error-code"),
        "Vary" => header::VARY,
        "Access-Control-Allow-Origin" => header::ACCESS_CONTROL_ALLOW_ORIGIN,
        "Access-Control-Allow-Credentials" => header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
        "Access-Control-Expose-Headers" => header::ACCESS_CONTROL_EXPOSE_HEADERS,
        "Access-Control-Allow-Methods" => header::ACCESS_CONTROL_ALLOW_METHODS,
        "Access-Control-Allow-Headers" => header::ACCESS_CONTROL_ALLOW_HEADERS,
        "Access-Control-Max-Age" => header::ACCESS_CONTROL_MAX_AGE,
        _ => return HeaderName::from_bytes(name.as_bytes()).ok(),
    })
}

#[cfg(test)]
const WIRE_NAMES: [&str; 23] = [
    "Cache-Control",
    "Content-Length",
    "Content-Type",
    "x-ms-request-id",
    "x-ms-version",
    "X-Content-Type-Options",
    "Date",
    "ETag",
    "Preference-Applied",
    "Location",
    "DataServiceId",
    "DataServiceVersion",
    "x-ms-continuation-NextPartitionKey",
    "x-ms-continuation-NextRowKey",
    "x-ms-continuation-NextTableName",
    "x-ms-error-code",
    "Vary",
    "Access-Control-Allow-Origin",
    "Access-Control-Allow-Credentials",
    "Access-Control-Expose-Headers",
    "Access-Control-Allow-Methods",
    "Access-Control-Allow-Headers",
    "Access-Control-Max-Age",
];

/// `response` as hyper sends it. A header hyper cannot carry (a name or value with bytes
/// HTTP forbids) is left out, as before: the wire layer writes none.
pub fn to_hyper(response: HttpResponse) -> Response<Body> {
    let mut headers = HeaderMap::with_capacity(response.headers.len());
    for (n, value) in response.headers {
        if let (Some(n), Ok(value)) = (
            name(&n),
            HeaderValue::from_maybe_shared(Bytes::from(value.into_bytes())),
        ) {
            headers.append(n, value);
        }
    }
    let mut out = Response::new(Body::new(response.body));
    *out.status_mut() =
        StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    *out.headers_mut() = headers;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_are_static_and_others_parsed() {
        for spelled in WIRE_NAMES {
            let parsed = HeaderName::from_bytes(spelled.as_bytes()).unwrap();
            assert_eq!(name(spelled), Some(parsed.clone()), "{spelled}");
            assert_eq!(name(&spelled.to_ascii_uppercase()), Some(parsed));
        }
        assert_eq!(name("ETag"), Some(header::ETAG));
        assert_eq!(
            name("Content-ID").map(|n| n.to_string()),
            Some("content-id".into())
        );
        assert_eq!(name("bad name"), None);
    }

    #[test]
    fn headers_keep_their_order_values_and_repeats() {
        let response = HttpResponse {
            status: 201,
            headers: vec![
                ("Cache-Control".into(), "no-cache".into()),
                ("Vary".into(), "Origin".into()),
                ("X-Odd".into(), "one".into()),
                ("Vary".into(), "Access-Control-Request-Headers".into()),
                ("Bad".into(), "line\nbreak".into()),
            ],
            body: b"{}".to_vec(),
        };
        let out = to_hyper(response);
        assert_eq!(out.status(), StatusCode::CREATED);
        let got: Vec<(String, String)> = out
            .headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap().to_string()))
            .collect();
        assert_eq!(
            got,
            [
                ("cache-control", "no-cache"),
                ("vary", "Origin"),
                ("vary", "Access-Control-Request-Headers"),
                ("x-odd", "one"),
            ]
            .map(|(n, v)| (n.to_string(), v.to_string()))
        );
    }
}

//! The headers every response carries, in the order production writes them, and the error
//! response (docs/service/wire.md#headers, docs/service/wire.md#statuses).

use super::dialect::Dialect;
use super::http::HttpResponse;
use super::payload;
use super::Context;
use std::fmt::Write as _;
use tablescope_engine::DateTime;
use tablescope_engine::Error;

/// The API version written when the request names none.
pub const DEFAULT_VERSION: &str = "2019-02-02";

/// What every response of one request shares.
pub struct Reply<'a> {
    pub context: &'a Context,
    /// The request's `x-ms-version`, echoed.
    pub version: &'a str,
    /// The service whose bytes are written.
    pub dialect: Dialect,
}

impl Reply<'_> {
    /// A response with `status`, `body` (of `content_type` when not empty), and the
    /// operation's own headers (`ETag`, `Location`, continuation, …) placed where production
    /// puts them: after `Cache-Control` and `Content-Type`, before the request id; those named
    /// in `after` (`Preference-Applied`, `DataServiceId`) follow `X-Content-Type-Options`.
    pub fn response(
        &self,
        status: u16,
        content_type: Option<&str>,
        own: Vec<(String, String)>,
        after: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> HttpResponse {
        let service = self.dialect.service_headers();
        let mut headers = Vec::with_capacity(8);
        if service {
            headers.push(("Cache-Control".to_string(), "no-cache".to_string()));
        }
        if self.dialect.empty_length() && (status == 204 || (status == 202 && body.is_empty())) {
            // Production says a bodiless answer is empty, in so many words (a 202 without a
            // body is Set Table Service Properties'; HTTP frames it the same way).
            headers.push(("Content-Length".into(), "0".into()));
        }
        if let Some(ct) = content_type {
            headers.push(("Content-Type".into(), ct.into()));
        }
        headers.extend(own);
        headers.push(("x-ms-request-id".into(), self.context.request_id.clone()));
        if service {
            headers.push(("x-ms-version".into(), self.version.to_string()));
            headers.push(("X-Content-Type-Options".into(), "nosniff".into()));
        }
        headers.extend(after);
        headers.push(("Date".into(), http_date(self.context.now)));
        HttpResponse {
            status,
            headers,
            body,
        }
    }

    /// The error response: the service's status and code, and its message followed by the
    /// request id and time, as production writes it. The code is in the body only: production's
    /// JSON errors carry no `x-ms-error-code` header (the SDKs read the body).
    pub fn error(&self, error: &Error) -> HttpResponse {
        self.error_with(error, Vec::new())
    }

    /// [`Reply::error`] with headers of the request's own that production keeps on this error
    /// (`Preference-Applied` on an insert refused for a property without a value).
    pub fn error_with(&self, error: &Error, after: Vec<(String, String)>) -> HttpResponse {
        self.error_as(error, after, false)
    }

    /// [`Reply::error_with`] saying whether the refused request was a merge (Cosmos answers
    /// a merge's 404 in fullmetadata).
    pub fn error_as(
        &self,
        error: &Error,
        after: Vec<(String, String)>,
        merge: bool,
    ) -> HttpResponse {
        let body = self.error_body(error);
        self.response(
            error.status(),
            Some(self.dialect.error_content_type(error, merge)),
            Vec::new(),
            after,
            body.into_bytes(),
        )
    }

    /// `{"odata.error":…}` with the request id (and on storage the time) after the message.
    pub fn error_body(&self, error: &Error) -> String {
        let time = self.context.now.to_string_7();
        let message = self
            .dialect
            .error_message(error, &self.context.request_id, &time);
        payload::error(error.code.as_str(), self.dialect.lang(), &message)
    }

    /// A failing `$batch` part's error body.
    pub fn part_error_body(&self, error: &Error) -> String {
        let time = self.context.now.to_string_7();
        let message = self
            .dialect
            .part_message(error, &self.context.request_id, &time);
        payload::error(error.code.as_str(), self.dialect.lang(), &message)
    }
}

/// The service's error response for `error`, as [`super::handle`] writes it: for callers
/// that refuse a request before it reaches the engine (a read-only tab, a server whose disk
/// failed, a CORS refusal), so every error a client sees has one format.
pub fn error_response(
    context: &Context,
    request: &super::HttpRequest,
    error: &Error,
) -> HttpResponse {
    let version = api_version(request);
    Reply {
        context,
        version,
        dialect: Dialect::Storage,
    }
    .error(error)
}

/// The API version a response names: the request's `x-ms-version`, echoed as production
/// does, or [`DEFAULT_VERSION`] when it names none.
pub fn api_version(request: &super::HttpRequest) -> &str {
    request
        .header_value("x-ms-version")
        .unwrap_or(DEFAULT_VERSION)
}

/// A header as a response carries it.
pub(super) fn header(name: &str, value: impl Into<String>) -> (String, String) {
    (name.to_string(), value.into())
}

/// `Date` as HTTP writes it (RFC 1123): `Mon, 23 Nov 2026 19:49:23 GMT`.
pub fn http_date(t: DateTime) -> String {
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (year, month, day, weekday) = t.date();
    // `YYYY-MM-DDTHH:MM:SS…`: the time of day is characters 11..19.
    let mut iso = String::with_capacity(28);
    t.write(&mut iso, ":", tablescope_engine::Fraction::Seven);
    let mut out = String::with_capacity(29);
    out.push_str(DAYS.get(weekday as usize).unwrap_or(&"Mon"));
    out.push_str(", ");
    if day < 10 {
        out.push('0');
    }
    let _ = write!(out, "{day} ");
    out.push_str(
        MONTHS
            .get((month as usize).wrapping_sub(1))
            .unwrap_or(&"Jan"),
    );
    let _ = write!(out, " {year:04} ");
    out.push_str(iso.get(11..19).unwrap_or("00:00:00"));
    out.push_str(" GMT");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_http_writes_them() {
        let t = DateTime::parse("2026-11-23T19:49:23.5Z").unwrap();
        assert_eq!(http_date(t), "Mon, 23 Nov 2026 19:49:23 GMT");
        let t = DateTime::parse("2021-09-10T14:40:21Z").unwrap();
        assert_eq!(http_date(t), "Fri, 10 Sep 2021 14:40:21 GMT");
        assert_eq!(http_date(DateTime::MIN), "Mon, 01 Jan 1601 00:00:00 GMT");
    }
}

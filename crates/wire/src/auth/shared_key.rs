//! `Authorization: SharedKey <account>:<sig>` and `SharedKeyLite <account>:<sig>` for the
//! Table service ("Authorize with Shared Key").
//!
//! Both sign the canonicalized resource: `/` + account + the request path exactly as sent
//! (still percent-encoded; the SDKs differ in what they encode, e.g. JS sends `'` and Python
//! `%27`, and each signs what it sends), plus `?comp=<value>` when the query has `comp`.
//! With path-style URLs the path already holds the account, so the resource reads
//! `/devstoreaccount1/devstoreaccount1/Tables`.
//! - SharedKeyLite: `date \n resource`;
//! - SharedKey: `VERB \n Content-MD5 \n Content-Type \n date \n resource`.
//!
//! `date` is `x-ms-date`, or `Date` when there is none (the SDKs send only `x-ms-date`;
//! some older clients sign `Date` while sending both, so both are tried). The service refuses
//! a request dated more than 15 minutes from its clock.

use super::{authentication_failed, decode_signature, signature_matches};
use crate::http::{query_pairs, split_target, HttpRequest};
use crate::Endpoint;
use tablescope_engine::DateTime;
use tablescope_engine::Result;

/// How far a request's date may be from the service's clock: 15 minutes, in ticks.
const MAX_SKEW_TICKS: i64 = 15 * 60 * 10_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scheme {
    SharedKey,
    SharedKeyLite,
}

/// Checks an `Authorization` header against the endpoint's account and key.
pub(super) fn verify(
    endpoint: &Endpoint,
    request: &HttpRequest,
    header: &str,
    now: DateTime,
) -> Result<()> {
    let (scheme, rest) = header
        .trim()
        .split_once(' ')
        .ok_or_else(|| authentication_failed("the Authorization header has no scheme"))?;
    let scheme = match scheme {
        "SharedKey" => Scheme::SharedKey,
        "SharedKeyLite" => Scheme::SharedKeyLite,
        other => {
            return Err(authentication_failed(format!(
                "the authentication scheme '{other}' is not supported; use SharedKey, SharedKeyLite or a SAS"
            )))
        }
    };
    let (account, signature) = rest.trim().rsplit_once(':').ok_or_else(|| {
        authentication_failed("the Authorization header is not <account>:<signature>")
    })?;
    if account != endpoint.account {
        return Err(authentication_failed(format!(
            "the signature names account '{account}'; this endpoint serves '{}'",
            endpoint.account
        )));
    }
    let signature = decode_signature(signature)?;
    let dates = signed_dates(request);
    if dates.is_empty() {
        return Err(authentication_failed(
            "the request has no x-ms-date or Date header",
        ));
    }
    let resource = canonicalized_resource(&endpoint.account, &request.url)?;
    let signed = dates.iter().find(|date| {
        let string_to_sign = string_to_sign(scheme, request, date, &resource);
        signature_matches(&endpoint.key, &string_to_sign, &signature)
    });
    let date = signed.ok_or_else(|| {
        authentication_failed(
            "the signature does not match the request signed with the account key",
        )
    })?;
    check_fresh(date, now)
}

/// The date values a client may have signed: `x-ms-date` first, then `Date`.
fn signed_dates(request: &HttpRequest) -> Vec<&str> {
    ["x-ms-date", "Date"]
        .iter()
        .filter_map(|name| request.header_value(name))
        .filter(|value| !value.is_empty())
        .collect()
}

fn string_to_sign(scheme: Scheme, request: &HttpRequest, date: &str, resource: &str) -> String {
    match scheme {
        Scheme::SharedKeyLite => format!("{date}\n{resource}"),
        Scheme::SharedKey => format!(
            "{}\n{}\n{}\n{date}\n{resource}",
            request.method,
            request.header_value("Content-MD5").unwrap_or(""),
            request.header_value("Content-Type").unwrap_or(""),
        ),
    }
}

/// `/account` + the path as sent (`/` when empty) + `?comp=<value>` when present.
pub(super) fn canonicalized_resource(account: &str, url: &str) -> Result<String> {
    let parts = split_target(url);
    let path = if parts.path.is_empty() {
        "/"
    } else {
        parts.path
    };
    let mut resource = format!("/{account}{path}");
    let params = query_pairs(parts.query).ok_or_else(|| {
        authentication_failed("the query string is not valid percent-encoded UTF-8")
    })?;
    if let Some((_, comp)) = params.iter().find(|(name, _)| name == "comp") {
        resource.push_str("?comp=");
        resource.push_str(comp);
    }
    Ok(resource)
}

/// The service refuses a date it cannot read or one more than 15 minutes from its clock.
fn check_fresh(date: &str, now: DateTime) -> Result<()> {
    let sent = parse_http_date(date).ok_or_else(|| {
        authentication_failed(format!("the request date '{date}' is not an RFC 1123 date"))
    })?;
    let skew = sent.ticks().abs_diff(now.ticks());
    if skew > MAX_SKEW_TICKS.unsigned_abs() {
        return Err(authentication_failed(format!(
            "the request date '{date}' is more than 15 minutes from the service's clock ({now})"
        )));
    }
    Ok(())
}

/// Parses the RFC 1123 form HTTP dates take: `Mon, 23 Nov 2026 20:24:50 GMT`.
pub(super) fn parse_http_date(text: &str) -> Option<DateTime> {
    let (_weekday, rest) = text.trim().split_once(", ")?;
    let mut fields = rest.split(' ');
    let day: u32 = fields.next()?.parse().ok()?;
    let month = match fields.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: i32 = fields.next()?.parse().ok()?;
    let mut clock = fields.next()?.split(':');
    let hour: u32 = clock.next()?.parse().ok()?;
    let minute: u32 = clock.next()?.parse().ok()?;
    let second: u32 = clock.next()?.parse().ok()?;
    if clock.next().is_some() || fields.next()? != "GMT" || fields.next().is_some() {
        return None;
    }
    let seconds = chrono::NaiveDate::from_ymd_opt(year, month, day)?
        .and_hms_opt(hour, minute, second)?
        .and_utc()
        .timestamp();
    DateTime::from_unix_millis(seconds.checked_mul(1000)?)
}

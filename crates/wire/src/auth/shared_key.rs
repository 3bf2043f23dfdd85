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
//! The request's date is `x-ms-date` when the header is present, else `Date` (the service
//! reads, checks and signs that one value; a client that signs `Date` must not also send
//! `x-ms-date`). It must be there, be an HTTP date, and be at most 15 minutes old.
//!
//! The checks run in the order the service's front end runs them, so a request wrong in
//! several ways gets the service's answer: the header's shape (400
//! `InvalidAuthenticationInfo`), the date (403 `AuthenticationFailed`), the scheme (403),
//! `<account>:<signature>` (400), the account (403), base64 (400), the signature (403).

use super::{authentication_failed, invalid_authentication_info, signature_matches};
use crate::http::{query_pairs, split_target, HttpRequest};
use crate::Endpoint;
use tablescope_engine::DateTime;
use tablescope_engine::Result;

/// How old a request's date may be: 15 minutes, in ticks.
const MAX_AGE_TICKS: i64 = 15 * 60 * 10_000_000;

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
        .filter(|(scheme, rest)| !scheme.is_empty() && !rest.trim().is_empty())
        .ok_or_else(|| {
            invalid_authentication_info("the Authorization header is not '<scheme> <parameters>'")
        })?;
    let date = request_date(request)?;
    check_fresh(date, now)?;
    let scheme = match scheme {
        "SharedKey" => Scheme::SharedKey,
        "SharedKeyLite" => Scheme::SharedKeyLite,
        other => {
            return Err(authentication_failed(format!(
                "the authentication scheme '{other}' is not supported; use SharedKey, SharedKeyLite or a SAS"
            )))
        }
    };
    let (account, signature) = split_parameters(rest.trim())?;
    if account != endpoint.account {
        return Err(authentication_failed(format!(
            "the signature names account '{account}'; this endpoint serves '{}'",
            endpoint.account
        )));
    }
    let signature = decode_base64(signature)?;
    let resource = canonicalized_resource(&endpoint.account, &request.url)?;
    let string_to_sign = string_to_sign(scheme, request, date, &resource);
    if signature_matches(&endpoint.key, &string_to_sign, &signature) {
        Ok(())
    } else {
        Err(authentication_failed(format!(
            "the signature is not the one the account key gives for the string to sign {string_to_sign:?}"
        )))
    }
}

/// `x-ms-date` if the request has that header (even empty), else `Date`; refused when the
/// value is missing or empty.
fn request_date(request: &HttpRequest) -> Result<&str> {
    request
        .header_value("x-ms-date")
        .or_else(|| request.header_value("Date"))
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .ok_or_else(|| {
            authentication_failed("the request has no date: send x-ms-date (or Date) and sign it")
        })
}

/// `<account>:<signature>`: exactly two non-empty parts around one colon.
fn split_parameters(text: &str) -> Result<(&str, &str)> {
    let mut parts = text.split(':').filter(|part| !part.is_empty());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(account), Some(signature), None) => Ok((account, signature)),
        _ => Err(invalid_authentication_info(
            "the Authorization header's parameters are not <account>:<signature>",
        )),
    }
}

/// A signature that is not base64 is unreadable (400), not merely wrong (403).
fn decode_base64(text: &str) -> Result<Vec<u8>> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|_| invalid_authentication_info("the signature is not base64"))
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

/// The service refuses a date it cannot read, and one more than 15 minutes in the past. A
/// date ahead of its clock is not refused: the service checks only the age.
fn check_fresh(date: &str, now: DateTime) -> Result<()> {
    let sent = parse_http_date(date).ok_or_else(|| {
        authentication_failed(format!(
            "the request date '{date}' is not an HTTP date (RFC 1123 or RFC 850)"
        ))
    })?;
    if sent.ticks() < now.ticks().saturating_sub(MAX_AGE_TICKS) {
        return Err(authentication_failed(format!(
            "the request date '{date}' is more than 15 minutes before the service's clock ({now})"
        )));
    }
    Ok(())
}

/// Parses the two forms "Representation of date/time values in headers" accepts, both in
/// GMT: RFC 1123 (`Mon, 23 Nov 2026 20:24:50 GMT`) and RFC 850 (`Monday, 23-Nov-26
/// 20:24:50 GMT`, a two-digit year from 1950 to 2049). The weekday must be the date's.
pub(super) fn parse_http_date(text: &str) -> Option<DateTime> {
    let (weekday, rest) = text.trim().split_once(", ")?;
    let mut fields = rest.split(' ');
    let (date, long_weekday) = match (fields.next()?, fields.next()) {
        (dmy, Some(clock)) if dmy.contains('-') => {
            let mut parts = dmy.split('-');
            let (day, month, year) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() || year.len() != 2 {
                return None;
            }
            let year: i32 = two_digits(year)?.try_into().ok()?;
            let year = if year < 50 { 2000 + year } else { 1900 + year };
            ((two_digits(day)?, month, year, clock), true)
        }
        (day, Some(month)) => {
            let year = fields.next()?;
            if year.len() != 4 {
                return None;
            }
            let year: i32 = year.parse().ok()?;
            ((two_digits(day)?, month, year, fields.next()?), false)
        }
        _ => return None,
    };
    let (day, month, year, clock) = date;
    if fields.next()? != "GMT" || fields.next().is_some() {
        return None;
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| *m == month)? as u32 + 1;
    let mut clock = clock.split(':');
    let (hour, minute, second) = (clock.next()?, clock.next()?, clock.next()?);
    if clock.next().is_some() {
        return None;
    }
    let time = chrono::NaiveDate::from_ymd_opt(year, month, day)?.and_hms_opt(
        two_digits(hour)?,
        two_digits(minute)?,
        two_digits(second)?,
    )?;
    use chrono::Datelike as _;
    let named = time.weekday().to_string(); // "Mon"
    let full = match time.weekday() {
        chrono::Weekday::Mon => "Monday",
        chrono::Weekday::Tue => "Tuesday",
        chrono::Weekday::Wed => "Wednesday",
        chrono::Weekday::Thu => "Thursday",
        chrono::Weekday::Fri => "Friday",
        chrono::Weekday::Sat => "Saturday",
        chrono::Weekday::Sun => "Sunday",
    };
    if weekday != if long_weekday { full } else { named.as_str() } {
        return None;
    }
    DateTime::from_unix_millis(time.and_utc().timestamp().checked_mul(1000)?)
}

/// Exactly two ASCII digits.
fn two_digits(text: &str) -> Option<u32> {
    (text.len() == 2 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

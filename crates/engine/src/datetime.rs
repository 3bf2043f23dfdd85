//! Edm.DateTime: an instant at 100 ns precision, in the service's range.
//!
//! Stored as ticks of 100 ns since 1601-01-01T00:00:00Z (the Windows FILETIME epoch, which is
//! also the service's lower bound), so the valid range is `0..=MAX_TICKS` and comparison is
//! integer comparison.

// Only chrono's RFC 3339 parser and its calendar arithmetic: its strftime-style formatting and
// parsing would add ~10 KB gzip to the page for two fixed layouts written out below.
use chrono::{DateTime as ChronoDateTime, Datelike, NaiveDate, NaiveDateTime, Timelike};
use std::fmt;

/// Seconds from 1601-01-01 to 1970-01-01.
const EPOCH_DIFF_SECS: i64 = 11_644_473_600;
const TICKS_PER_SEC: i64 = 10_000_000;
/// 9999-12-31T23:59:59.9999999Z in ticks since 1601.
pub const MAX_TICKS: i64 = 2_650_467_743_999_999_999;

/// An instant between 1601-01-01 and 9999-12-31T23:59:59.9999999Z, at 100 ns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DateTime(i64);

/// Why a DateTime text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateTimeError {
    /// Not ISO 8601 text.
    Syntax,
    /// A valid instant outside the service's range.
    OutOfRange,
}

impl DateTime {
    pub const MIN: DateTime = DateTime(0);
    pub const MAX: DateTime = DateTime(MAX_TICKS);

    /// From ticks of 100 ns since 1601-01-01; `None` outside the service's range.
    pub fn from_ticks(ticks: i64) -> Option<DateTime> {
        (0..=MAX_TICKS).contains(&ticks).then_some(DateTime(ticks))
    }

    pub fn ticks(self) -> i64 {
        self.0
    }

    /// From milliseconds since the Unix epoch (what a browser clock gives).
    pub fn from_unix_millis(ms: i64) -> Option<DateTime> {
        let ticks = ms
            .checked_add(EPOCH_DIFF_SECS * 1000)?
            .checked_mul(10_000)?;
        DateTime::from_ticks(ticks)
    }

    /// Parses ISO 8601 / RFC 3339 text (`2024-01-01T00:00:00Z`, `...T00:00:00.1234567+02:00`,
    /// `...T00:00Z`). Digits beyond the seventh fractional digit are truncated.
    pub fn parse(text: &str) -> Result<DateTime, DateTimeError> {
        let parsed = ChronoDateTime::parse_from_rfc3339(text)
            .or_else(|_| {
                // `2024-01-01T00:00Z`: minutes without seconds, UTC only.
                let body = text.strip_suffix('Z').ok_or(DateTimeError::Syntax)?;
                let minutes = body.len() == 16 && body.as_bytes()[13] == b':';
                if !minutes {
                    return Err(DateTimeError::Syntax);
                }
                ChronoDateTime::parse_from_rfc3339(&format!("{body}:00Z"))
                    .map_err(|_| DateTimeError::Syntax)
            })
            .map(|d| d.naive_utc())
            .map_err(|_| DateTimeError::Syntax)?;
        let secs = parsed.and_utc().timestamp() + EPOCH_DIFF_SECS;
        let frac = i64::from(parsed.nanosecond() % 1_000_000_000) / 100;
        let ticks = secs
            .checked_mul(TICKS_PER_SEC)
            .and_then(|t| t.checked_add(frac))
            .ok_or(DateTimeError::OutOfRange)?;
        DateTime::from_ticks(ticks).ok_or(DateTimeError::OutOfRange)
    }

    fn parts(self) -> (NaiveDateTime, i64) {
        let secs = self.0.div_euclid(TICKS_PER_SEC) - EPOCH_DIFF_SECS;
        let frac = self.0.rem_euclid(TICKS_PER_SEC);
        let naive = ChronoDateTime::from_timestamp(secs, 0)
            .map(|d| d.naive_utc())
            .unwrap_or_else(|| NaiveDate::MIN.and_hms_opt(0, 0, 0).unwrap_or_default());
        (naive, frac)
    }

    /// Always seven fractional digits: `2024-01-01T00:00:00.0000000Z` (the Timestamp form).
    pub fn to_string_7(self) -> String {
        let (naive, frac) = self.parts();
        format!("{}.{frac:07}Z", Seconds(naive))
    }
}

/// The service's form for DateTime values: no fraction on a whole second, otherwise all seven
/// digits (`2008-07-10T00:00:00Z`, `2013-08-22T00:20:16.3134645Z`).
impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (naive, frac) = self.parts();
        write!(f, "{}", Seconds(naive))?;
        if frac != 0 {
            write!(f, ".{frac:07}")?;
        }
        f.write_str("Z")
    }
}

/// `YYYY-MM-DDTHH:MM:SS`; the year is always four digits in the service's range.
struct Seconds(NaiveDateTime);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            d.year(),
            d.month(),
            d.day(),
            d.hour(),
            d.minute(),
            d.second()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        assert_eq!(DateTime::parse("1601-01-01T00:00:00Z"), Ok(DateTime::MIN));
        assert_eq!(
            DateTime::parse("9999-12-31T23:59:59.9999999Z"),
            Ok(DateTime::MAX)
        );
        assert_eq!(
            DateTime::parse("1600-12-31T23:59:59.9999999Z"),
            Err(DateTimeError::OutOfRange)
        );
        assert_eq!(DateTime::parse("not a date"), Err(DateTimeError::Syntax));
    }

    #[test]
    fn seven_digits_round_trip() {
        let d = DateTime::parse("2024-02-29T12:34:56.1234567Z").unwrap();
        assert_eq!(d.to_string(), "2024-02-29T12:34:56.1234567Z");
        assert_eq!(
            DateTime::parse("2024-02-29T12:34:56Z").unwrap().to_string(),
            "2024-02-29T12:34:56Z"
        );
        assert_eq!(
            DateTime::parse("2024-01-01T00:00:00.5Z")
                .unwrap()
                .to_string_7(),
            "2024-01-01T00:00:00.5000000Z"
        );
        let offset = DateTime::parse("2024-01-01T02:00:00+02:00").unwrap();
        assert_eq!(offset.to_string(), "2024-01-01T00:00:00Z");
        assert_eq!(DateTime::MAX.to_string(), "9999-12-31T23:59:59.9999999Z");
        assert_eq!(DateTime::MIN.to_string(), "1601-01-01T00:00:00Z");
    }

    #[test]
    fn minutes_without_seconds() {
        assert_eq!(
            DateTime::parse("2024-01-01T12:34Z").unwrap().to_string(),
            "2024-01-01T12:34:00Z"
        );
        assert_eq!(
            DateTime::parse("2024-01-01T12:34"),
            Err(DateTimeError::Syntax)
        );
        assert_eq!(
            DateTime::parse("2024-01-01T12:34+02:00Z"),
            Err(DateTimeError::Syntax)
        );
    }

    #[test]
    fn hundred_nanosecond_precision() {
        let a = DateTime::parse("2024-01-01T00:00:00.0000001Z").unwrap();
        let b = DateTime::parse("2024-01-01T00:00:00.0000002Z").unwrap();
        assert_eq!(b.ticks() - a.ticks(), 1);
    }
}

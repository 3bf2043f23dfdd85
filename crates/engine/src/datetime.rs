//! Edm.DateTime: an instant at 100 ns precision, in the service's range.
//!
//! Stored as ticks of 100 ns since 1601-01-01T00:00:00Z (the Windows FILETIME epoch, which is
//! also the service's lower bound), so the valid range is `0..=MAX_TICKS` and comparison is
//! integer comparison.

// Only chrono's RFC 3339 parser: its strftime-style formatting and
// parsing would add ~10 KB gzip to the page for two fixed layouts written out below.
use chrono::{DateTime as ChronoDateTime, Timelike};
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

    /// Parses an Edm.DateTime as the service reads one: ISO 8601 date and time with seconds or
    /// without (`2024-01-01T00:00Z`), 0 to 7 fraction digits (more are truncated), and a UTC
    /// designator `Z`, an offset (`+02:00`, converted to UTC), or neither (taken as UTC:
    /// `2023-01-01T23:00:00` is `2023-01-01T23:00:00Z`).
    pub fn parse(text: &str) -> Result<DateTime, DateTimeError> {
        let designated = has_designator(text);
        let rfc3339 = |t: &str| ChronoDateTime::parse_from_rfc3339(t).ok();
        let parsed = if designated {
            rfc3339(text).or_else(|| {
                // `2024-01-01T00:00Z`: minutes without seconds, UTC only.
                let body = text.strip_suffix('Z')?;
                is_minutes(body)
                    .then(|| rfc3339(&format!("{body}:00Z")))
                    .flatten()
            })
        } else if is_minutes(text) {
            rfc3339(&format!("{text}:00Z"))
        } else {
            rfc3339(&format!("{text}Z"))
        }
        .ok_or(DateTimeError::Syntax)?
        .naive_utc();
        let secs = parsed.and_utc().timestamp() + EPOCH_DIFF_SECS;
        let frac = i64::from(parsed.nanosecond() % 1_000_000_000) / 100;
        let ticks = secs
            .checked_mul(TICKS_PER_SEC)
            .and_then(|t| t.checked_add(frac))
            .ok_or(DateTimeError::OutOfRange)?;
        DateTime::from_ticks(ticks).ok_or(DateTimeError::OutOfRange)
    }

    /// Always seven fractional digits: `2024-01-01T00:00:00.0000000Z` (the Timestamp form).
    pub fn to_string_7(self) -> String {
        let mut out = String::with_capacity(28);
        self.write(&mut out, ":", Fraction::Seven);
        out
    }

    /// Writes the instant as ISO 8601 text with `colon` between the time fields (the ETag
    /// writes `%3A`). Digits are written directly: formatting is on every response's path.
    pub fn write(self, out: &mut String, colon: &str, fraction: Fraction) {
        // Ticks are never negative (the range starts at the epoch), so plain unsigned division
        // works, and the day, the second of the day and the fraction each fit 32 bits.
        let ticks = self.0.max(0) as u64;
        let secs = ticks / TICKS_PER_SEC as u64;
        let frac = (ticks % TICKS_PER_SEC as u64) as u32;
        let (year, month, day) = civil_since_1601((secs / 86_400) as u32);
        let in_day = (secs % 86_400) as u32;
        // Composed on the stack two digits at a time and appended once: every ETag, Timestamp
        // and DateTime value of a response goes through here.
        let mut text = Text::default();
        text.pair(year / 100);
        text.pair(year % 100);
        text.byte(b'-');
        text.pair(month);
        text.byte(b'-');
        text.pair(day);
        text.byte(b'T');
        text.pair(in_day / 3600);
        text.push(colon.as_bytes());
        text.pair(in_day / 60 % 60);
        text.push(colon.as_bytes());
        text.pair(in_day % 60);
        let (digits, width) = match fraction {
            Fraction::Seven => (frac, 7),
            Fraction::WhenNonZero if frac != 0 => (frac, 7),
            Fraction::Trimmed if frac != 0 => {
                let (mut f, mut width) = (frac, 7);
                while f % 10 == 0 {
                    f /= 10;
                    width -= 1;
                }
                (f, width)
            }
            _ => (0, 0),
        };
        if width > 0 {
            text.byte(b'.');
            text.digits(digits, width);
        }
        text.byte(b'Z');
        out.push_str(text.as_str());
    }

    /// The (year, month, day) and the weekday (0 = Monday) of the instant, in UTC.
    pub fn date(self) -> (i64, u32, u32, u32) {
        let days = self.0.div_euclid(TICKS_PER_SEC * 86_400);
        let (y, m, d) = civil(days - EPOCH_DIFF_SECS / 86_400);
        // 1601-01-01 was a Monday.
        (y, m, d, days.rem_euclid(7) as u32)
    }
}

/// How many fractional digits [`DateTime::write`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fraction {
    /// Always seven (Timestamp, ETag).
    Seven,
    /// None on a whole second, otherwise seven (DateTime values).
    WhenNonZero,
    /// Without trailing zeros, none on a whole second: how production writes Timestamp and
    /// DateTime values on the wire (`…21.047563Z`, `…:00Z`).
    Trimmed,
}

/// `00` to `99`, for [`Text::pair`].
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// ASCII text composed on the stack: the longest form, `9999-12-31T23%3A59%3A59.9999999Z`,
/// has 32 bytes; anything past the capacity is dropped (never a panic).
struct Text {
    buf: [u8; 48],
    len: usize,
}

impl Default for Text {
    fn default() -> Self {
        Text {
            buf: [0; 48],
            len: 0,
        }
    }
}

impl Text {
    fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        if let Some(slot) = self.buf.get_mut(self.len..self.len + bytes.len()) {
            slot.copy_from_slice(bytes);
            self.len += bytes.len();
        }
    }

    /// `value` zero-padded to `width` digits (at most 8).
    fn digits(&mut self, value: u32, width: usize) {
        let mut buf = [b'0'; 8];
        let width = width.min(buf.len());
        let mut v = value;
        for slot in buf.iter_mut().take(width).rev() {
            *slot = b'0' + (v % 10) as u8;
            v /= 10;
        }
        self.push(buf.get(..width).unwrap_or_default());
    }

    /// `value` (under 100) as two digits.
    fn pair(&mut self, value: u32) {
        let at = (value as usize % 100) * 2;
        if let (Some(slot), Some(digits)) = (
            self.buf.get_mut(self.len..self.len + 2),
            PAIRS.get(at..at + 2),
        ) {
            slot.copy_from_slice(digits);
            self.len += 2;
        }
    }

    fn as_str(&self) -> &str {
        // Only ASCII is ever pushed (digits, `-T:.Z%3A` and the caller's separator).
        std::str::from_utf8(self.buf.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }
}

/// The civil date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// [`civil`] for a day counted from 1601-01-01 (what a tick count gives), in unsigned
/// arithmetic: the service's range starts there, so nothing is negative.
fn civil_since_1601(days: u32) -> (u32, u32, u32) {
    // 1601-03-01 is the start of an era-relative year (days 0..59 fall in 1600's shifted year).
    // Days from 0000-03-01 to 1601-01-01: 584,694.
    let z = days + 584_694;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + u32::from(month <= 2), month, day)
}

/// Whether ISO 8601 text ends in a zone: `Z` or a `±hh:mm` offset after the time of day.
fn has_designator(text: &str) -> bool {
    let time = text.get(11..).unwrap_or("");
    time.ends_with(['Z', 'z']) || time.contains(['+', '-'])
}

/// `YYYY-MM-DDThh:mm`: a time of day without seconds and without a zone.
fn is_minutes(text: &str) -> bool {
    text.len() == 16 && text.as_bytes().get(13) == Some(&b':')
}

/// The service's form for DateTime values: no fraction on a whole second, otherwise all seven
/// digits (`2008-07-10T00:00:00Z`, `2013-08-22T00:20:16.3134645Z`).
impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(28);
        self.write(&mut out, ":", Fraction::WhenNonZero);
        f.write_str(&out)
    }
}

/// Written as the service writes a stored time (`2020-01-01T00:00:00.0000000Z`), read back
/// as any DateTime the service accepts.
impl serde::Serialize for DateTime {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string_7())
    }
}

impl<'de> serde::Deserialize<'de> for DateTime {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        DateTime::parse(&text).map_err(|e| serde::de::Error::custom(format!("{text:?}: {e:?}")))
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
    fn no_designator_is_utc() {
        let utc = DateTime::parse("2023-01-01T23:00:00Z").unwrap();
        assert_eq!(DateTime::parse("2023-01-01T23:00:00"), Ok(utc));
        assert_eq!(utc.to_string(), "2023-01-01T23:00:00Z");
        for (text, expect) in [
            ("2023-01-01T23:00:00.1", "2023-01-01T23:00:00.1000000Z"),
            ("2023-01-01T23:00:00.12", "2023-01-01T23:00:00.1200000Z"),
            ("2023-01-01T23:00:00.123", "2023-01-01T23:00:00.1230000Z"),
            ("2023-01-01T23:00:00.1234", "2023-01-01T23:00:00.1234000Z"),
            ("2023-01-01T23:00:00.12345", "2023-01-01T23:00:00.1234500Z"),
            ("2023-01-01T23:00:00.123456", "2023-01-01T23:00:00.1234560Z"),
            (
                "2023-01-01T23:00:00.1234567",
                "2023-01-01T23:00:00.1234567Z",
            ),
        ] {
            assert_eq!(
                DateTime::parse(text).unwrap().to_string_7(),
                expect,
                "{text}"
            );
        }
        assert_eq!(
            DateTime::parse("9999-12-31T23:59:59.9999999"),
            Ok(DateTime::MAX)
        );
        assert_eq!(
            DateTime::parse("1600-12-31T23:59:59"),
            Err(DateTimeError::OutOfRange)
        );
        for bad in [
            "2023-01-01",
            "2023-01-01T23",
            "2023-13-01T00:00:00",
            "2023-01-01T23:00:00ZZ",
            "2023-01-01 23:00:00x",
            "",
        ] {
            assert_eq!(DateTime::parse(bad), Err(DateTimeError::Syntax), "{bad:?}");
        }
    }

    #[test]
    fn every_day_of_the_range_has_the_same_civil_date_both_ways() {
        let last = (MAX_TICKS / TICKS_PER_SEC / 86_400) as u32;
        for day in 0..=last {
            let (y, m, d) = civil(i64::from(day) - EPOCH_DIFF_SECS / 86_400);
            assert_eq!(civil_since_1601(day), (y as u32, m, d), "day {day}");
        }
        assert_eq!(civil_since_1601(0), (1601, 1, 1));
        assert_eq!(civil_since_1601(last), (9999, 12, 31));
        // The written text reads back, whatever the instant (265,001 instants ~10^13 ticks apart).
        for k in 0..=265_000 {
            let t = DateTime::from_ticks(k * 10_001_765_319_871).unwrap_or(DateTime::MAX);
            for fraction in [Fraction::Seven, Fraction::WhenNonZero, Fraction::Trimmed] {
                let mut text = String::new();
                t.write(&mut text, ":", fraction);
                assert_eq!(DateTime::parse(&text), Ok(t), "{text}");
            }
        }
    }

    #[test]
    fn offsets_convert_to_utc() {
        assert_eq!(
            DateTime::parse("2023-01-02T01:30:00+02:30")
                .unwrap()
                .to_string(),
            "2023-01-01T23:00:00Z"
        );
        assert_eq!(
            DateTime::parse("2023-01-01T20:00:00.5-03:00")
                .unwrap()
                .to_string(),
            "2023-01-01T23:00:00.5000000Z"
        );
    }

    #[test]
    fn minutes_without_seconds() {
        assert_eq!(
            DateTime::parse("2024-01-01T12:34Z").unwrap().to_string(),
            "2024-01-01T12:34:00Z"
        );
        assert_eq!(
            DateTime::parse("2024-01-01T12:34").unwrap().to_string(),
            "2024-01-01T12:34:00Z"
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

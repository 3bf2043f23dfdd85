//! Literal text every form shares: quoted strings, doubles, and the parts of a DateTime.

use tablescope_engine::DateTime;

/// A double-quoted string literal valid in JavaScript, Python, C# and Java: JSON's escapes
/// (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, `\u00XX` for other control characters) mean
/// the same in all four, and any other character stands for itself.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| String::from("\"\""))
}

/// A list of quoted strings separated by `, `.
pub fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| quoted(s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A finite double as the shortest text that reads back to the same bits, always with a `.`
/// or an exponent so no language takes it for an integer (`2.0`, `0.1`, `1e300`).
/// `None` for NaN and the infinities, which each language names in its own way.
pub fn double(v: f64) -> Option<String> {
    v.is_finite().then(|| format!("{v:?}"))
}

/// A DateTime's fields: year, month, day, hour, minute, second, and the fraction in 100 ns
/// ticks (0..=9_999_999).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instant {
    pub year: u32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub ticks: u32,
}

impl Instant {
    pub fn of(dt: DateTime) -> Instant {
        // `to_string_7` is `YYYY-MM-DDTHH:MM:SS.fffffffZ`; every field is at a fixed place.
        let text = dt.to_string_7();
        let field = |from: usize, to: usize| {
            text.get(from..to)
                .and_then(|s| s.parse::<u32>().ok())
                .unwrap_or(0)
        };
        Instant {
            year: field(0, 4),
            month: field(5, 7),
            day: field(8, 10),
            hour: field(11, 13),
            minute: field(14, 16),
            second: field(17, 19),
            ticks: field(20, 27),
        }
    }

    /// The ISO 8601 text with the fraction's trailing zeros dropped (none when whole), as
    /// the service writes DateTime values.
    pub fn text(self) -> String {
        let mut out = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        );
        if self.ticks != 0 {
            let fraction = format!("{:07}", self.ticks);
            out.push('.');
            out.push_str(fraction.trim_end_matches('0'));
        }
        out.push('Z');
        out
    }

    /// Whether milliseconds hold the instant exactly (JavaScript's `Date`).
    pub fn fits_millis(self) -> bool {
        self.ticks.is_multiple_of(10_000)
    }

    /// Whether microseconds hold the instant exactly (Python's `datetime`).
    pub fn fits_micros(self) -> bool {
        self.ticks.is_multiple_of(10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_alike() {
        assert_eq!(quoted("it's 100%"), r#""it's 100%""#);
        assert_eq!(quoted("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(quoted("日本"), "\"日本\"");
    }

    #[test]
    fn doubles_keep_their_type_and_bits() {
        assert_eq!(double(2.0).as_deref(), Some("2.0"));
        assert_eq!(double(0.1).as_deref(), Some("0.1"));
        assert_eq!(double(1e300).as_deref(), Some("1e300"));
        assert_eq!(double(-0.0).as_deref(), Some("-0.0"));
        assert_eq!(double(f64::NAN), None);
    }

    #[test]
    fn instants_split_into_fields() {
        let dt = DateTime::parse("2024-02-29T23:59:58.1234567Z").unwrap();
        let i = Instant::of(dt);
        assert_eq!(
            (i.year, i.month, i.day, i.hour, i.minute, i.second, i.ticks),
            (2024, 2, 29, 23, 59, 58, 1_234_567)
        );
        assert_eq!(i.text(), "2024-02-29T23:59:58.1234567Z");
        assert!(!i.fits_micros());
        let whole = Instant::of(DateTime::parse("2024-01-01T00:00:00Z").unwrap());
        assert_eq!(whole.text(), "2024-01-01T00:00:00Z");
        assert!(whole.fits_millis());
        let ms = Instant::of(DateTime::parse("2024-01-01T00:00:00.120Z").unwrap());
        assert_eq!(ms.text(), "2024-01-01T00:00:00.12Z");
        assert!(ms.fits_millis());
    }
}

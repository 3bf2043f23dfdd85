//! Entities: the two keys, the service-set Timestamp, and typed properties.

use super::datetime::DateTime;
use super::value::Value;
use std::sync::Arc;

/// A property name. Tables intern names so that a million entities share one allocation per
/// distinct name.
pub type PropertyName = Arc<str>;

/// One named, typed property.
pub type Property = (PropertyName, Value);

/// An entity as requests carry it and responses return it.
///
/// `timestamp` is `None` on the way in (a client-supplied Timestamp is ignored) and always set
/// on the way out. `properties` keep the order they were written in and never contain the
/// system properties.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entity {
    pub partition_key: String,
    pub row_key: String,
    pub timestamp: Option<DateTime>,
    pub properties: Vec<Property>,
}

impl Entity {
    pub fn new(partition_key: impl Into<String>, row_key: impl Into<String>) -> Self {
        Entity {
            partition_key: partition_key.into(),
            row_key: row_key.into(),
            ..Entity::default()
        }
    }

    /// Adds a property (builder style).
    pub fn with(mut self, name: &str, value: Value) -> Self {
        self.properties.push((name.into(), value));
        self
    }

    /// The value of a user property.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.properties
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }

    /// The ETag the service derives from the Timestamp: `W/"datetime'2024-...Z'"` with `:`
    /// written as `%3A`.
    pub fn etag(&self) -> Option<String> {
        self.timestamp.map(etag_for)
    }
}

/// A weak ETag, kept as the Timestamp it is derived from: its text (`W/"datetime'…'"`, see
/// [`etag_for`]) is written only when someone shows, sends or serializes it, so a read that
/// nobody looks at the ETag of does not format one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ETag(pub DateTime);

impl ETag {
    /// The Timestamp the ETag stands for.
    pub fn timestamp(self) -> DateTime {
        self.0
    }

    /// Reads the text [`etag_for`] writes, or the same instant with all seven fraction digits
    /// (as earlier versions wrote it, and as a client may have kept it); `None` for any other
    /// text.
    pub fn parse(text: &str) -> Option<ETag> {
        let inner = text.strip_prefix("W/\"datetime'")?.strip_suffix("'\"")?;
        let t = DateTime::parse(&inner.replace("%3A", ":")).ok()?;
        (etag_for(t) == text || etag_with_seven_digits(t) == text).then_some(ETag(t))
    }
}

impl std::fmt::Display for ETag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&etag_for(self.0))
    }
}

impl From<ETag> for String {
    fn from(etag: ETag) -> String {
        etag_for(etag.0)
    }
}

impl PartialEq<str> for ETag {
    fn eq(&self, other: &str) -> bool {
        etag_for(self.0) == other
    }
}

impl PartialEq<&str> for ETag {
    fn eq(&self, other: &&str) -> bool {
        etag_for(self.0) == *other
    }
}

impl PartialEq<String> for ETag {
    fn eq(&self, other: &String) -> bool {
        etag_for(self.0) == *other
    }
}

impl serde::Serialize for ETag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&etag_for(self.0))
    }
}

impl<'de> serde::Deserialize<'de> for ETag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        ETag::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a Tablescope ETag: {text}")))
    }
}

/// The weak ETag for a Timestamp: the same digits as the Timestamp itself (trailing zeros of
/// the fraction dropped), colons as `%3A`, as production writes it.
pub fn etag_for(timestamp: DateTime) -> String {
    etag_text(timestamp, super::datetime::Fraction::Trimmed)
}

/// The ETag with all seven fraction digits, as the engine's own JSON writes it beside a
/// seven-digit Timestamp (the wire writes both trimmed, [`etag_for`]).
pub(crate) fn etag_with_seven_digits(timestamp: DateTime) -> String {
    etag_text(timestamp, super::datetime::Fraction::Seven)
}

fn etag_text(timestamp: DateTime, fraction: super::datetime::Fraction) -> String {
    let mut out = String::with_capacity(48);
    out.push_str("W/\"datetime'");
    timestamp.write(&mut out, "%3A", fraction);
    out.push_str("'\"");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etag_reads_back() {
        let ts = DateTime::parse("2024-01-02T03:04:05.1234567Z").unwrap();
        let text = etag_for(ts);
        assert_eq!(ETag::parse(&text), Some(ETag(ts)));
        assert_eq!(ETag(ts).to_string(), text);
        assert_eq!(
            ETag::parse("W/\"datetime'2024-01-02T03:04:05.1234567Z'\""),
            None,
            "colons unescaped"
        );
        assert_eq!(ETag::parse("\"x\""), None);
        let trimmed = DateTime::parse("2024-01-02T03:04:05.12Z").unwrap();
        assert_eq!(
            etag_for(trimmed),
            "W/\"datetime'2024-01-02T03%3A04%3A05.12Z'\""
        );
        assert_eq!(
            ETag::parse("W/\"datetime'2024-01-02T03%3A04%3A05.1200000Z'\""),
            Some(ETag(trimmed)),
            "the seven-digit spelling still reads"
        );
        assert_eq!(
            ETag::parse("W/\"datetime'2024-01-02T03%3A04%3A05.120Z'\""),
            None,
            "neither spelling"
        );
        let json = serde_json::to_string(&ETag(ts)).unwrap();
        assert_eq!(serde_json::from_str::<ETag>(&json).unwrap(), ETag(ts));
    }

    #[test]
    fn etag_encodes_colons() {
        let ts = DateTime::parse("2024-01-02T03:04:05.1234567Z").unwrap();
        assert_eq!(
            etag_for(ts),
            "W/\"datetime'2024-01-02T03%3A04%3A05.1234567Z'\""
        );
    }
}

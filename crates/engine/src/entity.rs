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

/// The weak ETag for a Timestamp.
pub fn etag_for(timestamp: DateTime) -> String {
    let mut out = String::with_capacity(48);
    out.push_str("W/\"datetime'");
    timestamp.write(&mut out, "%3A", super::datetime::Fraction::Seven);
    out.push_str("'\"");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etag_encodes_colons() {
        let ts = DateTime::parse("2024-01-02T03:04:05.1234567Z").unwrap();
        assert_eq!(
            etag_for(ts),
            "W/\"datetime'2024-01-02T03%3A04%3A05.1234567Z'\""
        );
    }
}

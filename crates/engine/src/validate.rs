//! The service's limits and naming rules (docs/service/data-model.md), each failing with its exact code.

use super::detail::Detail;
use super::entity::Entity;
use super::error::{Error, ErrorCode, Result};
use super::key::utf16_len;

pub const MAX_KEY_UNITS: usize = 1024;
pub const MAX_USER_PROPERTIES: usize = 252;
pub const MAX_PROPERTY_NAME: usize = 255;
pub const MAX_STRING_UNITS: usize = 32 * 1024;
pub const MAX_BINARY_BYTES: usize = 64 * 1024;
pub const MAX_ENTITY_BYTES: usize = 1024 * 1024;

/// `^[A-Za-z][A-Za-z0-9]{2,62}$`, and not the reserved name `tables`.
pub fn table_name(name: &str) -> Result<()> {
    let len = name.chars().count();
    if !(3..=63).contains(&len) {
        return Err(Error::with_detail(
            ErrorCode::OutOfRangeInput,
            Detail::TableNameLength { len },
        ));
    }
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric()) {
        return Err(Error::with_detail(
            ErrorCode::InvalidResourceName,
            Detail::TableNameChars,
        ));
    }
    if name.eq_ignore_ascii_case("tables") {
        return Err(Error::with_detail(
            ErrorCode::InvalidResourceName,
            Detail::TableNameReserved,
        ));
    }
    Ok(())
}

/// PartitionKey and RowKey: no `/ \ # ?` or control characters, at most 1024 UTF-16 units.
pub fn key(which: &str, value: &str) -> Result<()> {
    if let Some(c) = value.chars().find(|c| is_forbidden_key_char(*c)) {
        return Err(Error::with_detail(
            ErrorCode::OutOfRangeInput,
            describe_char(which, c),
        ));
    }
    let units = utf16_len(value);
    if units > MAX_KEY_UNITS {
        return Err(Error::with_detail(
            ErrorCode::KeyValueTooLarge,
            Detail::KeyTooLarge {
                key: which.to_string(),
                units,
                limit: MAX_KEY_UNITS,
            },
        ));
    }
    Ok(())
}

pub fn is_forbidden_key_char(c: char) -> bool {
    matches!(c, '/' | '\\' | '#' | '?' | '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

fn describe_char(which: &str, c: char) -> Detail {
    let key = which.to_string();
    if c.is_control() {
        Detail::KeyControl { key, char: c }
    } else {
        Detail::KeyChar { key, char: c }
    }
}

/// A C#-style identifier of at most 255 characters.
pub fn property_name(name: &str) -> Result<()> {
    let valid = if name.is_ascii() {
        // The common case, without Unicode tables.
        let mut bytes = name.bytes();
        bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    } else {
        let mut chars = name.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    };
    if !valid {
        return Err(Error::with_detail(
            ErrorCode::PropertyNameInvalid,
            Detail::PropertyNameInvalid {
                name: name.to_string(),
            },
        ));
    }
    let len = name.chars().count();
    if len > MAX_PROPERTY_NAME {
        return Err(Error::with_detail(
            ErrorCode::PropertyNameTooLong,
            Detail::PropertyNameLong {
                limit: MAX_PROPERTY_NAME,
                len,
            },
        ));
    }
    Ok(())
}

/// Every limit on a whole entity: keys, property count, value sizes, total size.
pub fn entity(e: &Entity) -> Result<()> {
    key("PartitionKey", &e.partition_key)?;
    key("RowKey", &e.row_key)?;
    if e.properties.len() > MAX_USER_PROPERTIES {
        return Err(Error::with_detail(
            ErrorCode::TooManyProperties,
            Detail::TooManyProperties {
                n: e.properties.len(),
                limit: MAX_USER_PROPERTIES,
            },
        ));
    }
    for (name, value) in &e.properties {
        property_name(name)?;
        if matches!(&**name, "PartitionKey" | "RowKey" | "Timestamp") {
            return Err(Error::with_detail(
                ErrorCode::PropertyNameInvalid,
                Detail::SystemProperty {
                    name: name.to_string(),
                },
            ));
        }
        let too_large = match value {
            super::Value::String(s) => utf16_len(s) > MAX_STRING_UNITS,
            super::Value::Binary(b) => b.len() > MAX_BINARY_BYTES,
            _ => false,
        };
        if too_large {
            return Err(Error::with_detail(
                ErrorCode::PropertyValueTooLarge,
                Detail::PropertyValue {
                    name: name.to_string(),
                },
            ));
        }
    }
    for (i, (name, _)) in e.properties.iter().enumerate() {
        if e.properties[..i].iter().any(|(n, _)| n == name) {
            return Err(Error::with_detail(
                ErrorCode::DuplicatePropertiesSpecified,
                Detail::DuplicateProperty {
                    name: name.to_string(),
                },
            ));
        }
    }
    let size = entity_size(e);
    if size > MAX_ENTITY_BYTES {
        return Err(Error::with_detail(
            ErrorCode::EntityTooLarge,
            Detail::EntityTooLarge {
                size,
                limit: MAX_ENTITY_BYTES,
            },
        ));
    }
    Ok(())
}

/// The service's entity size: 4 + 2·(len PK + len RK) + Σ (8 + 2·len name + value size).
pub fn entity_size(e: &Entity) -> usize {
    4 + 2 * (utf16_len(&e.partition_key) + utf16_len(&e.row_key))
        + e.properties
            .iter()
            .map(|(n, v)| 8 + 2 * utf16_len(n) + v.size())
            .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names() {
        assert_eq!(
            table_name("ab").unwrap_err().code,
            ErrorCode::OutOfRangeInput
        );
        assert!(table_name("abc").is_ok());
        assert!(table_name(&"a".repeat(63)).is_ok());
        assert_eq!(
            table_name(&"a".repeat(64)).unwrap_err().code,
            ErrorCode::OutOfRangeInput
        );
        assert_eq!(
            table_name("1abc").unwrap_err().code,
            ErrorCode::InvalidResourceName
        );
        assert_eq!(
            table_name("ab-c").unwrap_err().code,
            ErrorCode::InvalidResourceName
        );
        assert_eq!(
            table_name("Tables").unwrap_err().code,
            ErrorCode::InvalidResourceName
        );
    }

    #[test]
    fn keys() {
        assert!(key("RowKey", "").is_ok());
        assert!(key("RowKey", "it's 100%, ok").is_ok());
        for bad in ["a/b", "a\\b", "a#b", "a?b", "a\u{1}b", "a\u{7f}", "\u{9f}"] {
            assert_eq!(
                key("RowKey", bad).unwrap_err().code,
                ErrorCode::OutOfRangeInput,
                "{bad:?}"
            );
        }
        assert!(key("RowKey", &"x".repeat(1024)).is_ok());
        assert_eq!(
            key("RowKey", &"x".repeat(1025)).unwrap_err().code,
            ErrorCode::KeyValueTooLarge
        );
        assert_eq!(
            key("RowKey", &"\u{1F600}".repeat(513)).unwrap_err().code,
            ErrorCode::KeyValueTooLarge
        );
    }

    #[test]
    fn property_names() {
        assert!(property_name("_a1").is_ok());
        assert!(property_name("Größe").is_ok());
        assert_eq!(
            property_name("1a").unwrap_err().code,
            ErrorCode::PropertyNameInvalid
        );
        assert_eq!(
            property_name("a-b").unwrap_err().code,
            ErrorCode::PropertyNameInvalid
        );
        assert_eq!(
            property_name("").unwrap_err().code,
            ErrorCode::PropertyNameInvalid
        );
        assert!(property_name(&"a".repeat(255)).is_ok());
        assert_eq!(
            property_name(&"a".repeat(256)).unwrap_err().code,
            ErrorCode::PropertyNameTooLong
        );
    }
}

//! Keys (PartitionKey, RowKey) and the service's ordering of them.
//!
//! The service orders strings ordinally by UTF-16 code unit. Rust's `str` order is by code
//! point, which differs only when one side has a supplementary character (encoded in UTF-16 as
//! a surrogate, 0xD800..0xDFFF) and the other a character in U+E000..U+FFFF: UTF-16 puts the
//! supplementary character first. [`Key`] implements the service's order.

use std::cmp::Ordering;
use std::fmt;

/// Compares two strings ordinally by UTF-16 code unit, as the service does.
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    // Fast path: byte order equals code point order; find the first differing byte.
    let common = ab.iter().zip(bb).take_while(|(x, y)| x == y).count();
    if common == ab.len() || common == bb.len() {
        return ab.len().cmp(&bb.len());
    }
    // Back up to the start of the differing characters (both share the prefix up to `start`).
    let mut start = common;
    while start > 0 && !a.is_char_boundary(start) {
        start -= 1;
    }
    let ca = a[start..].chars().next();
    let cb = b[start..].chars().next();
    match (ca, cb) {
        (Some(x), Some(y)) => utf16_first_unit(x)
            .cmp(&utf16_first_unit(y))
            .then(x.cmp(&y)),
        _ => ab.len().cmp(&bb.len()),
    }
}

/// The first UTF-16 code unit of a character: the high surrogate for supplementary ones.
fn utf16_first_unit(c: char) -> u16 {
    let mut buf = [0u16; 2];
    c.encode_utf16(&mut buf)[0]
}

/// The length of a string in UTF-16 code units, the unit of the service's limits.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// A PartitionKey or RowKey, ordered as the service orders them.
///
/// Keys of up to 24 bytes are stored inline: comparing them in a B-tree node then touches no
/// other memory, which is what makes a point read into a million rows fast, and looking one
/// up allocates nothing.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Key(compact_str::CompactString);

impl Key {
    pub fn new(s: &str) -> Self {
        Key(compact_str::CompactString::new(s))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        Key(compact_str::CompactString::from(s))
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        Key::new(s)
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        cmp_utf16(&self.0, &other.0)
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// Key deliberately does not implement Borrow<str>: str's order (by code point) differs from
// Key's, and Borrow requires the two to agree.

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supplementary_sorts_before_private_use_in_utf16() {
        // U+1F600 is D83D DE00 in UTF-16, which sorts before U+E000.
        assert_eq!(cmp_utf16("\u{1F600}", "\u{E000}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{E000}"), Ordering::Greater);
    }

    #[test]
    fn ascii_and_prefixes() {
        assert_eq!(cmp_utf16("a", "b"), Ordering::Less);
        assert_eq!(cmp_utf16("ab", "a"), Ordering::Greater);
        assert_eq!(cmp_utf16("", ""), Ordering::Equal);
        assert_eq!(cmp_utf16("B", "a"), Ordering::Less);
        assert_eq!(cmp_utf16("é1", "é2"), Ordering::Less);
    }

    #[test]
    fn utf16_length_counts_surrogates() {
        assert_eq!(utf16_len("a\u{1F600}"), 3);
    }
}

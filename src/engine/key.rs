//! Keys (PartitionKey, RowKey) and the service's ordering of them.
//!
//! The service orders strings ordinally by UTF-16 code unit. Rust's `str` order is by code
//! point, which differs only when one side has a supplementary character (encoded in UTF-16 as
//! a surrogate, 0xD800..0xDFFF) and the other a character in U+E000..U+FFFF: UTF-16 puts the
//! supplementary character first. [`Key`] implements the service's order.

use std::cmp::Ordering;
use std::fmt;

/// Compares two strings ordinally by UTF-16 code unit, as the service does.
///
/// UTF-8 byte order equals code point order, and that equals UTF-16 order except in one
/// case: at the first differing character, one is supplementary (UTF-8 lead byte 0xF0..=0xF4,
/// a surrogate pair in UTF-16) and the other lies in U+E000..=U+FFFF (lead byte 0xEE or
/// 0xEF). Both strings share everything before the first differing byte, so that byte is
/// either a lead byte in both (and decides the case) or a continuation byte in both (same
/// lead byte, so byte order is right).
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let i = first_mismatch(ab, bb);
    match (ab.get(i), bb.get(i)) {
        (Some(&x), Some(&y)) => utf16_rank(x).cmp(&utf16_rank(y)).then(x.cmp(&y)),
        _ => ab.len().cmp(&bb.len()),
    }
}

/// Where two byte strings first differ (the shorter length if one is a prefix of the other);
/// eight bytes at a time.
fn first_mismatch(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while let (Some(x), Some(y)) = (a.get(i..i + 8), b.get(i..i + 8)) {
        let (x, y) = (word(x), word(y));
        if x != y {
            return i + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a.get(i) == b.get(i) {
        i += 1;
    }
    i
}

/// Exactly eight bytes as a little-endian word.
#[inline]
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    if bytes.len() == 8 {
        w.copy_from_slice(bytes);
    }
    u64::from_le_bytes(w)
}

/// A byte's rank in UTF-16 order: supplementary lead bytes sort just above 0xED (whose
/// characters end at U+D7FF) and below 0xEE (U+E000 onwards), as surrogates do.
fn utf16_rank(byte: u8) -> u16 {
    if byte >= 0xF0 {
        0xED * 2 + 1
    } else {
        u16::from(byte) * 2
    }
}

/// The length of a string in UTF-16 code units, the unit of the service's limits.
pub fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
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
    fn agrees_with_encode_utf16_on_awkward_pairs() {
        let samples = [
            "",
            "a",
            "ab",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh\u{E000}",
            "abcdefgh\u{1F600}",
            "\u{D7FF}",
            "\u{E000}",
            "\u{FFFF}",
            "\u{10000}",
            "\u{1F600}",
            "\u{10FFFF}",
            "é",
            "日本",
            "x\u{FFFD}y",
            "x\u{1F600}y",
            "12345678\u{7F}",
        ];
        for a in samples {
            for b in samples {
                let want = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(cmp_utf16(a, b), want, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn utf16_length_counts_surrogates() {
        assert_eq!(utf16_len("a\u{1F600}"), 3);
    }
}

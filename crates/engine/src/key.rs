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
///
/// This is every B-tree step of a point read, so it compares eight bytes at a time as
/// big-endian words, and the last one to seven common bytes as one zero-padded word (padding
/// both sides alike cannot create or hide a difference); no byte-at-a-time loop.
#[inline]
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    cmp_utf16_from(a.as_bytes(), b.as_bytes(), 0)
}

/// [`cmp_utf16`] on UTF-8 bytes known to agree before `start`.
#[inline]
fn cmp_utf16_from(a: &[u8], b: &[u8], start: usize) -> Ordering {
    let n = a.len().min(b.len());
    let mut i = start;
    while let (Some(x), Some(y)) = (a.get(i..i + 8), b.get(i..i + 8)) {
        let (x, y) = (word_be(x), word_be(y));
        if x != y {
            return first_difference(x, y);
        }
        i += 8;
    }
    if let (Some(x), Some(y)) = (a.get(i..n), b.get(i..n)) {
        if !x.is_empty() {
            let (x, y) = (tail_be(x), tail_be(y));
            if x != y {
                return first_difference(x, y);
            }
        }
    }
    a.len().cmp(&b.len())
}

/// How two unequal big-endian words order in UTF-16, by their first differing byte.
#[inline]
fn first_difference(x: u64, y: u64) -> Ordering {
    // All ASCII (the usual key): byte order is UTF-16 order.
    if (x | y) & 0x8080_8080_8080_8080 == 0 {
        return x.cmp(&y);
    }
    let shift = 56 - ((x ^ y).leading_zeros() & !7);
    let (x, y) = ((x >> shift) as u8, (y >> shift) as u8);
    utf16_rank(x).cmp(&utf16_rank(y)).then(x.cmp(&y))
}

/// Exactly eight bytes as a big-endian word.
#[inline]
fn word_be(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    if bytes.len() == 8 {
        w.copy_from_slice(bytes);
    }
    u64::from_be_bytes(w)
}

/// One to seven bytes as a big-endian word, zero-padded on the right; two overlapping loads
/// rather than a loop.
#[inline]
fn tail_be(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if let (Some(hi), Some(lo)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let (hi, lo) = (
            u64::from(u32::from_be_bytes(*hi)),
            u64::from(u32::from_be_bytes(*lo)),
        );
        return (hi << 32) | (lo << (8 * (8 - n.min(8))));
    }
    // One to three bytes: the first, the middle and the last cover them all.
    let at = |k: usize| {
        bytes
            .get(k)
            .map_or(0, |b| u64::from(*b) << (56 - 8 * k.min(7)))
    };
    at(0) | at(n / 2) | at(n.saturating_sub(1))
}

/// A byte's rank in UTF-16 order: supplementary lead bytes sort just above 0xED (whose
/// characters end at U+D7FF) and below 0xEE (U+E000 onwards), as surrogates do.
#[inline]
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
/// other memory, and looking one up allocates nothing. The first eight bytes are also kept as
/// one big-endian word, `head`, with the bytes remapped ([`utf16_ranked`]) so that integer
/// order on heads is UTF-16 order: a B-tree step then compares two integers instead of
/// decoding two strings.
#[derive(Clone, Default)]
pub struct Key {
    /// The first eight bytes of the text, big-endian, zero-padded if shorter, through
    /// [`utf16_ranked`].
    head: u64,
    text: compact_str::CompactString,
}

impl Key {
    pub fn new(s: &str) -> Self {
        Key::from_text(compact_str::CompactString::new(s))
    }
    pub fn as_str(&self) -> &str {
        &self.text
    }
    fn from_text(text: compact_str::CompactString) -> Self {
        let bytes = text.as_bytes();
        let head = match bytes.first_chunk::<8>() {
            Some(w) => u64::from_be_bytes(*w),
            None if bytes.is_empty() => 0,
            None => tail_be(bytes),
        };
        Key {
            head: utf16_ranked(head),
            text,
        }
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        Key::from_text(compact_str::CompactString::from(s))
    }
}

/// A key serializes as its text.
impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        String::deserialize(d).map(Key::from)
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        Key::new(s)
    }
}

// `head` is a function of `text`: equality and hashing go by the text.
impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.head == other.head && self.text == other.text
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl Ord for Key {
    // Inlined into the B-tree search, where it runs a couple of dozen times per lookup; the
    // rare long-key tail stays out of line.
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        if self.head != other.head {
            return self.head.cmp(&other.head);
        }
        // Equal heads: the first min(len, 8) bytes agree (and the longer key's next bytes, up
        // to eight, are zero), so if either key has at most eight bytes it is a prefix of the
        // other.
        let (a, b) = (self.text.as_bytes(), other.text.as_bytes());
        if a.len() <= 8 || b.len() <= 8 {
            return a.len().cmp(&b.len());
        }
        cmp_long_keys(a, b)
    }
}

/// A big-endian word of UTF-8 bytes with each byte replaced by one that orders as
/// [`utf16_rank`] does, so that plain integer order on two such words is UTF-16 order on their
/// first differing byte. Only lead bytes 0xEE..=0xF4 move: the supplementary leads 0xF0..=0xF4
/// become 0xEE..=0xF2 (still in their own order) and 0xEE, 0xEF become 0xF3, 0xF4. Bytes
/// 0xF5..=0xFF never occur in UTF-8, so no two bytes collide, and zero stays zero.
#[inline]
fn utf16_ranked(word: u64) -> u64 {
    if word & 0x8080_8080_8080_8080 == 0 {
        return word;
    }
    let bytes = word.to_be_bytes().map(|b| match b {
        0xEE | 0xEF => b + 5,
        0xF0..=0xF4 => b - 2,
        _ => b,
    });
    u64::from_be_bytes(bytes)
}

/// Keys longer than eight bytes whose first eight agree.
#[inline(never)]
fn cmp_long_keys(a: &[u8], b: &[u8]) -> Ordering {
    cmp_utf16_from(a, b, 8)
}

impl PartialOrd for Key {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// Key deliberately does not implement Borrow<str>: str's order (by code point) differs from
// Key's, and Borrow requires the two to agree.

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.text.as_str(), f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
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
            "a\0",
            "abcdefg",
            "abcdefg\0",
            "abcdefgh\0",
            "abcdefgh\0\0",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "abcdefghijklmnop\u{E000}",
            "abcdefghijklmnop\u{1F600}",
            "ab\u{E000}",
            "ab\u{1F600}",
            "abcdef\u{E000}",
            "abcdef\u{1F600}",
            "a very long key that is stored on the heap, not inline",
            "a very long key that is stored on the heap, not inline!",
        ];
        for a in samples {
            for b in samples {
                let want = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(cmp_utf16(a, b), want, "{a:?} vs {b:?}");
                assert_eq!(Key::new(a).cmp(&Key::new(b)), want, "keys {a:?} vs {b:?}");
                assert_eq!(Key::new(a) == Key::new(b), a == b, "keys {a:?} == {b:?}");
            }
        }
    }

    #[test]
    fn utf16_length_counts_surrogates() {
        assert_eq!(utf16_len("a\u{1F600}"), 3);
    }
}

//! JSON string literals as the service writes them: every non-ASCII character as `\uXXXX`.

use std::fmt::Write as _;

/// A JSON string literal with every non-ASCII character as `\uXXXX` (UTF-16 units).
pub fn string(out: &mut String, text: &str) {
    out.push('"');
    escaped(out, text);
    out.push('"');
}

/// A JSON string's content: runs that need no escape (most text: keys, names, URLs) are
/// copied whole, the rest written character by character.
pub(super) fn escaped(out: &mut String, mut text: &str) {
    while let Some(at) = first_escape(text.as_bytes()) {
        let (plain, rest) = text.split_at(at);
        out.push_str(plain);
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { return };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || !c.is_ascii() => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
        text = chars.as_str();
    }
    out.push_str(text);
}

/// Whether a JSON string cannot hold `b` as it is: a control character, DEL or non-ASCII
/// (written as `\uXXXX`), a quote or a backslash.
fn needs_escape(b: u8) -> bool {
    !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\'
}

/// The index of the first byte of `text` that [`needs_escape`], looking at eight bytes at a
/// time until a word holds one: names, keys and most values hold none.
fn first_escape(text: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // Non-zero exactly when some byte of `v` is below `n` (n <= 0x80; bytes of 0x80 and
    // above are caught by `HIGH` on their own).
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH;
    let mut at = 0;
    for chunk in text.chunks_exact(8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let hits = (x & HIGH)
            | below(x, 0x20)
            | below(x ^ (ONES * 0x7f), 1)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1);
        if hits != 0 {
            break;
        }
        at += 8;
    }
    let tail = text.get(at..)?;
    tail.iter().position(|&b| needs_escape(b)).map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_escape_is_found_at_every_position() {
        for len in 0..40 {
            for at in 0..=len {
                for b in (0u8..=0x7f).chain([0xc3]) {
                    let mut text = vec![b'a'; len];
                    if at < len {
                        text[at] = b;
                    }
                    let want = text.iter().position(|&b| needs_escape(b));
                    assert_eq!(first_escape(&text), want, "{len} {at} {b:#x}");
                }
            }
        }
    }

    #[test]
    fn strings_escape_non_ascii() {
        let mut out = String::new();
        string(&mut out, "é\"\\\u{1F600}\u{1}x");
        assert_eq!(out, r#""\u00e9\"\\\ud83d\ude00\u0001x""#);
    }
}

//! The text of an imported file, decoded as its bytes stream in.
//!
//! A file is UTF-8, with or without a byte order mark, or UTF-16 (little or big endian) when it
//! starts with that encoding's byte order mark (what Excel's "Unicode text" writes). The byte
//! order mark is not part of the text. Bytes that are not valid in the file's encoding are
//! refused, naming the offset of the first bad one, never replaced by U+FFFD.
//!
//! Invariant: after any sequence of [`Decoder::push`] calls, the text returned so far is the
//! decoding of every byte pushed except a held tail of at most three bytes (an incomplete UTF-8
//! character, or an odd byte or a lone high surrogate of UTF-16), so a file cut into pieces
//! anywhere decodes to the same text as the whole.

use super::detail::Detail;
use super::error::{Error, ErrorCode, Result};

/// The encodings an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
}

/// A streaming decoder for one file.
#[derive(Debug, Default)]
pub struct Decoder {
    /// `None` until the first bytes tell whether a byte order mark starts the file.
    encoding: Option<Encoding>,
    /// Bytes pushed but not yet decoded (the start of the file, or an incomplete tail).
    held: Vec<u8>,
    /// The file offset of `held[0]`.
    offset: usize,
}

const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// The file's encoding, once the first bytes are in.
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// Decodes the next piece of the file; returns the text it completes.
    pub fn push(&mut self, bytes: &[u8]) -> Result<String> {
        self.held.extend_from_slice(bytes);
        if self.encoding.is_none() && !self.sniff(false) {
            return Ok(String::new());
        }
        self.decode(false)
    }

    /// Ends the file: the held tail must be empty.
    pub fn finish(&mut self) -> Result<String> {
        if self.encoding.is_none() {
            self.sniff(true);
        }
        self.decode(true)
    }

    /// Reads the byte order mark, if any; `false` while too few bytes are in to tell.
    fn sniff(&mut self, at_end: bool) -> bool {
        let h = &self.held;
        let (encoding, mark) = if h.starts_with(&UTF8_BOM) {
            (Encoding::Utf8, 3)
        } else if h.starts_with(&[0xFF, 0xFE]) {
            (Encoding::Utf16Le, 2)
        } else if h.starts_with(&[0xFE, 0xFF]) {
            (Encoding::Utf16Be, 2)
        } else if !at_end && h.len() < 3 && UTF8_BOM.starts_with(h) {
            // Possibly the start of a UTF-8 byte order mark (or of a UTF-16 one: 0xFF/0xFE
            // alone are no UTF-8 start either way).
            return false;
        } else if !at_end && h.len() < 2 && matches!(h.first(), Some(0xFF | 0xFE)) {
            return false;
        } else {
            (Encoding::Utf8, 0)
        };
        self.held.drain(..mark);
        self.offset = mark;
        self.encoding = Some(encoding);
        true
    }

    fn decode(&mut self, at_end: bool) -> Result<String> {
        match self.encoding.unwrap_or(Encoding::Utf8) {
            Encoding::Utf8 => self.utf8(at_end),
            Encoding::Utf16Le => self.utf16(at_end, u16::from_le_bytes),
            Encoding::Utf16Be => self.utf16(at_end, u16::from_be_bytes),
        }
    }

    fn utf8(&mut self, at_end: bool) -> Result<String> {
        let good = match std::str::from_utf8(&self.held) {
            Ok(_) => self.held.len(),
            // An incomplete character at the end waits for the next piece.
            Err(e) if e.error_len().is_none() && !at_end => e.valid_up_to(),
            Err(e) => {
                return Err(not_text(Detail::NotUtf8 {
                    offset: self.offset + e.valid_up_to(),
                }))
            }
        };
        let rest = self.held.split_off(good);
        let bytes = std::mem::replace(&mut self.held, rest);
        self.offset += good;
        // Checked just above.
        String::from_utf8(bytes).map_err(|e| {
            not_text(Detail::NotUtf8 {
                offset: self.offset - good + e.utf8_error().valid_up_to(),
            })
        })
    }

    fn utf16(&mut self, at_end: bool, unit: fn([u8; 2]) -> u16) -> Result<String> {
        let units: Vec<u16> = self
            .held
            .chunks_exact(2)
            .map(|p| unit([p[0], p[1]]))
            .collect();
        // A high surrogate at the end may pair with the next piece's first unit.
        let mut take = units.len();
        if !at_end && units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
            take -= 1;
        }
        let mut text = String::with_capacity(take);
        let mut at = self.offset;
        for c in char::decode_utf16(units[..take].iter().copied()) {
            match c {
                Ok(c) => {
                    text.push(c);
                    at += 2 * c.len_utf16();
                }
                Err(_) => return Err(not_text(Detail::NotUtf16 { offset: at })),
            }
        }
        self.held.drain(..2 * take);
        self.offset = at;
        if at_end && !self.held.is_empty() {
            return Err(not_text(Detail::NotUtf16 { offset: at }));
        }
        Ok(text)
    }
}

/// Decodes a whole file at once (see [`Decoder`]).
pub fn decode(bytes: &[u8]) -> Result<String> {
    let mut decoder = Decoder::new();
    let mut text = decoder.push(bytes)?;
    text.push_str(&decoder.finish()?);
    Ok(text)
}

fn not_text(detail: Detail) -> Error {
    Error::with_detail(ErrorCode::InvalidInput, detail)
}

//! The hand-written lexer: filter text → tokens that carry their span in characters.
//!
//! Literals are decoded here (a token is already a typed [`Value`]), so the parser deals only
//! with structure. Keywords match case-insensitively, except the OData double constants `NaN`
//! and `INF`, which are case-sensitive as in OData.

use super::ast::CmpOp;
use super::{SyntaxError, SyntaxErrorKind};
use crate::datetime::{DateTime, DateTimeError};
use crate::value::{Guid, Value};

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum TokenKind {
    LParen,
    RParen,
    And,
    Or,
    Not,
    Op(CmpOp),
    /// A property name (case-sensitive).
    Ident(Box<str>),
    /// A constant: `'text'`, `42`, `42L`, `4.5`, `true`, `datetime'…'`, `guid'…'`, `X'…'`.
    Literal(Value),
}

/// A token and where it stands in the input, in characters.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub len: usize,
}

type Result<T> = std::result::Result<T, SyntaxError>;

/// Splits `chars` into tokens, skipping whitespace.
pub(super) fn tokenize(chars: &[char]) -> Result<Vec<Token>> {
    let mut lexer = Lexer { chars, pos: 0 };
    let mut tokens = Vec::new();
    while let Some(token) = lexer.next_token()? {
        tokens.push(token);
    }
    Ok(tokens)
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_continue(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

struct Lexer<'a> {
    chars: &'a [char],
    pos: usize,
}

impl Lexer<'_> {
    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn text(&self, start: usize, end: usize) -> String {
        self.chars
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .collect()
    }

    fn next_token(&mut self) -> Result<Option<Token>> {
        while self.peek_at(0).is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
        let start = self.pos;
        let Some(c) = self.peek_at(0) else {
            return Ok(None);
        };
        let kind = match c {
            '(' => {
                self.pos += 1;
                TokenKind::LParen
            }
            ')' => {
                self.pos += 1;
                TokenKind::RParen
            }
            '\'' => TokenKind::Literal(Value::String(self.quoted(start)?.into_boxed_str())),
            '0'..='9' => self.number(start)?,
            '-' => self.negative(start)?,
            c if is_ident_start(c) => self.word(start)?,
            other => return Err(unexpected_char(start, other)),
        };
        Ok(Some(Token {
            kind,
            start,
            len: self.pos - start,
        }))
    }

    /// The text of a quoted literal whose opening quote is at `self.pos`; `''` is one quote.
    /// `start` is where the whole token starts (a typed literal's prefix).
    fn quoted(&mut self, start: usize) -> Result<String> {
        let open = self.pos;
        self.pos += 1;
        let mut text = String::new();
        loop {
            match self.peek_at(0) {
                None => {
                    return Err(SyntaxError::new(
                        start,
                        open + 1 - start,
                        SyntaxErrorKind::UnclosedQuote,
                    ))
                }
                Some('\'') if self.peek_at(1) == Some('\'') => {
                    text.push('\'');
                    self.pos += 2;
                }
                Some('\'') => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some(c) => {
                    text.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// `-` starts a negative number or `-INF`.
    fn negative(&mut self, start: usize) -> Result<TokenKind> {
        match self.peek_at(1) {
            Some('0'..='9') => self.number(start),
            Some('I') if self.word_at(self.pos + 1) == "INF" => {
                self.pos += 4;
                Ok(TokenKind::Literal(Value::Double(f64::NEG_INFINITY)))
            }
            _ => Err(SyntaxError::new(start, 1, SyntaxErrorKind::DigitAfterMinus)),
        }
    }

    /// The identifier-like word starting at `at`, without consuming it.
    fn word_at(&self, at: usize) -> String {
        let rest = self.chars.get(at..).unwrap_or_default();
        let len = rest.iter().take_while(|c| is_ident_continue(**c)).count();
        self.text(at, at + len)
    }

    fn word(&mut self, start: usize) -> Result<TokenKind> {
        let word = self.word_at(start);
        self.pos += word.chars().count();
        if self.peek_at(0) == Some('\'') {
            let lower = word.to_ascii_lowercase();
            if matches!(lower.as_str(), "datetime" | "guid" | "binary" | "x") {
                return self.typed_literal(start, &lower);
            }
        }
        let kind = match word.to_ascii_lowercase().as_str() {
            "and" => TokenKind::And,
            "or" => TokenKind::Or,
            "not" => TokenKind::Not,
            "true" => TokenKind::Literal(Value::Boolean(true)),
            "false" => TokenKind::Literal(Value::Boolean(false)),
            lower => match CmpOp::from_keyword(lower) {
                Some(op) => TokenKind::Op(op),
                None if word == "NaN" => TokenKind::Literal(Value::Double(f64::NAN)),
                None if word == "INF" => TokenKind::Literal(Value::Double(f64::INFINITY)),
                None => TokenKind::Ident(word.into_boxed_str()),
            },
        };
        Ok(kind)
    }

    /// `datetime'…'`, `guid'…'`, `binary'…'` or `X'…'`; `self.pos` is at the quote.
    fn typed_literal(&mut self, start: usize, prefix: &str) -> Result<TokenKind> {
        let content_start = self.pos + 1;
        let text = self.quoted(start)?;
        let len = self.pos - start;
        let value = match prefix {
            "datetime" => match DateTime::parse(&text) {
                Ok(d) => Value::DateTime(d),
                Err(DateTimeError::OutOfRange) => {
                    return Err(SyntaxError::new(start, len, SyntaxErrorKind::DateTimeRange))
                }
                Err(DateTimeError::Syntax) => {
                    return Err(SyntaxError::new(
                        start,
                        len,
                        SyntaxErrorKind::DateTimeInvalid,
                    ))
                }
            },
            "guid" => match Guid::parse(&text) {
                Some(g) => Value::Guid(g),
                None => return Err(SyntaxError::new(start, len, SyntaxErrorKind::GuidInvalid)),
            },
            _ => Value::Binary(decode_hex(&text, content_start, start, len)?.into_boxed_slice()),
        };
        Ok(TokenKind::Literal(value))
    }

    /// A number starting at `start` (maybe with a leading `-`): Int32, Int64 (`L`) or Double.
    fn number(&mut self, start: usize) -> Result<TokenKind> {
        if self.peek_at(0) == Some('-') {
            self.pos += 1;
        }
        self.digits();
        let mut is_double = false;
        if self.peek_at(0) == Some('.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(SyntaxError::new(
                    self.pos,
                    0,
                    SyntaxErrorKind::DigitAfterPoint,
                ));
            }
            is_double = true;
        }
        if matches!(self.peek_at(0), Some('e' | 'E')) {
            self.pos += 1;
            if matches!(self.peek_at(0), Some('+' | '-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(SyntaxError::new(
                    self.pos,
                    0,
                    SyntaxErrorKind::DigitInExponent,
                ));
            }
            is_double = true;
        }
        let text = self.text(start, self.pos);
        let suffix = self.peek_at(0);
        let kind = match suffix {
            Some('L' | 'l') if is_double => {
                return Err(SyntaxError::new(
                    start,
                    self.pos + 1 - start,
                    SyntaxErrorKind::Int64Whole,
                ))
            }
            Some('L' | 'l') => {
                self.pos += 1;
                int64(&text, start, self.pos - start)?
            }
            Some('D' | 'd') => {
                self.pos += 1;
                double(&text, start, self.pos - start)?
            }
            _ if is_double => double(&text, start, self.pos - start)?,
            _ => int32(&text, start, self.pos - start)?,
        };
        if let Some(c) = self
            .peek_at(0)
            .filter(|c| is_ident_continue(*c) || *c == '.')
        {
            return Err(SyntaxError::new(
                self.pos,
                1,
                SyntaxErrorKind::AfterNumber {
                    char: c,
                    number: self.text(start, self.pos),
                },
            ));
        }
        Ok(TokenKind::Literal(kind))
    }

    /// Skips ASCII digits; how many there were.
    fn digits(&mut self) -> usize {
        let from = self.pos;
        while self.peek_at(0).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - from
    }
}

fn int32(text: &str, start: usize, len: usize) -> Result<Value> {
    if let Ok(v) = text.parse::<i32>() {
        return Ok(Value::Int32(v));
    }
    let message = if text.parse::<i64>().is_ok() {
        SyntaxErrorKind::Int32Range
    } else {
        SyntaxErrorKind::NumberRange
    };
    Err(SyntaxError::new(start, len, message))
}

fn int64(text: &str, start: usize, len: usize) -> Result<Value> {
    text.parse::<i64>()
        .map(Value::Int64)
        .map_err(|_| SyntaxError::new(start, len, SyntaxErrorKind::Int64Range))
}

fn double(text: &str, start: usize, len: usize) -> Result<Value> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Value::Double(v)),
        _ => Err(SyntaxError::new(start, len, SyntaxErrorKind::DoubleRange)),
    }
}

/// Decodes the hex digits of a binary literal; `content_start` is the first digit's position.
fn decode_hex(text: &str, content_start: usize, start: usize, len: usize) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len() / 2);
    let mut high: Option<u8> = None;
    for (i, c) in text.chars().enumerate() {
        let Some(nibble) = c.to_digit(16).and_then(|d| u8::try_from(d).ok()) else {
            return Err(SyntaxError::new(
                content_start + i,
                1,
                SyntaxErrorKind::HexDigit { char: c },
            ));
        };
        match high.take() {
            Some(h) => bytes.push((h << 4) | nibble),
            None => high = Some(nibble),
        }
    }
    if high.is_some() {
        return Err(SyntaxError::new(start, len, SyntaxErrorKind::HexEven));
    }
    Ok(bytes)
}

/// The error for a character no token starts with, with a hint for habits from other languages.
fn unexpected_char(position: usize, c: char) -> SyntaxError {
    SyntaxError::new(position, 1, SyntaxErrorKind::UnexpectedChar { char: c })
}

//! A JSON text that does not read, as a value: what the parser found wrong, and where.
//!
//! serde_json reports a problem as a `serde_json::Error`: a category (`classify()`), a
//! position (`line()`, `column()`) and an English message. Which of its problems it is (an
//! object cut short, a member given twice, a string where a number belongs) is only in the
//! message, so [`JsonProblem::from`] reads it there, in this one place; every other part of
//! Tablescope sees the typed value, whose `Display` writes serde_json's English again word
//! for word and which the UI says in the reader's language.
//!
//! Invariant: each message form read here is pinned by a test that makes serde_json write it
//! (`tests` below); a serde_json that words one differently fails that test, naming the form,
//! instead of falling back to English in the UI. A message no form reads (a type's own
//! refusal, such as a DateTime's) is kept as written ([`JsonProblemKind::Other`]).

use serde::{Deserialize, Serialize};
use serde_json::error::Category;
use std::fmt;

/// What a visitor that reads an entity expects (`RawEntity`'s), as serde writes it.
pub(crate) const ENTITY_EXPECTED: &str = "an entity as a JSON object";

/// Why a JSON text does not read, and where: line and column from 1 (column 0: before the
/// line's first character; line 0: the parser gave no position).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonProblem {
    pub kind: JsonProblemKind,
    pub line: usize,
    pub column: usize,
}

/// What is wrong with a JSON text: its syntax, or a value that is not what the document's
/// shape (an export, an entity, a design) has in that place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum JsonProblemKind {
    /// The text is not JSON.
    Syntax(JsonSyntax),
    /// An object without a member its shape requires.
    MissingField { name: String },
    /// A member its object's shape does not have: the names it has (none: an object that
    /// takes no members).
    UnknownField { name: String, expected: Vec<String> },
    /// A member given twice.
    DuplicateField { name: String },
    /// A string that is not one of the words its place takes (`expected`).
    UnknownVariant { name: String, expected: Vec<String> },
    /// A value of the wrong JSON type.
    InvalidType {
        found: JsonFound,
        expected: JsonExpected,
    },
    /// A value of the right type that its place does not take.
    InvalidValue {
        found: JsonFound,
        expected: JsonExpected,
    },
    /// An array of `len` elements where another length belongs.
    InvalidLength { len: usize, expected: JsonExpected },
    /// A message none of the forms above reads (a type's own refusal): as written.
    Other { text: String },
}

/// What makes a text not JSON (serde_json's syntax and end-of-text errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum JsonSyntax {
    /// The text ends inside an array.
    EofList,
    /// The text ends inside an object.
    EofObject,
    /// The text ends inside a string.
    EofString,
    /// The text ends where a value belongs.
    EofValue,
    /// No `:` after a member's name.
    ExpectedColon,
    /// No `,` or `]` after an array's element.
    ExpectedListEnd,
    /// No `,` or `}` after an object's member.
    ExpectedObjectEnd,
    /// A word that is not `true`, `false` or `null`.
    ExpectedIdent,
    /// No value where one belongs.
    ExpectedValue,
    /// No `"` closing a number written as an object's key.
    ExpectedQuote,
    /// A `\` not followed by an escape JSON has.
    InvalidEscape,
    InvalidNumber,
    /// A number beyond what its type holds (`1e999`).
    NumberRange,
    /// Bytes that are not a character.
    InvalidCodePoint,
    /// A character below U+0020 inside a string.
    ControlCharacter,
    /// An object's key that is not a string.
    KeyString,
    /// A `\u` surrogate without its partner.
    LoneSurrogate,
    /// A `,` before `]` or `}`.
    TrailingComma,
    /// Text after the value.
    TrailingCharacters,
    /// A `\u` escape cut short.
    HexEscapeEnd,
    /// Arrays and objects nested deeper than the parser goes.
    RecursionLimit,
}

/// The value the parser found where another belongs (serde's `Unexpected`, as serde_json
/// writes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum JsonFound {
    /// A string, quoted and escaped as Rust's `{:?}` writes it (`"x"`).
    String(String),
    /// An integer, as written.
    Integer(String),
    /// A number with a fraction or an exponent, as serde_json writes it.
    Float(String),
    Boolean(bool),
    Null,
    Array,
    Object,
    /// Any other description, as written.
    Other(String),
}

/// What the place of a value takes (serde's `Expected`: a type's description).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum JsonExpected {
    String,
    Array,
    Object,
    Boolean,
    /// A whole number of a Rust type (`u32`, `i64`).
    Integer(String),
    /// A number of a Rust type (`f64`).
    Number(String),
    /// An object of the named shape.
    Struct(String),
    /// An entity (`RawEntity`).
    Entity,
    /// Any other description, as written.
    Other(String),
}

impl JsonSyntax {
    /// Every syntax problem.
    pub const ALL: [JsonSyntax; 21] = {
        use JsonSyntax::*;
        [
            EofList,
            EofObject,
            EofString,
            EofValue,
            ExpectedColon,
            ExpectedListEnd,
            ExpectedObjectEnd,
            ExpectedIdent,
            ExpectedValue,
            ExpectedQuote,
            InvalidEscape,
            InvalidNumber,
            NumberRange,
            InvalidCodePoint,
            ControlCharacter,
            KeyString,
            LoneSurrogate,
            TrailingComma,
            TrailingCharacters,
            HexEscapeEnd,
            RecursionLimit,
        ]
    };

    /// serde_json's message for it.
    pub fn text(self) -> &'static str {
        use JsonSyntax::*;
        match self {
            EofList => "EOF while parsing a list",
            EofObject => "EOF while parsing an object",
            EofString => "EOF while parsing a string",
            EofValue => "EOF while parsing a value",
            ExpectedColon => "expected `:`",
            ExpectedListEnd => "expected `,` or `]`",
            ExpectedObjectEnd => "expected `,` or `}`",
            ExpectedIdent => "expected ident",
            ExpectedValue => "expected value",
            ExpectedQuote => "expected `\"`",
            InvalidEscape => "invalid escape",
            InvalidNumber => "invalid number",
            NumberRange => "number out of range",
            InvalidCodePoint => "invalid unicode code point",
            ControlCharacter => "control character (\\u0000-\\u001F) found while parsing a string",
            KeyString => "key must be a string",
            LoneSurrogate => "lone leading surrogate in hex escape",
            TrailingComma => "trailing comma",
            TrailingCharacters => "trailing characters",
            HexEscapeEnd => "unexpected end of hex escape",
            RecursionLimit => "recursion limit exceeded",
        }
    }
}

impl From<&serde_json::Error> for JsonProblem {
    /// The one place that reads serde_json's message (see the module's invariant).
    fn from(e: &serde_json::Error) -> Self {
        let text = e.to_string();
        let (line, column) = (e.line(), e.column());
        let message = match line {
            0 => &text[..],
            _ => text
                .strip_suffix(&format!(" at line {line} column {column}"))
                .unwrap_or(&text),
        };
        let kind = match e.classify() {
            Category::Syntax | Category::Eof => JsonSyntax::ALL
                .into_iter()
                .find(|s| s.text() == message)
                .map(JsonProblemKind::Syntax),
            Category::Data => data(message),
            Category::Io => None,
        };
        JsonProblem {
            kind: kind.unwrap_or_else(|| JsonProblemKind::Other {
                text: message.to_string(),
            }),
            line,
            column,
        }
    }
}

impl From<serde_json::Error> for JsonProblem {
    fn from(e: serde_json::Error) -> Self {
        JsonProblem::from(&e)
    }
}

/// A data problem's message (serde's `de::Error` forms, as serde_json writes them).
fn data(message: &str) -> Option<JsonProblemKind> {
    use JsonProblemKind::*;
    let quoted = |rest: &str| rest.strip_suffix('`').map(str::to_string);
    if let Some(rest) = message.strip_prefix("missing field `") {
        return quoted(rest).map(|name| MissingField { name });
    }
    if let Some(rest) = message.strip_prefix("duplicate field `") {
        return quoted(rest).map(|name| DuplicateField { name });
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some(name) = rest.strip_suffix("`, there are no fields") {
            return Some(UnknownField {
                name: name.into(),
                expected: Vec::new(),
            });
        }
        // The name is the text's, so it is split off at the last `, expected`: the names
        // after it are the shape's own.
        let (name, names) = rest.rsplit_once("`, expected ")?;
        return Some(UnknownField {
            name: name.into(),
            expected: one_of(names)?,
        });
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let (name, names) = rest.rsplit_once("`, expected ")?;
        return Some(UnknownVariant {
            name: name.into(),
            expected: one_of(names)?,
        });
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (found, expected) = found_expected(rest)?;
        return Some(InvalidType { found, expected });
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        let (found, expected) = found_expected(rest)?;
        return Some(InvalidValue { found, expected });
    }
    let (len, expected) = message
        .strip_prefix("invalid length ")?
        .split_once(", expected ")?;
    Some(InvalidLength {
        len: len.parse().ok()?,
        expected: JsonExpected::of(expected),
    })
}

/// `found, expected what` (a found string may hold `, expected `; the expectation, the
/// type's own description, does not).
fn found_expected(text: &str) -> Option<(JsonFound, JsonExpected)> {
    let (found, expected) = text.rsplit_once(", expected ")?;
    Some((JsonFound::of(found), JsonExpected::of(expected)))
}

/// Names as serde lists them: "`a`", "`a` or `b`", "one of `a`, `b`, `c`".
fn one_of(text: &str) -> Option<Vec<String>> {
    let names: Vec<&str> = match text.strip_prefix("one of ") {
        Some(list) => list.split(", ").collect(),
        None => match text.split_once(" or ") {
            Some((a, b)) => vec![a, b],
            None => vec![text],
        },
    };
    names
        .into_iter()
        .map(|n| Some(n.strip_prefix('`')?.strip_suffix('`')?.to_string()))
        .collect()
}

impl JsonFound {
    fn of(text: &str) -> JsonFound {
        let quoted = |prefix: &str| {
            text.strip_prefix(prefix)?
                .strip_prefix('`')?
                .strip_suffix('`')
                .map(str::to_string)
        };
        if let Some(s) = text.strip_prefix("string ") {
            return JsonFound::String(s.into());
        }
        if let Some(n) = quoted("integer ") {
            return JsonFound::Integer(n);
        }
        if let Some(n) = quoted("floating point ") {
            return JsonFound::Float(n);
        }
        match text {
            "boolean `true`" => JsonFound::Boolean(true),
            "boolean `false`" => JsonFound::Boolean(false),
            "null" => JsonFound::Null,
            "sequence" => JsonFound::Array,
            "map" => JsonFound::Object,
            _ => JsonFound::Other(text.into()),
        }
    }
}

impl JsonExpected {
    fn of(text: &str) -> JsonExpected {
        if let Some(name) = text.strip_prefix("struct ") {
            return JsonExpected::Struct(name.into());
        }
        match text {
            "a string" => JsonExpected::String,
            "a sequence" => JsonExpected::Array,
            "a map" => JsonExpected::Object,
            "a boolean" => JsonExpected::Boolean,
            ENTITY_EXPECTED => JsonExpected::Entity,
            "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64"
            | "i128" | "isize" => JsonExpected::Integer(text.into()),
            "f32" | "f64" => JsonExpected::Number(text.into()),
            _ => JsonExpected::Other(text.into()),
        }
    }
}

/// Names as serde lists them (at least one).
struct OneOf<'a>(&'a [String]);

impl fmt::Display for OneOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [a] => write!(f, "`{a}`"),
            [a, b] => write!(f, "`{a}` or `{b}`"),
            names => {
                f.write_str("one of ")?;
                for (i, name) in names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{name}`")?;
                }
                Ok(())
            }
        }
    }
}

/// serde_json's message, word for word.
impl fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if self.line != 0 {
            write!(f, " at line {} column {}", self.line, self.column)?;
        }
        Ok(())
    }
}

impl fmt::Display for JsonProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use JsonProblemKind::*;
        match self {
            Syntax(s) => f.write_str(s.text()),
            MissingField { name } => write!(f, "missing field `{name}`"),
            UnknownField { name, expected } if expected.is_empty() => {
                write!(f, "unknown field `{name}`, there are no fields")
            }
            UnknownField { name, expected } => {
                write!(f, "unknown field `{name}`, expected {}", OneOf(expected))
            }
            DuplicateField { name } => write!(f, "duplicate field `{name}`"),
            UnknownVariant { name, expected } => {
                write!(f, "unknown variant `{name}`, expected {}", OneOf(expected))
            }
            InvalidType { found, expected } => {
                write!(f, "invalid type: {found}, expected {expected}")
            }
            InvalidValue { found, expected } => {
                write!(f, "invalid value: {found}, expected {expected}")
            }
            InvalidLength { len, expected } => {
                write!(f, "invalid length {len}, expected {expected}")
            }
            Other { text } => f.write_str(text),
        }
    }
}

impl fmt::Display for JsonFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonFound::String(quoted) => write!(f, "string {quoted}"),
            JsonFound::Integer(n) => write!(f, "integer `{n}`"),
            JsonFound::Float(n) => write!(f, "floating point `{n}`"),
            JsonFound::Boolean(b) => write!(f, "boolean `{b}`"),
            JsonFound::Null => f.write_str("null"),
            JsonFound::Array => f.write_str("sequence"),
            JsonFound::Object => f.write_str("map"),
            JsonFound::Other(text) => f.write_str(text),
        }
    }
}

impl fmt::Display for JsonExpected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonExpected::String => f.write_str("a string"),
            JsonExpected::Array => f.write_str("a sequence"),
            JsonExpected::Object => f.write_str("a map"),
            JsonExpected::Boolean => f.write_str("a boolean"),
            JsonExpected::Integer(kind) | JsonExpected::Number(kind) => f.write_str(kind),
            JsonExpected::Struct(name) => write!(f, "struct {name}"),
            JsonExpected::Entity => f.write_str(ENTITY_EXPECTED),
            JsonExpected::Other(text) => f.write_str(text),
        }
    }
}

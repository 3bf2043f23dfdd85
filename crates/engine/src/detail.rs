//! Tablescope's explanations of a refusal, as values.
//!
//! An [`Error`](crate::Error) carries the service's code and message, which are API, and for
//! a learner a [`Detail`]: which name, which key, which position. A detail is a value with its
//! data as fields; its `Display` is the English sentence (shown beside the service's message,
//! written into reports), and the UI says it in the reader's language from the fields, matching
//! every variant, so a new explanation without a translation does not compile.

use crate::filter::SyntaxError;
use crate::json_problem::JsonProblem;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Why a request was refused, for a learner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// A `$filter` that does not parse.
    Syntax(SyntaxError),
    /// A table name shorter than 3 or longer than 63 characters.
    TableNameLength { len: usize },
    /// A table name that does not start with a letter or holds more than letters and digits.
    TableNameChars,
    /// `tables`, in any case.
    TableNameReserved,
    /// A key (`key` names which: `PartitionKey`, `RowKey`) holding a control character.
    KeyControl { key: String, char: char },
    /// A key holding one of `/ \ # ?`.
    KeyChar { key: String, char: char },
    /// A key longer than `limit` UTF-16 code units.
    KeyTooLarge {
        key: String,
        units: usize,
        limit: usize,
    },
    /// A property name that is not a C#-style identifier.
    PropertyNameInvalid { name: String },
    /// A property name longer than `limit` characters.
    PropertyNameLong { limit: usize, len: usize },
    /// More user properties than `limit`.
    TooManyProperties { n: usize, limit: usize },
    /// A property named like a system property (`Timestamp`).
    SystemProperty { name: String },
    /// A property whose value is too large.
    PropertyValue { name: String },
    /// A property (or its type annotation) given twice: its name.
    DuplicateProperty { name: String },
    /// An entity of `size` bytes, more than `limit`.
    EntityTooLarge { size: usize, limit: usize },
    /// A batch whose entities total `size` bytes, more than 4 MiB.
    BatchTooLarge { size: usize },
    /// A point read with other operations in its batch.
    PointReadAlone,
    /// `$top` above `max` on a query.
    TopMust { max: u64 },
    /// `$top` above `max` on a page of a query.
    TopMay { max: u64 },
    /// A page budget of 0.
    ScanBudget,
    /// A filter of only `true`/`false`.
    FilterNoProperty,
    /// A filter with `n` comparisons, more than `max`.
    FilterComparisons { n: usize, max: usize },
    /// An entity without a PartitionKey.
    PartitionKeyRequired,
    /// An entity without a RowKey.
    RowKeyRequired,
    /// An `If-Match` header that is neither `*` nor a weak ETag: what it held.
    IfMatch { got: String },
    /// The account's clock at its end: no later Timestamp (and so no ETag) can be issued.
    ClockReached,
    /// `name` (a property, or its `@odata.type` annotation, or a key) is not a string.
    MustBeString { name: String },
    /// `name`'s `@odata.type` annotation names no EDM type.
    UnknownType { name: String, kind: String },
    /// A stored Timestamp that does not read back.
    TimestampRange { text: String },
    /// A stored Timestamp that is not text.
    TimestampText,
    /// Property `name`'s value is not one of its type.
    Value { name: String, problem: ValueProblem },
    /// JSON text (an entity's) that does not read: what the parser found, and where.
    Json(JsonProblem),
    /// A workspace file that is not JSON.
    NotJson(JsonProblem),
    /// A workspace file whose JSON is not an export's shape.
    Malformed(JsonProblem),
    /// A workspace file whose `format` is not [`crate::snapshot::FORMAT`].
    NotExport,
    /// A workspace file of another version: the version as the file wrote it (`2`, `"1"`).
    Version { version: String },
    /// A workspace file without a version.
    NoVersion,
    /// A snapshot of another format or version.
    Format,
    /// Bytes that are not UTF-8: where the first bad one is.
    NotUtf8 { offset: usize },
    /// A UTF-16 file with an unpaired surrogate or an odd last byte: where.
    NotUtf16 { offset: usize },
    /// A table given twice in a workspace file.
    TableTwice { table: String },
    /// An entity's keys given twice in one table of a workspace file.
    KeysTwice { pk: String, rk: String },
    /// The account's clock has no later Timestamp to give an imported entity.
    ClockFull,
    /// An imported Timestamp `at` leaves no later Timestamp for the next write.
    ClockFullAfter { at: String },
    /// Where in a workspace file, and what is wrong there (`None`: the error had no detail).
    At {
        place: Place,
        detail: Option<Box<Detail>>,
    },
    /// An explanation written as text: the protocol layer's (`tablescope_wire`: headers, URLs,
    /// signatures), in English only, or one the UI wrote in the reader's language.
    Text(String),
    /// A settings document that breaks one of the service's rules for it.
    Setting(crate::settings::SettingProblem),
}

/// What is wrong with a property's value (`Detail::Value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueProblem {
    /// An unannotated integer beyond Int32.
    UnannotatedInt,
    /// An object or array.
    Nested,
    String,
    Boolean,
    Int32,
    Int64,
    Double,
    /// An Edm.DateTime that is not text.
    DateTimeText,
    /// Text that is not an ISO 8601 DateTime.
    DateTime,
    /// A DateTime before 1601 or after 9999.
    DateTimeRange,
    Guid,
    Binary,
}

/// Where in a workspace file an error is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A table, by name.
    Table { table: String },
    /// An entity of `table`, by position (from 0), with its keys when it has them.
    Entity {
        table: String,
        index: usize,
        keys: Option<(String, String)>,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Table { table } => write!(f, "table '{table}'"),
            Place::Entity {
                table,
                index,
                keys: Some((pk, rk)),
            } => write!(
                f,
                "table '{table}', entity {index} (PartitionKey '{pk}', RowKey '{rk}')"
            ),
            Place::Entity {
                table,
                index,
                keys: None,
            } => write!(f, "table '{table}', entity {index}"),
        }
    }
}

impl fmt::Display for ValueProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueProblem::UnannotatedInt => {
                "an integer without annotation must fit Int32; annotate Int64 values as strings"
            }
            ValueProblem::Nested => "objects and arrays are not property values",
            ValueProblem::String => "Edm.String needs a string",
            ValueProblem::Boolean => "Edm.Boolean needs true or false",
            ValueProblem::Int32 => "not an Int32",
            ValueProblem::Int64 => "not an Int64 (write it as a string)",
            ValueProblem::Double => "not a Double",
            ValueProblem::DateTimeText => "Edm.DateTime needs ISO 8601 text",
            ValueProblem::DateTime => "not an ISO 8601 DateTime",
            ValueProblem::DateTimeRange => "DateTime must lie between 1601-01-01 and 9999-12-31",
            ValueProblem::Guid => "not a Guid",
            ValueProblem::Binary => "Edm.Binary needs base64 text",
        })
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::snapshot::{FORMAT, VERSION};
        use Detail::*;
        match self {
            Syntax(e) => write!(f, "{e}"),
            TableNameLength { len } => {
                write!(f, "a table name has 3 to 63 characters; this one has {len}")
            }
            TableNameChars => {
                f.write_str("a table name starts with a letter and has only letters and digits")
            }
            TableNameReserved => f.write_str("'tables' is a reserved name"),
            KeyControl { key, char } => write!(
                f,
                "{key} may not contain the control character U+{:04X}",
                u32::from(*char)
            ),
            KeyChar { key, char } => write!(f, "{key} may not contain '{char}'"),
            KeyTooLarge { key, units, limit } => write!(
                f,
                "{key} has {units} UTF-16 code units; the limit is {limit}"
            ),
            PropertyNameInvalid { name } => write!(
                f,
                "'{name}' is not a valid property name (a letter or _ first, then letters, digits or _)"
            ),
            PropertyNameLong { limit, len } => write!(
                f,
                "a property name has at most {limit} characters; this one has {len}"
            ),
            TooManyProperties { n, limit } => {
                write!(f, "{n} user properties; the limit is {limit}")
            }
            SystemProperty { name } => write!(f, "'{name}' is a system property"),
            PropertyValue { name } => write!(f, "property '{name}'"),
            DuplicateProperty { name } => f.write_str(name),
            EntityTooLarge { size, limit } => write!(f, "{size} bytes; the limit is {limit}"),
            BatchTooLarge { size } => write!(
                f,
                "the batch carries {size} bytes of entities; the limit is 4 MiB"
            ),
            PointReadAlone => f.write_str("a point read must be the only operation in its batch"),
            TopMust { max } => write!(f, "$top must be at most {max}"),
            TopMay { max } => write!(f, "$top may be at most {max}"),
            ScanBudget => f.write_str("the page's scan budget must be at least 1"),
            FilterNoProperty => f.write_str("the filter names no property"),
            FilterComparisons { n, max } => write!(
                f,
                "the filter has {n} comparisons; the service permits at most {max}"
            ),
            PartitionKeyRequired => f.write_str("PartitionKey is required"),
            RowKeyRequired => f.write_str("RowKey is required"),
            IfMatch { got } => write!(
                f,
                "If-Match must be * or a weak ETag W/\"…\"; got {got}"
            ),
            ClockReached => f.write_str(
                "the account's clock has reached 9999-12-31T23:59:59.9999999Z: no later Timestamp \
                 (and so no new ETag) can be issued",
            ),
            MustBeString { name } => write!(f, "{name} must be a string"),
            UnknownType { name, kind } => write!(f, "{name}: unknown type '{kind}'"),
            TimestampRange { text } => write!(
                f,
                "Timestamp: '{text}' is not an ISO 8601 DateTime between 1601-01-01 and 9999-12-31"
            ),
            TimestampText => f.write_str("Timestamp must be ISO 8601 text"),
            Value { name, problem } => write!(f, "{name}: {problem}"),
            Json(problem) => write!(f, "{problem}"),
            NotJson(problem) => write!(f, "not valid JSON: {problem}"),
            Malformed(problem) => write!(f, "malformed export: {problem}"),
            NotExport => write!(
                f,
                "not a Tablescope export: \"format\" must be \"{FORMAT}\""
            ),
            Version { version } => write!(
                f,
                "unsupported export version {version}; this Tablescope reads version {VERSION}"
            ),
            NoVersion => write!(
                f,
                "no export version; this Tablescope reads version {VERSION}"
            ),
            Format => write!(f, "expected format {FORMAT} version {VERSION}"),
            NotUtf8 { offset } => write!(
                f,
                "not UTF-8: the byte at offset {offset} does not start a valid character"
            ),
            NotUtf16 { offset } => write!(
                f,
                "not UTF-16: the bytes at offset {offset} are not a whole character"
            ),
            TableTwice { table } => write!(f, "table '{table}' appears twice"),
            KeysTwice { pk, rk } => write!(f, "PartitionKey '{pk}' RowKey '{rk}' appears twice"),
            ClockFull => f.write_str("the account's clock has no later Timestamp to give it"),
            ClockFullAfter { at } => write!(
                f,
                "Timestamp {at} leaves no later Timestamp for the next write"
            ),
            At {
                place,
                detail: Some(detail),
            } => write!(f, "{place}: {detail}"),
            At {
                place,
                detail: None,
            } => write!(f, "{place}"),
            Text(text) => f.write_str(text),
            Setting(problem) => write!(f, "{problem}"),
        }
    }
}

impl From<SyntaxError> for Detail {
    fn from(e: SyntaxError) -> Self {
        Detail::Syntax(e)
    }
}

/// Written as its English text, as when it was a string.
impl Serialize for Detail {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Read back as text: the fields are not written.
impl<'de> Deserialize<'de> for Detail {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Detail::Text)
    }
}

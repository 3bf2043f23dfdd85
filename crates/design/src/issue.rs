//! What is wrong with one element of a design, as a value: each problem the validator, a key
//! template or a distribution can find, with its arguments. `Display` writes it in English;
//! the app says each variant through its catalogue, so a variant added here does not build
//! there until it is said.

use serde::{Deserialize, Serialize};
use std::fmt;
use tablescope_engine::{Detail, JsonProblem};

/// One problem of a design. Names are kept as written (English quotes them, `"Orders"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Issue {
    /// The document's version is not the one this build reads.
    Version {
        version: u32,
        supported: u32,
    },
    NoName,
    /// A table name the service refuses: its explanation, when the engine gives one.
    TableName {
        name: String,
        detail: Option<Detail>,
    },
    TableTwice {
        name: String,
    },
    TypeNames {
        name: String,
    },
    TypeTable {
        name: String,
    },
    PatternNames {
        name: String,
    },
    Rate,
    Count {
        max: u64,
    },
    NoType {
        name: String,
    },
    CopyCycle,
    CopyCount {
        name: String,
        n: u64,
    },
    /// A property name the service refuses: its explanation, when the engine gives one.
    PropertyName {
        name: String,
        detail: Option<Detail>,
    },
    SystemProperty {
        name: String,
    },
    PropertyTwice {
        name: String,
    },
    CopyProperty {
        name: String,
    },
    /// A template's field names a property its type does not have (`field` is the
    /// property as the field names it).
    TemplateNoProperty {
        field: String,
    },
    FormatNeedsTime {
        field: String,
    },
    Uniform {
        max: i64,
    },
    Int32Range,
    Zipf {
        max: u64,
    },
    Choice,
    /// Choice weights: one per value, none negative, not all zero.
    ChoiceWeights,
    /// `scale: grows` on a distribution without a range to grow (sequential, random, choice).
    ScaleGrows,
    /// An instant that is not ISO 8601.
    Instant {
        text: String,
    },
    TimestampsOrder,
    /// The property type (`Int32`, `String`, …) that cannot take the distribution.
    DistributionKind {
        kind: String,
    },
    PkPrefix,
    RkNeedsPk,
    RkPrefix {
        n: usize,
    },
    Prefix,
    NoProperty {
        name: String,
    },
    OneCondition,
    FanOut,
    ResultSize,
    Select,
    WriteTypes,
    /// A type named twice in one write (say how many with `perCall`).
    WriteTypeTwice {
        name: String,
    },
    /// A `perCall` entry for a type the write does not name.
    PerCallType {
        name: String,
    },
    /// A `perCall` count out of `1..=max`.
    PerCall {
        name: String,
        max: u32,
    },
    /// A key prefix through a field the key's template does not have; `fields` are the ones
    /// it has.
    ThroughField {
        key: String,
        field: String,
        fields: Vec<String>,
    },
    /// A prefix "through" a field on a property rather than a key.
    ThroughOnProperty,
    /// A RowKey range over a field it cannot step, or a span out of `1..=max`.
    RangeField {
        field: String,
        max: u32,
    },
    /// A template's brace without its partner: `found` is `{` or `}`.
    Unbalanced {
        found: char,
        text: String,
    },
    /// A field's body (between the braces) and what is wrong with it.
    InvertedTicks {
        body: String,
    },
    HashParen {
        body: String,
    },
    Bucket {
        body: String,
    },
    TemplateProperty {
        body: String,
        name: String,
    },
    /// A format (after the `:`) that is not one.
    Pad {
        format: String,
    },
    Formats {
        format: String,
    },
    /// A template's literal text that no key may hold: the engine's explanation, naming the
    /// key [`KEY_TEMPLATE`].
    KeyTemplate(Detail),
    /// A text that does not read as a design document: the JSON parser's problem.
    NotDesign(JsonProblem),
    /// Said as written (the generator's, the evaluator's and the projector's refusals).
    Text(String),
}

/// How the engine's explanation of a key template's text names the key.
pub const KEY_TEMPLATE: &str = "A key template";

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Issue::*;
        match self {
            Version { version, supported } => write!(
                f,
                "version {version} is not one this build reads ({supported})"
            ),
            NoName => f.write_str("a design needs a name"),
            TableName {
                detail: Some(d), ..
            }
            | PropertyName {
                detail: Some(d), ..
            } => write!(f, "{d}"),
            TableName { name, detail: None } => write!(f, "{name:?} is not a table name"),
            TableTwice { name } => write!(f, "table {name:?} is listed twice"),
            TypeNames { name } => write!(
                f,
                "entity type names must be unique and non-empty: {name:?}"
            ),
            TypeTable { name } => write!(f, "table {name:?} is not among the design's tables"),
            PatternNames { name } => {
                write!(f, "pattern names must be unique and non-empty: {name:?}")
            }
            Rate => f.write_str("a rate is a number of calls per second, 0 or more"),
            Count { max } => write!(
                f,
                "the generator writes at most {max} entities per type; project larger sizes instead"
            ),
            NoType { name } => write!(f, "no entity type {name:?}"),
            CopyCycle => f.write_str("copies form a cycle"),
            CopyCount { name, n } => write!(
                f,
                "a copy has one entity per entity of {name:?}: count must be {n}"
            ),
            PropertyName { name, detail: None } => write!(f, "{name:?} is not a property name"),
            SystemProperty { name } => write!(
                f,
                "{name} is a system property; the keys come from the templates"
            ),
            PropertyTwice { name } => write!(f, "property {name:?} is declared twice"),
            CopyProperty { name } => write!(
                f,
                "a copy's property must be declared exactly as in {name:?}"
            ),
            TemplateNoProperty { field } => {
                write!(f, "{{{field}}}: the type has no property {field:?}")
            }
            FormatNeedsTime { field } => write!(
                f,
                "{{{field}}}: that format needs a timestamp (or, for ticks, a number)"
            ),
            Uniform { max } => write!(f, "uniform needs min <= max and at most {max} values"),
            Int32Range => f.write_str("the range does not fit Int32"),
            Zipf { max } => write!(f, "Zipf needs 1 <= n <= {max} and 0 < s <= 10"),
            Choice => f.write_str("a choice lists 1 to 100000 values"),
            ChoiceWeights => f.write_str(
                "a choice's weights are one number per value, none negative, not all zero",
            ),
            ScaleGrows => f.write_str(
                "only a uniform range, a Zipf or a time range grows with the entity count; sequential and random values are unique anyway, and a choice keeps its listed values",
            ),
            Instant { text } => write!(
                f,
                "{text:?} is not an ISO 8601 instant such as 2026-01-01T00:00:00Z"
            ),
            TimestampsOrder => f.write_str("timestamps need from < to"),
            DistributionKind { kind } => {
                write!(f, "a {kind} property cannot take this distribution")
            }
            PkPrefix => f.write_str(
                "a PartitionKey condition is eq or a prefix through a field of its template",
            ),
            RkNeedsPk => f.write_str(
                "RowKey conditions are modelled within one partition: add PartitionKey eq",
            ),
            RkPrefix { n } => write!(
                f,
                "a RowKey prefix is modelled within the template's leading text ({n} characters)"
            ),
            Prefix => f.write_str(
                "a prefix is modelled on String properties with a uniform, Zipf or choice distribution of at most 100000 values, with length 1 or more",
            ),
            NoProperty { name } => write!(f, "the type has no property {name:?}"),
            OneCondition => f.write_str("at most one condition on each key"),
            FanOut => f.write_str(
                "fan-out queries every bucket of a PartitionKey with a hash(…) field: it needs PartitionKey eq and such a template",
            ),
            ResultSize => f.write_str("a result size is 1 or more (leave it out for all)"),
            Select => f.write_str("$select needs the list of needed properties"),
            WriteTypes => f.write_str("a write names 1 to 100 entity types"),
            WriteTypeTwice { name } => write!(
                f,
                "{name:?} is named twice: name it once and say how many it writes per call"
            ),
            PerCallType { name } => write!(f, "{name:?} is not one of the write's entity types"),
            PerCall { name, max } => write!(
                f,
                "{name:?}: a write call writes 1 to {max} entities of a type"
            ),
            ThroughField { key, field, fields } => write!(
                f,
                "the {key} template has no field {field:?} (its fields: {})",
                fields.join(", ")
            ),
            ThroughOnProperty => {
                f.write_str("a prefix or range through a template field is a condition on PartitionKey or RowKey")
            }
            RangeField { field, max } => write!(
                f,
                "a RowKey range steps a zero-padded number ({{Field:08}}) of a uniform or Zipf property, or a date ({{Field:date}}), by 1 to {max}: {field:?} is not one"
            ),
            Unbalanced { found, text } => {
                let missing = if *found == '{' { '}' } else { '{' };
                write!(f, "'{found}' without '{missing}' in {text:?}")
            }
            InvertedTicks { body } => write!(
                f,
                "{{{body}}}: write the inverted ticks as {{MaxTicks - Name}}"
            ),
            HashParen { body } => write!(f, "{{{body}}}: hash( without )"),
            Bucket { body } => write!(
                f,
                "{{{body}}}: write a bucket as hash(Name) % B, B from 1 to 1000000"
            ),
            TemplateProperty { body, name } => {
                write!(f, "{{{body}}}: {name:?} is not a property name")
            }
            Pad { format } => write!(f, ":{format}: pad to a width from 1 to 20, as :06"),
            Formats { format } => write!(
                f,
                ":{format}: the formats are :0N (zero-pad), :date and :ticks"
            ),
            KeyTemplate(d) => write!(f, "{d}"),
            NotDesign(problem) => write!(f, "This is not a design file: {problem}"),
            Text(text) => f.write_str(text),
        }
    }
}

impl From<String> for Issue {
    fn from(text: String) -> Self {
        Issue::Text(text)
    }
}

impl From<&str> for Issue {
    fn from(text: &str) -> Self {
        Issue::Text(text.to_string())
    }
}

impl From<Issue> for String {
    fn from(issue: Issue) -> Self {
        issue.to_string()
    }
}

//! The design document: tables, entity types with key templates and value distributions,
//! and access patterns with their rates. Its JSON form is versioned ([`VERSION`]) and read
//! strictly: an unknown field is an error, and [`super::validate`] checks the meaning.

use crate::Issue;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tablescope_engine::JsonProblem;

/// The JSON format version this build reads and writes.
pub const VERSION: u32 = 1;

/// A whole design: what the user edits in the Design section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Design {
    pub version: u32,
    pub name: String,
    /// The generator's seed: the same design and seed give the same entities.
    #[serde(default)]
    pub seed: u64,
    pub tables: Vec<String>,
    pub entity_types: Vec<EntityType>,
    pub patterns: Vec<Pattern>,
}

/// A kind of entity stored in a table, with its keys and properties.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntityType {
    pub name: String,
    pub table: String,
    /// PartitionKey template, e.g. `{DepartmentId}` or `{hash(UserId) % 16}_{Day:date}`.
    pub partition_key: String,
    /// RowKey template, e.g. `emp_{EmployeeId:06}` or `{MaxTicks - Created}`.
    pub row_key: String,
    /// How many entities the generator writes.
    pub count: u64,
    /// A denormalised copy of another type: one entity per entity of `copy_of`, with the same
    /// property values (for the properties this type declares), under this type's keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<String>,
    pub properties: Vec<PropertyDef>,
}

/// A typed property and how its values are distributed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PropertyDef {
    pub name: String,
    #[serde(rename = "type")]
    pub edm_type: PropertyType,
    pub distribution: Distribution,
    /// For String properties from numbers: text before the number (`dept-`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prefix: String,
    /// For String properties from numbers: text after the number (`@contoso.com`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub suffix: String,
    /// For String properties from numbers: zero-pad the number to this many digits.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pad: u8,
    /// In a projection to another size: whether the declared range keeps its values
    /// (`fixed`, the default) or grows in proportion to the type's entity count (`grows`).
    #[serde(default, skip_serializing_if = "Scale::is_fixed")]
    pub scale: Scale,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// How a property's values scale when a projection changes its type's entity count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Scale {
    /// The declared range at every size (10,000 customers stay 10,000 customers).
    #[default]
    Fixed,
    /// A uniform range, a Zipf's ranks or a time range in proportion to the entity count
    /// (`1..10000` at 10,000 entities is `1..N` at N).
    Grows,
}

impl Scale {
    pub fn is_fixed(&self) -> bool {
        *self == Scale::Fixed
    }
}

/// The property types the generator writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PropertyType {
    String,
    Int32,
    Int64,
    Double,
    Boolean,
    DateTime,
    Guid,
}

/// How a property's values are spread over the entities of its type.
///
/// The generator stratifies every distribution: with n entities, each value's count is its
/// probability times n, rounded, so small datasets already have the exact shape. Properties
/// are independent of each other: each is stratified on its own keyed shuffle of the
/// entities, so a combination of values holds its expected share give or take sampling error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Distribution {
    /// `start`, `start + 1`, … in generation order: unique per entity.
    Sequential { start: i64 },
    /// Whole numbers `min..=max`, all equally likely.
    Uniform { min: i64, max: i64 },
    /// Ranks `1..=n`, rank k with probability proportional to `1 / k^s` (hot keys).
    Zipf { n: u64, s: f64 },
    /// One of the listed texts: all equally likely, or in proportion to `weights` (one per
    /// value, not negative, not all zero).
    Choice {
        values: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weights: Option<Vec<f64>>,
    },
    /// Instants spread evenly over `[from, to)` (ISO 8601 text); new writes arrive at `to`.
    Timestamps { from: String, to: String },
    /// A fresh value per entity (Guid properties): unique and in no order.
    Random,
}

/// An access pattern: a named read or write the application performs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Pattern {
    Read(ReadPattern),
    Write(WritePattern),
}

impl Pattern {
    pub fn name(&self) -> &str {
        match self {
            Pattern::Read(r) => &r.name,
            Pattern::Write(w) => &w.name,
        }
    }

    /// Calls per second the application makes.
    pub fn rate(&self) -> f64 {
        match self {
            Pattern::Read(r) => r.rate,
            Pattern::Write(w) => w.rate,
        }
    }
}

/// A read whose parameters are bound from one entity of `entity_type` (drawn from the data).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadPattern {
    pub name: String,
    pub entity_type: String,
    /// Joined by `and`; each takes its value from the drawn entity.
    pub conditions: Vec<Condition>,
    /// Calls per second.
    pub rate: f64,
    /// The number of entities the application needs; unset means all that match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_size: Option<u32>,
    /// The properties the application uses; unset means all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs: Option<Vec<String>>,
    /// Whether the query sends `$select` with the needed properties.
    #[serde(default)]
    pub select: bool,
    /// Query every hash bucket of the PartitionKey (one request each), because the bucket is
    /// computed from a property the caller does not know.
    #[serde(default)]
    pub fan_out: bool,
}

/// One comparison of a read's `$filter`. JSON: `{"on": "LastName", "op": "prefix", "length": 1}`,
/// or on a key, a prefix built from its template: `{"on": "RowKey", "op": "prefix", "through":
/// "OrderId"}` (the key's expansion up to and including the `OrderId` field and the literal
/// text after it: `00001234_` for `{OrderId:08}_{Line:03}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ConditionJson", into = "ConditionJson")]
pub struct Condition {
    /// `PartitionKey`, `RowKey` or a property of the entity type.
    pub on: String,
    pub op: ConditionOp,
}

/// How a condition compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConditionOp {
    /// Equal to the drawn entity's value.
    Eq,
    /// Starts with the first `length` characters of the drawn entity's value (a string range).
    Prefix { length: u32 },
    /// A key that starts with the drawn entity's key up to and including the template's first
    /// field on property `field` and the literal text after it (a string range of the key).
    Through { field: String },
    /// A key from the drawn entity's key through field `field` (inclusive) to the same key
    /// with that field `span` values later, a day each for a date (exclusive):
    /// `RowKey ge '00001234_' and RowKey lt '00001241_'`.
    Range { field: String, span: u32 },
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ConditionJson {
    on: String,
    op: OpName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    length: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    through: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    span: Option<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum OpName {
    Eq,
    Prefix,
    Range,
}

impl TryFrom<ConditionJson> for Condition {
    type Error = String;
    fn try_from(c: ConditionJson) -> Result<Self, String> {
        let op = match (c.op, c.length, c.through, c.span) {
            (OpName::Eq, None, None, None) => ConditionOp::Eq,
            (OpName::Prefix, Some(length), None, None) => ConditionOp::Prefix { length },
            (OpName::Prefix, None, Some(field), None) => ConditionOp::Through { field },
            (OpName::Range, None, Some(field), Some(span)) => ConditionOp::Range { field, span },
            (OpName::Eq, ..) => {
                return Err("an eq condition takes no length, through or span".into())
            }
            (OpName::Prefix, _, _, Some(_)) => {
                return Err("a prefix condition takes no span (a range does)".into())
            }
            (OpName::Prefix, Some(_), Some(_), None) => {
                return Err("a prefix condition takes a length or a through field, not both".into())
            }
            (OpName::Prefix, None, None, None) => {
                return Err("a prefix condition needs a length or a through field".into())
            }
            (OpName::Range, ..) => {
                return Err("a range condition takes a through field and a span, no length".into())
            }
        };
        Ok(Condition { on: c.on, op })
    }
}

impl From<Condition> for ConditionJson {
    fn from(c: Condition) -> Self {
        let (op, length, through, span) = match c.op {
            ConditionOp::Eq => (OpName::Eq, None, None, None),
            ConditionOp::Prefix { length } => (OpName::Prefix, Some(length), None, None),
            ConditionOp::Through { field } => (OpName::Prefix, None, Some(field), None),
            ConditionOp::Range { field, span } => (OpName::Range, None, Some(field), Some(span)),
        };
        ConditionJson {
            on: c.on,
            op,
            length,
            through,
            span,
        }
    }
}

/// A write of one entity type, or of several types that must stay consistent: copies of one
/// entity (an entity and its index entity), or entities of different types that take the
/// first type's values for the properties they share by name (an order and its lines).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WritePattern {
    pub name: String,
    pub op: WriteOp,
    /// Entity types written together for one logical change (an entity and its index rows).
    pub entity_types: Vec<String>,
    /// Entities of a type each call writes, when more than 1 (`{"Line": 5}`: an order and its
    /// five lines); every entity is one operation.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_call: BTreeMap<String, u32>,
    pub rate: f64,
    /// Whether the types are written in one entity group transaction.
    #[serde(default)]
    pub batch: bool,
    /// Whether the application reads the entity first to decide between insert and update.
    #[serde(default)]
    pub read_first: bool,
}

/// The write operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WriteOp {
    Insert,
    Update,
    Upsert,
    Delete,
}

impl Design {
    /// Reads a design from its JSON text: a syntax error, an unknown field, a newer version or
    /// a meaning error (see [`super::validate`]) each give a message naming where.
    pub fn from_json(text: &str) -> Result<Design, super::DesignError> {
        let design =
            Design::parse(text).map_err(|p| super::DesignError::new("", Issue::NotDesign(p)))?;
        super::validate::design(&design)?;
        Ok(design)
    }

    /// Reads a design's JSON text by its structure only (no check of its meaning).
    pub fn parse(text: &str) -> Result<Design, JsonProblem> {
        serde_json::from_str(text).map_err(|e| JsonProblem::from(&e))
    }

    /// The design's JSON text (pretty, stable field order).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn entity_type(&self, name: &str) -> Option<&EntityType> {
        self.entity_types.iter().find(|t| t.name == name)
    }
}

impl WritePattern {
    /// Entities of type `name` one call writes.
    pub fn per_call_of(&self, name: &str) -> u32 {
        self.per_call.get(name).copied().unwrap_or(1)
    }

    /// Operations one call performs: every entity of every type.
    pub fn operations(&self) -> u64 {
        self.entity_types
            .iter()
            .map(|t| u64::from(self.per_call_of(t)))
            .sum()
    }
}

impl EntityType {
    pub fn property(&self, name: &str) -> Option<&PropertyDef> {
        self.properties.iter().find(|p| p.name == name)
    }
}

//! The one serializable interface: every operation is a [`Request`], every result a
//! [`Response`]; both serialize with entities in the service's JSON form (a response holds
//! its entities typed, as [`Returned`], until then). The UI, persistence, scenario files,
//! share links and tests all go through `Account::execute` (in `service.rs`).

use super::account::WriteMode;
use super::batch::BatchOperation;
use super::entity::{ETag, Entity};
use super::error::Error;
use super::found::Found;
use super::json::RawEntity;
use super::query::{Advice, Continuation, QueryStats};
use super::value::{EdmType, Value};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

/// An operation, named as in scenario files (docs/service/lessons.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "op",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Request {
    CreateTable {
        table: String,
    },
    DeleteTable {
        table: String,
    },
    ListTables {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        filter: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<u32>,
        /// Continue from this table (the service's NextTableName), inclusive.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_table_name: Option<String>,
    },
    Insert {
        table: String,
        entity: RawEntity,
    },
    UpsertReplace {
        table: String,
        entity: RawEntity,
    },
    UpsertMerge {
        table: String,
        entity: RawEntity,
    },
    Replace {
        table: String,
        entity: RawEntity,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        if_match: Option<String>,
    },
    Merge {
        table: String,
        entity: RawEntity,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        if_match: Option<String>,
    },
    Delete {
        table: String,
        partition_key: String,
        row_key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        if_match: Option<String>,
    },
    Get {
        table: String,
        partition_key: String,
        row_key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        select: Option<Vec<String>>,
    },
    Query {
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        filter: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        select: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        continuation: Option<Continuation>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page_budget: Option<u64>,
        /// Tablescope only: also return the keys of every scanned entity (partition map).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        trace: bool,
    },
    Batch {
        table: String,
        operations: Vec<BatchRequest>,
    },
    /// Tablescope only: every table with its counts and columns.
    DescribeTables {},
    /// Get Table Service Properties.
    GetServiceProperties {},
    /// Set Table Service Properties: the parts given replace the stored ones.
    SetServiceProperties {
        properties: crate::settings::PropertiesUpdate,
    },
    /// Get Table ACL.
    GetTableAcl {
        table: String,
    },
    /// Set Table ACL: the table's whole list (empty clears it).
    SetTableAcl {
        table: String,
        #[serde(default)]
        identifiers: Vec<crate::settings::SignedIdentifier>,
    },
}

/// An operation inside a batch: a step without `table`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "op",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum BatchRequest {
    Insert {
        entity: RawEntity,
    },
    UpsertReplace {
        entity: RawEntity,
    },
    UpsertMerge {
        entity: RawEntity,
    },
    Replace {
        entity: RawEntity,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        if_match: Option<String>,
    },
    Merge {
        entity: RawEntity,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        if_match: Option<String>,
    },
    Delete {
        partition_key: String,
        row_key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        if_match: Option<String>,
    },
    Get {
        partition_key: String,
        row_key: String,
    },
}

impl BatchRequest {
    /// The same operation sent on its own to `table`.
    pub fn into_request(self, table: String) -> Request {
        use BatchRequest as B;
        match self {
            B::Insert { entity } => Request::Insert { table, entity },
            B::UpsertReplace { entity } => Request::UpsertReplace { table, entity },
            B::UpsertMerge { entity } => Request::UpsertMerge { table, entity },
            B::Replace { entity, if_match } => Request::Replace {
                table,
                entity,
                if_match,
            },
            B::Merge { entity, if_match } => Request::Merge {
                table,
                entity,
                if_match,
            },
            B::Delete {
                partition_key,
                row_key,
                if_match,
            } => Request::Delete {
                table,
                partition_key,
                row_key,
                if_match,
            },
            B::Get {
                partition_key,
                row_key,
            } => Request::Get {
                table,
                partition_key,
                row_key,
                select: None,
            },
        }
    }

    pub(crate) fn to_operation(&self) -> BatchOperation<'_> {
        use BatchRequest as B;
        fn write<'r>(
            mode: WriteMode,
            entity: &'r RawEntity,
            if_match: &'r Option<String>,
        ) -> BatchOperation<'r> {
            BatchOperation::Write {
                mode,
                entity,
                if_match: if_match.as_deref(),
            }
        }
        match self {
            B::Insert { entity } => write(WriteMode::Insert, entity, &None),
            B::UpsertReplace { entity } => write(WriteMode::UpsertReplace, entity, &None),
            B::UpsertMerge { entity } => write(WriteMode::UpsertMerge, entity, &None),
            B::Replace { entity, if_match } => write(WriteMode::Replace, entity, if_match),
            B::Merge { entity, if_match } => write(WriteMode::Merge, entity, if_match),
            B::Delete {
                partition_key,
                row_key,
                if_match,
            } => BatchOperation::Delete {
                partition_key,
                row_key,
                if_match: if_match.as_deref(),
            },
            B::Get {
                partition_key,
                row_key,
            } => BatchOperation::Get {
                partition_key,
                row_key,
            },
        }
    }
}

/// What the explain view shows for a query. Written to JSON (its sentences as English text),
/// never read back.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explain {
    pub summary: crate::query::Summary,
    /// The normalized filter (every `not` pushed into the comparisons).
    pub filter: String,
    pub bounded_by: Vec<String>,
    pub checked: Vec<String>,
    pub advice: Vec<Advice>,
    /// On Cosmos DB for Table only: whether the property index answered the filter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_use: Option<crate::target::IndexUse>,
}

/// A table with its figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TableInfo {
    pub name: String,
    pub entities: u64,
    pub partitions: u64,
    pub columns: Vec<ColumnInfo>,
}

/// A property name seen in a table, with the types it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnInfo {
    pub name: String,
    pub types: Vec<super::value::EdmType>,
    pub count: u64,
}

/// The entities a request answered, typed, for callers that write their own bytes (the wire
/// layer): [`crate::Account::execute_rows`] hands them over instead of building their JSON.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rows {
    /// A point read's or an insert's entity, or a query page's entities in order, as
    /// stored, each with the request's `$select` ([`Found::select`]).
    pub entities: Vec<Found>,
    /// Whether the answer is one entity (`Response::entity`) rather than a page
    /// (`Response::entities`).
    pub single: bool,
}

impl Rows {
    /// The entities as a [`Response`] carries them: still as stored. (Collected in place:
    /// a `Returned` is the size of a `Found`, so a page is not copied.)
    pub fn into_returned(self) -> Vec<Returned> {
        self.entities.into_iter().map(Returned::Found).collect()
    }
}

/// An entity a [`Response`] returns. `execute` hands it over typed, as the engine holds it:
/// its JSON form is built only when someone serializes it or asks for it ([`Self::to_raw`]),
/// so a page nobody reads as JSON costs no JSON tree. A response read back from JSON holds
/// the JSON form as it was written.
///
/// Invariant: both forms serialize to the service's JSON form of the entity, `$select`
/// applied (exactly the selected names, a missing one as null, system properties only when
/// listed).
#[derive(Debug, Clone)]
pub enum Returned {
    Typed {
        entity: Entity,
        /// The request's `$select`, when it projects; shared by the page's entities.
        select: Option<Arc<[String]>>,
    },
    /// An entity as the table holds it (a read's or a query's), with the read's `$select`:
    /// it becomes an [`Entity`] or JSON only when asked.
    Found(Found),
    Json(RawEntity),
}

impl Returned {
    /// The JSON form of an entity with an optional projection.
    fn raw_of(entity: &Entity, select: Option<&[String]>) -> RawEntity {
        match select {
            Some(sel) => RawEntity(
                super::json::encode_projected(entity, sel)
                    .into_iter()
                    .collect(),
            ),
            None => RawEntity::from_entity(entity),
        }
    }

    /// The JSON form, as the service would send it.
    pub fn to_raw(&self) -> RawEntity {
        match self {
            Returned::Typed { entity, select } => Returned::raw_of(entity, select.as_deref()),
            Returned::Found(found) => Returned::raw_of(&found.to_entity(), found.select.as_deref()),
            Returned::Json(raw) => raw.clone(),
        }
    }

    /// The PartitionKey and RowKey as the JSON form shows them: `None` when a `$select`
    /// leaves either out.
    pub fn keys(&self) -> Option<(&str, &str)> {
        match self {
            Returned::Typed { entity, select } => listed_keys(
                select,
                entity.partition_key.as_str(),
                entity.row_key.as_str(),
            ),
            Returned::Found(found) => listed_keys(
                &found.select,
                found.partition_key.as_str(),
                found.row_key.as_str(),
            ),
            Returned::Json(raw) => Some((
                raw.get("PartitionKey")?.as_str()?,
                raw.get("RowKey")?.as_str()?,
            )),
        }
    }

    /// The typed entity, when the response was not read back from JSON. A projected entity
    /// holds only the selected user properties (its keys and Timestamp always).
    pub fn typed(&self) -> Option<Cow<'_, Entity>> {
        match self {
            Returned::Typed { entity, .. } => Some(Cow::Borrowed(entity)),
            Returned::Found(found) => Some(Cow::Owned(found.to_entity())),
            Returned::Json(_) => None,
        }
    }
}

impl Returned {
    /// The value of user property `name`, as the JSON form shows it: `None` when the entity
    /// has none or `$select` leaves it out.
    pub fn property(&self, name: &str) -> Option<Value> {
        let listed = |select: &Option<Arc<[String]>>| {
            select.as_ref().is_none_or(|s| s.iter().any(|n| n == name))
        };
        match self {
            Returned::Typed { entity, select } if listed(select) => entity.get(name).cloned(),
            Returned::Found(found) if listed(&found.select) => found.stored.properties.get(name),
            Returned::Typed { .. } | Returned::Found(_) => None,
            Returned::Json(raw) => {
                let annotation = raw
                    .get(&format!("{name}@odata.type"))
                    .and_then(|t| t.as_str())
                    .and_then(EdmType::from_odata_name);
                super::json::decode_value(name, raw.get(name)?, annotation).ok()
            }
        }
    }
}

/// Both keys, unless a `$select` leaves either out.
fn listed_keys<'e>(
    select: &Option<Arc<[String]>>,
    partition_key: &'e str,
    row_key: &'e str,
) -> Option<(&'e str, &'e str)> {
    let listed = |name: &str| select.as_ref().is_none_or(|s| s.iter().any(|n| n == name));
    (listed("PartitionKey") && listed("RowKey")).then_some((partition_key, row_key))
}

/// Equal when their JSON forms are.
impl PartialEq for Returned {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Returned::Typed {
                    entity: a,
                    select: sa,
                },
                Returned::Typed {
                    entity: b,
                    select: sb,
                },
            ) if sa == sb => a == b,
            (Returned::Found(a), Returned::Found(b))
                if a.select.is_none() && b.select.is_none() =>
            {
                a == b
            }
            (Returned::Json(a), Returned::Json(b)) => a == b,
            _ => self.to_raw() == other.to_raw(),
        }
    }
}

impl From<RawEntity> for Returned {
    fn from(raw: RawEntity) -> Self {
        Returned::Json(raw)
    }
}

impl Serialize for Returned {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Returned::Json(raw) => raw.serialize(s),
            typed => typed.to_raw().serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Returned {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        RawEntity::deserialize(d).map(Returned::Json)
    }
}

/// The answer to a request. `status` is the HTTP status the service would send.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
    /// Serialized as its text (`W/"datetime'…'"`), formatted only then or when shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<ETag>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<Returned>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entities: Option<Vec<Returned>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation: Option<Continuation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<QueryStats>,
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub explain: Option<Explain>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<Vec<String>>,
    /// A table list that continues: the first table of the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_table_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_infos: Option<Vec<TableInfo>>,
    /// A committed batch: one answer per operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<Response>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scanned_keys: Option<Vec<(String, String)>>,
    /// What Get Table Service Properties answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_properties: Option<crate::settings::ServiceProperties>,
    /// What Get Table ACL answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acl: Option<Vec<crate::settings::SignedIdentifier>>,
    /// On Cosmos DB for Table only: the operation's request units, estimated
    /// ([`crate::target::ru`]); a batch's answer holds the sum, each result its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ru: Option<crate::target::RuEstimate>,
    /// On Cosmos DB for Table only: what a query read from the property index (its
    /// entities read are `stats.scanned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<crate::target::IndexRead>,
}

impl Response {
    pub fn status(status: u16) -> Self {
        Response {
            status,
            ..Response::default()
        }
    }

    pub fn failure(error: Error) -> Self {
        Response {
            status: error.status(),
            error: Some(error),
            ..Response::default()
        }
    }

    pub fn is_success(&self) -> bool {
        self.error.is_none()
    }

    pub(crate) fn with_entity(status: u16, entity: &Entity) -> Self {
        Response {
            status,
            etag: entity.timestamp.map(ETag),
            entity: Some(Returned::Typed {
                entity: entity.clone(),
                select: None,
            }),
            ..Response::default()
        }
    }
}

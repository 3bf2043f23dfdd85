//! The one serializable interface: every operation is a [`Request`], every result a
//! [`Response`], entities in the service's JSON form. The UI, persistence, scenario files,
//! share links and tests all go through `Account::execute` (in `service.rs`).

use super::account::WriteMode;
use super::batch::BatchOperation;
use super::entity::Entity;
use super::error::Error;
use super::json::RawEntity;
use super::query::{Advice, Continuation, QueryStats};
use serde::{Deserialize, Serialize};

/// An operation, named as in scenario files (SCENARIOS.md).
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

    pub(crate) fn to_operation(&self) -> BatchOperation {
        use BatchRequest as B;
        let write = |mode, entity: &RawEntity, if_match: &Option<String>| BatchOperation::Write {
            mode,
            entity: entity.clone(),
            if_match: if_match.clone(),
        };
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
                partition_key: partition_key.clone(),
                row_key: row_key.clone(),
                if_match: if_match.clone(),
            },
            B::Get {
                partition_key,
                row_key,
            } => BatchOperation::Get {
                partition_key: partition_key.clone(),
                row_key: row_key.clone(),
            },
        }
    }
}

/// What the explain view shows for a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Explain {
    pub summary: String,
    /// The normalized filter (every `not` pushed into the comparisons).
    pub filter: String,
    pub bounded_by: Vec<String>,
    pub checked: Vec<String>,
    pub advice: Vec<Advice>,
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
    /// A point read's or an insert's entity, or a query page's entities in order.
    pub entities: Vec<Entity>,
    /// The request's `$select`, when it projects: the JSON form lists exactly these names
    /// (system properties only when listed, a missing property as null).
    pub select: Option<Vec<String>>,
    /// Whether the answer is one entity (`Response::entity`) rather than a page
    /// (`Response::entities`).
    pub single: bool,
}

impl Rows {
    /// The JSON form of each entity, as [`Response`] carries them.
    pub fn to_json(&self) -> Vec<RawEntity> {
        self.entities
            .iter()
            .map(|e| match self.select.as_deref() {
                Some(sel) => RawEntity(super::json::encode_projected(e, sel).into_iter().collect()),
                None => RawEntity::from_entity(e),
            })
            .collect()
    }
}

/// The answer to a request. `status` is the HTTP status the service would send.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<RawEntity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entities: Option<Vec<RawEntity>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation: Option<Continuation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<QueryStats>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
            etag: entity.etag(),
            entity: Some(RawEntity::from_entity(entity)),
            ..Response::default()
        }
    }

    /// Fills `entity` or `entities` with the JSON form of typed rows.
    pub(crate) fn with_rows(mut self, rows: &Rows) -> Self {
        let mut json = rows.to_json();
        if rows.single {
            self.entity = json.pop();
        } else {
            self.entities = Some(json);
        }
        self
    }
}

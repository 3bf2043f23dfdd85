//! The table engine: a faithful model of the Azure Table service in pure Rust.
//!
//! No web crates here: the engine builds and tests natively, and for wasm32 on its own.
//! Everything callers need is re-exported at this level.
//!
//! ```
//! use tablescope_engine::{Account, Request, RawEntity};
//! let mut account = Account::default();
//! account.execute(&Request::CreateTable { table: "Employees".into() });
//! let entity = RawEntity::parse(r#"{"PartitionKey":"Marketing","RowKey":"00001","Age":34}"#).unwrap();
//! let inserted = account.execute(&Request::Insert { table: "Employees".into(), entity });
//! assert_eq!(inserted.status, 201);
//! let page = account.execute(&Request::Query {
//!     table: "Employees".into(), filter: Some("PartitionKey eq 'Marketing' and RowKey eq '00001'".into()),
//!     select: None, top: None, continuation: None, page_budget: None, trace: false,
//! });
//! assert_eq!(page.stats.unwrap().scanned, 1);
//! ```
#![forbid(unsafe_code)]

mod account;
mod api;
mod batch;
mod changes;
mod clock;
pub mod csv;
mod datetime;
mod detail;
pub mod encoding;
mod entity;
mod error;
pub mod filter;
mod found;
pub mod json;
mod json_problem;
mod key;
pub mod query;
mod record;
mod row_map;
mod rows;
pub mod scenario;
mod service;
pub mod settings;
pub mod snapshot;
mod table;
pub mod target;
pub mod throughput;
pub mod validate;
mod value;

pub use account::{Account, IfMatch, WriteMode};
pub use api::{BatchRequest, ColumnInfo, Explain, Request, Response, Returned, Rows, TableInfo};
pub use batch::{MAX_OPERATIONS, MAX_PAYLOAD_BYTES};
pub use changes::{Change, ChangeSet};
pub use clock::{Clock, FixedClock};
pub use datetime::{DateTime, DateTimeError, Fraction};
pub use detail::{Detail, Place, ValueProblem};
pub use entity::{etag_for, ETag, Entity, Property, PropertyName};
pub use error::{Error, ErrorCode, Result};
pub use found::Found;
pub use json::RawEntity;
pub use json_problem::{JsonExpected, JsonFound, JsonProblem, JsonProblemKind, JsonSyntax};
pub use key::{cmp_utf16, utf16_len, Key};
pub use query::{distinct_partitions, Continuation, QueryKind, QueryOptions, QueryStats};
pub use record::{Record, Shape, ValueRef};
pub use row_map::RowMap;
pub use rows::{Row, RowRun, Seen};
pub use service::MAX_COMPARISONS;
pub use settings::{AccessPolicy, CorsRule, PropertiesUpdate, ServiceProperties, SignedIdentifier};
pub use table::{ColumnStats, Partition, Stored, Table};
pub use target::{CopyReport, Dropped, IndexRead, IndexUse, RuEstimate, Rule, Target, Unsupported};
pub use value::{
    compare_same_type, format_double, service_double, write_service_double, EdmType, Guid, Value,
};

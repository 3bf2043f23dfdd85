//! Every way Azure Cosmos DB for Table differs from Table storage that the engine models, one
//! named [`Rule`] each, with its source. `docs/service/cosmos.md` explains them for readers.
//!
//! Sources: **recorded** (the same SDK test recorded once against each service, the Azure SDK
//! teams' live-test recordings, `x-ms-version: 2019-02-02`), **documented** (Microsoft's
//! "Frequently asked questions about Azure Cosmos DB for Table", section "Where is API for
//! Table not identical with Azure Table storage behavior?", and the Cosmos DB request unit
//! pages cited in [`super::ru`]). Where a rule needs a choice its source does not make, the
//! choice is named in [`Rule::model`] so that nobody mistakes it for the service's behaviour.

use serde::{Deserialize, Serialize};

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// Read in recordings of both services.
    Recorded,
    /// Taken from Microsoft's documentation.
    Documented,
    /// Both recorded and documented.
    RecordedAndDocumented,
}

/// One difference of the Cosmos DB for Table target from the Table storage target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Rule {
    /// [rec][doc] Query results come back in insertion order, not PartitionKey/RowKey order
    /// (RowKeys `1`…`10` inserted in that order: `1,2,…,10`; storage: `1,10,2,…,9`).
    InsertionOrder,
    /// [rec] Table listings come back in neither name nor creation order.
    TableListingOrder,
    /// [doc] Every property is indexed automatically: a filter on a non-key property is
    /// answered from the index, not by scanning the partition or the table.
    AutomaticIndex,
    /// [rec] Every operation of a batch gets its own Timestamp (storage: one for all inserts).
    TimestampPerBatchOperation,
    /// [rec] ETags and Timestamps always carry seven fraction digits, trailing zeros kept.
    SevenFractionDigits,
    /// [rec] A create-table answer carries an ETag (storage's does not).
    CreateTableETag,
    /// [rec] Two operations on one entity in a batch are refused at the top (400), not as one
    /// failing part of a 202.
    DuplicateRowRefusedAtTop,
    /// [rec] Continuation tokens: NextPartitionKey is a JSON document
    /// (`{"token":"…","range":{"min":"","max":"FF"}}`) and NextRowKey is `NA`.
    ContinuationToken,
    /// [doc] A RowKey holds at most 255 bytes.
    RowKeyLimit,
    /// [doc] A batch holds at most 2 MB.
    BatchSizeLimit,
    /// [doc] `$top` is not capped at 1,000.
    TopUncapped,
    /// [doc] Binary properties take more room internally, so a full 1 MiB binary entity does
    /// not fit.
    BinaryRoom,
    /// [doc] Table names are case-sensitive (storage: case-insensitive).
    CaseSensitiveTableNames,
    /// [doc] The property names `Id`, `rid`, `etag` and `ResourceId` are not supported.
    ReservedPropertyNames,
    /// [doc] Get/Set Table Service Properties, CORS, Get Table Service Stats and Get/Set
    /// Table ACL are not supported.
    UnsupportedOperations,
    /// [doc] Cost is counted in request units: a point read of a 1 KB item is 1 RU; writes,
    /// queries and larger items cost more ([`super::ru`]).
    RequestUnits,
    /// [doc] A logical partition holds at most 20 GB.
    LogicalPartitionLimit,
}

impl Rule {
    /// Every rule, in the order `docs/service/cosmos.md` lists them.
    pub const ALL: [Rule; 17] = [
        Rule::InsertionOrder,
        Rule::TableListingOrder,
        Rule::AutomaticIndex,
        Rule::TimestampPerBatchOperation,
        Rule::SevenFractionDigits,
        Rule::CreateTableETag,
        Rule::DuplicateRowRefusedAtTop,
        Rule::ContinuationToken,
        Rule::RowKeyLimit,
        Rule::BatchSizeLimit,
        Rule::TopUncapped,
        Rule::BinaryRoom,
        Rule::CaseSensitiveTableNames,
        Rule::ReservedPropertyNames,
        Rule::UnsupportedOperations,
        Rule::RequestUnits,
        Rule::LogicalPartitionLimit,
    ];

    pub fn source(self) -> Source {
        use Rule::*;
        match self {
            InsertionOrder => Source::RecordedAndDocumented,
            TableListingOrder
            | TimestampPerBatchOperation
            | SevenFractionDigits
            | CreateTableETag
            | DuplicateRowRefusedAtTop
            | ContinuationToken => Source::Recorded,
            AutomaticIndex
            | RowKeyLimit
            | BatchSizeLimit
            | TopUncapped
            | BinaryRoom
            | CaseSensitiveTableNames
            | ReservedPropertyNames
            | UnsupportedOperations
            | RequestUnits
            | LogicalPartitionLimit => Source::Documented,
        }
    }

    /// What the engine chose where the source is silent, as a fixed identifier (the docs and
    /// the UI explain each); `None` when the rule is modelled exactly as its source says.
    pub fn model(self) -> Option<ModelChoice> {
        use Rule::*;
        match self {
            InsertionOrder => Some(ModelChoice::OrderOfLastWrite),
            TableListingOrder => Some(ModelChoice::HashOfName),
            AutomaticIndex => Some(ModelChoice::ConjunctsOnly),
            TimestampPerBatchOperation => Some(ModelChoice::ClockTicks),
            ContinuationToken => Some(ModelChoice::PositionToken),
            TopUncapped => Some(ModelChoice::DefaultPageKept),
            BinaryRoom => Some(ModelChoice::Base64Room),
            DuplicateRowRefusedAtTop | RowKeyLimit | BatchSizeLimit | ReservedPropertyNames => {
                Some(ModelChoice::StorageCodes)
            }
            UnsupportedOperations => Some(ModelChoice::NotImplemented),
            RequestUnits => Some(ModelChoice::PublishedFigures),
            SevenFractionDigits
            | CreateTableETag
            | CaseSensitiveTableNames
            | LogicalPartitionLimit => None,
        }
    }
}

/// A choice the engine makes where its source is silent (`docs/service/cosmos.md#silences`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ModelChoice {
    /// Results in the order of each entity's last write (its Timestamp, ties by keys): ten
    /// inserts come back in insertion order; where an updated entity goes is not recorded.
    OrderOfLastWrite,
    /// Tables listed in the order of a stable hash of their name (FNV-1a), then the name.
    HashOfName,
    /// Only comparisons joined by `and` (not `ne`) are looked up in the index; an `or` of them
    /// and `ne` are checked on every entity read.
    ConjunctsOnly,
    /// The operations' Timestamps come from the account's clock, each strictly after the last
    /// (the recordings' half-millisecond spacing is the real service's, not modelled).
    ClockTicks,
    /// The token's content is the engine's own (the next entity's position); its form is the
    /// recorded one.
    PositionToken,
    /// A query without `$top` still returns pages of at most 1,000 entities.
    DefaultPageKept,
    /// A binary value counts at its base64 length (the smallest text encoding); the real
    /// factor is not documented.
    Base64Room,
    /// The refusal's status and error code are storage's for the same kind of problem; the
    /// texts Cosmos sends are not all recorded.
    StorageCodes,
    /// Refused as 501 NotImplemented; the status Cosmos answers is not recorded.
    NotImplemented,
    /// Request units estimated from Microsoft's published figures ([`super::ru`]).
    PublishedFigures,
}

/// The longest RowKey, in UTF-8 bytes ([`Rule::RowKeyLimit`]).
pub const MAX_ROW_KEY_BYTES: usize = 255;

/// The largest batch: 2 MB, read as 2 MiB like storage's "4 MiB" ([`Rule::BatchSizeLimit`]).
pub const MAX_BATCH_BYTES: usize = 2 * 1024 * 1024;

/// Property names Cosmos DB for Table does not support ([`Rule::ReservedPropertyNames`]);
/// matched exactly, as the documentation spells them.
pub const RESERVED_PROPERTY_NAMES: [&str; 4] = ["Id", "rid", "etag", "ResourceId"];

/// The most a logical partition (all entities of one PartitionKey) holds, 20 GB read as
/// 20 GiB ([`Rule::LogicalPartitionLimit`]).
pub const MAX_LOGICAL_PARTITION_BYTES: u64 = 20 * 1024 * 1024 * 1024;

//! Which service an account stands for: Table storage (the default) or Azure Cosmos DB for
//! Table. Every difference of the second is one named [`Rule`] in [`rules`]; this module and
//! its children are where the engine applies them.

mod copy;
mod items;
#[cfg(test)]
mod order_tests;
pub(crate) mod query;
pub mod ru;
pub mod rules;
mod token;

pub use copy::{CopyReport, Dropped};
pub use items::{IndexRead, Items};
pub use ru::{RuEstimate, RuModel};
pub use rules::{ModelChoice, Rule, Source};
pub use token::CosmosToken;

use crate::datetime::{DateTime, Fraction};
use crate::detail::Detail;
use crate::entity::Entity;
use crate::error::{Error, ErrorCode, Result};
use crate::value::Value;
use serde::{Deserialize, Serialize};

/// The service an account models. Named as the product names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Target {
    /// Azure Table storage.
    #[default]
    TableStorage,
    /// Azure Cosmos DB for Table.
    CosmosTable,
}

impl Target {
    pub const ALL: [Target; 2] = [Target::TableStorage, Target::CosmosTable];

    /// Never, in an engine built with the `without-cosmos` feature (docs embeds' wasm).
    pub fn is_cosmos(self) -> bool {
        !cfg!(feature = "without-cosmos") && self == Target::CosmosTable
    }

    /// The target a copy goes to from this one.
    pub fn other(self) -> Target {
        match self {
            Target::TableStorage => Target::CosmosTable,
            Target::CosmosTable => Target::TableStorage,
        }
    }

    /// Whether the rule applies on this target (every rule is a Cosmos difference).
    pub fn applies(self, _rule: Rule) -> bool {
        self.is_cosmos()
    }

    /// How Timestamps and ETags write their fraction ([`Rule::SevenFractionDigits`]):
    /// storage trims trailing zeros, Cosmos keeps all seven digits.
    pub fn fraction(self) -> Fraction {
        match self {
            Target::TableStorage => Fraction::Trimmed,
            Target::CosmosTable => Fraction::Seven,
        }
    }

    /// A Timestamp as this target writes it (`2024-05-06T07:08:09.1941Z` on storage,
    /// `…09.1941000Z` on Cosmos).
    pub fn timestamp_text(self, t: DateTime) -> String {
        let mut out = String::with_capacity(28);
        t.write(&mut out, ":", self.fraction());
        out
    }

    /// An ETag as this target writes it (`W/"datetime'…'"`, `:` as `%3A`).
    pub fn etag_text(self, t: DateTime) -> String {
        let mut out = String::with_capacity(48);
        out.push_str("W/\"datetime'");
        t.write(&mut out, "%3A", self.fraction());
        out.push_str("'\"");
        out
    }

    /// The largest `$top` a query takes: 1,000 on storage, none on Cosmos
    /// ([`Rule::TopUncapped`]).
    pub fn max_top(self) -> Option<u32> {
        match self {
            Target::TableStorage => Some(crate::query::MAX_PAGE),
            Target::CosmosTable => None,
        }
    }

    /// The largest batch payload in bytes ([`Rule::BatchSizeLimit`]).
    pub fn max_batch_bytes(self) -> usize {
        match self {
            Target::TableStorage => crate::batch::MAX_PAYLOAD_BYTES,
            Target::CosmosTable => rules::MAX_BATCH_BYTES,
        }
    }

    /// The checks this target adds to an entity that passed storage's
    /// ([`crate::validate::entity`]): none on storage; on Cosmos the RowKey's 255 bytes, the
    /// reserved property names and the room binary values take.
    pub fn check_entity(self, e: &Entity) -> Result<()> {
        if !self.is_cosmos() {
            return Ok(());
        }
        if e.row_key.len() > rules::MAX_ROW_KEY_BYTES {
            return Err(refusal(ErrorCode::KeyValueTooLarge, Rule::RowKeyLimit));
        }
        if let Some((name, _)) = e
            .properties
            .iter()
            .find(|(n, _)| rules::RESERVED_PROPERTY_NAMES.contains(&&**n))
        {
            return Err(Error {
                detail: Some(Box::new(Detail::PropertyNameInvalid {
                    name: name.to_string(),
                })),
                ..refusal(ErrorCode::PropertyNameInvalid, Rule::ReservedPropertyNames)
            });
        }
        // Storage's size passed already: only binary values make Cosmos's larger.
        let binary = |(_, v): &(_, Value)| matches!(v, Value::Binary(_));
        let size = match e.properties.iter().any(binary) {
            true => cosmos_entity_size(e),
            false => 0,
        };
        if size > crate::validate::MAX_ENTITY_BYTES {
            return Err(Error {
                detail: Some(Box::new(Detail::EntityTooLarge {
                    size,
                    limit: crate::validate::MAX_ENTITY_BYTES,
                })),
                ..refusal(ErrorCode::EntityTooLarge, Rule::BinaryRoom)
            });
        }
        Ok(())
    }

    /// Refuses an operation this target does not support ([`Rule::UnsupportedOperations`]).
    pub fn supports(self, operation: Unsupported) -> Result<()> {
        match self {
            Target::TableStorage => Ok(()),
            Target::CosmosTable => Err(Error {
                unsupported: Some(operation),
                ..refusal(ErrorCode::NotImplemented, Rule::UnsupportedOperations)
            }),
        }
    }
}

/// The operations Cosmos DB for Table does not support ([`Rule::UnsupportedOperations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Unsupported {
    GetServiceProperties,
    SetServiceProperties,
    /// CORS rules and their preflight (the wire layer's part).
    Cors,
    GetServiceStats,
    GetTableAcl,
    SetTableAcl,
}

/// An error of `code` that `rule` caused, with storage's message for the code.
pub(crate) fn refusal(code: ErrorCode, rule: Rule) -> Error {
    Error {
        rule: Some(rule),
        ..Error::new(code)
    }
}

/// Storage's entity size ([`crate::validate::entity_size`]) with each binary value counted
/// at its base64 length instead of its own ([`Rule::BinaryRoom`], [`ModelChoice::Base64Room`]).
pub fn cosmos_entity_size(e: &Entity) -> usize {
    let extra: usize = e
        .properties
        .iter()
        .map(|(_, v)| match v {
            Value::Binary(b) => b.len().div_ceil(3) * 4 - b.len(),
            _ => 0,
        })
        .sum();
    crate::validate::entity_size(e) + extra
}

/// Why a query on a Cosmos DB for Table table read what it read ([`Rule::AutomaticIndex`]),
/// for the explain view beside [`crate::query::Summary`] (which says what the key bounds
/// alone would read, as on storage).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum IndexUse {
    /// The index of these properties answered the filter: only the entities it named (and
    /// the key bounds admit) were read, nothing was scanned. On storage the same query reads
    /// every entity the key bounds admit.
    Lookup { properties: Vec<String> },
    /// No comparison the index answers ([`ModelChoice::ConjunctsOnly`]): the entities the
    /// key bounds admit were read in the container's order, as storage reads them.
    KeyBoundsOnly,
}

impl IndexUse {
    /// What a page's [`IndexRead`] says about the query.
    pub fn of(read: &IndexRead) -> IndexUse {
        if read.properties.is_empty() {
            IndexUse::KeyBoundsOnly
        } else {
            IndexUse::Lookup {
                properties: read.properties.clone(),
            }
        }
    }
}

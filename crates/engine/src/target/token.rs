//! Continuation tokens in Cosmos DB for Table's form ([`Rule::ContinuationToken`]):
//! NextPartitionKey is a JSON document `{"token":"…","range":{"min":"","max":"FF"}}` and
//! NextRowKey is `NA`. The token's content is the engine's own
//! ([`ModelChoice::PositionToken`]): the next entity's position, base64 of a JSON array.
//!
//! [`Rule::ContinuationToken`]: super::Rule::ContinuationToken
//! [`ModelChoice::PositionToken`]: super::ModelChoice::PositionToken

use super::items::Pos;
use crate::datetime::DateTime;
use crate::error::{Error, ErrorCode, Result};
use crate::key::Key;
use crate::query::Continuation;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// NextRowKey on every Cosmos continuation.
pub const NEXT_ROW_KEY: &str = "NA";

/// Where the next page of a Cosmos query starts: the position of the next entity to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CosmosToken {
    pub(crate) next: Pos,
}

/// NextPartitionKey's JSON document.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    token: String,
    range: Range,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Range {
    min: String,
    max: String,
}

impl CosmosToken {
    /// The continuation headers' values (`NextPartitionKey`, `NextRowKey`).
    pub fn to_continuation(&self) -> Continuation {
        let inner = serde_json::json!([
            self.next.timestamp.ticks(),
            self.next.partition_key.as_str(),
            self.next.row_key.as_str()
        ]);
        let token = base64::engine::general_purpose::STANDARD.encode(inner.to_string());
        let document = Document {
            token,
            range: Range {
                min: String::new(),
                max: "FF".into(),
            },
        };
        Continuation {
            next_partition_key: serde_json::to_string(&document).unwrap_or_default(),
            next_row_key: NEXT_ROW_KEY.into(),
        }
    }

    /// Reads back what [`Self::to_continuation`] wrote; anything else is 400 InvalidInput.
    pub fn from_continuation(c: &Continuation) -> Result<CosmosToken> {
        Self::parse(c).ok_or_else(|| Error::new(ErrorCode::InvalidInput))
    }

    fn parse(c: &Continuation) -> Option<CosmosToken> {
        if c.next_row_key != NEXT_ROW_KEY {
            return None;
        }
        let document: Document = serde_json::from_str(&c.next_partition_key).ok()?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(document.token)
            .ok()?;
        let (ticks, pk, rk): (i64, String, String) = serde_json::from_slice(&bytes).ok()?;
        Some(CosmosToken {
            next: Pos {
                timestamp: DateTime::from_ticks(ticks)?,
                partition_key: Key::from(pk),
                row_key: Key::from(rk),
            },
        })
    }
}

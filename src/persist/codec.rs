//! A chunk's value: a JSON array of entities in the service's JSON form, Timestamp included.
//!
//! `odata.etag` is left out: it is derived from the Timestamp, so storing it would only cost
//! space.

use crate::engine::json::{self, RawEntity};
use crate::engine::{Entity, Key, Stored};

const ETAG: &str = "odata.etag";

/// Encodes rows of one partition as a chunk value.
pub fn encode<'a>(
    partition_key: &str,
    rows: impl Iterator<Item = (&'a Key, &'a Stored)>,
) -> Result<String, String> {
    let entities: Vec<RawEntity> = rows
        .map(|(rk, stored)| {
            let mut raw = RawEntity::from_entity(&Entity {
                partition_key: partition_key.to_string(),
                row_key: rk.as_str().to_string(),
                timestamp: Some(stored.timestamp),
                properties: stored.properties.to_vec(),
            });
            raw.0.retain(|(name, _)| name != ETAG);
            raw
        })
        .collect();
    serde_json::to_string(&entities).map_err(|e| e.to_string())
}

/// Decodes a chunk value; every entity must carry its Timestamp.
pub fn decode(text: &str) -> Result<Vec<Entity>, String> {
    let raws: Vec<RawEntity> =
        serde_json::from_str(text).map_err(|e| format!("not a JSON array of entities: {e}"))?;
    raws.iter()
        .enumerate()
        .map(|(i, raw)| {
            let entity = json::decode_stored(raw).map_err(|e| format!("entity {i}: {e}"))?;
            match entity.timestamp {
                Some(_) => Ok(entity),
                None => Err(format!("entity {i} has no Timestamp")),
            }
        })
        .collect()
}

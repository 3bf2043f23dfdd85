//! An entity as a read found it: its keys and its stored row, copied out of the table.
//!
//! A query page holds up to 1,000 of them, and most are never looked at property by
//! property (the wire layer writes their bytes, the UI shows one screen of them). A copy of
//! the stored row costs no allocation for short keys and small records (both are kept
//! inline) where an [`Entity`] costs one per key, per string value and for its property
//! list; the `Entity` is built when someone asks for it.

use crate::entity::Entity;
use crate::key::Key;
use crate::table::Stored;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub partition_key: Key,
    pub row_key: Key,
    /// The whole stored row, whatever the read selected.
    pub stored: Stored,
    /// The read's `$select`, when it projects (shared by a page's entities): the entity
    /// shows only these properties ([`Found::to_entity`], the JSON form).
    pub select: Option<Arc<[String]>>,
}

impl Found {
    pub fn new(
        partition_key: &Key,
        row_key: &Key,
        stored: &Stored,
        select: Option<&Arc<[String]>>,
    ) -> Found {
        Found {
            partition_key: partition_key.clone(),
            row_key: row_key.clone(),
            stored: stored.clone(),
            select: select.cloned(),
        }
    }

    /// The entity as the read selected it: only the selected properties when it projects;
    /// its keys and Timestamp always, since the JSON form decides which system properties
    /// to show.
    pub fn to_entity(&self) -> Entity {
        let properties = match self.select.as_deref() {
            None => self.stored.properties.to_vec(),
            Some(names) => self
                .stored
                .properties
                .iter()
                .filter(|(n, _)| names.iter().any(|s| s.as_str() == &***n))
                .map(|(n, v)| (n.clone(), v.to_value()))
                .collect(),
        };
        Entity {
            partition_key: self.partition_key.as_str().to_string(),
            row_key: self.row_key.as_str().to_string(),
            timestamp: Some(self.stored.timestamp),
            properties,
        }
    }
}

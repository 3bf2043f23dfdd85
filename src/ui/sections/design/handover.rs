//! A slice of generated entities on its way to the playground: per table (in order of first
//! write), the chunks of its partitions (in order of first appearance) in the persistence's
//! format 2, written entity by entity as they come, so nothing is kept of an entity but its
//! bytes. The page's [`super::remote::Writer`] fills one, and so does the generator in its
//! Web Worker ([`super::offthread`]).

use crate::engine::Entity;
use crate::persist::binary::ChunkWriter;
use std::collections::HashMap;

/// The chunks written since the last [`Slice::take`].
#[derive(Default)]
pub struct Slice {
    tables: Vec<TableChunks>,
}

struct TableChunks {
    table: String,
    chunks: Vec<ChunkWriter>,
    /// A PartitionKey's place in `chunks`.
    at: HashMap<String, usize>,
}

impl Slice {
    /// Writes an entity of `table` into its partition's chunk.
    pub fn push(&mut self, table: &str, entity: &Entity) {
        let i = match self.tables.iter().position(|t| t.table == table) {
            Some(i) => i,
            None => {
                self.tables.push(TableChunks {
                    table: table.to_string(),
                    chunks: Vec::new(),
                    at: HashMap::new(),
                });
                self.tables.len() - 1
            }
        };
        let t = &mut self.tables[i];
        let c = match t.at.get(&entity.partition_key) {
            Some(c) => *c,
            None => {
                t.chunks.push(ChunkWriter::new(&entity.partition_key, 4096));
                t.at.insert(entity.partition_key.clone(), t.chunks.len() - 1);
                t.chunks.len() - 1
            }
        };
        t.chunks[c].push_entity(entity);
    }

    /// The finished chunks, per table, and an empty slice.
    pub fn take(&mut self) -> Vec<(String, Vec<Vec<u8>>)> {
        std::mem::take(&mut self.tables)
            .into_iter()
            .map(|t| {
                (
                    t.table,
                    t.chunks.into_iter().map(ChunkWriter::finish).collect(),
                )
            })
            .collect()
    }
}

/// Chunks as a JS array of `Uint8Array`s (copies), as the bridge and the worker's message
/// carry them.
pub fn to_js(chunks: &[Vec<u8>]) -> js_sys::Array {
    chunks
        .iter()
        .map(|c| wasm_bindgen::JsValue::from(js_sys::Uint8Array::from(c.as_slice())))
        .collect()
}

//! From the records read back to tables and a chunk index.
//!
//! Strict by default: the first damaged record fails the load and names it. Recovering skips
//! damaged chunks whole (a chunk is checked before any of its entities is stored) and rebuilds
//! tables the meta record does not list from their chunks.

use super::binary;
use super::codec::{self, Names};
use super::error::PersistError;
use super::layout::{self, Index, Meta, FORMAT, META_KEY};
use crate::engine::{cmp_utf16, DateTime, Entity, Table};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use wasm_bindgen::{JsCast, JsValue};

/// What a load produced.
pub struct Loaded {
    pub tables: HashMap<String, Table>,
    pub index: Index,
    /// The latest Timestamp stored (meta's, or a later entity's).
    pub last: DateTime,
    /// What recovering skipped (empty for a strict load).
    pub damaged: Vec<PersistError>,
    /// How many entities had the Timestamp at the end of the clock's range and were given new
    /// ones ([`restamp`]); the store must then be rewritten.
    pub restamped: usize,
    /// The meta record's transaction count.
    pub seq: u64,
    /// The service the account models (Table storage when the meta record names none).
    pub target: crate::engine::Target,
    /// The service properties the meta record holds (a new account's when it holds none).
    pub service_properties: crate::engine::ServiceProperties,
    /// How many rows were out of their chunk's range, or partitions whose chunks do not start
    /// at the empty RowKey ([`place_strays`]); the store must then be rewritten.
    pub repaired: usize,
}

/// How long decoding runs before it lets the browser paint and handle input: a large store
/// (1,000,000 entities decode in over a second) never holds the main thread for longer.
const SLICE_MS: f64 = 40.0;

/// The chunk records' values, in batches that follow the keys in order: batch `i` holds the
/// values of the next keys (as many as it has), as `getAll` over consecutive key ranges
/// returns them. Batches arrive while earlier ones decode, so reading overlaps decoding.
pub type Batches = Vec<Pin<Box<dyn Future<Output = Result<Vec<JsValue>, PersistError>>>>>;

/// How many chunk records one read returns. A single `getAll` of a large store hands the page
/// every record in one task (about 100 MB of strings at 1,000,000 entities); reads of this
/// many records arrive as separate tasks, and the first decode starts as soon as it lands.
const READ_BATCH: usize = 256;

/// Issues one `getAll` per [`READ_BATCH`] consecutive keys (in the current transaction, so the
/// key ranges hold exactly those records) and returns their futures in key order.
pub fn read_batches(store: &idb::ObjectStore, keys: &[JsValue]) -> Result<Batches, PersistError> {
    let mut batches: Batches = Vec::new();
    for batch in keys.chunks(READ_BATCH) {
        let (first, last) = (&batch[0], &batch[batch.len() - 1]);
        let range = idb::KeyRange::bound(first, last, None, None)?;
        let read = store
            .get_all(Some(idb::Query::KeyRange(range)), None)?
            .into_future();
        batches.push(Box::pin(async move { Ok(read.await?) }));
    }
    Ok(batches)
}

/// Builds the tables from the meta record and the chunk records (`keys` in key order, as
/// `getAllKeys` returns them, and their values in `batches`); `now` is the browser's clock,
/// for [`restamp`]. It decodes in slices of [`SLICE_MS`], telling `progress` (chunks decoded,
/// chunks in all) before each pause.
pub async fn build(
    meta: Option<JsValue>,
    keys: &[JsValue],
    batches: Batches,
    recover: bool,
    now: DateTime,
    progress: &dyn Fn(usize, usize),
) -> Result<Loaded, PersistError> {
    let mut damaged = Vec::new();
    let mut report = |e: PersistError| -> Result<(), PersistError> {
        if recover {
            damaged.push(e);
            Ok(())
        } else {
            Err(e)
        }
    };
    let meta = match meta {
        Some(value) => Some(decode_meta(&value)?),
        None if keys.is_empty() => None,
        None => {
            report(PersistError::corrupt(
                META_KEY,
                "the meta record is missing",
            ))?;
            None
        }
    };
    let mut last = DateTime::MIN;
    let mut tables: HashMap<String, Table> = HashMap::new();
    for name in meta.iter().flat_map(|m| &m.tables) {
        if tables.insert(name.clone(), Table::new(name)).is_some() {
            report(PersistError::corrupt(
                META_KEY,
                format!("table {name} is listed twice"),
            ))?;
        }
    }
    let seq = meta.as_ref().map_or(0, |m| m.seq);
    let target = meta.as_ref().map(|m| m.target).unwrap_or_default();
    let service_properties = meta
        .as_ref()
        .and_then(|m| m.service_properties.clone())
        .unwrap_or_default();
    for (name, acl) in meta.iter().flat_map(|m| &m.acls) {
        match tables.get_mut(name) {
            Some(table) => table.restore_acl(acl.clone()),
            None => report(PersistError::corrupt(
                META_KEY,
                format!("table {name} has access policies but is not listed"),
            ))?,
        }
    }
    // A clock at the end of its range is the old bug's (see `restamp`), not a real instant.
    if let Some(t) = meta.and_then(|m| DateTime::parse(&m.last_timestamp).ok()) {
        if t < DateTime::MAX {
            last = t;
        }
    }
    let mut stuck = Vec::new();
    let mismatch =
        || PersistError::Other("the browser returned keys and values that do not match".into());
    let mut index = Index::default();
    let mut names = Names::default();
    let keys: Vec<Option<String>> = keys.iter().map(JsValue::as_string).collect();
    let mut strays: Vec<(String, Entity)> = Vec::new();
    let mut slice_start = js_sys::Date::now();
    let mut batches = batches.into_iter();
    let mut values: Vec<JsValue> = Vec::new();
    let mut taken = 0;
    for (i, key) in keys.iter().enumerate() {
        if i == taken + values.len() {
            taken = i;
            values = batches.next().ok_or_else(mismatch)?.await?;
            if values.is_empty() {
                return Err(mismatch());
            }
        }
        let value = &values[i - taken];
        if js_sys::Date::now() - slice_start > SLICE_MS {
            progress(i, keys.len());
            pause().await;
            slice_start = js_sys::Date::now();
        }
        let Some(key) = key else {
            report(PersistError::corrupt("?", "a chunk key is not a string"))?;
            continue;
        };
        // The start of the partition's next chunk, which ends this one's range. Keys come in
        // code-unit order and '/' ends the PartitionKey, so a partition's chunks are adjacent.
        let next_start = keys
            .get(i + 1)
            .and_then(|k| k.as_deref())
            .and_then(layout::parse_chunk_key)
            .zip(layout::parse_chunk_key(key))
            .filter(|((t2, p2, _), (t, p, _))| t2 == t && p2 == p)
            .map(|((_, _, s), _)| s);
        match read_chunk(key, value, &tables, &mut names, recover) {
            Ok((table, pk, start, mut entities)) => {
                if let Some(next) = next_start {
                    let (inside, outside): (Vec<Entity>, Vec<Entity>) = entities
                        .into_iter()
                        .partition(|e| cmp_utf16(&e.row_key, next) == Ordering::Less);
                    entities = inside;
                    strays.extend(outside.into_iter().map(|e| (table.to_string(), e)));
                }
                let table = tables
                    .entry(table.to_string())
                    .or_insert_with(|| Table::new(table));
                if let Err(e) = store(key, table, entities, &mut last, &mut stuck) {
                    report(e)?;
                }
                index.push_loaded(&table.name, pk, start);
            }
            Err(e) => report(e)?,
        }
    }
    if taken + values.len() != keys.len() || batches.next().is_some() {
        return Err(mismatch());
    }
    // A partition whose first chunk does not start at the empty RowKey still has all its rows
    // loaded: only the index is wrong, and the rewrite that follows rebuilds it.
    let mut repaired = usize::from(index.check().is_err());
    repaired += place_strays(&mut tables, strays, &mut last, &mut stuck);
    let restamped = stuck.len();
    restamp(&mut tables, stuck, &mut last, now);
    Ok(Loaded {
        tables,
        index,
        last,
        damaged,
        restamped,
        seq,
        target,
        service_properties,
        repaired,
    })
}

/// Lets the browser run a task (paint, input) before decoding goes on.
pub(crate) async fn pause() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let queued = web_sys::window().map(|w| w.set_timeout_with_callback(&resolve));
        if !matches!(queued, Some(Ok(_))) {
            // No timer to wait for: go on at once rather than never.
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Rows found in a chunk past the start of the partition's next chunk: the next chunk owns
/// their range (a save that split the chunk did not commit whole, under older code). A row the
/// owning chunk also holds is a stale copy and is dropped; any other is kept (losing a row is
/// worse than keeping one that may have been deleted). Returns how many there were.
fn place_strays(
    tables: &mut HashMap<String, Table>,
    strays: Vec<(String, Entity)>,
    last: &mut DateTime,
    stuck: &mut Vec<(String, Entity)>,
) -> usize {
    let count = strays.len();
    for (name, entity) in strays {
        let Some(table) = tables.get_mut(&name) else {
            continue;
        };
        if table.get(&entity.partition_key, &entity.row_key).is_some() {
            continue;
        }
        let _ = store("", table, vec![entity], last, stuck);
    }
    count
}

/// Gives new Timestamps to entities stuck at the end of the clock's range.
///
/// An older Tablescope let a refused import move the clock to 9999-12-31T23:59:59.9999999Z,
/// and every later write then got that same Timestamp (and ETag). An import of that
/// Timestamp is refused now, so only that bug can have stored it, and a clock standing there
/// refuses every write. Each such entity gets its own Timestamp after every other one stored
/// and after `now`, one tick apart, in load order: ETags are unique again, an ETag read before
/// no longer matches (as after any write), and the clock has room.
fn restamp(
    tables: &mut HashMap<String, Table>,
    stuck: Vec<(String, Entity)>,
    last: &mut DateTime,
    now: DateTime,
) {
    let mut next = (*last).max(now);
    for (table, entity) in stuck {
        // With no room left (a browser clock in the year 9999) it keeps the last instant:
        // kept, never dropped.
        let stamp = DateTime::from_ticks(next.ticks().saturating_add(1))
            .filter(|t| *t < DateTime::MAX)
            .unwrap_or(next);
        next = stamp;
        if let Some(table) = tables.get_mut(&table) {
            table.put(entity, stamp);
        }
    }
    if next > *last {
        *last = next;
    }
}

fn decode_meta(value: &JsValue) -> Result<Meta, PersistError> {
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| PersistError::corrupt(META_KEY, "not a JSON object"))?;
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_u64()));
    // Format 1 differs only in its chunks' values, which a load tells apart one by one.
    if !format.is_some_and(|f| (1..=u64::from(FORMAT)).contains(&f)) {
        return Err(PersistError::Other(format!(
            "the stored data has format {format:?}, and this Tablescope reads format {FORMAT}; \
             a newer Tablescope wrote it"
        )));
    }
    serde_json::from_str(&text).map_err(|e| PersistError::corrupt(META_KEY, e.to_string()))
}

/// Decodes and checks one chunk without storing anything; returns its (table, PartitionKey,
/// start RowKey) and entities.
fn read_chunk<'k>(
    key: &'k str,
    value: &JsValue,
    tables: &HashMap<String, Table>,
    names: &mut Names,
    recover: bool,
) -> Result<(&'k str, &'k str, &'k str, Vec<Entity>), PersistError> {
    let (table, pk, start) = layout::parse_chunk_key(key)
        .ok_or_else(|| PersistError::corrupt(key, "not a chunk key"))?;
    if !recover && !tables.contains_key(table) {
        return Err(PersistError::corrupt(
            key,
            format!("table {table} is not listed in meta"),
        ));
    }
    // Format 2 writes bytes; a chunk a format-1 save wrote is still JSON text.
    let entities = if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
        binary::decode(&bytes.to_vec(), names)
            .map(|(_, entities)| entities)
            .map_err(|e| PersistError::corrupt(key, e))?
    } else {
        let text = value.as_string().ok_or_else(|| {
            PersistError::corrupt(key, "the value is neither bytes nor a JSON string")
        })?;
        codec::decode(&text, names).map_err(|e| PersistError::corrupt(key, e))?
    };
    if entities.is_empty() {
        return Err(PersistError::corrupt(key, "the chunk is empty"));
    }
    for entity in &entities {
        if entity.partition_key != pk {
            return Err(PersistError::corrupt(
                key,
                format!("holds an entity of partition '{}'", entity.partition_key),
            ));
        }
        if cmp_utf16(&entity.row_key, start) == Ordering::Less {
            return Err(PersistError::corrupt(
                key,
                format!(
                    "holds RowKey '{}', before the chunk's start",
                    entity.row_key
                ),
            ));
        }
        if entity.timestamp.is_none() {
            return Err(PersistError::corrupt(key, "an entity has no Timestamp"));
        }
    }
    Ok((table, pk, start, entities))
}

/// Stores a checked chunk's entities in their table.
fn store(
    key: &str,
    table: &mut Table,
    entities: Vec<Entity>,
    last: &mut DateTime,
    stuck: &mut Vec<(String, Entity)>,
) -> Result<(), PersistError> {
    let mut duplicates = 0;
    for entity in entities {
        let Some(timestamp) = entity.timestamp else {
            continue;
        };
        if timestamp == DateTime::MAX {
            stuck.push((table.name.clone(), entity));
            continue;
        }
        if timestamp > *last {
            *last = timestamp;
        }
        let count = table.entity_count();
        table.put(entity, timestamp);
        if table.entity_count() == count {
            duplicates += 1;
        }
    }
    match duplicates {
        0 => Ok(()),
        n => Err(PersistError::corrupt(
            key,
            format!("{n} RowKey(s) are stored twice"),
        )),
    }
}

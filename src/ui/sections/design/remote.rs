//! The playground's account as the engine's generator and evaluator see it
//! ([`Sink`], [`Data`]), through the bridge (`super::bridge`).
//!
//! - [`Writer`] keeps the generator's entities of a slice and hands them over in one call per
//!   table ([`Writer::flush`]), as partition chunks in the persistence's format 2, which the
//!   playground already decodes when it loads (so its own wasm needs no new decoder).
//! - [`Reader`] runs the evaluator's query pages in the playground's engine (`op::QUERY`):
//!   their counts, continuation and only the entities the evaluator measures cross. Point
//!   lookups, and `Data::page` (whole pages), go as the in-page SDK transport does
//!   (`window.tablescope.wire`): the service's JSON, continuation headers, and the engine's
//!   scan counts.

use super::bridge::{Bridge, Refused};
use super::handover::Slice;
use crate::design::{Data, DataPage, Sink};
use crate::engine::query::{Continuation, QueryOptions, QueryStats};
use crate::engine::{json, Entity, QueryKind};
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

/// The development account's table endpoint, as `window.tablescope.wire` serves it.
const BASE: &str = "http://127.0.0.1:10002/devstoreaccount1/";

/// The generator's side: tables known at the start of a run, entities waiting for a flush.
pub struct Writer {
    bridge: Bridge,
    tables: Vec<(String, u64)>,
    waiting: Slice,
}

impl Writer {
    pub fn new(bridge: Bridge) -> Result<Writer, String> {
        let tables = bridge.tables()?;
        Ok(Writer {
            bridge,
            tables,
            waiting: Slice::default(),
        })
    }

    /// The tables and their entity counts (as known at the start, and created since).
    pub fn tables(&self) -> &[(String, u64)] {
        &self.tables
    }

    /// Hands the waiting entities to the playground (written, not yet saved): one call per
    /// table, a chunk per partition. `Err` holds the message to show: a refused entity or a
    /// bridge failure.
    pub fn flush(&mut self) -> Result<(), String> {
        for (table, chunks) in self.waiting.take() {
            hand_over(&self.bridge, &table, &super::handover::to_js(&chunks))?;
        }
        Ok(())
    }
}

/// Writes the chunks (`Uint8Array`s) of `table` into the playground, unsaved; `Err` holds the
/// message to show: a refused entity or a bridge failure.
pub fn hand_over(bridge: &Bridge, table: &str, chunks: &Array) -> Result<(), String> {
    match bridge.insert(table, chunks)? {
        None => Ok(()),
        Some(Refused {
            partition_key,
            row_key,
            message,
        }) => Err(format!(
            "the entity ({partition_key:?}, {row_key:?}) of table {table:?} was refused: {message}; keys must be unique, so let a key include a sequential or random property"
        )),
    }
}

impl Sink for Writer {
    fn entities_in(&self, table: &str) -> Option<u64> {
        self.tables
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(table))
            .map(|(_, n)| *n)
    }

    fn create_table(&mut self, table: &str) -> Result<(), String> {
        self.bridge.create_table(table)?;
        self.tables.push((table.to_string(), 0));
        Ok(())
    }

    fn insert(&mut self, table: &str, entity: Entity) -> Result<(), String> {
        self.waiting.push(table, &entity);
        Ok(())
    }
}

/// The evaluator's side.
pub struct Reader {
    bridge: Bridge,
    tables: Vec<(String, u64)>,
}

impl Reader {
    pub fn new(bridge: Bridge) -> Result<Reader, String> {
        let tables = bridge.tables()?;
        Ok(Reader { bridge, tables })
    }

    /// The tables and their entity counts when the reader was made.
    pub fn tables(&self) -> &[(String, u64)] {
        &self.tables
    }

    /// GET `path` (after the account) with `query`; the response, which must be a 200.
    fn get(&self, path: &str, query: &[(&str, String)]) -> Result<(JsValue, Vec<u8>), String> {
        let mut url = format!("{BASE}{path}");
        for (i, (name, value)) in query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(name);
            url.push('=');
            url.push_str(&percent(value));
        }
        let request = js_sys::Object::new();
        let headers = Array::of2(
            &Array::of2(
                &"Accept".into(),
                &"application/json;odata=minimalmetadata".into(),
            ),
            &Array::of2(&"x-ms-version".into(), &"2019-02-02".into()),
        );
        for (name, value) in [
            ("method", JsValue::from_str("GET")),
            ("url", JsValue::from_str(&url)),
            ("headers", headers.into()),
        ] {
            Reflect::set(&request, &name.into(), &value)
                .map_err(|e| crate::ui::kit::dynamic::describe(&e))?;
        }
        let response = self.bridge.wire(&request.into())?;
        let status = Reflect::get(&response, &"status".into())
            .ok()
            .and_then(|s| s.as_f64())
            .unwrap_or(0.0);
        let body = Reflect::get(&response, &"body".into())
            .ok()
            .filter(|b| b.is_instance_of::<Uint8Array>())
            .map(|b| Uint8Array::new(&b).to_vec())
            .unwrap_or_default();
        if status == 200.0 {
            Ok((response, body))
        } else {
            Err(format!(
                "the sandbox answered {status}: {}",
                String::from_utf8_lossy(&body)
            ))
        }
    }
}

impl Data for Reader {
    fn has_table(&self, table: &str) -> bool {
        self.tables
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(table))
    }

    fn page(&self, table: &str, options: &QueryOptions) -> Result<DataPage, String> {
        let mut query = vec![("$filter", options.filter.clone().unwrap_or_default())];
        if let Some(top) = options.top {
            query.push(("$top", top.to_string()));
        }
        if let Some(select) = &options.select {
            // The keys too: the evaluator reads a page's last PartitionKey (the engine's
            // pages always carry the keys; the service's JSON carries what is selected).
            let mut names = select.clone();
            for key in ["PartitionKey", "RowKey"] {
                if !names.iter().any(|n| n == key) {
                    names.push(key.into());
                }
            }
            query.push(("$select", names.join(",")));
        }
        if let Some(c) = &options.continuation {
            let token = crate::wire::continuation_token;
            query.push(("NextPartitionKey", token(&c.next_partition_key)));
            query.push(("NextRowKey", token(&c.next_row_key)));
        }
        let (response, body) = self.get(&format!("{table}()"), &query)?;
        let entities = entities_of(&body)?;
        let stats = stats_of(&response)?;
        let header = |name: &str| header_of(&response, name);
        let continuation = match (
            header("x-ms-continuation-NextPartitionKey"),
            header("x-ms-continuation-NextRowKey"),
        ) {
            (Some(pk), Some(rk)) => Some(Continuation {
                next_partition_key: crate::wire::continuation_key(&pk)
                    .ok_or("the sandbox sent a bad continuation")?,
                next_row_key: crate::wire::continuation_key(&rk)
                    .ok_or("the sandbox sent a bad continuation")?,
            }),
            _ => None,
        };
        Ok(DataPage {
            last_partition_key: entities.last().map(|e| e.partition_key.clone()),
            entities,
            continuation,
            stats,
        })
    }

    /// The evaluator's pages go through `op::QUERY`: the playground's engine runs the page
    /// and answers its counts and continuation, and only the entities asked for (the first
    /// page's 100 whose sizes are measured), so no page crosses as the service's JSON.
    fn counted_page(
        &self,
        table: &str,
        options: &QueryOptions,
        keep: usize,
    ) -> Result<DataPage, String> {
        self.bridge.query(table, options, keep)
    }

    fn contains(&self, table: &str, partition_key: &str, row_key: &str) -> bool {
        let quote = |s: &str| s.replace('\'', "''");
        let path = format!(
            "{table}(PartitionKey='{}',RowKey='{}')",
            percent(&quote(partition_key)),
            percent(&quote(row_key))
        );
        self.get(&path, &[]).is_ok()
    }
}

/// The entities of a query's JSON body (`{"value": [...]}`), Timestamps kept.
fn entities_of(body: &[u8]) -> Result<Vec<Entity>, String> {
    let root: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| format!("the sandbox's answer: {e}"))?;
    let Some(list) = root.get("value").and_then(serde_json::Value::as_array) else {
        return Err("the sandbox's answer has no value list".into());
    };
    list.iter()
        .map(|v| {
            let object = v.as_object().ok_or("the sandbox sent a non-entity")?;
            let raw = json::RawEntity(object.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
            json::decode_stored(&raw).map_err(|e| e.to_string())
        })
        .collect()
}

/// The engine's counts the wire bridge adds to a query's answer.
fn stats_of(response: &JsValue) -> Result<QueryStats, String> {
    let stats = Reflect::get(response, &"stats".into())
        .ok()
        .filter(JsValue::is_object)
        .ok_or("the sandbox's answer has no scan counts")?;
    let number = |name: &str| {
        Reflect::get(&stats, &name.into())
            .ok()
            .and_then(|v| v.as_f64())
            .filter(|n| *n >= 0.0)
            .map(|n| n as u64)
            .ok_or_else(|| format!("the sandbox's scan counts lack {name}"))
    };
    let label = Reflect::get(&stats, &"kind".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    let kind = [
        QueryKind::Point,
        QueryKind::PartitionRange,
        QueryKind::PartitionScan,
        QueryKind::TableRange,
        QueryKind::TableScan,
    ]
    .into_iter()
    .find(|k| k.label() == label)
    .ok_or_else(|| format!("the sandbox sent an unknown query kind {label:?}"))?;
    Ok(QueryStats {
        scanned: number("scanned")?,
        returned: number("returned")?,
        partitions: number("partitions")?,
        kind,
        // Not sent: a page of its own, never summed with another's.
        continues_partition: false,
    })
}

/// A response header's value (names compared case-insensitively).
fn header_of(response: &JsValue, name: &str) -> Option<String> {
    let headers = Reflect::get(response, &"headers".into()).ok()?;
    if !Array::is_array(&headers) {
        return None;
    }
    Array::from(&headers).iter().find_map(|pair| {
        let pair = Array::from(&pair);
        let n = pair.get(0).as_string()?;
        n.eq_ignore_ascii_case(name)
            .then(|| pair.get(1).as_string())
            .flatten()
    })
}

/// Percent-encodes all but the unreserved characters of RFC 3986.
fn percent(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

//! Writing a table's entities to one side: the entities in
//! entity group transactions of up to 100, one partition per batch (the service's rule), each
//! entity an InsertOrReplace (`PUT` without `If-Match`); the table is created if missing.
//!
//! Invariant: batches go one after another and the first failure stops the copy; what was
//! written before it is exactly the batches reported in [`Stopped::written`] (a batch is all or
//! nothing, so a failed batch wrote none of its entities).

use super::compare::writable;
use super::query::Entity;
use super::remote::{encode, error_body, key_literal, send, Call, Failure, Side, SANDBOX_ENDPOINT};
use serde_json::Value;

/// The most operations one entity group transaction may hold.
pub const BATCH_LIMIT: usize = 100;

/// One batch: its partition and its entities, in order.
#[derive(Debug, Clone)]
pub struct Batch {
    pub partition: String,
    pub entities: Vec<Entity>,
}

impl Batch {
    /// The first and last RowKey.
    pub fn rows(&self) -> (String, String) {
        let row = |e: Option<&Entity>| {
            e.and_then(|e| e.get("RowKey"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        (row(self.entities.first()), row(self.entities.last()))
    }
}

/// `entities` cut into batches: consecutive entities of one partition, at most 100 each.
pub fn batches(entities: &[Entity]) -> Vec<Batch> {
    let mut out: Vec<Batch> = Vec::new();
    for e in entities {
        let pk = e
            .get("PartitionKey")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match out.last_mut() {
            Some(b) if b.partition == pk && b.entities.len() < BATCH_LIMIT => {
                b.entities.push(e.clone())
            }
            _ => out.push(Batch {
                partition: pk.to_string(),
                entities: vec![e.clone()],
            }),
        }
    }
    out
}

/// Why a copy stopped, and what it had written.
#[derive(Debug, Clone, PartialEq)]
pub struct Stopped {
    /// `None`: creating the table failed; else the failed batch's index (from 1), partition
    /// and first and last RowKey.
    pub batch: Option<(usize, String, String, String)>,
    pub failure: Failure,
    /// The batches written before, as (partition, entity count).
    pub written: Vec<(String, usize)>,
}

/// Writes `batches` to `table`, creating the table first when the service answers the first
/// batch with TableNotFound (so a SAS that may write entities but not create tables, such as a
/// table SAS, can still fill an existing table); an empty copy only creates the table.
/// `progress(entities written, batches written)` after each batch.
pub async fn write(
    side: &Side,
    table: &str,
    batches: &[Batch],
    progress: impl Fn(usize, usize),
) -> Result<usize, Stopped> {
    let stop = |batch, failure, written| Stopped {
        batch,
        failure,
        written,
    };
    if batches.is_empty() {
        create_table(side, table)
            .await
            .map_err(|f| stop(None, f, Vec::new()))?;
    }
    let mut created = false;
    let mut written = Vec::new();
    let mut count = 0;
    for (i, b) in batches.iter().enumerate() {
        let (first, last) = b.rows();
        let at = Some((i + 1, b.partition.clone(), first, last));
        loop {
            match send_batch(side, table, b, i).await {
                Ok(()) => break,
                Err(Failure::Service { ref code, .. })
                    if code == "TableNotFound" && !created && written.is_empty() =>
                {
                    created = true;
                    create_table(side, table)
                        .await
                        .map_err(|f| stop(None, f, Vec::new()))?;
                }
                Err(f) => return Err(stop(at, f, written)),
            }
        }
        count += b.entities.len();
        written.push((b.partition.clone(), b.entities.len()));
        progress(count, i + 1);
    }
    Ok(count)
}

/// Creates `table`; one that exists already is fine (409 TableAlreadyExists).
async fn create_table(side: &Side, table: &str) -> Result<(), Failure> {
    let create = Call {
        method: "POST",
        path: "/Tables".into(),
        headers: vec![
            ("Content-Type".into(), "application/json".into()),
            ("Prefer".into(), "return-no-content".into()),
        ],
        body: serde_json::json!({ "TableName": table }).to_string(),
    };
    let r = send(side, &create).await?;
    if r.status < 300 || r.status == 409 {
        Ok(())
    } else {
        Err(Failure::from_reply(&r))
    }
}

/// Sends one batch; `Err` with the service's error when it, or one of its operations, failed.
async fn send_batch(side: &Side, table: &str, b: &Batch, index: usize) -> Result<(), Failure> {
    let reply = send(side, &batch_call(side, table, b, index)).await?;
    if reply.status >= 300 {
        return Err(Failure::from_reply(&reply));
    }
    match failed_part(&reply.body) {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// The `$batch` request for one batch: a changeset of InsertOrReplace operations.
fn batch_call(side: &Side, table: &str, b: &Batch, index: usize) -> Call {
    let endpoint = match side {
        Side::Sandbox => SANDBOX_ENDPOINT.to_string(),
        Side::Remote(c) => c.endpoint.clone(),
    };
    let id = format!(
        "{:08x}",
        (js_sys::Math::random() * 4e9) as u64 ^ index as u64
    );
    let (batch, changeset) = (format!("batch_{id}"), format!("changeset_{id}"));
    let mut body =
        format!("--{batch}\r\nContent-Type: multipart/mixed; boundary={changeset}\r\n\r\n");
    for e in &b.entities {
        let key = |n: &str| e.get(n).and_then(Value::as_str).unwrap_or_default();
        let url = format!(
            "{endpoint}/{}(PartitionKey='{}',RowKey='{}')",
            encode(table),
            key_literal(key("PartitionKey")),
            key_literal(key("RowKey"))
        );
        let json = Value::Object(writable(e)).to_string();
        body.push_str(&format!(
            "--{changeset}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
             PUT {url} HTTP/1.1\r\nContent-Type: application/json\r\n\
             Accept: application/json;odata=minimalmetadata\r\nDataServiceVersion: 3.0\r\n\r\n{json}\r\n"
        ));
    }
    body.push_str(&format!("--{changeset}--\r\n--{batch}--\r\n"));
    Call {
        method: "POST",
        path: "/$batch".into(),
        headers: vec![(
            "Content-Type".into(),
            format!("multipart/mixed; boundary={batch}"),
        )],
        body,
    }
}

/// The failed operation's error in a batch's answer, if any: its `HTTP/1.1 <status>` line
/// and the error body after it.
fn failed_part(body: &str) -> Option<Failure> {
    let mut rest = body;
    while let Some(i) = rest.find("HTTP/1.1 ") {
        let line = &rest[i + 9..];
        let status: u16 = line.get(..3)?.parse().ok()?;
        if status >= 300 {
            let json = line.find('{').map(|j| {
                let tail = &line[j..];
                let end = tail.find("\r\n--").or_else(|| tail.find("\n--"));
                &tail[..end.unwrap_or(tail.len())]
            });
            let (code, message) = error_body(json.unwrap_or_default());
            return Some(Failure::Service {
                status,
                code: code.unwrap_or_default(),
                message: message.unwrap_or_default(),
            });
        }
        rest = line;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn batches_hold_one_partition_and_at_most_100() {
        let entities: Vec<Entity> = (0..205)
            .map(|i| {
                let pk = if i < 150 { "a" } else { "b" };
                json!({"PartitionKey": pk, "RowKey": format!("{i:03}")})
                    .as_object()
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        let sizes: Vec<(String, usize)> = batches(&entities)
            .iter()
            .map(|b| (b.partition.clone(), b.entities.len()))
            .collect();
        assert_eq!(
            sizes,
            vec![("a".into(), 100), ("a".into(), 50), ("b".into(), 55)]
        );
    }

    #[wasm_bindgen_test]
    fn a_batch_answer_names_its_failed_operation() {
        let ok = "--batchresponse_1\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n--batchresponse_1--";
        assert_eq!(failed_part(ok), None);
        let failed = "--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 403 Forbidden\r\n\
                      Content-Type: application/json\r\n\r\n{\"odata.error\":{\"code\":\"AuthorizationFailure\",\
                      \"message\":{\"lang\":\"en-US\",\"value\":\"0:No.\"}}}\r\n--b--";
        assert_eq!(
            failed_part(failed),
            Some(Failure::Service {
                status: 403,
                code: "AuthorizationFailure".into(),
                message: "0:No.".into()
            })
        );
    }
}

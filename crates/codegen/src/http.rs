//! The raw HTTP form: the request an SDK would send (docs/service/wire.md), in the `.http` file layout
//! (request line with the absolute URL, headers, a blank line, the body). No `Authorization`:
//! the playground serves the development account without one, and a real account's
//! signature depends on the moment it is sent.
//!
//! Keys in a URL have `'` doubled inside their quotes and are percent-encoded; query options
//! are percent-encoded; continuation keys travel as the service's tokens.

use super::{Op, Write, PLAYGROUND_URL};
use tablescope_engine::{Entity, RawEntity};
use tablescope_wire::{continuation_token, HttpRequest};

const VERSION: &str = "2019-02-02";
const ACCEPT: &str = "application/json;odata=minimalmetadata";
const BATCH_BOUNDARY: &str = "batch_tablescope";
const CHANGESET_BOUNDARY: &str = "changeset_tablescope";

struct Message {
    method: &'static str,
    url: String,
    headers: Vec<(&'static str, String)>,
    body: Option<String>,
    /// Whether it is an OData request (`DataServiceVersion`): every one but the settings'.
    odata: bool,
}

impl Message {
    fn new(method: &'static str, url: String) -> Message {
        Message {
            method,
            url,
            headers: vec![("Accept", ACCEPT.to_string())],
            body: None,
            odata: true,
        }
    }

    fn header(mut self, name: &'static str, value: impl Into<String>) -> Message {
        self.headers.push((name, value.into()));
        self
    }

    fn json(self, body: String) -> Message {
        let mut m = self.header("Content-Type", "application/json");
        m.body = Some(body);
        m
    }

    /// The request line, headers, blank line and body. `top_level` adds the headers a
    /// request carries on its own but not inside a batch.
    fn write(&self, out: &mut String, top_level: bool) {
        out.push_str(&format!("{} {} HTTP/1.1\n", self.method, self.url));
        for (name, value) in &self.headers {
            out.push_str(&format!("{name}: {value}\n"));
        }
        if self.odata {
            out.push_str("DataServiceVersion: 3.0\n");
        }
        if top_level {
            out.push_str(&format!("x-ms-version: {VERSION}\n"));
        }
        out.push('\n');
        if let Some(body) = &self.body {
            out.push_str(body);
            out.push('\n');
        }
    }
}

/// `op` as sent to the service at `endpoint` (`scheme://host[/path]`, no trailing `/`).
pub fn show(op: &Op, endpoint: &str) -> String {
    let mut out = String::new();
    top_level(op, endpoint).write(&mut out, true);
    out
}

/// The same request as the engine's wire layer takes it (a docs embed's code cell loads a
/// lesson's data this way, `ui::cell::lesson`): the headers `show` writes, the same body.
pub fn wire_request(op: &Op) -> HttpRequest {
    let m = top_level(op, PLAYGROUND_URL);
    let mut request = HttpRequest::new(m.method, &m.url);
    for (name, value) in &m.headers {
        request.headers.push((name.to_string(), value.clone()));
    }
    if m.odata {
        request
            .headers
            .push(("DataServiceVersion".into(), "3.0".into()));
    }
    request
        .headers
        .push(("x-ms-version".into(), VERSION.into()));
    request.body = m.body.map(String::into_bytes).unwrap_or_default();
    request
}

/// The request `op` is on its own (a batch: its envelope).
fn top_level(op: &Op, base: &str) -> Message {
    match op {
        Op::Batch { table, writes } => batch(table, writes, base),
        other => message(other, base),
    }
}

fn message(op: &Op, base: &str) -> Message {
    match op {
        Op::Setting(setting) => {
            let (method, path, body) = setting.http();
            let mut headers = vec![("Accept", "application/xml".to_string())];
            if body.is_some() {
                headers.push(("Content-Type", "application/xml".to_string()));
            }
            Message {
                method,
                url: format!("{base}{path}"),
                headers,
                body,
                odata: false,
            }
        }
        Op::CreateTable(table) => Message::new("POST", format!("{base}/Tables"))
            .header("Prefer", "return-no-content")
            .json(serde_json::json!({ "TableName": table }).to_string()),
        Op::DeleteTable(table) => {
            Message::new("DELETE", format!("{base}/Tables('{}')", path_key(table)))
        }
        Op::ListTables {
            filter,
            top,
            next_table_name,
        } => {
            let mut query = Query::default();
            query.add("$filter", filter.as_deref());
            query.add("$top", top.map(|t| t.to_string()).as_deref());
            query.add(
                "NextTableName",
                next_table_name
                    .as_deref()
                    .map(continuation_token)
                    .as_deref(),
            );
            Message::new("GET", format!("{base}/Tables{}", query.text))
        }
        Op::Write { table, write } => write_message(table, write, base),
        Op::Get {
            table,
            partition_key,
            row_key,
            select,
        } => {
            let mut query = Query::default();
            query.add("$select", select.as_ref().map(|s| s.join(",")).as_deref());
            Message::new(
                "GET",
                format!(
                    "{}{}",
                    entity_url(base, table, partition_key, row_key),
                    query.text
                ),
            )
        }
        Op::Query {
            table,
            filter,
            select,
            top,
            continuation,
        } => {
            let mut query = Query::default();
            query.add("$filter", filter.as_deref());
            query.add("$select", select.as_ref().map(|s| s.join(",")).as_deref());
            query.add("$top", top.map(|t| t.to_string()).as_deref());
            if let Some(c) = continuation {
                query.add(
                    "NextPartitionKey",
                    Some(&continuation_token(&c.next_partition_key)),
                );
                query.add("NextRowKey", Some(&continuation_token(&c.next_row_key)));
            }
            Message::new(
                "GET",
                format!("{base}/{}(){}", path_segment(table), query.text),
            )
        }
        Op::Batch { .. } => Message::new("POST", format!("{base}/$batch")),
    }
}

fn write_message(table: &str, write: &Write, base: &str) -> Message {
    let (pk, rk) = write.keys();
    let url = entity_url(base, table, pk, rk);
    match write {
        Write::Insert(e) => Message::new("POST", format!("{base}/{}", path_segment(table)))
            .header("Prefer", "return-no-content")
            .json(body(e)),
        Write::UpsertReplace(e) => Message::new("PUT", url).json(body(e)),
        Write::UpsertMerge(e) => Message::new("PATCH", url).json(body(e)),
        Write::Replace(e, if_match) => Message::new("PUT", url)
            .header("If-Match", if_match.as_deref().unwrap_or("*"))
            .json(body(e)),
        Write::Merge(e, if_match) => Message::new("PATCH", url)
            .header("If-Match", if_match.as_deref().unwrap_or("*"))
            .json(body(e)),
        Write::Delete { if_match, .. } => {
            Message::new("DELETE", url).header("If-Match", if_match.as_deref().unwrap_or("*"))
        }
        Write::Get { .. } => Message::new("GET", url),
    }
}

/// `POST /$batch`: one changeset with every write, or a point read on its own (the service
/// reads one only as a batch's single operation, outside a changeset).
fn batch(table: &str, writes: &[Write], base: &str) -> Message {
    let mut body = String::new();
    let reads_alone = matches!(writes, [Write::Get { .. }]);
    body.push_str(&format!("--{BATCH_BOUNDARY}\n"));
    if reads_alone {
        for w in writes {
            part(&write_message(table, w, base), &mut body);
        }
    } else {
        body.push_str(&format!(
            "Content-Type: multipart/mixed; boundary={CHANGESET_BOUNDARY}\n\n"
        ));
        for w in writes {
            body.push_str(&format!("--{CHANGESET_BOUNDARY}\n"));
            part(&write_message(table, w, base), &mut body);
        }
        body.push_str(&format!("--{CHANGESET_BOUNDARY}--\n\n"));
    }
    body.push_str(&format!("--{BATCH_BOUNDARY}--"));
    let mut envelope = Message::new("POST", format!("{base}/$batch")).header(
        "Content-Type",
        format!("multipart/mixed; boundary={BATCH_BOUNDARY}"),
    );
    envelope.body = Some(body);
    envelope
}

fn part(message: &Message, out: &mut String) {
    out.push_str("Content-Type: application/http\nContent-Transfer-Encoding: binary\n\n");
    message.write(out, false);
}

fn body(entity: &Entity) -> String {
    RawEntity::from_entity(entity).to_json().to_string()
}

fn entity_url(base: &str, table: &str, partition_key: &str, row_key: &str) -> String {
    format!(
        "{base}/{}(PartitionKey='{}',RowKey='{}')",
        path_segment(table),
        path_key(partition_key),
        path_key(row_key)
    )
}

/// A key inside `'...'` in a URL path: `'` doubled, then percent-encoded.
fn path_key(key: &str) -> String {
    percent(&key.replace('\'', "''"), |b| b == b'\'')
}

fn path_segment(text: &str) -> String {
    percent(text, |_| false)
}

/// Percent-encodes everything but RFC 3986's unreserved characters and those `keep` allows.
fn percent(text: &str, keep: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') || keep(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A query string built option by option: `?a=1&b=2`, or nothing.
#[derive(Default)]
struct Query {
    text: String,
}

impl Query {
    fn add(&mut self, name: &str, value: Option<&str>) {
        let Some(value) = value else { return };
        self.text.push(if self.text.is_empty() { '?' } else { '&' });
        self.text.push_str(name);
        self.text.push('=');
        // `'` stays readable in filters; `,` in $select lists.
        self.text
            .push_str(&percent(value, |b| matches!(b, b'\'' | b',' | b'(' | b')')));
    }
}

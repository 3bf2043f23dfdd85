//! The JavaScript form: `@azure/data-tables` 13, written for the Code section's scope
//! (`serviceClient`, `tableClient(name)`), so it runs there unchanged.
//!
//! Values (the SDK's `serialize`): a string, an integral number (Int32) and a boolean go as
//! they are; Int64 as a `bigint` literal (`5n`); a DateTime as a `Date` when milliseconds hold
//! it, else `{ value, type: "DateTime" }` with its seven digits; Binary as a `Uint8Array`; a
//! Guid, and a Double that `JSON.stringify` would write without a decimal point (`2`, `NaN`),
//! as `{ value, type }`.

use super::literal::{double, quoted, quoted_list, Instant};
use super::{Op, Write};
use tablescope_engine::{Entity, Value};

pub fn show(op: &Op) -> String {
    match op {
        Op::Setting(setting) => super::settings::javascript(setting),
        Op::CreateTable(table) => format!("await serviceClient.createTable({});\n", quoted(table)),
        Op::DeleteTable(table) => format!("await serviceClient.deleteTable({});\n", quoted(table)),
        Op::ListTables {
            filter,
            top,
            next_table_name,
        } => {
            let options = filter
                .as_ref()
                .map(|f| format!("{{ queryOptions: {{ filter: {} }} }}", quoted(f)))
                .unwrap_or_default();
            let mut out = format!("const tables = serviceClient.listTables({options});\n");
            out.push_str(&first_page("tables", *top, next_table_name.clone()));
            out.push_str("for (const table of page) console.log(table.name);\n");
            out.push_str("console.log(\"continuationToken:\", page.continuationToken);\n");
            out
        }
        Op::Write { table, write } => {
            let mut out = client(table);
            out.push_str(&single_write(write));
            out
        }
        Op::Get {
            table,
            partition_key,
            row_key,
            select,
        } => {
            let mut out = client(table);
            out.push_str(&get(partition_key, row_key, select.as_deref()));
            out
        }
        Op::Query {
            table,
            filter,
            select,
            top,
            continuation,
        } => {
            let mut out = client(table);
            let mut options = Vec::new();
            if let Some(f) = filter {
                options.push(format!("filter: {}", quoted(f)));
            }
            if let Some(s) = select {
                options.push(format!("select: [{}]", quoted_list(s)));
            }
            if options.is_empty() {
                out.push_str("const entities = client.listEntities();\n");
            } else {
                out.push_str(&format!(
                    "const entities = client.listEntities({{\n  queryOptions: {{ {} }},\n}});\n",
                    options.join(", ")
                ));
            }
            let token = continuation
                .as_ref()
                .map(|c| token(&c.next_partition_key, &c.next_row_key));
            out.push_str(&first_page("entities", *top, token));
            out.push_str("for (const entity of page) console.log(entity);\n");
            out.push_str("console.log(\"continuationToken:\", page.continuationToken);\n");
            out
        }
        Op::Batch { table, writes } => {
            let mut out = client(table);
            if let [Write::Get {
                partition_key,
                row_key,
            }] = writes.as_slice()
            {
                out.push_str(
                    "// @azure/data-tables has no read in a transaction: the same read on its own.\n",
                );
                out.push_str(&get(partition_key, row_key, None));
                return out;
            }
            if writes.iter().any(|w| {
                matches!(
                    w,
                    Write::Delete {
                        if_match: Some(_),
                        ..
                    }
                )
            }) {
                out.push_str(
                    "// @azure/data-tables sends a transaction's delete with If-Match: * (it takes\n\
                     // no ETag there); the HTTP form shows the conditional delete.\n",
                );
            }
            out.push_str("await client.submitTransaction([\n");
            for w in writes {
                out.push_str(&format!("  {},\n", action(w)));
            }
            out.push_str("]);\n");
            out
        }
    }
}

fn client(table: &str) -> String {
    format!("const client = tableClient({});\n", quoted(table))
}

/// One page, as one request answers it: `top` its size, `token` where it starts.
fn first_page(iterator: &str, top: Option<u32>, token: Option<String>) -> String {
    let mut settings = Vec::new();
    if let Some(t) = top {
        settings.push(format!("maxPageSize: {t}"));
    }
    if let Some(t) = token {
        settings.push(format!("continuationToken: {}", quoted(&t)));
    }
    let settings = if settings.is_empty() {
        String::new()
    } else {
        format!("{{ {} }}", settings.join(", "))
    };
    format!(
        "// One page, as one request returns it.\n\
         const {{ value: page = [] }} = await {iterator}.byPage({settings}).next();\n"
    )
}

/// The SDK's continuation token: base64 of `{"nextPartitionKey","nextRowKey"}` holding the
/// service's tokens (`utils/continuationToken.js`).
fn token(next_partition_key: &str, next_row_key: &str) -> String {
    use base64::Engine as _;
    use tablescope_wire::continuation_token;
    let json = serde_json::json!({
        "nextPartitionKey": continuation_token(next_partition_key),
        "nextRowKey": continuation_token(next_row_key),
    });
    base64::engine::general_purpose::STANDARD.encode(json.to_string())
}

fn get(partition_key: &str, row_key: &str, select: Option<&[String]>) -> String {
    let options = select
        .map(|s| format!(", {{ queryOptions: {{ select: [{}] }} }}", quoted_list(s)))
        .unwrap_or_default();
    format!(
        "const entity = await client.getEntity({}, {}{options});\nconsole.log(entity);\n",
        quoted(partition_key),
        quoted(row_key)
    )
}

fn etag_option(if_match: &Option<String>) -> String {
    if_match
        .as_ref()
        .map(|m| format!(", {{ etag: {} }}", quoted(m)))
        .unwrap_or_default()
}

fn single_write(write: &Write) -> String {
    match write {
        Write::Insert(e) => format!("await client.createEntity({});\n", entity(e, 0)),
        Write::UpsertReplace(e) => {
            format!(
                "await client.upsertEntity({}, \"Replace\");\n",
                entity(e, 0)
            )
        }
        Write::UpsertMerge(e) => {
            format!("await client.upsertEntity({}, \"Merge\");\n", entity(e, 0))
        }
        Write::Replace(e, m) => format!(
            "await client.updateEntity({}, \"Replace\"{});\n",
            entity(e, 0),
            etag_option(m)
        ),
        Write::Merge(e, m) => format!(
            "await client.updateEntity({}, \"Merge\"{});\n",
            entity(e, 0),
            etag_option(m)
        ),
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => format!(
            "await client.deleteEntity({}, {}{});\n",
            quoted(partition_key),
            quoted(row_key),
            etag_option(if_match)
        ),
        Write::Get {
            partition_key,
            row_key,
        } => get(partition_key, row_key, None),
    }
}

/// A transaction action: `["create", entity]`, `["upsert", entity, "Replace"]`, ...
fn action(write: &Write) -> String {
    match write {
        Write::Insert(e) => format!("[\"create\", {}]", entity(e, 1)),
        Write::UpsertReplace(e) => format!("[\"upsert\", {}, \"Replace\"]", entity(e, 1)),
        Write::UpsertMerge(e) => format!("[\"upsert\", {}, \"Merge\"]", entity(e, 1)),
        Write::Replace(e, m) => {
            format!(
                "[\"update\", {}, \"Replace\"{}]",
                entity(e, 1),
                etag_option(m)
            )
        }
        Write::Merge(e, m) => format!(
            "[\"update\", {}, \"Merge\"{}]",
            entity(e, 1),
            etag_option(m)
        ),
        Write::Delete {
            partition_key,
            row_key,
            ..
        }
        | Write::Get {
            partition_key,
            row_key,
        } => format!(
            "[\"delete\", {{ partitionKey: {}, rowKey: {} }}]",
            quoted(partition_key),
            quoted(row_key)
        ),
    }
}

/// An entity literal, one property a line, at `depth` levels of two spaces.
fn entity(e: &Entity, depth: usize) -> String {
    let pad = "  ".repeat(depth + 1);
    let mut out = String::from("{\n");
    out.push_str(&format!(
        "{pad}partitionKey: {},\n",
        quoted(&e.partition_key)
    ));
    out.push_str(&format!("{pad}rowKey: {},\n", quoted(&e.row_key)));
    for (name, v) in &e.properties {
        out.push_str(&format!("{pad}{}: {},\n", key(name), value(v)));
    }
    out.push_str(&"  ".repeat(depth));
    out.push('}');
    out
}

/// A property name as an object key: bare when it is an identifier, else quoted.
fn key(name: &str) -> String {
    let mut chars = name.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        name.to_string()
    } else {
        quoted(name)
    }
}

fn typed(value: &str, edm: &str) -> String {
    format!("{{ value: {value}, type: \"{edm}\" }}")
}

fn value(v: &Value) -> String {
    match v {
        Value::String(s) => quoted(s),
        Value::Int32(i) => i.to_string(),
        Value::Int64(i) => format!("{i}n"),
        Value::Double(d) => match double(*d) {
            // JSON.stringify writes these with a decimal point, so the service reads a Double.
            Some(t) if d.fract() != 0.0 && t.contains('.') && !t.contains('e') => t,
            Some(t) => typed(&t, "Double"),
            None => typed(&quoted(&tablescope_engine::format_double(*d)), "Double"),
        },
        Value::Boolean(b) => b.to_string(),
        Value::DateTime(dt) => {
            let instant = Instant::of(*dt);
            if instant.fits_millis() {
                format!("new Date({})", quoted(&instant.text()))
            } else {
                typed(&quoted(&instant.text()), "DateTime")
            }
        }
        Value::Guid(g) => typed(&quoted(&g.to_string()), "Guid"),
        Value::Binary(bytes) => format!(
            "new Uint8Array([{}])",
            bytes
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

//! The Python form: `azure-data-tables` 12 (`azure.data.tables`), synchronous clients.
//!
//! Values (the SDK's `_serialize.py`): `str`, `bool`, `float` (Double, NaN and the infinities
//! included) and `int` in Int32's range go as they are; Int64 as `EntityProperty(v,
//! EdmType.INT64)` (a plain `int` is sent as Int32, and one outside its range is refused); a
//! DateTime as an aware `datetime` when microseconds hold it, else as its text in
//! `EntityProperty(text, EdmType.DATETIME)`, which the SDK sends as it is; a Guid as
//! `UUID(...)`; Binary as `bytes`.

use super::literal::{double, quoted, quoted_list, Instant};
use super::{Op, Write, CONNECTION_STRING_VARIABLE};
use std::collections::BTreeSet;
use tablescope_engine::{Entity, Value};
use tablescope_wire::continuation_token;

/// What the body needs imported, collected while it is written.
#[derive(Default)]
struct Imports(BTreeSet<&'static str>);

impl Imports {
    fn text(&self) -> String {
        let tables: Vec<&str> = [
            "EdmType",
            "EntityProperty",
            "TableAccessPolicy",
            "TableAnalyticsLogging",
            "TableCorsRule",
            "TableMetrics",
            "TableRetentionPolicy",
            "TableServiceClient",
            "UpdateMode",
        ]
        .into_iter()
        .filter(|n| *n == "TableServiceClient" || self.0.contains(n))
        .collect();
        let mut out = String::from("import os\n");
        if self.0.contains("datetime") {
            out.push_str("from datetime import datetime, timezone\n");
        }
        if self.0.contains("UUID") {
            out.push_str("from uuid import UUID\n");
        }
        out.push('\n');
        if self.0.contains("MatchConditions") {
            out.push_str("from azure.core import MatchConditions\n");
        }
        out.push_str(&format!(
            "from azure.data.tables import {}\n\n",
            tables.join(", ")
        ));
        out.push_str(&format!(
            "service = TableServiceClient.from_connection_string(os.environ[\"{CONNECTION_STRING_VARIABLE}\"])\n"
        ));
        out
    }
}

pub fn show(op: &Op) -> String {
    let mut imports = Imports::default();
    let body = body(op, &mut imports);
    format!("{}{body}", imports.text())
}

fn body(op: &Op, imports: &mut Imports) -> String {
    match op {
        Op::Setting(setting) => super::settings::python(setting, &mut imports.0),
        Op::CreateTable(table) => format!("service.create_table({})\n", quoted(table)),
        Op::DeleteTable(table) => format!("service.delete_table({})\n", quoted(table)),
        Op::ListTables {
            filter,
            top,
            next_table_name,
        } => {
            let per_page = top
                .map(|t| format!("results_per_page={t}"))
                .unwrap_or_default();
            let call = match filter {
                Some(f) => format!("service.query_tables({}{})", quoted(f), prefixed(&per_page)),
                None => format!("service.list_tables({per_page})"),
            };
            let token = next_table_name
                .as_deref()
                .map(|n| format!("continuation_token={}", quoted(&continuation_token(n))))
                .unwrap_or_default();
            format!(
                "# One page, as one request returns it.\n\
                 pages = {call}.by_page({token})\n\
                 for table in next(pages):\n    print(table.name)\n\
                 print(\"continuation_token:\", pages.continuation_token)\n"
            )
        }
        Op::Write { table, write } => {
            format!("{}{}", client(table), single_write(write, imports))
        }
        Op::Get {
            table,
            partition_key,
            row_key,
            select,
        } => format!(
            "{}{}",
            client(table),
            get(partition_key, row_key, select.as_deref())
        ),
        Op::Query {
            table,
            filter,
            select,
            top,
            continuation,
        } => {
            let mut options = Vec::new();
            if let Some(s) = select {
                options.push(format!("select=[{}]", quoted_list(s)));
            }
            if let Some(t) = top {
                options.push(format!("results_per_page={t}"));
            }
            let options = options.join(", ");
            let call = match filter {
                Some(f) => format!("table.query_entities({}{})", quoted(f), prefixed(&options)),
                None => format!("table.list_entities({options})"),
            };
            let token = continuation
                .as_ref()
                .map(|c| {
                    format!(
                        "continuation_token={{\"PartitionKey\": {}, \"RowKey\": {}}}",
                        quoted(&continuation_token(&c.next_partition_key)),
                        quoted(&continuation_token(&c.next_row_key))
                    )
                })
                .unwrap_or_default();
            format!(
                "{}# One page, as one request returns it.\n\
                 pages = {call}.by_page({token})\n\
                 for entity in next(pages):\n    print(entity)\n\
                 print(\"continuation_token:\", pages.continuation_token)\n",
                client(table)
            )
        }
        Op::Batch { table, writes } => {
            let mut out = client(table);
            if let [Write::Get {
                partition_key,
                row_key,
            }] = writes.as_slice()
            {
                out.push_str(
                    "# azure-data-tables has no read in a transaction: the same read on its own.\n",
                );
                out.push_str(&get(partition_key, row_key, None));
                return out;
            }
            out.push_str("table.submit_transaction([\n");
            for w in writes {
                out.push_str(&format!("    {},\n", operation(w, imports)));
            }
            out.push_str("])\n");
            out
        }
    }
}

fn prefixed(options: &str) -> String {
    if options.is_empty() {
        String::new()
    } else {
        format!(", {options}")
    }
}

fn client(table: &str) -> String {
    format!("table = service.get_table_client({})\n", quoted(table))
}

fn get(partition_key: &str, row_key: &str, select: Option<&[String]>) -> String {
    let select = select
        .map(|s| format!(", select=[{}]", quoted_list(s)))
        .unwrap_or_default();
    format!(
        "entity = table.get_entity({}, {}{select})\nprint(entity)\n",
        quoted(partition_key),
        quoted(row_key)
    )
}

/// `, etag=..., match_condition=MatchConditions.IfNotModified`, or nothing for `*`.
fn condition(if_match: &Option<String>, imports: &mut Imports) -> String {
    match if_match {
        Some(m) => {
            imports.0.insert("MatchConditions");
            format!(
                ", etag={}, match_condition=MatchConditions.IfNotModified",
                quoted(m)
            )
        }
        None => String::new(),
    }
}

fn mode(replace: bool, imports: &mut Imports) -> &'static str {
    imports.0.insert("UpdateMode");
    if replace {
        "UpdateMode.REPLACE"
    } else {
        "UpdateMode.MERGE"
    }
}

fn single_write(write: &Write, imports: &mut Imports) -> String {
    match write {
        Write::Insert(e) => format!("table.create_entity({})\n", entity(e, 0, imports)),
        Write::UpsertReplace(e) | Write::UpsertMerge(e) => {
            let mode = mode(matches!(write, Write::UpsertReplace(_)), imports);
            format!(
                "table.upsert_entity({}, mode={mode})\n",
                entity(e, 0, imports)
            )
        }
        Write::Replace(e, m) | Write::Merge(e, m) => {
            let mode = mode(matches!(write, Write::Replace(..)), imports);
            let e = entity(e, 0, imports);
            format!(
                "table.update_entity({e}, mode={mode}{})\n",
                condition(m, imports)
            )
        }
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => format!(
            "table.delete_entity({}, {}{})\n",
            quoted(partition_key),
            quoted(row_key),
            condition(if_match, imports)
        ),
        Write::Get {
            partition_key,
            row_key,
        } => get(partition_key, row_key, None),
    }
}

/// A transaction operation: `("create", entity)`, `("update", entity, {"mode": ...})`, ...
fn operation(write: &Write, imports: &mut Imports) -> String {
    let options = |replace: bool, if_match: &Option<String>, imports: &mut Imports| {
        let mut parts = vec![format!("\"mode\": {}", mode(replace, imports))];
        if let Some(m) = if_match {
            imports.0.insert("MatchConditions");
            parts.push(format!("\"etag\": {}", quoted(m)));
            parts.push("\"match_condition\": MatchConditions.IfNotModified".into());
        }
        format!("{{{}}}", parts.join(", "))
    };
    match write {
        Write::Insert(e) => format!("(\"create\", {})", entity(e, 1, imports)),
        Write::UpsertReplace(e) | Write::UpsertMerge(e) => {
            let o = options(matches!(write, Write::UpsertReplace(_)), &None, imports);
            format!("(\"upsert\", {}, {o})", entity(e, 1, imports))
        }
        Write::Replace(e, m) | Write::Merge(e, m) => {
            let o = options(matches!(write, Write::Replace(..)), m, imports);
            format!("(\"update\", {}, {o})", entity(e, 1, imports))
        }
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => {
            let keys = format!(
                "{{\"PartitionKey\": {}, \"RowKey\": {}}}",
                quoted(partition_key),
                quoted(row_key)
            );
            match if_match {
                Some(m) => {
                    imports.0.insert("MatchConditions");
                    format!(
                        "(\"delete\", {keys}, {{\"etag\": {}, \"match_condition\": MatchConditions.IfNotModified}})",
                        quoted(m)
                    )
                }
                None => format!("(\"delete\", {keys})"),
            }
        }
        Write::Get {
            partition_key,
            row_key,
        } => format!(
            "(\"delete\", {{\"PartitionKey\": {}, \"RowKey\": {}}})",
            quoted(partition_key),
            quoted(row_key)
        ),
    }
}

/// A dict literal, one property a line, at `depth` levels of four spaces.
fn entity(e: &Entity, depth: usize, imports: &mut Imports) -> String {
    let pad = "    ".repeat(depth + 1);
    let mut out = String::from("{\n");
    out.push_str(&format!(
        "{pad}\"PartitionKey\": {},\n",
        quoted(&e.partition_key)
    ));
    out.push_str(&format!("{pad}\"RowKey\": {},\n", quoted(&e.row_key)));
    for (name, v) in &e.properties {
        out.push_str(&format!("{pad}{}: {},\n", quoted(name), value(v, imports)));
    }
    out.push_str(&"    ".repeat(depth));
    out.push('}');
    out
}

fn typed(value: String, edm: &str, imports: &mut Imports) -> String {
    imports.0.insert("EntityProperty");
    imports.0.insert("EdmType");
    format!("EntityProperty({value}, EdmType.{edm})")
}

fn value(v: &Value, imports: &mut Imports) -> String {
    match v {
        Value::String(s) => quoted(s),
        Value::Int32(i) => i.to_string(),
        Value::Int64(i) => typed(i.to_string(), "INT64", imports),
        Value::Double(d) => match double(*d) {
            Some(t) => t,
            None if d.is_nan() => "float(\"nan\")".into(),
            None if *d > 0.0 => "float(\"inf\")".into(),
            None => "float(\"-inf\")".into(),
        },
        Value::Boolean(true) => "True".into(),
        Value::Boolean(false) => "False".into(),
        Value::DateTime(dt) => {
            let i = Instant::of(*dt);
            if i.fits_micros() {
                imports.0.insert("datetime");
                let micros = if i.ticks == 0 {
                    String::new()
                } else {
                    format!(", {}", i.ticks / 10)
                };
                format!(
                    "datetime({}, {}, {}, {}, {}, {}{micros}, tzinfo=timezone.utc)",
                    i.year, i.month, i.day, i.hour, i.minute, i.second
                )
            } else {
                typed(quoted(&i.text()), "DATETIME", imports)
            }
        }
        Value::Guid(g) => {
            imports.0.insert("UUID");
            format!("UUID({})", quoted(&g.to_string()))
        }
        Value::Binary(bytes) => {
            let mut out = String::from("b\"");
            for b in bytes.iter() {
                match b {
                    b'"' => out.push_str("\\\""),
                    b'\\' => out.push_str("\\\\"),
                    0x20..=0x7e => out.push(*b as char),
                    _ => out.push_str(&format!("\\x{b:02x}")),
                }
            }
            out.push('"');
            out
        }
    }
}

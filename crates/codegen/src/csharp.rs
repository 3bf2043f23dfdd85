//! The C# form: `Azure.Data.Tables` 12, synchronous calls, top-level statements.
//!
//! Values (the SDK's `TableEntity` serialisation): `string`, `int` (Int32), `long` (Int64,
//! written `5L`), `double`, `bool`, `DateTimeOffset` (100 ns ticks, the service's own
//! precision), `Guid` and `byte[]`. Query continuation tokens are the service's two tokens
//! separated by a space (`TableClient.CreateContinuationTokenFromHeaders`).

use super::literal::{double, quoted, quoted_list, Instant};
use super::{Op, Write, CONNECTION_STRING_VARIABLE};
use tablescope_engine::{Entity, Value};
use tablescope_wire::continuation_token;

const HEADER: &str = "using Azure;\nusing Azure.Data.Tables;\n\n";
/// The settings' types (`TableServiceProperties`, `TableCorsRule`, …) are in `Models`.
const SETTINGS_HEADER: &str =
    "using Azure;\nusing Azure.Data.Tables;\nusing Azure.Data.Tables.Models;\n\n";

pub fn show(op: &Op) -> String {
    let mut out = String::from(match op {
        Op::Setting(_) => SETTINGS_HEADER,
        _ => HEADER,
    });
    out.push_str(&format!(
        "var service = new TableServiceClient(Environment.GetEnvironmentVariable(\"{CONNECTION_STRING_VARIABLE}\"));\n"
    ));
    out.push_str(&body(op));
    out
}

fn body(op: &Op) -> String {
    match op {
        Op::Setting(setting) => super::settings::csharp(setting),
        Op::CreateTable(table) => format!("service.CreateTable({});\n", quoted(table)),
        Op::DeleteTable(table) => format!("service.DeleteTable({});\n", quoted(table)),
        Op::ListTables {
            filter,
            top,
            next_table_name,
        } => {
            let mut args = Vec::new();
            if let Some(f) = filter {
                args.push(format!("filter: {}", quoted(f)));
            }
            if let Some(t) = top {
                args.push(format!("maxPerPage: {t}"));
            }
            let token = next_table_name
                .as_deref()
                .map(|n| quoted(&continuation_token(n)))
                .unwrap_or_default();
            format!(
                "// One page, as one request returns it.\n\
                 var page = service.Query({}).AsPages({token}).First();\n\
                 foreach (var table in page.Values) Console.WriteLine(table.Name);\n\
                 Console.WriteLine($\"ContinuationToken: {{page.ContinuationToken}}\");\n",
                args.join(", ")
            )
        }
        Op::Write { table, write } => format!("{}{}", client(table), single_write(write)),
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
            let mut args = Vec::new();
            if let Some(f) = filter {
                args.push(format!("filter: {}", quoted(f)));
            }
            if let Some(t) = top {
                args.push(format!("maxPerPage: {t}"));
            }
            if let Some(s) = select {
                args.push(format!("select: new[] {{ {} }}", quoted_list(s)));
            }
            let token = continuation
                .as_ref()
                .map(|c| {
                    quoted(&format!(
                        "{} {}",
                        continuation_token(&c.next_partition_key),
                        continuation_token(&c.next_row_key)
                    ))
                })
                .unwrap_or_default();
            format!(
                "{}// One page, as one request returns it.\n\
                 var page = table.Query<TableEntity>({}).AsPages({token}).First();\n\
                 foreach (var entity in page.Values)\n\
                 {{\n    Console.WriteLine(string.Join(\", \", entity.Select(p => $\"{{p.Key}}={{p.Value}}\")));\n}}\n\
                 Console.WriteLine($\"ContinuationToken: {{page.ContinuationToken}}\");\n",
                client(table),
                args.join(", ")
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
                    "// Azure.Data.Tables has no read in a transaction: the same read on its own.\n",
                );
                out.push_str(&get(partition_key, row_key, None));
                return out;
            }
            out.push_str("table.SubmitTransaction(new List<TableTransactionAction>\n{\n");
            for w in writes {
                out.push_str(&format!("    {},\n", action(w)));
            }
            out.push_str("});\n");
            out
        }
    }
}

fn client(table: &str) -> String {
    format!("var table = service.GetTableClient({});\n", quoted(table))
}

fn get(partition_key: &str, row_key: &str, select: Option<&[String]>) -> String {
    let select = select
        .map(|s| format!(", select: new[] {{ {} }}", quoted_list(s)))
        .unwrap_or_default();
    format!(
        "TableEntity entity = table.GetEntity<TableEntity>({}, {}{select}).Value;\n\
         Console.WriteLine(string.Join(\", \", entity.Select(p => $\"{{p.Key}}={{p.Value}}\")));\n",
        quoted(partition_key),
        quoted(row_key)
    )
}

fn etag(if_match: &Option<String>) -> String {
    match if_match {
        Some(m) => format!("new ETag({})", quoted(m)),
        None => "ETag.All".into(),
    }
}

fn single_write(write: &Write) -> String {
    match write {
        Write::Insert(e) => format!("table.AddEntity({});\n", entity(e, 0)),
        Write::UpsertReplace(e) => format!(
            "table.UpsertEntity({}, TableUpdateMode.Replace);\n",
            entity(e, 0)
        ),
        Write::UpsertMerge(e) => format!(
            "table.UpsertEntity({}, TableUpdateMode.Merge);\n",
            entity(e, 0)
        ),
        Write::Replace(e, m) => format!(
            "table.UpdateEntity({}, {}, TableUpdateMode.Replace);\n",
            entity(e, 0),
            etag(m)
        ),
        Write::Merge(e, m) => format!(
            "table.UpdateEntity({}, {}, TableUpdateMode.Merge);\n",
            entity(e, 0),
            etag(m)
        ),
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => format!(
            "table.DeleteEntity({}, {}, {});\n",
            quoted(partition_key),
            quoted(row_key),
            etag(if_match)
        ),
        Write::Get {
            partition_key,
            row_key,
        } => get(partition_key, row_key, None),
    }
}

fn action(write: &Write) -> String {
    let act = |kind: &str, e: String, etag: Option<String>| match etag {
        Some(t) => {
            format!("new TableTransactionAction(TableTransactionActionType.{kind}, {e}, {t})")
        }
        None => format!("new TableTransactionAction(TableTransactionActionType.{kind}, {e})"),
    };
    match write {
        Write::Insert(e) => act("Add", entity(e, 1), None),
        Write::UpsertReplace(e) => act("UpsertReplace", entity(e, 1), None),
        Write::UpsertMerge(e) => act("UpsertMerge", entity(e, 1), None),
        Write::Replace(e, m) => act("UpdateReplace", entity(e, 1), Some(etag(m))),
        Write::Merge(e, m) => act("UpdateMerge", entity(e, 1), Some(etag(m))),
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => act(
            "Delete",
            keys_only(partition_key, row_key),
            Some(etag(if_match)),
        ),
        Write::Get {
            partition_key,
            row_key,
        } => act("Delete", keys_only(partition_key, row_key), None),
    }
}

fn keys_only(partition_key: &str, row_key: &str) -> String {
    format!(
        "new TableEntity({}, {})",
        quoted(partition_key),
        quoted(row_key)
    )
}

/// `new TableEntity(pk, rk) { ["Name"] = value, ... }`, at `depth` levels of four spaces.
fn entity(e: &Entity, depth: usize) -> String {
    let mut out = keys_only(&e.partition_key, &e.row_key);
    if e.properties.is_empty() {
        return out;
    }
    let pad = "    ".repeat(depth + 1);
    out.push('\n');
    out.push_str(&"    ".repeat(depth));
    out.push_str("{\n");
    for (name, v) in &e.properties {
        out.push_str(&format!("{pad}[{}] = {},\n", quoted(name), value(v)));
    }
    out.push_str(&"    ".repeat(depth));
    out.push('}');
    out
}

fn value(v: &Value) -> String {
    match v {
        Value::String(s) => quoted(s),
        Value::Int32(i) => i.to_string(),
        Value::Int64(i) => format!("{i}L"),
        Value::Double(d) => match double(*d) {
            Some(t) => t,
            None if d.is_nan() => "double.NaN".into(),
            None if *d > 0.0 => "double.PositiveInfinity".into(),
            None => "double.NegativeInfinity".into(),
        },
        Value::Boolean(b) => b.to_string(),
        Value::DateTime(dt) => {
            let i = Instant::of(*dt);
            let ticks = if i.ticks == 0 {
                String::new()
            } else {
                format!(".AddTicks({})", i.ticks)
            };
            format!(
                "new DateTimeOffset({}, {}, {}, {}, {}, {}, TimeSpan.Zero){ticks}",
                i.year, i.month, i.day, i.hour, i.minute, i.second
            )
        }
        Value::Guid(g) => format!("Guid.Parse({})", quoted(&g.to_string())),
        Value::Binary(bytes) => format!(
            "new byte[] {{ {} }}",
            bytes
                .iter()
                .map(|b| format!("0x{b:02X}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

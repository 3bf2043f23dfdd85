//! The Java form: `com.azure:azure-data-tables` 12, synchronous `TableClient`, as statements
//! for a `main` method.
//!
//! Values (the SDK's `TablesJacksonSerializer`): `String`, `int` (Int32), `long` (Int64,
//! written `5L`), `double`, `boolean`, `OffsetDateTime` (nanoseconds, so the service's seven
//! digits survive), `UUID` and `byte[]`. An ETag condition is the entity's `odata.etag`
//! property with `ifUnchanged` set. Continuation tokens are the service's two tokens joined
//! by `;` (`TableAsyncClient`'s `DELIMITER_CONTINUATION_TOKEN`).

use super::literal::{double, quoted, quoted_list, Instant};
use super::{Op, Write, CONNECTION_STRING_VARIABLE};
use tablescope_engine::{Entity, Value};
use tablescope_wire::continuation_token;

const HEADER: &str = "import com.azure.core.http.rest.PagedResponse;\n\
import com.azure.core.util.Context;\n\
import com.azure.data.tables.*;\n\
import com.azure.data.tables.models.*;\n\
import java.time.OffsetDateTime;\n\
import java.util.List;\n\
import java.util.UUID;\n\n";

pub fn show(op: &Op) -> String {
    let mut out = String::from(HEADER);
    out.push_str(&format!(
        "TableServiceClient service = new TableServiceClientBuilder()\n    \
         .connectionString(System.getenv(\"{CONNECTION_STRING_VARIABLE}\"))\n    .buildClient();\n"
    ));
    out.push_str(&body(op));
    out
}

fn body(op: &Op) -> String {
    match op {
        Op::Setting(setting) => super::settings::java(setting),
        Op::CreateTable(table) => format!("service.createTable({});\n", quoted(table)),
        Op::DeleteTable(table) => format!("service.deleteTable({});\n", quoted(table)),
        Op::ListTables {
            filter,
            top,
            next_table_name,
        } => {
            let mut options = String::from("new ListTablesOptions()");
            if let Some(f) = filter {
                options.push_str(&format!(".setFilter({})", quoted(f)));
            }
            if let Some(t) = top {
                options.push_str(&format!(".setTop({t})"));
            }
            let token = next_table_name
                .as_deref()
                .map(|n| quoted(&continuation_token(n)))
                .unwrap_or_default();
            format!(
                "// One page, as one request returns it.\n\
                 PagedResponse<TableItem> page = service.listTables({options}, null, Context.NONE)\n    \
                 .iterableByPage({token}).iterator().next();\n\
                 for (TableItem table : page.getValue()) System.out.println(table.getName());\n\
                 System.out.println(\"ContinuationToken: \" + page.getContinuationToken());\n"
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
            let mut options = String::from("new ListEntitiesOptions()");
            if let Some(f) = filter {
                options.push_str(&format!("\n    .setFilter({})", quoted(f)));
            }
            if let Some(s) = select {
                options.push_str(&format!("\n    .setSelect(List.of({}))", quoted_list(s)));
            }
            if let Some(t) = top {
                options.push_str(&format!("\n    .setTop({t})"));
            }
            let token = continuation
                .as_ref()
                .map(|c| {
                    quoted(&format!(
                        "{};{}",
                        continuation_token(&c.next_partition_key),
                        continuation_token(&c.next_row_key)
                    ))
                })
                .unwrap_or_default();
            format!(
                "{}ListEntitiesOptions options = {options};\n\
                 // One page, as one request returns it.\n\
                 PagedResponse<TableEntity> page = table.listEntities(options, null, Context.NONE)\n    \
                 .iterableByPage({token}).iterator().next();\n\
                 for (TableEntity entity : page.getValue()) System.out.println(entity.getProperties());\n\
                 System.out.println(\"ContinuationToken: \" + page.getContinuationToken());\n",
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
                    "// azure-data-tables has no read in a transaction: the same read on its own.\n",
                );
                out.push_str(&get(partition_key, row_key, None));
                return out;
            }
            out.push_str("table.submitTransaction(List.of(\n");
            let actions: Vec<String> = writes
                .iter()
                .map(|w| format!("    {}", action(w)))
                .collect();
            out.push_str(&actions.join(",\n"));
            out.push_str("));\n");
            out
        }
    }
}

fn client(table: &str) -> String {
    format!(
        "TableClient table = service.getTableClient({});\n",
        quoted(table)
    )
}

fn get(partition_key: &str, row_key: &str, select: Option<&[String]>) -> String {
    let select = select
        .map(|s| format!("List.of({})", quoted_list(s)))
        .unwrap_or_else(|| "null".into());
    format!(
        "TableEntity entity = table.getEntityWithResponse({}, {}, {select}, null, Context.NONE).getValue();\n\
         System.out.println(entity.getProperties());\n",
        quoted(partition_key),
        quoted(row_key)
    )
}

fn single_write(write: &Write) -> String {
    let update = |e: &Entity, mode: &str, m: &Option<String>| {
        format!(
            "table.updateEntityWithResponse({}, TableEntityUpdateMode.{mode}, {}, null, Context.NONE);\n",
            entity(e, m, 0),
            m.is_some()
        )
    };
    match write {
        Write::Insert(e) => format!("table.createEntity({});\n", entity(e, &None, 0)),
        Write::UpsertReplace(e) => format!(
            "table.upsertEntityWithResponse({}, TableEntityUpdateMode.REPLACE, null, Context.NONE);\n",
            entity(e, &None, 0)
        ),
        Write::UpsertMerge(e) => format!(
            "table.upsertEntityWithResponse({}, TableEntityUpdateMode.MERGE, null, Context.NONE);\n",
            entity(e, &None, 0)
        ),
        Write::Replace(e, m) => update(e, "REPLACE", m),
        Write::Merge(e, m) => update(e, "MERGE", m),
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => format!(
            "table.deleteEntityWithResponse({}, {}, null, Context.NONE);\n",
            keys_only(partition_key, row_key, if_match, 0),
            if_match.is_some()
        ),
        Write::Get {
            partition_key,
            row_key,
        } => get(partition_key, row_key, None),
    }
}

fn action(write: &Write) -> String {
    let act = |kind: &str, e: String, if_unchanged: bool| {
        if if_unchanged {
            format!("new TableTransactionAction(TableTransactionActionType.{kind}, {e}, true)")
        } else {
            format!("new TableTransactionAction(TableTransactionActionType.{kind}, {e})")
        }
    };
    match write {
        Write::Insert(e) => act("CREATE", entity(e, &None, 1), false),
        Write::UpsertReplace(e) => act("UPSERT_REPLACE", entity(e, &None, 1), false),
        Write::UpsertMerge(e) => act("UPSERT_MERGE", entity(e, &None, 1), false),
        Write::Replace(e, m) => act("UPDATE_REPLACE", entity(e, m, 1), m.is_some()),
        Write::Merge(e, m) => act("UPDATE_MERGE", entity(e, m, 1), m.is_some()),
        Write::Delete {
            partition_key,
            row_key,
            if_match,
        } => act(
            "DELETE",
            keys_only(partition_key, row_key, if_match, 1),
            if_match.is_some(),
        ),
        Write::Get {
            partition_key,
            row_key,
        } => act("DELETE", keys_only(partition_key, row_key, &None, 1), false),
    }
}

fn keys_only(
    partition_key: &str,
    row_key: &str,
    if_match: &Option<String>,
    depth: usize,
) -> String {
    let mut out = format!(
        "new TableEntity({}, {})",
        quoted(partition_key),
        quoted(row_key)
    );
    if let Some(m) = if_match {
        out.push_str(&format!(
            "\n{}.addProperty(\"odata.etag\", {})",
            "    ".repeat(depth + 1),
            quoted(m)
        ));
    }
    out
}

/// `new TableEntity(pk, rk).addProperty(...)...`, one property a line.
fn entity(e: &Entity, if_match: &Option<String>, depth: usize) -> String {
    let pad = "    ".repeat(depth + 1);
    let mut out = keys_only(&e.partition_key, &e.row_key, if_match, depth);
    for (name, v) in &e.properties {
        out.push_str(&format!(
            "\n{pad}.addProperty({}, {})",
            quoted(name),
            value(v)
        ));
    }
    out
}

fn value(v: &Value) -> String {
    match v {
        Value::String(s) => quoted(s),
        Value::Int32(i) => i.to_string(),
        Value::Int64(i) => format!("{i}L"),
        Value::Double(d) => match double(*d) {
            Some(t) => t,
            None if d.is_nan() => "Double.NaN".into(),
            None if *d > 0.0 => "Double.POSITIVE_INFINITY".into(),
            None => "Double.NEGATIVE_INFINITY".into(),
        },
        Value::Boolean(b) => b.to_string(),
        Value::DateTime(dt) => {
            format!("OffsetDateTime.parse({})", quoted(&Instant::of(*dt).text()))
        }
        Value::Guid(g) => format!("UUID.fromString({})", quoted(&g.to_string())),
        Value::Binary(bytes) => format!(
            "new byte[] {{ {} }}",
            bytes
                .iter()
                .map(|b| format!("(byte) 0x{b:02X}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

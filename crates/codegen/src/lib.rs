//! "Show as code": any request the playground runs, written as the code that runs it for real.
//!
//! One generator per form, each from the engine's [`Request`] value:
//! - the raw HTTP request ([`Form::Http`], docs/service/wire.md), which `tablescope_wire` reads back to the
//!   same `Request`;
//! - JavaScript ([`Form::JavaScript`], `@azure/data-tables`), written for the Code section's
//!   scope (`serviceClient`, `tableClient(name)`), so it runs there unchanged;
//! - Python ([`Form::Python`], `azure-data-tables`);
//! - C# ([`Form::CSharp`], `Azure.Data.Tables`);
//! - Java ([`Form::Java`], `com.azure:azure-data-tables`).
//!
//! The SDK forms connect with a connection string from the environment variable
//! [`CONNECTION_STRING_VARIABLE`], so a key never appears in generated text.
//!
//! Every value is written as its SDK needs it to keep its Edm type: an Int64 is never left to
//! a language's plain integer (which the SDKs send as Int32), a DateTime keeps its seven
//! fractional digits where the language's own time type would lose them, a Guid and Binary
//! are annotated, an integral Double keeps its type. Keys are passed to the SDKs as they are
//! (each SDK doubles `'` and percent-encodes the URL itself); the HTTP form does both.
//!
//! Pure Rust with no web dependency, so native tests check every form.
//!
//! ```
//! use tablescope_codegen::{self as code, Form};
//! use tablescope_engine::Request;
//! let request = Request::DeleteTable { table: "Employees".into() };
//! let js = code::show(&request, Form::JavaScript).unwrap();
//! assert!(js.contains(r#"await serviceClient.deleteTable("Employees");"#));
//! ```

#![forbid(unsafe_code)]

pub use connection::{connection_string, show_for, KEY_PLACEHOLDER};

mod connection;
mod csharp;
pub(crate) mod http;
mod java;
mod javascript;
mod lesson;
mod literal;
mod python;
mod settings;

pub use lesson::lesson_account;

use settings::Setting;
use tablescope_engine::{json, BatchRequest, Continuation, Entity, RawEntity, Request};

/// The five ways a request is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    Http,
    JavaScript,
    Python,
    CSharp,
    Java,
}

impl Form {
    pub const ALL: [Form; 5] = [
        Form::Http,
        Form::JavaScript,
        Form::Python,
        Form::CSharp,
        Form::Java,
    ];

    /// The name shown on the form's tab.
    pub fn label(self) -> &'static str {
        match self {
            Form::Http => "HTTP",
            Form::JavaScript => "JavaScript",
            Form::Python => "Python",
            Form::CSharp => "C#",
            Form::Java => "Java",
        }
    }

    /// The file extension of a saved form (`http`, `js`, `py`, `cs`, `java`).
    pub fn extension(self) -> &'static str {
        match self {
            Form::Http => "http",
            Form::JavaScript => "js",
            Form::Python => "py",
            Form::CSharp => "cs",
            Form::Java => "java",
        }
    }
}

/// The environment variable the Python, C# and Java forms read their connection string from.
pub const CONNECTION_STRING_VARIABLE: &str = "AZURE_TABLES_CONNECTION_STRING";

/// The playground's service URL, as the in-page transport, `tablescope serve` and Azurite
/// address the development account (`www/sdk/transport.js` `PLAYGROUND_URL`).
pub const PLAYGROUND_URL: &str = "http://127.0.0.1:10002/devstoreaccount1";

/// Why a request has no code form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotShown {
    /// A Tablescope-only request (`DescribeTables`): the service has no such operation.
    TablescopeOnly,
    /// An entity the service would refuse to read (its JSON is not an entity): there is no
    /// value to write in code. Carries the engine's reason.
    InvalidEntity(String),
    /// A batch without operations.
    EmptyBatch,
}

impl std::fmt::Display for NotShown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotShown::TablescopeOnly => f.write_str("Tablescope-only request: no service call"),
            NotShown::InvalidEntity(why) => write!(f, "the entity cannot be written: {why}"),
            NotShown::EmptyBatch => f.write_str("the batch has no operations"),
        }
    }
}

/// `request` as the engine's wire layer takes it: the method, URL, headers and body the HTTP
/// form of [`show`] writes (a batch: its multipart envelope). The playground runs it through
/// `wire::handle` on both targets to compare their answers.
pub fn wire_request(request: &Request) -> Result<tablescope_wire::HttpRequest, NotShown> {
    Ok(http::wire_request(&Op::from_request(request)?))
}

/// The request written in `form`, for the playground's service ([`PLAYGROUND_URL`]).
pub fn show(request: &Request, form: Form) -> Result<String, NotShown> {
    show_at(request, form, PLAYGROUND_URL)
}

/// The request written in `form` for the service at `endpoint` (`scheme://host[/path]`, the
/// URL a request's path is appended to). Only the HTTP form names the endpoint: the SDK forms
/// connect with the connection string in [`CONNECTION_STRING_VARIABLE`] (the JavaScript form
/// with the Code section's clients), and no form carries a credential.
pub fn show_at(request: &Request, form: Form, endpoint: &str) -> Result<String, NotShown> {
    let op = Op::from_request(request)?;
    let endpoint = endpoint.trim_end_matches('/');
    Ok(match form {
        Form::Http => http::show(&op, endpoint),
        Form::JavaScript => javascript::show(&op),
        Form::Python => python::show(&op),
        Form::CSharp => csharp::show(&op),
        Form::Java => java::show(&op),
    })
}

/// A request with its entities decoded (typed values in written order), ready to print.
/// Tablescope-only options (`page_budget`, `trace`) are not part of any service call and are
/// left out.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    CreateTable(String),
    DeleteTable(String),
    ListTables {
        filter: Option<String>,
        top: Option<u32>,
        next_table_name: Option<String>,
    },
    Write {
        table: String,
        write: Write,
    },
    Get {
        table: String,
        partition_key: String,
        row_key: String,
        select: Option<Vec<String>>,
    },
    Query {
        table: String,
        filter: Option<String>,
        select: Option<Vec<String>>,
        top: Option<u32>,
        continuation: Option<Continuation>,
    },
    Batch {
        table: String,
        writes: Vec<Write>,
    },
    /// The account's settings: service properties, a table's stored access policies.
    Setting(settings::Setting),
}

/// A write of one entity, as the service names it. `if_match` is `None` for `*`.
#[derive(Debug, Clone)]
pub(crate) enum Write {
    Insert(Entity),
    UpsertReplace(Entity),
    UpsertMerge(Entity),
    Replace(Entity, Option<String>),
    Merge(Entity, Option<String>),
    Delete {
        partition_key: String,
        row_key: String,
        if_match: Option<String>,
    },
    /// A point read inside a batch (the service allows one as a batch's only operation).
    Get {
        partition_key: String,
        row_key: String,
    },
}

impl Write {
    pub(crate) fn keys(&self) -> (&str, &str) {
        match self {
            Write::Insert(e)
            | Write::UpsertReplace(e)
            | Write::UpsertMerge(e)
            | Write::Replace(e, _)
            | Write::Merge(e, _) => (&e.partition_key, &e.row_key),
            Write::Delete {
                partition_key,
                row_key,
                ..
            }
            | Write::Get {
                partition_key,
                row_key,
            } => (partition_key, row_key),
        }
    }
}

fn entity(raw: &RawEntity) -> Result<Entity, NotShown> {
    json::decode(raw).map_err(|e| NotShown::InvalidEntity(e.to_string()))
}

/// `*` is the same as no condition for every SDK's update and delete.
fn condition(if_match: &Option<String>) -> Option<String> {
    if_match.as_ref().filter(|m| m.trim() != "*").cloned()
}

impl Op {
    fn from_request(request: &Request) -> Result<Op, NotShown> {
        let write = |table: &str, write: Write| Op::Write {
            table: table.to_string(),
            write,
        };
        Ok(match request {
            Request::CreateTable { table } => Op::CreateTable(table.clone()),
            Request::DeleteTable { table } => Op::DeleteTable(table.clone()),
            Request::ListTables {
                filter,
                top,
                next_table_name,
            } => Op::ListTables {
                filter: filter.clone(),
                top: *top,
                next_table_name: next_table_name.clone(),
            },
            Request::Insert { table, entity: e } => write(table, Write::Insert(entity(e)?)),
            Request::UpsertReplace { table, entity: e } => {
                write(table, Write::UpsertReplace(entity(e)?))
            }
            Request::UpsertMerge { table, entity: e } => {
                write(table, Write::UpsertMerge(entity(e)?))
            }
            Request::Replace {
                table,
                entity: e,
                if_match,
            } => write(table, Write::Replace(entity(e)?, condition(if_match))),
            Request::Merge {
                table,
                entity: e,
                if_match,
            } => write(table, Write::Merge(entity(e)?, condition(if_match))),
            Request::Delete {
                table,
                partition_key,
                row_key,
                if_match,
            } => write(
                table,
                Write::Delete {
                    partition_key: partition_key.clone(),
                    row_key: row_key.clone(),
                    if_match: condition(if_match),
                },
            ),
            Request::Get {
                table,
                partition_key,
                row_key,
                select,
            } => Op::Get {
                table: table.clone(),
                partition_key: partition_key.clone(),
                row_key: row_key.clone(),
                select: select.clone(),
            },
            Request::Query {
                table,
                filter,
                select,
                top,
                continuation,
                ..
            } => Op::Query {
                table: table.clone(),
                filter: filter.clone(),
                select: select.clone(),
                top: *top,
                continuation: continuation.clone(),
            },
            Request::Batch { table, operations } => {
                if operations.is_empty() {
                    return Err(NotShown::EmptyBatch);
                }
                let writes = operations
                    .iter()
                    .map(batch_write)
                    .collect::<Result<Vec<_>, _>>()?;
                Op::Batch {
                    table: table.clone(),
                    writes,
                }
            }
            Request::DescribeTables {} => return Err(NotShown::TablescopeOnly),
            Request::GetServiceProperties {} => Op::Setting(Setting::GetProperties),
            Request::SetServiceProperties { properties } => {
                Op::Setting(Setting::SetProperties(properties.clone()))
            }
            Request::GetTableAcl { table } => Op::Setting(Setting::GetAcl(table.clone())),
            Request::SetTableAcl { table, identifiers } => {
                Op::Setting(Setting::SetAcl(table.clone(), identifiers.clone()))
            }
        })
    }
}

fn batch_write(op: &BatchRequest) -> Result<Write, NotShown> {
    Ok(match op {
        BatchRequest::Insert { entity: e } => Write::Insert(entity(e)?),
        BatchRequest::UpsertReplace { entity: e } => Write::UpsertReplace(entity(e)?),
        BatchRequest::UpsertMerge { entity: e } => Write::UpsertMerge(entity(e)?),
        BatchRequest::Replace {
            entity: e,
            if_match,
        } => Write::Replace(entity(e)?, condition(if_match)),
        BatchRequest::Merge {
            entity: e,
            if_match,
        } => Write::Merge(entity(e)?, condition(if_match)),
        BatchRequest::Delete {
            partition_key,
            row_key,
            if_match,
        } => Write::Delete {
            partition_key: partition_key.clone(),
            row_key: row_key.clone(),
            if_match: condition(if_match),
        },
        BatchRequest::Get {
            partition_key,
            row_key,
        } => Write::Get {
            partition_key: partition_key.clone(),
            row_key: row_key.clone(),
        },
    })
}

//! An HTTP operation (verb, routed URL, headers, body) into the engine's [`Request`]
//! (docs/service/wire.md#verbs). Shared by single requests and the operations of a `$batch`, so an
//! operation means the same thing in both.

use super::auth::Access;
use super::route::{Resource, Target};
use serde_json::Value as Json;
use tablescope_engine::Continuation;
use tablescope_engine::RawEntity;
use tablescope_engine::Request;
use tablescope_engine::{Error, ErrorCode, Result};

/// A translated operation: the request, what it needs permission for, and how the client
/// wants an insert answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub request: Request,
    /// Upserts need both Add and Update.
    pub access: Vec<Access>,
    /// `Prefer`: `Some(false)` for return-no-content, `Some(true)` for return-content.
    pub return_content: Option<bool>,
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::InvalidInput, detail)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    super::http::find_header(headers, name)
}

/// Translates one operation. `GET /Tables` and friends are table operations; the rest name
/// a table's entities.
pub fn operation(
    dialect: super::Dialect,
    method: &str,
    resource: &Resource,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<Operation> {
    let method = effective_method(method, headers)?;
    let if_match = header(headers, "If-Match").map(str::to_string);
    let return_content = prefer(headers);
    let op = |request, access: &[Access]| Operation {
        request,
        access: access.to_vec(),
        return_content,
    };
    match (&resource.target, method.as_str()) {
        (Target::Tables, "GET") => Ok(op(
            Request::ListTables {
                filter: resource.param("$filter").map(str::to_string),
                top: top(resource)?,
                next_table_name: match resource.param("NextTableName") {
                    // COSMOS.md is silent on table-listing tokens: storage's form on both.
                    Some(t) => Some(continuation_key(super::Dialect::Storage, t)?),
                    None => None,
                },
            },
            &[Access::ListTables],
        )),
        (Target::Tables, "POST") => Ok(op(
            Request::CreateTable {
                table: table_name(body)?,
            },
            &[Access::CreateTable],
        )),
        (Target::Table(name), "DELETE") => Ok(op(
            Request::DeleteTable {
                table: name.clone(),
            },
            &[Access::DeleteTable],
        )),
        (Target::Entities(table), "POST") => Ok(op(
            Request::Insert {
                table: table.clone(),
                entity: entity_body(headers, body)?,
            },
            &[Access::Add],
        )),
        (Target::Entities(table), "GET") => Ok(op(
            Request::Query {
                table: table.clone(),
                filter: resource.param("$filter").map(str::to_string),
                select: select(resource),
                top: top(resource)?,
                continuation: continuation(dialect, resource)?,
                page_budget: None,
                trace: false,
            },
            &[Access::Read],
        )),
        (
            Target::Entity {
                table,
                partition_key,
                row_key,
            },
            verb,
        ) => {
            let table = table.clone();
            let keyed = |raw: RawEntity| with_keys(raw, partition_key, row_key);
            match verb {
                "GET" => Ok(op(
                    Request::Get {
                        table,
                        partition_key: partition_key.clone(),
                        row_key: row_key.clone(),
                        select: select(resource),
                    },
                    &[Access::Read],
                )),
                // Without If-Match, PUT and MERGE/PATCH are upserts (docs/service/wire.md#verbs).
                "PUT" | "MERGE" | "PATCH" => {
                    let entity = keyed(entity_body(headers, body)?);
                    let replace = verb == "PUT";
                    Ok(match (if_match, replace) {
                        (Some(m), true) => op(
                            Request::Replace {
                                table,
                                entity,
                                if_match: Some(m),
                            },
                            &[Access::Update],
                        ),
                        (Some(m), false) => op(
                            Request::Merge {
                                table,
                                entity,
                                if_match: Some(m),
                            },
                            &[Access::Update],
                        ),
                        (None, true) => op(
                            Request::UpsertReplace { table, entity },
                            &[Access::Add, Access::Update],
                        ),
                        (None, false) => op(
                            Request::UpsertMerge { table, entity },
                            &[Access::Add, Access::Update],
                        ),
                    })
                }
                "DELETE" => {
                    let if_match = if_match.ok_or_else(|| {
                        Error::with_text(
                            ErrorCode::MissingRequiredHeader,
                            "Delete Entity needs If-Match: * or the entity's ETag",
                        )
                    })?;
                    Ok(op(
                        Request::Delete {
                            table,
                            partition_key: partition_key.clone(),
                            row_key: row_key.clone(),
                            if_match: Some(if_match),
                        },
                        &[Access::Delete],
                    ))
                }
                other => Err(unsupported(other, resource)),
            }
        }
        (_, other) => Err(unsupported(other, resource)),
    }
}

fn unsupported(method: &str, resource: &Resource) -> Error {
    Error::with_text(
        ErrorCode::UnsupportedHttpVerb,
        format!("{method} is not an operation on {}", resource.raw_path),
    )
}

/// The verb, after older clients' `POST` with `X-HTTP-Method: MERGE` (or `DELETE`, `PUT`).
fn effective_method(method: &str, headers: &[(String, String)]) -> Result<String> {
    let method = method.to_ascii_uppercase();
    match (method.as_str(), header(headers, "X-HTTP-Method")) {
        ("POST", Some(tunnelled)) => {
            let t = tunnelled.trim().to_ascii_uppercase();
            match t.as_str() {
                "MERGE" | "PUT" | "DELETE" | "PATCH" => Ok(t),
                _ => Err(Error::with_text(
                    ErrorCode::InvalidHeaderValue,
                    format!("X-HTTP-Method: {tunnelled} is not a verb the service tunnels"),
                )),
            }
        }
        _ => Ok(method),
    }
}

/// `Prefer: return-no-content` / `return-content`.
fn prefer(headers: &[(String, String)]) -> Option<bool> {
    let value = header(headers, "Prefer")?.to_ascii_lowercase();
    if value.contains("return-no-content") {
        Some(false)
    } else if value.contains("return-content") {
        Some(true)
    } else {
        None
    }
}

fn text(body: &[u8]) -> Result<&str> {
    std::str::from_utf8(body).map_err(|e| invalid(format!("the body is not UTF-8: {e}")))
}

/// An entity body: JSON, checked for its media type.
fn entity_body(headers: &[(String, String)], body: &[u8]) -> Result<RawEntity> {
    if let Some(ct) = header(headers, "Content-Type") {
        let ct = ct.to_ascii_lowercase();
        if ct.contains("atom") || ct.contains("xml") {
            return Err(Error::new(ErrorCode::AtomFormatNotSupported));
        }
        if !ct.contains("json") {
            return Err(Error::with_text(
                ErrorCode::MediaTypeNotSupported,
                format!("Content-Type {ct}: entities are JSON"),
            ));
        }
    }
    RawEntity::parse(text(body)?)
}

/// The URL's keys are the entity's: they replace any keys in the body.
fn with_keys(mut raw: RawEntity, partition_key: &str, row_key: &str) -> RawEntity {
    raw.0.retain(|(n, _)| n != "PartitionKey" && n != "RowKey");
    raw.0
        .insert(0, ("RowKey".into(), Json::String(row_key.into())));
    raw.0.insert(
        0,
        ("PartitionKey".into(), Json::String(partition_key.into())),
    );
    raw
}

/// `{"TableName":"…"}`. A member given twice is refused, as in an entity, rather than
/// silently keeping the last (`{"TableName":"A","TableName":"B"}` would create B).
fn table_name(body: &[u8]) -> Result<String> {
    let text = text(body)?;
    let json: Json = serde_json::from_str(text).map_err(|e| invalid(format!("not JSON: {e}")))?;
    if let Ok(raw) = RawEntity::parse(text) {
        let mut seen = std::collections::HashSet::new();
        if let Some((name, _)) = raw.0.iter().find(|(name, _)| !seen.insert(name.as_str())) {
            return Err(Error::with_detail(
                ErrorCode::DuplicatePropertiesSpecified,
                tablescope_engine::Detail::DuplicateProperty { name: name.clone() },
            ));
        }
    }
    match json.get("TableName") {
        Some(Json::String(name)) => Ok(name.clone()),
        Some(_) => Err(invalid("TableName must be a string")),
        None => Err(Error::with_text(
            ErrorCode::PropertiesNeedValue,
            "the body needs TableName",
        )),
    }
}

fn top(resource: &Resource) -> Result<Option<u32>> {
    match resource.param("$top") {
        None => Ok(None),
        Some(t) => t.trim().parse::<u32>().map(Some).map_err(|_| {
            Error::with_text(
                ErrorCode::InvalidQueryParameterValue,
                format!("$top={t} is not a whole number from 0 to 1000"),
            )
        }),
    }
}

/// `$select=A,B` (spaces around names ignored); `*` or empty means every property.
fn select(resource: &Resource) -> Option<Vec<String>> {
    let names: Vec<String> = resource
        .param("$select")?
        .split(',')
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect();
    (!names.is_empty() && !names.iter().any(|n| n == "*")).then_some(names)
}

fn continuation(dialect: super::Dialect, resource: &Resource) -> Result<Option<Continuation>> {
    let pk = resource.param("NextPartitionKey");
    let rk = resource.param("NextRowKey");
    if pk.is_none() && rk.is_none() {
        return Ok(None);
    }
    Ok(Some(Continuation {
        next_partition_key: pk
            .map(|t| continuation_key(dialect, t))
            .transpose()?
            .unwrap_or_default(),
        next_row_key: rk
            .map(|t| continuation_key(dialect, t))
            .transpose()?
            .unwrap_or_default(),
    }))
}

fn continuation_key(dialect: super::Dialect, t: &str) -> Result<String> {
    dialect.continuation_key(t).ok_or_else(|| {
        Error::with_text(
            ErrorCode::InvalidInput,
            format!("'{t}' is not a continuation token this service issued"),
        )
    })
}

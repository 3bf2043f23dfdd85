//! `POST /$batch`: the MIME parts become one [`Request::Batch`], and its answer becomes
//! the multipart response (docs/service/wire.md#batch). The engine decides everything about the
//! batch (one partition, at most 100 operations, atomicity); this file only translates.
//!
//! Status is 202 whether or not an operation fails; a failure answers with only the failing
//! operation's part, its message prefixed with the 0-based index.

use super::handle::{authorize, keys, Call};
use super::multipart::{self, BatchPart, PartResponse};
use super::payload::{self, Metadata};
use super::reply::{header as h, Reply};
use super::route::{self, entity_path, Target};
use super::translate;
use super::{Dialect, HttpRequest, Outcome};
use tablescope_engine::Account;
use tablescope_engine::{BatchRequest, Request, Response};
use tablescope_engine::{Error, ErrorCode, Result};

/// Inside a batch, parts carry no spaces in their `Content-Type` (docs/service/wire.md#headers).
const PART_JSON: &str = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";

/// What the response needs to know about each operation beyond the engine's answer.
struct PartInfo {
    return_content: Option<bool>,
    content_id: Option<String>,
}

pub fn run(account: &mut Account, call: &Call, request: &HttpRequest) -> Result<Outcome> {
    let reply = call.reply;
    let content_type = request.header_value("Content-Type").ok_or_else(|| {
        Error::with_text(
            ErrorCode::InvalidInput,
            "$batch needs Content-Type: multipart/mixed; boundary=…",
        )
    })?;
    let parsed = multipart::parse(content_type, &request.body)?;
    let host = request.header_value("Host");
    let mut table: Option<String> = None;
    let mut operations = Vec::with_capacity(parsed.parts.len());
    let mut infos = Vec::with_capacity(parsed.parts.len());
    for (i, part) in parsed.parts.iter().enumerate() {
        match operation(call, host, part, &mut table) {
            Ok((op, info)) => {
                operations.push(op);
                infos.push(info);
            }
            Err(e) => {
                let failed = failure_part(reply, e.at_index(i), part);
                return Ok(finish(reply, &parsed, vec![failed], None));
            }
        }
    }
    let Some(table) = table else {
        return Err(Error::with_text(
            ErrorCode::InvalidInput,
            "the batch holds no operation",
        ));
    };
    let batch = Request::Batch {
        table: table.clone(),
        operations,
    };
    let response = account.execute(&batch);
    if let Some(error) = &response.error {
        if error.code == ErrorCode::RequestBodyTooLarge || reply.dialect.refused_at_top(error) {
            return Err(error.clone());
        }
        let index = failing_index(error);
        let part = parsed.parts.get(index).cloned().unwrap_or_default();
        let mut failed = failure_part(reply, error.clone(), &part);
        cosmos_part(reply.dialect, &mut failed, index + 1);
        let mut outcome = finish(reply, &parsed, vec![failed], Some(batch));
        outcome.ru = response.ru;
        return Ok(outcome);
    }
    let results = response.results.as_deref().unwrap_or_default();
    let mut parts = Vec::with_capacity(results.len());
    let Request::Batch { operations, .. } = &batch else {
        return Err(Error::new(ErrorCode::InvalidInput));
    };
    for (i, ((op, result), info)) in operations.iter().zip(results).zip(&infos).enumerate() {
        let mut part = success_part(account, call, &table, op, result, info);
        cosmos_part(reply.dialect, &mut part, i + 1);
        parts.push(part);
    }
    let mut outcome = finish(reply, &parsed, parts, Some(batch));
    outcome.ru = response.ru;
    Ok(outcome)
}

fn finish(
    reply: &Reply,
    parsed: &multipart::ParsedBatch,
    parts: Vec<PartResponse>,
    request: Option<Request>,
) -> Outcome {
    let id = &reply.context.request_id;
    let (content_type, body) = multipart::write_as(reply.dialect, id, id, parsed.changeset, &parts);
    Outcome {
        response: reply.response(202, Some(&content_type), Vec::new(), Vec::new(), body),
        request,
        stats: None,
        ru: None,
    }
}

/// Translates one part into a batch operation on the batch's one table.
fn operation(
    call: &Call,
    host: Option<&str>,
    part: &BatchPart,
    table: &mut Option<String>,
) -> Result<(BatchRequest, PartInfo)> {
    let resource = route::route(&part.url, host, &call.endpoint.account)?;
    let mut op = translate::operation(
        call.reply.dialect,
        &part.method,
        &resource,
        &part.headers,
        &part.body,
    )?;
    authorize(&call.credential, &mut op)?;
    let part_table = match &resource.target {
        Target::Entities(t) | Target::Entity { table: t, .. } => t.clone(),
        _ => {
            return Err(Error::with_text(
                ErrorCode::InvalidInput,
                "a batch holds only entity operations",
            ))
        }
    };
    match table {
        Some(t) if !t.eq_ignore_ascii_case(&part_table) => {
            return Err(Error::with_text(
                ErrorCode::CommandsInBatchActOnDifferentPartitions,
                format!("the batch is on table {t}; this operation is on {part_table}"),
            ))
        }
        Some(_) => {}
        None => *table = Some(part_table),
    }
    let info = PartInfo {
        return_content: op.return_content,
        content_id: part.content_id.clone(),
    };
    Ok((to_batch(op.request)?, info))
}

/// The batch form of a single-entity request.
fn to_batch(request: Request) -> Result<BatchRequest> {
    use BatchRequest as B;
    use Request as R;
    Ok(match request {
        R::Insert { entity, .. } => B::Insert { entity },
        R::UpsertReplace { entity, .. } => B::UpsertReplace { entity },
        R::UpsertMerge { entity, .. } => B::UpsertMerge { entity },
        R::Replace {
            entity, if_match, ..
        } => B::Replace { entity, if_match },
        R::Merge {
            entity, if_match, ..
        } => B::Merge { entity, if_match },
        R::Delete {
            partition_key,
            row_key,
            if_match,
            ..
        } => B::Delete {
            partition_key,
            row_key,
            if_match,
        },
        R::Get {
            partition_key,
            row_key,
            ..
        } => B::Get {
            partition_key,
            row_key,
        },
        _ => {
            return Err(Error::with_text(
                ErrorCode::InvalidInput,
                "a query cannot be part of a batch",
            ))
        }
    })
}

/// The engine's batch errors start with the failing operation's index (`3:…`).
fn failing_index(error: &Error) -> usize {
    error
        .message
        .split_once(':')
        .and_then(|(i, _)| i.parse().ok())
        .unwrap_or(0)
}

/// The one part a failed batch answers with; `error`'s message already starts with the index.
/// Production echoes the failing operation's `Preference-Applied` (a Go SDK recording).
fn failure_part(reply: &Reply, error: Error, part: &BatchPart) -> PartResponse {
    let asked_no_content = super::http::find_header(&part.headers, "Prefer")
        .is_some_and(|p| p.to_ascii_lowercase().contains("return-no-content"));
    PartResponse {
        status: error.status(),
        headers: [
            vec![
                h("X-Content-Type-Options", "nosniff"),
                h("Cache-Control", "no-cache"),
            ],
            asked_no_content
                .then(|| h("Preference-Applied", "return-no-content"))
                .into_iter()
                .collect(),
            vec![
                h("DataServiceVersion", "3.0;"),
                h("Content-Type", PART_JSON),
            ],
        ]
        .concat(),
        body: reply.part_error_body(&error).into_bytes(),
        content_id: part.content_id.clone(),
    }
}

/// A part as Cosmos writes it ([`Dialect::numbered_parts`]): `ETag`, `Preference-Applied`,
/// `Location`, then `Content-ID: <position>`; a part with a body keeps its `Content-Type`
/// (the recordings list no other header; where it goes is the model's choice).
fn cosmos_part(dialect: Dialect, part: &mut PartResponse, position: usize) {
    if !dialect.numbered_parts() {
        return;
    }
    let take = |name: &str| {
        part.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .cloned()
    };
    let mut headers: Vec<(String, String)> = ["ETag", "Preference-Applied", "Location"]
        .into_iter()
        .filter_map(take)
        .collect();
    headers.push(h("Content-ID", position.to_string()));
    if !part.body.is_empty() {
        headers.push(h("Content-Type", dialect.content_type(Metadata::Minimal)));
    }
    part.headers = headers;
    part.content_id = None;
}

fn success_part(
    account: &Account,
    call: &Call,
    table: &str,
    op: &BatchRequest,
    result: &Response,
    info: &PartInfo,
) -> PartResponse {
    let mut headers = vec![
        h("X-Content-Type-Options", "nosniff"),
        h("Cache-Control", "no-cache"),
    ];
    let etag = result.etag.map(|t| call.reply.dialect.etag(t));
    let mut body = Vec::new();
    let status = match op {
        BatchRequest::Insert { entity } => {
            let raw_keys = keys(entity);
            let location = format!(
                "{}/{}",
                call.resource.base,
                entity_path(table, &raw_keys.0, &raw_keys.1)
            );
            if info.return_content == Some(false) {
                headers.push(h("Preference-Applied", "return-no-content"));
                headers.push(h("DataServiceVersion", "3.0;"));
                headers.push(h("Location", location.clone()));
                headers.push(h("DataServiceId", location));
                headers.extend(etag.clone().map(|t| h("ETag", t)));
                204
            } else {
                if info.return_content == Some(true) {
                    headers.push(h("Preference-Applied", "return-content"));
                }
                headers.push(h("DataServiceVersion", "3.0;"));
                headers.push(h("Content-Type", PART_JSON));
                headers.push(h("Location", location));
                headers.extend(etag.clone().map(|t| h("ETag", t)));
                let stored = account
                    .table(table)
                    .ok()
                    .and_then(|t| t.entity(&raw_keys.0, &raw_keys.1))
                    .unwrap_or_default();
                body =
                    payload::entity_element(&call.place(table), call.level, None, (&stored).into())
                        .into_bytes();
                201
            }
        }
        BatchRequest::Get {
            partition_key,
            row_key,
        } => {
            headers.push(h("DataServiceVersion", "3.0;"));
            headers.push(h("Content-Type", PART_JSON));
            headers.extend(etag.clone().map(|t| h("ETag", t)));
            // A read is alone in its batch, so the stored entity is the one it read.
            let entity = account
                .table(table)
                .ok()
                .and_then(|t| t.entity(partition_key, row_key))
                .unwrap_or_default();
            body = payload::entity_element(&call.place(table), call.level, None, (&entity).into())
                .into_bytes();
            200
        }
        _ => {
            headers.push(h("DataServiceVersion", "1.0;"));
            headers.extend(etag.clone().map(|t| h("ETag", t)));
            204
        }
    };
    PartResponse {
        status,
        headers,
        body,
        content_id: info.content_id.clone(),
    }
}

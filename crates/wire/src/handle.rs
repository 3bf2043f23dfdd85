//! [`handle`]: route, authenticate, translate to a [`Request`], execute, write the response.

use super::auth::{self, Credential};
use super::payload::{self, Metadata, Place};
use super::reply::{api_version, header as h, Reply};
use super::route::{self, entity_path, Resource, Target};
use super::translate::{self, Operation};
use super::{
    batch, cors, settings, token, Context, Dialect, Endpoint, HttpRequest, HttpResponse, Outcome,
};
use tablescope_engine::Account;
use tablescope_engine::{Error, ErrorCode, Result};
use tablescope_engine::{Request, Response, Rows};

/// The largest request body read. Batches are limited to 4 MiB by the engine; single
/// entities to 1 MiB; anything past this is refused before it is parsed.
pub const MAX_BODY_BYTES: usize = tablescope_engine::MAX_PAYLOAD_BYTES + 64 * 1024;

/// Answers one HTTP request as the Table service would. Never panics; a request that is
/// refused changes nothing.
pub fn handle(
    account: &mut Account,
    endpoint: &Endpoint,
    context: &Context,
    request: &HttpRequest,
) -> Outcome {
    let reply = Reply {
        context,
        version: api_version(request),
        dialect: Dialect::of(account.target()),
    };
    if cors::is_preflight(request) {
        return Outcome {
            response: cors::preflight(account.service_properties(), context, request),
            request: None,
            stats: None,
            ru: None,
        };
    }
    let mut outcome = match serve(account, endpoint, &reply, request) {
        Ok(outcome) => outcome,
        Err(error) => Outcome {
            response: reply.error_with(&error, kept_preference(&error, asks_no_content(request))),
            request: None,
            stats: None,
            ru: None,
        },
    };
    cors::decorate(account.service_properties(), request, &mut outcome.response);
    outcome
}

/// Checks the request's credential ([`auth::authenticate`]); a table SAS that names a stored
/// access policy is resolved against the account's table, so removing the policy revokes it.
pub(super) fn authenticate(
    account: &Account,
    endpoint: &Endpoint,
    request: &HttpRequest,
    now: tablescope_engine::DateTime,
) -> Result<Credential> {
    if request.header_value("Authorization").is_none() {
        let query = super::http::split_target(&request.url).query;
        if let Some(params) = super::http::query_pairs(query) {
            let has = |name: &str| params.iter().any(|(n, _)| n == name);
            if has("si") && has("sig") {
                return auth::verify_with_policy(endpoint, account, &params, now)
                    .map(Credential::Sas);
            }
        }
    }
    auth::authenticate(endpoint, request, now)
}

fn asks_no_content(request: &HttpRequest) -> bool {
    request
        .header_value("Prefer")
        .is_some_and(|p| p.to_ascii_lowercase().contains("return-no-content"))
}

/// Production answers an insert refused for a property without a value with the
/// `Preference-Applied` it would have sent on success; no other error carries it.
fn kept_preference(error: &Error, asked_no_content: bool) -> Vec<(String, String)> {
    if error.code == ErrorCode::PropertiesNeedValue && asked_no_content {
        vec![h("Preference-Applied", "return-no-content")]
    } else {
        Vec::new()
    }
}

fn serve(
    account: &mut Account,
    endpoint: &Endpoint,
    reply: &Reply,
    request: &HttpRequest,
) -> Result<Outcome> {
    if request.body.len() > MAX_BODY_BYTES {
        return Err(Error::with_text(
            ErrorCode::RequestBodyTooLarge,
            format!(
                "the body has {} bytes; the service reads at most 4 MiB",
                request.body.len()
            ),
        ));
    }
    let resource = route::route(
        &request.url,
        request.header_value("Host"),
        &endpoint.account,
    )?;
    if resource.target.is_setting() {
        return Ok(settings::serve(
            account, endpoint, reply, request, &resource,
        ));
    }
    let level = metadata(&resource, request)?;
    check_versions(request)?;
    let credential = authenticate(account, endpoint, request, reply.context.now)?;
    let call = Call {
        endpoint,
        reply,
        credential,
        resource,
        level,
    };
    if call.resource.target == Target::Batch {
        if !request.method.eq_ignore_ascii_case("POST") {
            return Err(Error::with_text(
                ErrorCode::UnsupportedHttpVerb,
                "$batch takes POST",
            ));
        }
        return batch::run(account, &call, request);
    }
    if let Target::Table(name) = &call.resource.target {
        if request.method.eq_ignore_ascii_case("GET") {
            return read_table(account, &call, name);
        }
    }
    let mut op = translate::operation(
        call.reply.dialect,
        &request.method,
        &call.resource,
        &request.headers,
        &request.body,
    )?;
    authorize(&call.credential, &mut op)?;
    let (response, rows) = account.execute_rows(&op.request);
    let http = write(&call, &op, &response, &rows.unwrap_or_default());
    Ok(Outcome {
        response: http,
        stats: response.stats,
        ru: response.ru,
        request: Some(op.request),
    })
}

/// Checks that `credential` may run `op`: on its table, and on its entity where it names
/// one (a key-range SAS reaches only entities inside its range). A query through a key-range
/// SAS is narrowed to the range, as the service narrows it.
pub(super) fn authorize(credential: &Credential, op: &mut Operation) -> Result<()> {
    let table = op_table(&op.request).map(str::to_string);
    let entity = op_keys(&op.request);
    for access in &op.access {
        match (&table, &entity) {
            (Some(t), Some((pk, rk))) => auth::authorize_entity(credential, *access, t, pk, rk)?,
            _ => auth::authorize(credential, *access, table.as_deref())?,
        }
    }
    if let (Credential::Sas(sas), Request::Query { filter, .. }) = (credential, &mut op.request) {
        if let Some(range) = sas.keys.filter() {
            *filter = Some(match filter.as_deref().filter(|f| !f.trim().is_empty()) {
                Some(f) => format!("({f}) and {range}"),
                None => range,
            });
        }
    }
    Ok(())
}

/// The entity an operation names, if it names one.
fn op_keys(request: &Request) -> Option<(String, String)> {
    use Request as R;
    match request {
        R::Insert { entity, .. }
        | R::UpsertReplace { entity, .. }
        | R::UpsertMerge { entity, .. }
        | R::Replace { entity, .. }
        | R::Merge { entity, .. } => Some(keys(entity)),
        R::Delete {
            partition_key,
            row_key,
            ..
        }
        | R::Get {
            partition_key,
            row_key,
            ..
        } => Some((partition_key.clone(), row_key.clone())),
        _ => None,
    }
}

fn op_table(request: &Request) -> Option<&str> {
    use Request as R;
    match request {
        R::CreateTable { table }
        | R::DeleteTable { table }
        | R::Insert { table, .. }
        | R::UpsertReplace { table, .. }
        | R::UpsertMerge { table, .. }
        | R::Replace { table, .. }
        | R::Merge { table, .. }
        | R::Delete { table, .. }
        | R::Get { table, .. }
        | R::Query { table, .. }
        | R::Batch { table, .. }
        | R::GetTableAcl { table }
        | R::SetTableAcl { table, .. } => Some(table),
        R::ListTables { .. }
        | R::DescribeTables {}
        | R::GetServiceProperties {}
        | R::SetServiceProperties { .. } => None,
    }
}

/// The response's metadata level: `$format` wins over `Accept`; plain `application/json`
/// (or no preference) is minimal. Atom was retired in 2015.
fn metadata(resource: &Resource, request: &HttpRequest) -> Result<Metadata> {
    let asked = resource
        .param("$format")
        .or_else(|| request.header_value("Accept"))
        .unwrap_or("application/json;odata=minimalmetadata");
    // What the SDKs send, matched before the general (allocating) case.
    match asked {
        "application/json;odata=minimalmetadata" | "application/json" => {
            return Ok(Metadata::Minimal)
        }
        "application/json;odata=nometadata" => return Ok(Metadata::None),
        "application/json;odata=fullmetadata" => return Ok(Metadata::Full),
        _ => {}
    }
    let asked = asked.to_ascii_lowercase();
    if asked.contains("nometadata") {
        Ok(Metadata::None)
    } else if asked.contains("fullmetadata") {
        Ok(Metadata::Full)
    } else if asked.contains("json") || asked.contains("*/*") || asked.trim().is_empty() {
        Ok(Metadata::Minimal)
    } else if asked.contains("atom") || asked.contains("xml") {
        Err(Error::new(ErrorCode::AtomFormatNotSupported))
    } else {
        Err(Error::with_text(
            ErrorCode::MediaTypeNotSupported,
            format!("Accept: {asked}; the service answers JSON"),
        ))
    }
}

/// `DataServiceVersion` and `MaxDataServiceVersion` are `<major>.<minor>[;NetFx]`; the JSON
/// format needs 3.0, so a maximum below it cannot be served.
pub(super) fn check_versions(request: &HttpRequest) -> Result<()> {
    if let Some(v) = request.header_value("x-ms-version") {
        if !super::version::is_published(v) {
            return Err(Error::with_text(
                ErrorCode::InvalidHeaderValue,
                format!("x-ms-version: {v} is not a version of the storage services"),
            ));
        }
    }
    for name in ["DataServiceVersion", "MaxDataServiceVersion"] {
        if let Some(v) = request.header_value(name) {
            let number = v.split(';').next().unwrap_or("").trim();
            let parsed: Option<f64> = number.parse().ok();
            let ok = match parsed {
                Some(n) if name == "MaxDataServiceVersion" => n >= 3.0,
                Some(n) => n > 0.0,
                None => false,
            };
            if !ok {
                return Err(Error::with_text(
                    ErrorCode::InvalidHeaderValue,
                    format!("{name}: {v}; JSON needs 3.0"),
                ));
            }
        }
    }
    Ok(())
}

/// `GET /Tables('name')`: the table's entry, or 404.
fn read_table(account: &mut Account, call: &Call, name: &str) -> Result<Outcome> {
    auth::authorize(&call.credential, auth::Access::ListTables, None)?;
    let table = account
        .table(name)
        .map_err(|_| Error::new(ErrorCode::ResourceNotFound))?;
    let body = payload::table_element(
        call.reply.dialect,
        &call.resource.base,
        &call.endpoint.account,
        call.level,
        &table.name,
    );
    Ok(Outcome {
        response: call.reply.response(
            200,
            Some(call.reply.dialect.content_type(call.level)),
            Vec::new(),
            Vec::new(),
            body.into_bytes(),
        ),
        request: None,
        stats: None,
        ru: None,
    })
}

/// Writes the engine's answer to a single operation; `rows` holds the entities it answered
/// (typed: their bytes are written straight from the stored values).
fn write(call: &Call, op: &Operation, response: &Response, rows: &Rows) -> HttpResponse {
    let Call {
        endpoint,
        reply,
        resource,
        level,
        ..
    } = call;
    let level = *level;
    if let Some(error) = &response.error {
        let merge = matches!(op.request, Request::Merge { .. });
        return reply.error_as(
            error,
            kept_preference(error, op.return_content == Some(false)),
            merge,
        );
    }
    use Request as R;
    let dialect = reply.dialect;
    let json = Some(dialect.content_type(level));
    match &op.request {
        R::ListTables { .. } => {
            let names = response.tables.clone().unwrap_or_default();
            let body =
                payload::table_page(dialect, &resource.base, &endpoint.account, level, &names);
            let own = response
                .next_table_name
                .iter()
                .map(|t| h("x-ms-continuation-NextTableName", token::encode(t)))
                .collect();
            reply.response(200, json, own, Vec::new(), body.into_bytes())
        }
        R::CreateTable { table } => {
            let location = format!("{}/Tables('{table}')", resource.base);
            // Cosmos answers a create with the table's ETag; the engine gives none on storage.
            let etag: Vec<_> = response
                .etag
                .iter()
                .map(|t| h("ETag", dialect.etag(*t)))
                .collect();
            if op.return_content == Some(false) {
                reply.response(
                    204,
                    None,
                    [etag, vec![h("Location", location.clone())]].concat(),
                    no_content_after(dialect, location),
                    Vec::new(),
                )
            } else {
                let body = payload::table_element(
                    dialect,
                    &resource.base,
                    &endpoint.account,
                    level,
                    table,
                );
                reply.response(
                    201,
                    json,
                    [etag, vec![h("Location", location)]].concat(),
                    preference_applied(op),
                    body.into_bytes(),
                )
            }
        }
        R::Insert { table, .. } => {
            let Some(entity) = rows.entities.first() else {
                return reply.error(&Error::new(ErrorCode::InvalidInput));
            };
            let path = entity_path(
                table,
                entity.partition_key.as_str(),
                entity.row_key.as_str(),
            );
            let location = format!("{}/{path}", resource.base);
            let etag = response.etag.map(|t| dialect.etag(t)).unwrap_or_default();
            if op.return_content == Some(false) {
                reply.response(
                    204,
                    None,
                    vec![h("ETag", etag), h("Location", location.clone())],
                    no_content_after(dialect, location),
                    Vec::new(),
                )
            } else {
                let body = payload::entity_element(&call.place(table), level, None, entity.into());
                reply.response(
                    201,
                    json,
                    vec![h("ETag", etag), h("Location", location)],
                    preference_applied(op),
                    body.into_bytes(),
                )
            }
        }
        R::Get { table, select, .. } => {
            let Some(entity) = rows.entities.first() else {
                return reply.error(&Error::new(ErrorCode::ResourceNotFound));
            };
            let place = call.place(table);
            let body = payload::entity_element(&place, level, select.as_deref(), entity.into());
            let etag = response.etag.map(|t| dialect.etag(t)).unwrap_or_default();
            reply.response(
                200,
                json,
                vec![h("ETag", etag)],
                Vec::new(),
                body.into_bytes(),
            )
        }
        R::Query { table, select, .. } => {
            let place = call.place(table);
            let body = payload::entity_page(&place, level, select.as_deref(), &rows.entities);
            let own = response
                .continuation
                .iter()
                .flat_map(|c| {
                    [
                        h(
                            "x-ms-continuation-NextPartitionKey",
                            dialect.continuation_header(&c.next_partition_key),
                        ),
                        h(
                            "x-ms-continuation-NextRowKey",
                            dialect.continuation_header(&c.next_row_key),
                        ),
                    ]
                })
                .collect();
            reply.response(200, json, own, Vec::new(), body.into_bytes())
        }
        // Replace, merge, upserts, deletes, delete table: 204 and (for writes) the ETag.
        _ => {
            let own = response
                .etag
                .iter()
                .map(|t| h("ETag", dialect.etag(*t)))
                .collect();
            reply.response(204, None, own, Vec::new(), Vec::new())
        }
    }
}

/// What follows `X-Content-Type-Options` on a no-content insert or create-table answer.
fn no_content_after(dialect: Dialect, location: String) -> Vec<(String, String)> {
    let mut after = vec![h("Preference-Applied", "return-no-content")];
    if dialect.data_service_id() {
        after.push(h("DataServiceId", location));
    }
    after
}

fn preference_applied(op: &Operation) -> Vec<(String, String)> {
    match op.return_content {
        Some(true) => vec![h("Preference-Applied", "return-content")],
        _ => Vec::new(),
    }
}

/// One request being answered: what every step after routing and authentication needs.
pub(super) struct Call<'a> {
    pub endpoint: &'a Endpoint,
    pub reply: &'a Reply<'a>,
    pub credential: Credential,
    pub resource: Resource,
    pub level: Metadata,
}

impl Call<'_> {
    /// Where `table`'s entities live, for their bodies' metadata.
    pub fn place<'b>(&'b self, table: &'b str) -> Place<'b> {
        Place {
            dialect: self.reply.dialect,
            base: &self.resource.base,
            account: &self.endpoint.account,
            table,
        }
    }
}

pub(super) fn keys(entity: &tablescope_engine::RawEntity) -> (String, String) {
    let text = |name| {
        entity
            .get(name)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    (text("PartitionKey"), text("RowKey"))
}

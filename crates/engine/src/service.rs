//! Running requests: [`Account::execute`] maps each [`Request`] to the account's operations
//! and answers with the service's status codes (docs/service/operations.md, docs/service/queries.md, docs/service/batches.md; docs/service/lessons.md#success-statuses).

use super::account::{Account, IfMatch, WriteMode};
use super::api::{BatchRequest, ColumnInfo, Explain, Request, Response, Returned, Rows, TableInfo};
use super::batch::{self, BatchOperation, BatchResult};
use super::entity::ETag;
use super::error::{Error, ErrorCode, Result};
use super::filter::{self, Row};
use super::found::Found;
use super::json::{self, RawEntity};
use super::key::Key;
use super::query::{self, QueryOptions};
use crate::target::{ru, IndexUse, RuEstimate, Target, Unsupported};
use std::sync::Arc;

impl Account {
    /// Runs one request. Never panics; every failure is a [`Response`] with the service's
    /// status, code and message.
    ///
    /// Entities come back typed inside the response ([`crate::Returned`]): their JSON form is
    /// built only if the caller serializes them.
    pub fn execute(&mut self, request: &Request) -> Response {
        let mut answer = Answer::InResponse;
        match self.try_execute(request, &mut answer) {
            Ok(r) => r,
            Err(e) => Response::failure(e),
        }
    }

    /// [`Self::execute`], but the entities a read or an insert answers come back typed in
    /// [`Rows`] and the [`Response`] carries no JSON for them: for callers that write their
    /// own bytes (the wire layer), so no JSON tree is built for entities nobody reads as JSON.
    pub fn execute_rows(&mut self, request: &Request) -> (Response, Option<Rows>) {
        let mut answer = Answer::Rows(None);
        let response = match self.try_execute(request, &mut answer) {
            Ok(r) => r,
            Err(e) => Response::failure(e),
        };
        match answer {
            Answer::Rows(rows) => (response, rows),
            Answer::InResponse => (response, None),
        }
    }

    fn try_execute(&mut self, request: &Request, rows: &mut Answer) -> Result<Response> {
        use Request as R;
        if cfg!(feature = "without-account-settings")
            && matches!(
                request,
                R::GetServiceProperties {}
                    | R::SetServiceProperties { .. }
                    | R::GetTableAcl { .. }
                    | R::SetTableAcl { .. }
            )
        {
            return Err(Error::new(ErrorCode::NotImplemented));
        }
        match request {
            R::CreateTable { table } => self.create_table_answer(table),
            R::DeleteTable { table } => self.delete_table(table).map(|_| Response {
                ru: self.target.is_cosmos().then(RuEstimate::unpublished),
                ..Response::status(204)
            }),
            R::ListTables {
                filter,
                top,
                next_table_name,
            } => self.list_tables(filter.as_deref(), *top, next_table_name.as_deref()),
            R::Insert { table, entity } => {
                self.write_json(table, entity, WriteMode::Insert, &None, rows)
            }
            R::UpsertReplace { table, entity } => {
                self.write_json(table, entity, WriteMode::UpsertReplace, &None, rows)
            }
            R::UpsertMerge { table, entity } => {
                self.write_json(table, entity, WriteMode::UpsertMerge, &None, rows)
            }
            R::Replace {
                table,
                entity,
                if_match,
            } => self.write_json(table, entity, WriteMode::Replace, if_match, rows),
            R::Merge {
                table,
                entity,
                if_match,
            } => self.write_json(table, entity, WriteMode::Merge, if_match, rows),
            R::Delete {
                table,
                partition_key,
                row_key,
                if_match,
            } => {
                let cond = if_match.as_deref().map(IfMatch::parse).transpose()?;
                let ru = self.write_ru_of_stored(table, partition_key, row_key);
                self.delete(table, partition_key, row_key, cond.as_ref())
                    .map(|_| Response {
                        ru,
                        ..Response::status(204)
                    })
            }
            R::Get {
                table,
                partition_key,
                row_key,
                select,
            } => {
                let select = select.as_deref().filter(|s| !s.is_empty());
                let found = self.found(table, partition_key, row_key, select)?;
                let mut response = Response {
                    status: 200,
                    etag: Some(ETag(found.stored.timestamp)),
                    ru: self.target.is_cosmos().then(|| {
                        RuEstimate::point_read(ru::item_bytes(
                            found.partition_key.as_str(),
                            found.row_key.as_str(),
                            &found.stored.properties,
                        ))
                    }),
                    ..Response::default()
                };
                rows.one(&mut response, found);
                Ok(response)
            }
            R::Query {
                table,
                filter,
                select,
                top,
                continuation,
                page_budget,
                trace,
            } => {
                let options = QueryOptions {
                    filter: filter.clone(),
                    select: select.clone(),
                    top: *top,
                    continuation: continuation.clone(),
                    page_budget: *page_budget,
                };
                let (mut response, page) = self.query_rows(table, &options, *trace)?;
                rows.page(&mut response, page);
                Ok(response)
            }
            R::Batch { table, operations } => {
                let ops: Vec<BatchOperation> =
                    operations.iter().map(BatchRequest::to_operation).collect();
                let results = batch::run(self, table, &ops)?;
                let cosmos = self.target.is_cosmos();
                let results: Vec<Response> = results
                    .iter()
                    .map(|r| match r {
                        BatchResult::Written {
                            status,
                            timestamp,
                            bytes,
                        } => Response {
                            status: *status,
                            etag: Some(ETag(*timestamp)),
                            ru: cosmos.then(|| RuEstimate::write(*bytes)),
                            ..Response::default()
                        },
                        BatchResult::Deleted { bytes } => Response {
                            ru: cosmos.then(|| RuEstimate::write(*bytes)),
                            ..Response::status(204)
                        },
                        BatchResult::Read(e) => Response {
                            ru: cosmos.then(|| RuEstimate::point_read(ru::entity_bytes(e))),
                            ..Response::with_entity(200, e)
                        },
                    })
                    .collect();
                Ok(Response {
                    status: 202,
                    ru: cosmos
                        .then(|| RuEstimate::batch(results.iter().filter_map(|r| r.ru.as_ref()))),
                    results: Some(results),
                    ..Response::default()
                })
            }
            R::DescribeTables {} => Ok(Response {
                status: 200,
                table_infos: Some(self.describe_tables()),
                ..Response::default()
            }),
            R::GetServiceProperties {} => self
                .target
                .supports(Unsupported::GetServiceProperties)
                .map(|()| Response {
                    status: 200,
                    service_properties: Some(self.service_properties().clone()),
                    ..Response::default()
                }),
            R::SetServiceProperties { properties } => self
                .target
                .supports(Unsupported::SetServiceProperties)
                .and_then(|()| self.set_service_properties(properties))
                .map(|_| Response::status(202)),
            R::GetTableAcl { table } => {
                self.target
                    .supports(Unsupported::GetTableAcl)
                    .and_then(|()| {
                        Ok(Response {
                            status: 200,
                            acl: Some(self.table_acl(table)?.to_vec()),
                            ..Response::default()
                        })
                    })
            }
            R::SetTableAcl { table, identifiers } => self
                .target
                .supports(Unsupported::SetTableAcl)
                .and_then(|()| self.set_table_acl(table, identifiers.clone()))
                .map(|_| Response::status(204)),
        }
    }

    /// A write from its JSON form. Insert answers with the entity (201, and the entity in
    /// `rows`); the others only with an ETag (204).
    fn write_json(
        &mut self,
        table: &str,
        raw: &RawEntity,
        mode: WriteMode,
        if_match: &Option<String>,
        rows: &mut Answer,
    ) -> Result<Response> {
        self.table(table)?;
        let cond = if_match.as_deref().map(IfMatch::parse).transpose()?;
        let entity = json::decode(raw)?;
        let ru = self
            .target
            .is_cosmos()
            .then(|| RuEstimate::write(ru::entity_bytes(&entity)));
        let keys = (mode == WriteMode::Insert)
            .then(|| (entity.partition_key.clone(), entity.row_key.clone()));
        let timestamp = self.write(table, entity, mode, cond.as_ref())?;
        let mut response = Response {
            status: if keys.is_some() { 201 } else { 204 },
            etag: Some(ETag(timestamp)),
            ru,
            ..Response::default()
        };
        // The echo is the entity as stored: the request's properties, in its order, with
        // the new Timestamp.
        if let Some((pk, rk)) = keys {
            rows.one(&mut response, self.found(table, &pk, &rk, None)?);
        }
        Ok(response)
    }

    /// Lists tables in name order (case-insensitive, as they are keyed), optionally filtered
    /// on `TableName`, from `next` (inclusive). A page holds at most `top` tables (at most
    /// the service's 1,000); when more match, `next_table_name` names the first of them.
    fn list_tables(
        &self,
        filter_text: Option<&str>,
        top: Option<u32>,
        next: Option<&str>,
    ) -> Result<Response> {
        let parsed = filter::parse(filter_text.unwrap_or(""))?;
        check_comparison_count(&parsed)?;
        let expr = filter::normalize(parsed);
        if top.is_some_and(|t| t > query::MAX_PAGE) {
            return Err(Error::with_detail(
                ErrorCode::InvalidInput,
                crate::Detail::TopMust {
                    max: u64::from(query::MAX_PAGE),
                },
            ));
        }
        let limit = top.unwrap_or(query::MAX_PAGE) as usize;
        let from = next.map(|n| match self.target {
            Target::TableStorage => n.to_lowercase(),
            // On Cosmos, the listing's own order (names are case-sensitive).
            Target::CosmosTable => crate::account::map_key(self.target, n),
        });
        let mut names = Vec::new();
        let mut next_table_name = None;
        for t in self.tables() {
            let before = |f: &str| match self.target {
                Target::TableStorage => t.name.to_lowercase().as_str() < f,
                Target::CosmosTable => crate::account::map_key(self.target, &t.name).as_str() < f,
            };
            if from.as_deref().is_some_and(before) {
                continue;
            }
            let props = [(
                std::sync::Arc::<str>::from("TableName"),
                super::Value::string(t.name.as_str()),
            )];
            let row = Row {
                partition_key: "",
                row_key: "",
                timestamp: super::DateTime::MIN,
                properties: &props,
            };
            if !filter::eval(&expr, &row) {
                continue;
            }
            if names.len() >= limit {
                next_table_name = Some(t.name.clone());
                break;
            }
            names.push(t.name.clone());
        }
        Ok(Response {
            status: 200,
            tables: Some(names),
            next_table_name,
            ru: self.target.is_cosmos().then(RuEstimate::unpublished),
            ..Response::default()
        })
    }

    /// The stored entity with these keys, as `select` projects it, or `ResourceNotFound`.
    fn found(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[String]>,
    ) -> Result<Found> {
        let (pk, rk) = (Key::new(partition_key), Key::new(row_key));
        let select: Option<Arc<[String]>> = select.map(Arc::from);
        self.table(table)?
            .partitions()
            .get(&pk)
            .and_then(|p| p.rows.get(&rk))
            .map(|stored| Found::new(&pk, &rk, stored, select.as_ref()))
            .ok_or_else(|| Error::new(ErrorCode::ResourceNotFound))
    }

    /// One page of a query, with its figures and explanation.
    pub fn query_response(
        &self,
        table: &str,
        options: &QueryOptions,
        trace: bool,
    ) -> Result<Response> {
        let (mut response, rows) = self.query_rows(table, options, trace)?;
        response.entities = Some(rows.into_returned());
        Ok(response)
    }

    /// [`Self::query_response`] with the page's entities typed instead of as JSON.
    fn query_rows(
        &self,
        table: &str,
        options: &QueryOptions,
        trace: bool,
    ) -> Result<(Response, Rows)> {
        let t = self.table(table)?;
        let expr = filter::parse(options.filter.as_deref().unwrap_or(""))?;
        if !names_a_property(&expr) && !matches!(expr, filter::Expr::Bool(_)) {
            return Err(Error::with_detail(
                ErrorCode::InvalidInput,
                crate::Detail::FilterNoProperty,
            ));
        }
        check_comparison_count(&expr)?;
        let plan = query::plan(expr);
        let advice = query::advise(&plan, t);
        let page = query::execute_page(t, plan, options, trace)?;
        let explain = Explain {
            summary: page.plan.summary(),
            filter: page.plan.filter.to_string(),
            bounded_by: page.plan.bounded_by.clone(),
            checked: page.plan.checked.clone(),
            advice,
            index_use: page.index.as_ref().map(IndexUse::of),
        };
        let rows = Rows {
            entities: page.entities,
            single: false,
        };
        let response = Response {
            status: 200,
            continuation: page.continuation,
            stats: Some(page.stats),
            explain: Some(explain),
            scanned_keys: page.scanned_keys,
            ru: page.ru,
            index: page.index,
            ..Response::default()
        };
        Ok((response, rows))
    }

    /// Create Table's answer: 201, and on Cosmos an ETag ([`crate::Rule::CreateTableETag`]) from a
    /// Timestamp taken only once the table exists (none is spent on a refusal).
    fn create_table_answer(&mut self, table: &str) -> Result<Response> {
        if !self.target.is_cosmos() {
            return self.create_table(table).map(|_| Response::status(201));
        }
        self.timestamp_after(self.last_timestamp())
            .ok_or_else(crate::account::clock_exhausted)?;
        self.create_table(table)?;
        Ok(Response {
            etag: Some(ETag(self.next_timestamp()?)),
            ru: Some(RuEstimate::unpublished()),
            ..Response::status(201)
        })
    }

    /// The write estimate of a stored entity's size (a delete's), on Cosmos.
    fn write_ru_of_stored(&self, table: &str, pk: &str, rk: &str) -> Option<RuEstimate> {
        if !self.target.is_cosmos() {
            return None;
        }
        let stored = self.table(table).ok()?.get(pk, rk)?;
        Some(RuEstimate::write(ru::item_bytes(
            pk,
            rk,
            &stored.properties,
        )))
    }

    pub fn describe_tables(&self) -> Vec<TableInfo> {
        self.tables()
            .map(|t| TableInfo {
                name: t.name.clone(),
                entities: t.entity_count() as u64,
                partitions: t.partition_count() as u64,
                columns: t
                    .columns()
                    .iter()
                    .map(|(n, s)| ColumnInfo {
                        name: n.to_string(),
                        types: s.types(),
                        count: s.total(),
                    })
                    .collect(),
            })
            .collect()
    }
}

/// Where a request's entities go: typed [`Rows`] beside the response (the wire layer writes
/// their bytes itself), or into the response as [`Returned`] entities (`execute`).
enum Answer {
    Rows(Option<Rows>),
    InResponse,
}

impl Answer {
    /// A point read's or an insert's entity.
    fn one(&mut self, response: &mut Response, found: Found) {
        match self {
            Answer::Rows(rows) => {
                *rows = Some(Rows {
                    entities: vec![found],
                    single: true,
                });
            }
            Answer::InResponse => response.entity = Some(Returned::Found(found)),
        }
    }

    /// A query page's entities.
    fn page(&mut self, response: &mut Response, page: Rows) {
        match self {
            Answer::Rows(rows) => *rows = Some(page),
            Answer::InResponse => response.entities = Some(page.into_returned()),
        }
    }
}

/// The service permits at most this many discrete comparisons in one `$filter`
/// (documented in "Querying tables and entities"; docs/service/queries.md#limits).
pub const MAX_COMPARISONS: usize = 15;

fn check_comparison_count(e: &filter::Expr) -> Result<()> {
    fn count(e: &filter::Expr) -> usize {
        use filter::Expr;
        match e {
            Expr::Or(a, b) | Expr::And(a, b) => count(a) + count(b),
            Expr::Not(a) => count(a),
            Expr::Compare { .. } => 1,
            Expr::Bool(_) => 0,
        }
    }
    let n = count(e);
    if n > MAX_COMPARISONS {
        return Err(Error::with_detail(
            ErrorCode::InvalidInput,
            crate::Detail::FilterComparisons {
                n,
                max: MAX_COMPARISONS,
            },
        ));
    }
    Ok(())
}

/// Whether a filter mentions a property anywhere (`1 eq 1` does not).
fn names_a_property(e: &filter::Expr) -> bool {
    use filter::Expr;
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => names_a_property(a) || names_a_property(b),
        Expr::Not(a) => names_a_property(a),
        Expr::Compare { .. } => true,
        Expr::Bool(_) => false,
    }
}

//! Listing tables and querying entities, page by page, on either side ([`Side`]): the same
//! requests, so the two sides can be compared answer for answer.

use super::remote::{encode, send_ok, value_array, Call, Failure, Side};
use crate::engine::Request;
use serde_json::{Map, Value};

/// How many pages a table listing follows before it stops: a million tables at the service's
/// 1,000 a page (a guard against a service that never stops sending continuations).
pub const MAX_TABLE_PAGES: usize = 1000;

/// An entity as the service's JSON has it (with its `@odata.type` annotations).
pub type Entity = Map<String, Value>;

/// How many pages a listing follows before it stops (a guard against a service that never
/// stops sending continuations).
pub const MAX_PAGES: usize = 200;

/// A query's options, as typed (blank: not sent).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    pub filter: String,
    pub select: String,
    pub top: String,
}

impl Options {
    /// The first page's request for `table`, as "Show as code" writes it (the options
    /// parsed as the Query section parses its own), or what is wrong with them.
    pub fn request(&self, table: &str) -> Result<Request, String> {
        use crate::ui::panels::query_panel::{parse_opt, select_list};
        if table.trim().is_empty() {
            return Err(crate::i18n::msg::query_select_table_first());
        }
        let mut problems = Vec::new();
        let top = parse_opt::<u32>(&self.top, "$top", &mut problems);
        if !problems.is_empty() {
            return Err(problems.join(" "));
        }
        Ok(Request::Query {
            table: table.to_string(),
            filter: (!self.filter.trim().is_empty()).then(|| self.filter.clone()),
            select: select_list(&self.select),
            top,
            continuation: None,
            page_budget: None,
            trace: false,
        })
    }
}

/// A continuation: `x-ms-continuation-NextPartitionKey` and `-NextRowKey`, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub partition: String,
    pub row: Option<String>,
}

impl Token {
    /// The two header values as one line (`NextPartitionKey=…; NextRowKey=…`).
    pub fn text(&self) -> String {
        match &self.row {
            Some(r) => format!("NextPartitionKey={}; NextRowKey={r}", self.partition),
            None => format!("NextPartitionKey={}", self.partition),
        }
    }
}

/// One page of a query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    pub entities: Vec<Entity>,
    pub next: Option<Token>,
}

/// A filter that selects one partition.
pub fn partition_filter(partition_key: &str) -> String {
    format!("PartitionKey eq '{}'", partition_key.replace('\'', "''"))
}

/// Every table's name, following `NextTableName`.
pub async fn list_tables(side: &Side) -> Result<Vec<String>, Failure> {
    let mut names = Vec::new();
    let mut next: Option<String> = None;
    for _ in 0..MAX_TABLE_PAGES {
        let path = match &next {
            Some(n) => format!("/Tables?NextTableName={}", encode(n)),
            None => "/Tables".to_string(),
        };
        let reply = send_ok(side, &get(path)).await?;
        for t in value_array(&reply)? {
            if let Some(name) = t["TableName"].as_str() {
                names.push(name.to_string());
            }
        }
        next = reply
            .header("x-ms-continuation-NextTableName")
            .map(String::from);
        if next.is_none() {
            break;
        }
    }
    Ok(names)
}

fn get(path: String) -> Call {
    Call {
        method: "GET",
        path,
        ..Call::default()
    }
}

/// The query's path and query string (only the options that were typed, then the token).
pub fn query_path(table: &str, options: &Options, token: Option<&Token>) -> String {
    let mut params = Vec::new();
    for (name, value) in [
        ("$filter", &options.filter),
        ("$select", &options.select),
        ("$top", &options.top),
    ] {
        let value = value.trim();
        if !value.is_empty() {
            params.push(format!("{name}={}", encode(value)));
        }
    }
    if let Some(t) = token {
        params.push(format!("NextPartitionKey={}", encode(&t.partition)));
        if let Some(r) = &t.row {
            params.push(format!("NextRowKey={}", encode(r)));
        }
    }
    let mut path = format!("/{}()", encode(table));
    if !params.is_empty() {
        path.push('?');
        path.push_str(&params.join("&"));
    }
    path
}

/// One page of `table`'s entities.
pub async fn page(
    side: &Side,
    table: &str,
    options: &Options,
    token: Option<&Token>,
) -> Result<Page, Failure> {
    let reply = send_ok(side, &get(query_path(table, options, token))).await?;
    let entities = value_array(&reply)?
        .into_iter()
        .filter_map(|e| match e {
            Value::Object(o) => Some(o),
            _ => None,
        })
        .collect();
    let next = reply
        .header("x-ms-continuation-NextPartitionKey")
        .map(|p| Token {
            partition: p.to_string(),
            row: reply
                .header("x-ms-continuation-NextRowKey")
                .map(String::from),
        });
    Ok(Page { entities, next })
}

/// Pages of `table` until the last (or `MAX_PAGES`, or `limit` entities); an error stops it
/// and is returned beside the pages read before it.
pub async fn pages(
    side: &Side,
    table: &str,
    options: &Options,
    limit: Option<usize>,
) -> (Vec<Page>, Option<Failure>) {
    let mut out: Vec<Page> = Vec::new();
    let mut token = None;
    let mut count = 0;
    for _ in 0..MAX_PAGES {
        match page(side, table, options, token.as_ref()).await {
            Ok(p) => {
                count += p.entities.len();
                token = p.next.clone();
                out.push(p);
                if token.is_none() || limit.is_some_and(|l| count >= l) {
                    break;
                }
            }
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

//! Which resource a URL names (docs/service/wire.md#addressing): `/Tables`, `/Tables('name')`,
//! `/name`, `/name()`, `/name(PartitionKey='a',RowKey='b')` and `/$batch`, in production
//! style or with the account as the first path segment (the emulator's path style).

use super::http::{percent_decode, split_target};
use tablescope_engine::{Error, ErrorCode, Result};

/// What a request path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `/Tables` or `/Tables()`.
    Tables,
    /// `/Tables('name')`.
    Table(String),
    /// `/name` or `/name()`: a table's entities.
    Entities(String),
    /// `/name(PartitionKey='a',RowKey='b')`.
    Entity {
        table: String,
        partition_key: String,
        row_key: String,
    },
    /// `/$batch`.
    Batch,
    /// `/?restype=service&comp=properties`: Get and Set Table Service Properties.
    ServiceProperties,
    /// `/?restype=service&comp=stats`: Get Table Service Stats.
    ServiceStats,
    /// `/name?comp=acl`: Get and Set Table ACL.
    TableAcl(String),
}

impl Target {
    /// Whether the target is one of the account-level operations, which speak XML.
    pub fn is_setting(&self) -> bool {
        matches!(
            self,
            Target::ServiceProperties | Target::ServiceStats | Target::TableAcl(_)
        )
    }
}

/// A routed request target: the resource, the origin and path prefix that address the
/// account (for `odata.metadata` and `Location`), and the decoded query parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    pub target: Target,
    /// The URL of the account's service root, without a trailing `/`:
    /// `http://127.0.0.1:10002/devstoreaccount1` or `https://acct.table.core.windows.net`.
    pub base: String,
    /// The path as sent (still encoded), for SharedKey's canonical resource.
    pub raw_path: String,
    pub query: Vec<(String, String)>,
}

impl Resource {
    /// The first query parameter called `name` (OData options match case-sensitively, as the
    /// service does for `$filter`, `$select`, `$top`).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn invalid_uri(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::InvalidUri, detail)
}

/// Routes `url` for `account`. `host` is the request's `Host` header, used when the URL is
/// origin-form.
pub fn route(url: &str, host: Option<&str>, account: &str) -> Result<Resource> {
    let parts = split_target(url);
    let query = super::http::query_pairs(parts.query)
        .ok_or_else(|| invalid_uri("a query parameter is not valid percent-encoded UTF-8"))?;
    let path = parts.path.strip_prefix('/').unwrap_or(parts.path);
    // Path style: the account is the first segment.
    let (path_style, resource) = match path.split_once('/') {
        Some((first, rest)) if first == account => (true, rest),
        _ if path == account => (true, ""),
        _ => (false, path),
    };
    let mut base = String::with_capacity(64);
    match parts.origin {
        Some(o) => base.push_str(o),
        None => {
            base.push_str("http://");
            base.push_str(host.unwrap_or("localhost"));
        }
    }
    if path_style {
        base.push('/');
        base.push_str(account);
    }
    let resource = resource.strip_suffix('/').unwrap_or(resource);
    let decoded = percent_decode(resource, false)
        .ok_or_else(|| invalid_uri("the path is not valid percent-encoded UTF-8"))?;
    let param = |name: &str| {
        query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let target = match (decoded.as_str(), param("restype"), param("comp")) {
        ("", Some("service"), Some("properties")) => Target::ServiceProperties,
        ("", Some("service"), Some("stats")) => Target::ServiceStats,
        (path, None, Some("acl")) => match parse_target(path)? {
            Target::Entities(table) => Target::TableAcl(table),
            _ => return Err(invalid_uri(format!("'/{path}?comp=acl' names no table"))),
        },
        (path, _, _) => parse_target(path)?,
    };
    Ok(Resource {
        target,
        base,
        raw_path: parts.path.to_string(),
        query,
    })
}

/// Parses a decoded resource path (no leading `/`).
fn parse_target(path: &str) -> Result<Target> {
    if path == "$batch" {
        return Ok(Target::Batch);
    }
    if path.is_empty() || path.contains('/') {
        return Err(invalid_uri(format!(
            "'/{path}' names no Table service resource"
        )));
    }
    let (name, args) = match path.find('(') {
        Some(open) => {
            let args = path
                .get(open..)
                .and_then(|a| a.strip_prefix('('))
                .and_then(|a| a.strip_suffix(')'))
                .ok_or_else(|| invalid_uri(format!("unbalanced parentheses in '/{path}'")))?;
            (path.get(..open).unwrap_or(""), Some(args))
        }
        None => (path, None),
    };
    if name.eq_ignore_ascii_case("Tables") {
        return match args {
            None | Some("") => Ok(Target::Tables),
            Some(a) => Ok(Target::Table(quoted(a).ok_or_else(|| {
                invalid_uri(format!("Tables({a}) needs a quoted table name"))
            })?)),
        };
    }
    let table = name.to_string();
    match args {
        None | Some("") => Ok(Target::Entities(table)),
        Some(a) => {
            let (partition_key, row_key) = keys(a).ok_or_else(|| {
                invalid_uri(format!(
                    "'{a}' must be PartitionKey='…',RowKey='…' with ' written as ''"
                ))
            })?;
            Ok(Target::Entity {
                table,
                partition_key,
                row_key,
            })
        }
    }
}

/// A whole `'…'` literal with `''` for `'`; `None` if the text is anything else.
fn quoted(text: &str) -> Option<String> {
    let (value, rest) = quoted_prefix(text)?;
    rest.is_empty().then_some(value)
}

/// The `'…'` literal at the start of `text`, and what follows it.
fn quoted_prefix(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('\'')?;
    let mut value = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\'' {
            value.push(c);
            continue;
        }
        if body.get(i + 1..i + 2) == Some("'") {
            value.push('\'');
            chars.next();
            continue;
        }
        return Some((value, body.get(i + 1..).unwrap_or("")));
    }
    None
}

/// `PartitionKey='a',RowKey='b'` (either order, as the service accepts).
fn keys(args: &str) -> Option<(String, String)> {
    let (first_name, rest) = args.split_once('=')?;
    let (first, rest) = quoted_prefix(rest)?;
    let rest = rest.strip_prefix(',')?;
    let (second_name, rest) = rest.split_once('=')?;
    let (second, rest) = quoted_prefix(rest)?;
    if !rest.is_empty() {
        return None;
    }
    match (first_name.trim(), second_name.trim()) {
        ("PartitionKey", "RowKey") => Some((first, second)),
        ("RowKey", "PartitionKey") => Some((second, first)),
        _ => None,
    }
}

/// The entity's address as the service writes it in `Location`, `DataServiceId` and
/// `odata.id`: `'` doubled, then percent-encoded as the service does (`"` as `%22`, and
/// characters that are not allowed in a URL path).
pub fn entity_path(table: &str, partition_key: &str, row_key: &str) -> String {
    format!(
        "{table}(PartitionKey='{}',RowKey='{}')",
        escape_key(partition_key),
        escape_key(row_key)
    )
}

fn escape_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for c in key.chars() {
        match c {
            '\'' => out.push_str("''"),
            '"' => out.push_str("%22"),
            '%' => out.push_str("%25"),
            ' ' => out.push_str("%20"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(url: &str) -> Target {
        route(url, Some("127.0.0.1:10002"), "devstoreaccount1")
            .unwrap()
            .target
    }

    #[test]
    fn resources_in_both_styles() {
        assert_eq!(target("/devstoreaccount1/Tables"), Target::Tables);
        assert_eq!(target("/Tables()"), Target::Tables);
        assert_eq!(
            target("/devstoreaccount1/Tables('Employees')"),
            Target::Table("Employees".into())
        );
        assert_eq!(target("/Employees()"), Target::Entities("Employees".into()));
        assert_eq!(target("/devstoreaccount1/$batch"), Target::Batch);
        assert_eq!(
            target("/devstoreaccount1/?restype=service&comp=properties"),
            Target::ServiceProperties
        );
        assert_eq!(
            target("/?comp=properties&restype=service"),
            Target::ServiceProperties
        );
        assert_eq!(target("/?restype=service&comp=stats"), Target::ServiceStats);
        assert_eq!(
            target("/devstoreaccount1/Employees?comp=acl"),
            Target::TableAcl("Employees".into())
        );
        let r = route(
            "http://127.0.0.1:10002/devstoreaccount1/t?$top=2",
            None,
            "devstoreaccount1",
        )
        .unwrap();
        assert_eq!(r.base, "http://127.0.0.1:10002/devstoreaccount1");
        assert_eq!(r.param("$top"), Some("2"));
        let r = route("/t", Some("acct.table.core.windows.net"), "acct2").unwrap();
        assert_eq!(r.base, "http://acct.table.core.windows.net");
    }

    #[test]
    fn keys_are_undoubled_after_decoding() {
        assert_eq!(
            target("/t(PartitionKey='it''s',RowKey='100%2525%20%E2%82%AC')"),
            Target::Entity {
                table: "t".into(),
                partition_key: "it's".into(),
                row_key: "100%25 €".into()
            }
        );
        assert_eq!(
            target("/t(PartitionKey='',RowKey='')"),
            Target::Entity {
                table: "t".into(),
                partition_key: "".into(),
                row_key: "".into()
            }
        );
        assert_eq!(
            target("/t(RowKey='r',PartitionKey='p')"),
            Target::Entity {
                table: "t".into(),
                partition_key: "p".into(),
                row_key: "r".into()
            }
        );
    }

    #[test]
    fn malformed_paths_are_invalid_uri() {
        for url in [
            "/t(PartitionKey='a')",
            "/t(PartitionKey='a,RowKey='b')",
            "/t(PartitionKey='a',RowKey='b'",
            "/a/b/c",
            "/t(%FF)",
            "/",
        ] {
            let e = route(url, None, "devstoreaccount1").unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidUri, "{url}");
        }
    }

    #[test]
    fn entity_paths_double_quotes_and_encode() {
        assert_eq!(
            entity_path("t", "it's", "a\"b c€"),
            "t(PartitionKey='it''s',RowKey='a%22b%20c%E2%82%AC')"
        );
    }
}

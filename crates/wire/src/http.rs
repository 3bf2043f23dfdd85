//! HTTP messages as plain values, and the small parsing the protocol needs (headers by
//! case-insensitive name, percent-decoding, query strings).

/// An HTTP request as it arrived: `url` is the request target, either origin-form
/// (`/devstoreaccount1/Tables?$top=1`) or absolute (`http://127.0.0.1:10002/...`), still
/// percent-encoded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpRequest {
    pub fn new(method: &str, url: &str) -> HttpRequest {
        HttpRequest {
            method: method.to_string(),
            url: url.to_string(),
            ..HttpRequest::default()
        }
    }

    /// Adds a header (builder style).
    pub fn header(mut self, name: &str, value: &str) -> HttpRequest {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Sets the body (builder style).
    pub fn body(mut self, body: Vec<u8>) -> HttpRequest {
        self.body = body;
        self
    }

    /// The first header called `name`, compared case-insensitively.
    pub fn header_value(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

/// An HTTP response: headers in the order the service writes them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first header called `name`, compared case-insensitively.
    pub fn header_value(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    /// The reason phrase the service writes after the status code.
    pub fn reason(&self) -> &'static str {
        reason_phrase(self.status)
    }
}

pub(crate) fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The reason phrase for a status, as the service writes it in status lines (also inside
/// `$batch` responses).
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Request Entity Too Large",
        415 => "Unsupported Media Type",
        500 => "Internal Server Error",
        _ => "",
    }
}

/// Decodes `%XX` escapes; `plus_as_space` also turns `+` into a space (query strings).
/// `None` for a malformed escape or bytes that are not UTF-8.
pub fn percent_decode(text: &str, plus_as_space: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                out.push(hex_digit(*hex.first()?)? * 16 + hex_digit(*hex.get(1)?)?);
                i += 3;
            }
            b'+' if plus_as_space => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// A request target split into scheme and authority (for absolute URLs), path and query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// `http://host:port` when the target was absolute.
    pub origin: Option<&'a str>,
    /// The path, still percent-encoded.
    pub path: &'a str,
    /// The query string without `?`, still encoded.
    pub query: &'a str,
}

pub fn split_target(url: &str) -> UrlParts<'_> {
    // A request target is origin-form (`/…`) or absolute (`scheme://authority/…`).
    let scheme_end = if url.starts_with('/') {
        None
    } else {
        url.find("://")
    };
    let (origin, rest) = match scheme_end {
        Some(scheme_end) => {
            let after = scheme_end + 3;
            let path_start = url
                .get(after..)
                .and_then(|r| r.find('/'))
                .map_or(url.len(), |p| after + p);
            (url.get(..path_start), url.get(path_start..).unwrap_or(""))
        }
        None => (None, url),
    };
    let rest = rest.find('#').and_then(|i| rest.get(..i)).unwrap_or(rest);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    UrlParts {
        origin,
        path,
        query,
    }
}

/// The query string's parameters, decoded, in order. `None` when one is malformed.
pub fn query_pairs(query: &str) -> Option<Vec<(String, String)>> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Some((percent_decode(name, true)?, percent_decode(value, true)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(
            percent_decode("a%27b%2525", false).as_deref(),
            Some("a'b%25")
        );
        assert_eq!(percent_decode("a+b", true).as_deref(), Some("a b"));
        assert_eq!(percent_decode("a+b", false).as_deref(), Some("a+b"));
        assert_eq!(percent_decode("%E2%82%AC", false).as_deref(), Some("€"));
        assert_eq!(percent_decode("%4", false), None);
        assert_eq!(percent_decode("%zz", false), None);
        assert_eq!(percent_decode("%FF", false), None);
    }

    #[test]
    fn targets_split() {
        let t = split_target("http://127.0.0.1:10002/devstoreaccount1/t()?$top=1");
        assert_eq!(t.origin, Some("http://127.0.0.1:10002"));
        assert_eq!(t.path, "/devstoreaccount1/t()");
        assert_eq!(t.query, "$top=1");
        let t = split_target("/Tables");
        assert_eq!((t.origin, t.path, t.query), (None, "/Tables", ""));
        assert_eq!(
            query_pairs("%24filter=PartitionKey%20eq%20%27a%27&$top=5").unwrap(),
            vec![
                ("$filter".to_string(), "PartitionKey eq 'a'".to_string()),
                ("$top".to_string(), "5".to_string())
            ]
        );
    }
}

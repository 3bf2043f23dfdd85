//! `$batch` bodies: `multipart/mixed` with one changeset, in and out (docs/service/wire.md#batch).
//!
//! [`parse`] reads a request body into its operations; [`write`] writes the response body.
//! Neither knows what the operations mean: `handle` routes each part like a single request.
//!
//! The request grammar (RFC 2046 multipart, OData v3 batch), as real clients send it:
//!
//! ```text
//! body      = preamble ("--" batch CRLF part CRLF)* "--" batch "--" epilogue
//! part      = mime-headers CRLF (changeset | request)      ; one part: a changeset or one read
//! changeset = preamble ("--" cs CRLF op CRLF)+ "--" cs "--" epilogue
//! op        = mime-headers CRLF request                    ; Content-Type: application/http
//! request   = METHOD SP absolute-url SP HTTP/1.1 CRLF headers CRLF body
//! ```
//!
//! Tolerated, because clients send it: `\n` for CRLF (old JS), lower-case header names and
//! blank lines between a request's headers and its body (JS), `Content-Length` and
//! `X-Ms-Version` inside parts (Go, Python; passed through, the delimiter decides where a body
//! ends), a quoted boundary, preamble and epilogue, and a batch that ends with an opening
//! delimiter instead of the closing one (the JS SDK in 2020; production answered 202).
//!
//! Work is linear in the body: one forward pass over its lines per nesting level (two
//! levels, no recursion), at most [`MAX_PARTS`] parts and [`MAX_HEADERS`] headers each, and
//! everything allocated is a copy of a piece of the body.

use super::http::reason_phrase;
use tablescope_engine::{Error, ErrorCode, Result};

/// One operation of a batch: an HTTP request inside a MIME part.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BatchPart {
    pub method: String,
    /// The request line's URL (absolute in what real clients send).
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The part's `Content-ID`, when the client sent one.
    pub content_id: Option<String>,
}

/// A parsed `$batch` body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedBatch {
    /// The parts, in order. For a changeset, every operation; for a lone point read (a GET
    /// in the batch part itself, without a changeset), that one read.
    pub parts: Vec<BatchPart>,
    /// Whether the operations came in a changeset (false for the lone point read).
    pub changeset: bool,
}

/// One operation's answer inside the response body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PartResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Echoed from the request part.
    pub content_id: Option<String>,
}

/// At most this many parts in one multipart level: ten times the service's 100 operations,
/// so the engine still answers an oversized changeset with its own error, while a body of
/// tiny parts cannot make the parser allocate without bound.
pub const MAX_PARTS: usize = 1_000;

/// At most this many header lines in one part's MIME headers or in one request's headers.
pub const MAX_HEADERS: usize = 100;

/// RFC 2046 §5.1.1: a boundary is 1 to 70 characters.
const MAX_BOUNDARY: usize = 70;

/// Longest excerpt of client input quoted in an error's detail.
const QUOTE_MAX: usize = 80;

/// Parses a `$batch` request body, given its `Content-Type` header. Malformed envelopes are
/// 400 `InvalidInput` (415 `MediaTypeNotSupported` when the body is not `multipart/mixed`),
/// with a `detail` that names the defect.
///
/// An empty changeset is refused with 400 `InvalidInput`: the service answers an empty
/// batch with 400 (azure-sdk-for-net#19671, azure-sdk-for-python#31482 handle exactly that).
/// A second changeset is refused too (the REST reference: the service runs only one).
pub fn parse(content_type: &str, body: &[u8]) -> Result<ParsedBatch> {
    let boundary = boundary(content_type, "the $batch request")?;
    let mut parsed: Option<ParsedBatch> = None;
    for raw in split(body, &boundary, Ending::MayStayOpen)? {
        let part = MimePart::read(raw)?;
        let kind = part.kind()?;
        if let Some(first) = &parsed {
            return Err(invalid(if first.changeset && kind == Kind::Changeset {
                "the batch holds more than one changeset; the service runs only one"
            } else {
                "a read in a batch must be its only operation, outside any changeset"
            }));
        }
        parsed = Some(match kind {
            Kind::Changeset => changeset(&part)?,
            Kind::Request => lone_read(&part)?,
        });
    }
    parsed.ok_or_else(|| invalid("the batch holds no part"))
}

/// Writes the response body for `parts` (in a changeset when `changeset`). `batch_id` and
/// `changeset_id` name the boundaries `batchresponse_<batch_id>` and
/// `changesetresponse_<changeset_id>`. Returns the response's `Content-Type` and body.
///
/// The bytes follow production's recordings (cited in the tests): every line ends in CRLF,
/// a part's headers end with a blank line, its body (empty for most successes) is followed
/// by CRLF, and both closing delimiters end with CRLF. A `Content-ID` goes first among the
/// part's HTTP headers, where production echoes it.
#[cfg(test)]
pub fn write(
    batch_id: &str,
    changeset_id: &str,
    changeset: bool,
    parts: &[PartResponse],
) -> (String, Vec<u8>) {
    write_as(
        super::Dialect::Storage,
        batch_id,
        changeset_id,
        changeset,
        parts,
    )
}

/// [`write`] as `dialect` frames it: Cosmos ends the boundary lines and the parts' own
/// headers with a bare LF and the embedded HTTP responses with CRLF; storage uses CRLF
/// throughout.
pub fn write_as(
    dialect: super::Dialect,
    batch_id: &str,
    changeset_id: &str,
    changeset: bool,
    parts: &[PartResponse],
) -> (String, Vec<u8>) {
    let eol: &[u8] = if dialect.bare_lf_frames() {
        b"\n"
    } else {
        b"\r\n"
    };
    let frame = |out: &mut Vec<u8>, text: &str| {
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(eol);
    };
    let batch = format!("batchresponse_{batch_id}");
    let content_type = format!("multipart/mixed; boundary={batch}");
    let size: usize = parts.iter().map(|p| 256 + p.body.len()).sum();
    let mut out = Vec::with_capacity(size + 256);
    frame(&mut out, &format!("--{batch}"));
    if changeset {
        let set = format!("changesetresponse_{changeset_id}");
        frame(
            &mut out,
            &format!("Content-Type: multipart/mixed; boundary={set}"),
        );
        frame(&mut out, "");
        for part in parts {
            frame(&mut out, &format!("--{set}"));
            write_part(&mut out, part, &frame);
        }
        frame(&mut out, &format!("--{set}--"));
    } else {
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                frame(&mut out, &format!("--{batch}"));
            }
            write_part(&mut out, part, &frame);
        }
    }
    frame(&mut out, &format!("--{batch}--"));
    (content_type, out)
}

fn write_part(out: &mut Vec<u8>, part: &PartResponse, frame: &dyn Fn(&mut Vec<u8>, &str)) {
    frame(out, "Content-Type: application/http");
    frame(out, "Content-Transfer-Encoding: binary");
    frame(out, "");
    let status = part.status;
    line(out, &format!("HTTP/1.1 {status} {}", reason_phrase(status)));
    if let Some(id) = &part.content_id {
        line(out, &format!("Content-ID: {id}"));
    }
    for (name, value) in &part.headers {
        line(out, &format!("{name}: {value}"));
    }
    line(out, "");
    out.extend_from_slice(&part.body);
    out.extend_from_slice(b"\r\n");
}

fn line(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(b"\r\n");
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::InvalidInput, detail)
}

/// At most [`QUOTE_MAX`] characters of client text, for an error's detail.
fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or_default()),
        None => text.to_string(),
    }
}

/// The media type of a `Content-Type` value, lower-cased, without parameters.
fn media_type(content_type: &str) -> String {
    let essence = content_type.split(';').next().unwrap_or_default();
    essence.trim().to_ascii_lowercase()
}

/// The `boundary` parameter of a `multipart/mixed` content type (quoted or not).
fn boundary(content_type: &str, what: &str) -> Result<Vec<u8>> {
    if media_type(content_type) != "multipart/mixed" {
        return Err(Error::with_text(
            ErrorCode::MediaTypeNotSupported,
            format!(
                "{what} has Content-Type `{}`; expected multipart/mixed; boundary=…",
                quote(content_type)
            ),
        ));
    }
    let value = content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| value.trim())
    });
    let value = value.map(|v| {
        v.strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v)
    });
    match value {
        None => Err(invalid(format!(
            "{what} has no boundary in its Content-Type"
        ))),
        Some("") => Err(invalid(format!("{what} has an empty boundary"))),
        Some(v) if v.len() > MAX_BOUNDARY => Err(invalid(format!(
            "{what} has a boundary of {} characters; at most {MAX_BOUNDARY} are allowed",
            v.len()
        ))),
        Some(v) if v.contains(['\r', '\n']) => {
            Err(invalid(format!("{what} has a line break in its boundary")))
        }
        Some(v) => Ok(v.as_bytes().to_vec()),
    }
}

/// How a multipart level may end: the batch may end with an opening delimiter followed by
/// nothing (the JS SDK did in 2020), a changeset must close with `--boundary--`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    MustClose,
    MayStayOpen,
}

/// The two delimiter lines: `--boundary` opens a part, `--boundary--` closes the level.
enum Delimiter {
    Open,
    Close,
}

/// Whether `line` (without its line end) is `--boundary` or `--boundary--`, followed only
/// by transport padding (spaces and tabs).
fn delimiter(line: &[u8], boundary: &[u8]) -> Option<Delimiter> {
    let rest = line.strip_prefix(b"--")?.strip_prefix(boundary)?;
    let (kind, rest) = match rest.strip_prefix(b"--") {
        Some(rest) => (Delimiter::Close, rest),
        None => (Delimiter::Open, rest),
    };
    rest.iter()
        .all(|b| *b == b' ' || *b == b'\t')
        .then_some(kind)
}

/// Splits one multipart level into its parts (MIME headers and content, without the
/// delimiters). A part ends where the next delimiter line begins; the line break before
/// that delimiter belongs to the delimiter. One forward pass over the lines.
fn split<'a>(body: &'a [u8], boundary: &[u8], ending: Ending) -> Result<Vec<&'a [u8]>> {
    let mut parts = Vec::new();
    // Where the current part's content starts, once the first delimiter was seen.
    let mut start: Option<usize> = None;
    let mut pos = 0;
    while pos < body.len() {
        let rest = body.get(pos..).unwrap_or_default();
        let (text, next) = match rest.iter().position(|b| *b == b'\n') {
            Some(i) => (rest.get(..i).unwrap_or_default(), pos + i + 1),
            None => (rest, body.len()),
        };
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if let Some(kind) = delimiter(text, boundary) {
            if let Some(s) = start {
                parts.push(
                    body.get(s..line_break_before(body, s, pos))
                        .unwrap_or_default(),
                );
                if parts.len() > MAX_PARTS {
                    return Err(invalid(format!(
                        "the body holds more than {MAX_PARTS} parts"
                    )));
                }
            }
            // Only whitespace after an opening delimiter: the level ended without its close.
            // Each scan stops at the first other byte, so all of them together stay linear.
            let at_end = || {
                body.get(next..)
                    .unwrap_or_default()
                    .iter()
                    .all(u8::is_ascii_whitespace)
            };
            match kind {
                Delimiter::Close => return Ok(parts),
                Delimiter::Open if ending == Ending::MayStayOpen && start.is_some() && at_end() => {
                    return Ok(parts)
                }
                Delimiter::Open => start = Some(next),
            }
        }
        pos = next;
    }
    let boundary = String::from_utf8_lossy(boundary);
    Err(invalid(if start.is_none() {
        format!("the body holds no delimiter line --{}", quote(&boundary))
    } else {
        format!(
            "the body ends before the closing delimiter --{}-- (truncated?)",
            quote(&boundary)
        )
    }))
}

/// `end`, moved back over the line break (LF or CRLF) that ends the line before it, but
/// not before `start`.
fn line_break_before(body: &[u8], start: usize, end: usize) -> usize {
    let mut end = end;
    if end > start && body.get(end - 1) == Some(&b'\n') {
        end -= 1;
        if end > start && body.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
    }
    end
}

/// A cursor over lines (ending in LF or CRLF; the last may have no line end).
struct Lines<'a> {
    rest: &'a [u8],
}

impl<'a> Lines<'a> {
    /// The next line without its line end; `None` at the end of the input.
    fn next_line(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = match self.rest.iter().position(|b| *b == b'\n') {
            Some(i) => (
                self.rest.get(..i).unwrap_or_default(),
                self.rest.get(i + 1..).unwrap_or_default(),
            ),
            None => (self.rest, &[][..]),
        };
        self.rest = rest;
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    }

    /// Skips blank lines; what follows is the next non-blank line.
    fn skip_blank(&mut self) {
        loop {
            let rest = self.rest;
            match self.next_line() {
                Some([]) => continue,
                _ => {
                    self.rest = rest;
                    return;
                }
            }
        }
    }
}

/// Reads `Name: value` lines up to a blank line. `Ok(true)` when the blank line was seen,
/// `Ok(false)` when the input ended first.
fn read_headers(lines: &mut Lines, headers: &mut Vec<(String, String)>) -> Result<bool> {
    while let Some(raw) = lines.next_line() {
        if raw.is_empty() {
            return Ok(true);
        }
        let text =
            std::str::from_utf8(raw).map_err(|_| invalid("a part's headers are not UTF-8"))?;
        if text.starts_with([' ', '\t']) {
            // An obsolete folded line continues the previous header's value (RFC 5322 §2.2.3).
            let last = headers
                .last_mut()
                .ok_or_else(|| invalid(format!("the header line `{}` has no name", quote(text))))?;
            last.1.push(' ');
            last.1.push_str(text.trim());
            continue;
        }
        let (name, value) = text
            .split_once(':')
            .filter(|(name, _)| !name.is_empty() && !name.contains([' ', '\t']))
            .ok_or_else(|| {
                invalid(format!(
                    "the header line `{}` is not `Name: value`",
                    quote(text)
                ))
            })?;
        if headers.len() == MAX_HEADERS {
            return Err(invalid(format!(
                "a part holds more than {MAX_HEADERS} headers"
            )));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    Ok(false)
}

fn find<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    super::http::find_header(headers, name)
}

/// A MIME part: its headers and its content.
struct MimePart<'a> {
    headers: Vec<(String, String)>,
    content: &'a [u8],
}

/// What a batch-level part holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Changeset,
    Request,
}

impl<'a> MimePart<'a> {
    /// RFC 2046 §5.1.1: the blank line and the content after the headers are optional.
    fn read(raw: &'a [u8]) -> Result<MimePart<'a>> {
        let mut lines = Lines { rest: raw };
        let mut headers = Vec::new();
        read_headers(&mut lines, &mut headers)?;
        Ok(MimePart {
            headers,
            content: lines.rest,
        })
    }

    fn content_type(&self) -> Result<&str> {
        find(&self.headers, "Content-Type").ok_or_else(|| invalid("a part has no Content-Type"))
    }

    fn kind(&self) -> Result<Kind> {
        let content_type = self.content_type()?;
        match media_type(content_type).as_str() {
            "multipart/mixed" => Ok(Kind::Changeset),
            "application/http" => Ok(Kind::Request),
            _ => Err(invalid(format!(
                "a batch part has Content-Type `{}`; expected multipart/mixed (a changeset) \
                 or application/http (one read)",
                quote(content_type)
            ))),
        }
    }
}

fn changeset(part: &MimePart) -> Result<ParsedBatch> {
    let boundary = boundary(part.content_type()?, "the changeset")?;
    let raw_parts = split(part.content, &boundary, Ending::MustClose)?;
    if raw_parts.is_empty() {
        return Err(invalid("the changeset holds no operation"));
    }
    let mut parts = Vec::with_capacity(raw_parts.len());
    for raw in raw_parts {
        let op = MimePart::read(raw)?;
        let content_type = op.content_type()?;
        if media_type(content_type) != "application/http" {
            return Err(invalid(format!(
                "a changeset part has Content-Type `{}`; expected application/http",
                quote(content_type)
            )));
        }
        parts.push(request(&op)?);
    }
    Ok(ParsedBatch {
        parts,
        changeset: true,
    })
}

fn lone_read(part: &MimePart) -> Result<ParsedBatch> {
    let read = request(part)?;
    if !read.method.eq_ignore_ascii_case("GET") {
        return Err(invalid(format!(
            "a {} outside a changeset; only a read may stand alone in a batch",
            read.method
        )));
    }
    Ok(ParsedBatch {
        parts: vec![read],
        changeset: false,
    })
}

/// The HTTP request inside an `application/http` part.
fn request(part: &MimePart) -> Result<BatchPart> {
    match find(&part.headers, "Content-Transfer-Encoding") {
        None => {}
        Some(cte)
            if ["binary", "8bit", "7bit"]
                .iter()
                .any(|e| cte.eq_ignore_ascii_case(e)) => {}
        Some(cte) => {
            return Err(invalid(format!(
                "a part has Content-Transfer-Encoding `{}`; expected binary",
                quote(cte)
            )))
        }
    }
    let mut lines = Lines { rest: part.content };
    lines.skip_blank();
    let raw = lines
        .next_line()
        .ok_or_else(|| invalid("a part holds no request line"))?;
    let text = std::str::from_utf8(raw).map_err(|_| invalid("a request line is not UTF-8"))?;
    let (method, url) = request_line(text)?;
    let mut headers = Vec::new();
    // A request that ends after its headers (a DELETE without the blank line) has no body.
    read_headers(&mut lines, &mut headers)?;
    lines.skip_blank();
    let content_id = find(&part.headers, "Content-ID")
        .or_else(|| find(&headers, "Content-ID"))
        .map(str::to_string);
    Ok(BatchPart {
        method: method.to_string(),
        url: url.to_string(),
        headers,
        body: lines.rest.to_vec(),
        content_id,
    })
}

/// `METHOD SP URL SP HTTP/1.x` into the method and the URL.
fn request_line(text: &str) -> Result<(&str, &str)> {
    let malformed = || {
        invalid(format!(
            "the request line `{}` is not `METHOD URL HTTP/1.1`",
            quote(text)
        ))
    };
    let mut words = text.split([' ', '\t']).filter(|w| !w.is_empty());
    let (Some(method), Some(url), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(malformed());
    };
    if !method.bytes().all(|b| b.is_ascii_alphabetic()) || !version.starts_with("HTTP/1.") {
        return Err(malformed());
    }
    Ok((method, url))
}

#[cfg(test)]
mod tests;

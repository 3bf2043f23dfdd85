//! `$batch` bodies: `multipart/mixed` with one changeset, in and out (WIRE.md "`$batch`").
//!
//! [`parse`] reads a request body into its operations; [`write`] writes the response body.
//! Neither knows what the operations mean: `handle` routes each part like a single request.

use crate::error::Result;

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

/// Parses a `$batch` request body, given its `Content-Type` header. Malformed envelopes are
/// 400 `InvalidInput`.
pub fn parse(content_type: &str, body: &[u8]) -> Result<ParsedBatch> {
    let _ = (content_type, body);
    Ok(ParsedBatch::default())
}

/// Writes the response body for `parts` (in a changeset when `changeset`). `batch_id` and
/// `changeset_id` name the boundaries `batchresponse_<batch_id>` and
/// `changesetresponse_<changeset_id>`. Returns the response's `Content-Type` and body.
pub fn write(
    batch_id: &str,
    changeset_id: &str,
    changeset: bool,
    parts: &[PartResponse],
) -> (String, Vec<u8>) {
    let _ = (batch_id, changeset_id, changeset, parts);
    (String::new(), Vec::new())
}

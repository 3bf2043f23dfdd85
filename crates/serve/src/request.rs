//! What the server reads, checks and hides of a request itself, before and after the wire
//! layer: its target, transfer codings it cannot undo, and the SAS signature in its request log.

use hyper::Uri;

/// The request target as the client sent it, for the wire layer. A target in origin form
/// (`/account/Table()?…`, every client's) is the URI's own text, copied once rather than
/// rendered piece by piece; any other form is rendered as `Uri` displays it.
pub fn target(uri: &Uri) -> String {
    match uri.path_and_query() {
        Some(pq) if uri.scheme().is_none() && pq.as_str().starts_with('/') => {
            pq.as_str().to_owned()
        }
        _ => uri.to_string(),
    }
}

/// The first transfer coding of `values` (the request's `Transfer-Encoding` headers) other
/// than `chunked`, which hyper undoes. RFC 9112 §6.1: a server that receives a transfer
/// coding it does not understand answers 501 (Not Implemented); reading the body as if it
/// were only chunked would hand the engine compressed bytes as JSON.
pub fn unsupported_coding<'a>(values: impl IntoIterator<Item = &'a [u8]>) -> Option<String> {
    values
        .into_iter()
        .flat_map(|v| v.split(|b| *b == b','))
        .map(|c| String::from_utf8_lossy(c).trim().to_ascii_lowercase())
        .find(|c| !c.is_empty() && c != "chunked")
}

/// Appends `url` to `out` with the value of its `sig` query parameter (a SAS's signature,
/// which grants what the SAS grants to whoever holds it) replaced by `REDACTED`, for the
/// request log.
pub fn push_redacted(url: &str, out: &mut String) {
    let Some((path, query)) = url.split_once('?') else {
        out.push_str(url);
        return;
    };
    out.push_str(path);
    for (i, p) in query.split('&').enumerate() {
        out.push(if i == 0 { '?' } else { '&' });
        match p.split_once('=') {
            Some((n, _)) if n.eq_ignore_ascii_case("sig") => {
                out.push_str(n);
                out.push_str("=REDACTED");
            }
            _ => out.push_str(p),
        }
    }
}

/// Appends the request log's line for a request and its answer to `out`: `METHOD target
/// status`, the target's signature redacted, then `scanned=N returned=N` for a query (what
/// the engine scanned and returned), and a line feed.
pub fn push_log_line(
    method: &str,
    url: &str,
    status: u16,
    counts: Option<(u64, u64)>,
    out: &mut String,
) {
    use std::fmt::Write as _;
    out.push_str(method);
    out.push(' ');
    push_redacted(url, out);
    let _ = write!(out, " {status}");
    if let Some((scanned, returned)) = counts {
        let _ = write!(out, " scanned={scanned} returned={returned}");
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_chunked_is_understood() {
        let v = |s: &'static str| vec![s.as_bytes()];
        assert_eq!(unsupported_coding(v("chunked")), None);
        assert_eq!(unsupported_coding(v(" Chunked ")), None);
        assert_eq!(unsupported_coding(Vec::<&[u8]>::new()), None);
        assert_eq!(unsupported_coding(v("gzip, chunked")), Some("gzip".into()));
        assert_eq!(
            unsupported_coding(vec![b"chunked".as_slice(), b"deflate".as_slice()]),
            Some("deflate".into())
        );
    }

    fn redacted(url: &str) -> String {
        let mut out = String::new();
        push_redacted(url, &mut out);
        out
    }

    #[test]
    fn log_lines() {
        let mut out = String::new();
        push_log_line("GET", "/acct/T()?sig=s&$top=2", 200, Some((3, 2)), &mut out);
        push_log_line("POST", "/acct/T", 201, None, &mut out);
        assert_eq!(
            out,
            "GET /acct/T()?sig=REDACTED&$top=2 200 scanned=3 returned=2\nPOST /acct/T 201\n"
        );
    }

    #[test]
    fn origin_form_targets_are_kept_as_sent() {
        for text in [
            "/acct/T()?$filter=A%20eq%201&sig=x",
            "/",
            "/acct/Tables",
            "*",
        ] {
            let uri: Uri = text.parse().unwrap();
            assert_eq!(target(&uri), uri.to_string());
            assert_eq!(target(&uri), text);
        }
        let uri: Uri = "http://host:1/acct/T()?a=b".parse().unwrap();
        assert_eq!(target(&uri), "http://host:1/acct/T()?a=b");
    }

    #[test]
    fn the_signature_is_redacted_and_nothing_else() {
        assert_eq!(
            redacted("/acct/T()?sv=2019-02-02&sig=abc%2Bdef%3D&se=2030-01-01&sp=r"),
            "/acct/T()?sv=2019-02-02&sig=REDACTED&se=2030-01-01&sp=r"
        );
        assert_eq!(redacted("/acct/T()?SIG=x"), "/acct/T()?SIG=REDACTED");
        assert_eq!(
            redacted("/acct/T()?$filter=sig%20eq%201"),
            "/acct/T()?$filter=sig%20eq%201"
        );
        assert_eq!(redacted("/acct/Tables"), "/acct/Tables");
        assert_eq!(redacted("/acct/T()?"), "/acct/T()?");
        assert_eq!(redacted("/acct/T()?a&&sig"), "/acct/T()?a&&sig");
    }
}

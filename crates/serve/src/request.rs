//! What the server checks and hides of a request itself, before and after the wire layer:
//! transfer codings it cannot undo, and the SAS signature in its request log.

use std::borrow::Cow;

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

/// `url` with the value of its `sig` query parameter (a SAS's signature, which grants what
/// the SAS grants to whoever holds it) replaced by `REDACTED`, for the request log.
pub fn redacted(url: &str) -> Cow<'_, str> {
    let Some((path, query)) = url.split_once('?') else {
        return Cow::Borrowed(url);
    };
    if !query.split('&').any(|p| {
        p.split('=')
            .next()
            .is_some_and(|n| n.eq_ignore_ascii_case("sig"))
    }) {
        return Cow::Borrowed(url);
    }
    let query: Vec<String> = query
        .split('&')
        .map(|p| match p.split_once('=') {
            Some((n, _)) if n.eq_ignore_ascii_case("sig") => format!("{n}=REDACTED"),
            _ => p.to_string(),
        })
        .collect();
    Cow::Owned(format!("{path}?{}", query.join("&")))
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
    }
}

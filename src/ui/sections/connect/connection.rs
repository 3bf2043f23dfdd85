//! A connection to a real Table service endpoint: what the user typed, read into the endpoint
//! and its credential, and what is kept of it in this browser.
//!
//! Two forms are accepted, both as one URL:
//! - a Table service SAS URL (`https://<account>.table.core.windows.net/?sv=…&sig=…`), the
//!   way a browser should reach storage: every request carries the SAS in its query;
//! - a local endpoint without a SAS (`http://127.0.0.1:10002/devstoreaccount1`): requests go
//!   without any credential, which `tablescope serve --allow-anonymous` answers. Azurite (and
//!   `tablescope serve` without that flag) require SharedKey or a SAS; give them a SAS URL. An
//!   account key is never asked for, so the app never signs a request itself.
//!
//! What is kept: the endpoint address in localStorage (`tablescope.connection`); the SAS only
//! when the user asked for it, else in this tab's memory alone.
//!
//! Invariant: `endpoint` has no query, no fragment and no trailing `/`; `sas` has no leading `?`.

use serde_json::{json, Value};

/// Where the connection is kept (the endpoint always; the SAS only when asked).
pub const SAVED_KEY: &str = "tablescope.connection";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    /// `scheme://host[:port][/path]`: the Table service endpoint, to which a request's path is
    /// appended (`/Tables`, `/Employees()`).
    pub endpoint: String,
    /// The SAS token (`sv=…&sig=…`), or empty for a local endpoint called without credentials.
    pub sas: String,
    /// Whether the SAS is kept in localStorage (the user ticked it).
    pub keep_sas: bool,
}

/// Why a typed address is not a connection (the view words it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invalid {
    /// Not an absolute http(s) URL.
    NotUrl,
    /// A query that is not a SAS (no `sig=`).
    NotSas,
}

impl Connection {
    /// Reads a SAS URL or a local endpoint. The user's own text is never shown as HTML.
    pub fn parse(text: &str, keep_sas: bool) -> Result<Connection, Invalid> {
        let text = text.trim();
        let (base, query) = match text.split_once('?') {
            Some((b, q)) => (b, q),
            None => (text, ""),
        };
        let base = base.split('#').next().unwrap_or_default();
        let query = query.split('#').next().unwrap_or_default();
        let lower = base.to_ascii_lowercase();
        let rest = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
            .ok_or(Invalid::NotUrl)?;
        if rest.is_empty() || rest.starts_with('/') || base.contains(char::is_whitespace) {
            return Err(Invalid::NotUrl);
        }
        let has_sig = query
            .split('&')
            .any(|p| p.to_ascii_lowercase().starts_with("sig="));
        if !query.is_empty() && !has_sig {
            return Err(Invalid::NotSas);
        }
        Ok(Connection {
            endpoint: base.trim_end_matches('/').to_string(),
            sas: query.to_string(),
            keep_sas,
        })
    }

    /// The URL of `path_and_query` (`/Tables`, `/T()?$top=5`) at the endpoint, with the SAS.
    pub fn url(&self, path_and_query: &str) -> String {
        let mut url = format!("{}{}", self.endpoint, path_and_query);
        if !self.sas.is_empty() {
            url.push(if path_and_query.contains('?') {
                '&'
            } else {
                '?'
            });
            url.push_str(&self.sas);
        }
        url
    }

    /// `scheme://host[:port]` of the endpoint (what a CORS rule names).
    pub fn origin(&self) -> String {
        let after_scheme = self.endpoint.find("://").map(|i| i + 3).unwrap_or(0);
        match self.endpoint[after_scheme..].find('/') {
            Some(i) => self.endpoint[..after_scheme + i].to_string(),
            None => self.endpoint.clone(),
        }
    }

    /// The storage account's name: the host's first label for `<account>.table.core…`, else
    /// the path's first segment (`/devstoreaccount1` of an emulator), else `<account>`.
    pub fn account(&self) -> String {
        let origin = self.origin();
        let host = origin.split("://").nth(1).unwrap_or_default();
        let host = host.split(':').next().unwrap_or_default();
        let path = &self.endpoint[origin.len()..];
        if let Some(first) = path.trim_start_matches('/').split('/').next() {
            if !first.is_empty() {
                return first.to_string();
            }
        }
        match host.split_once('.') {
            Some((account, _)) if host.parse::<std::net::Ipv4Addr>().is_err() => {
                account.to_string()
            }
            _ => "<account>".to_string(),
        }
    }

    /// What is kept in localStorage: the endpoint, and the SAS only when asked (else only
    /// that there was one, so a reload asks for it rather than calling without it).
    pub fn saved_json(&self) -> String {
        let mut v = json!({ "endpoint": self.endpoint });
        if !self.sas.is_empty() {
            if self.keep_sas {
                v["sas"] = Value::String(self.sas.clone());
            } else {
                v["sasNotKept"] = Value::Bool(true);
            }
        }
        v.to_string()
    }

    /// A connection read back from [`Connection::saved_json`], and whether it is complete:
    /// `false` when it had a SAS that was not kept (its `sas` is then empty, and the view
    /// asks for the SAS URL again).
    pub fn from_saved(text: &str) -> Option<(Connection, bool)> {
        let v: Value = serde_json::from_str(text).ok()?;
        let endpoint = v["endpoint"].as_str()?.to_string();
        let sas = v["sas"].as_str().unwrap_or_default().to_string();
        let complete = !v["sasNotKept"].as_bool().unwrap_or(false);
        Some((
            Connection {
                endpoint,
                keep_sas: !sas.is_empty(),
                sas,
            },
            complete,
        ))
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The kept connection, if any, and whether it is complete (see [`Connection::from_saved`]).
pub fn load() -> Option<(Connection, bool)> {
    Connection::from_saved(&local_storage()?.get_item(SAVED_KEY).ok()??)
}

/// Keeps `c` as [`Connection::saved_json`] says (a refused storage only means it is not kept).
pub fn save(c: &Connection) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(SAVED_KEY, &c.saved_json());
    }
}

/// Forgets the kept connection.
pub fn forget() {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(SAVED_KEY);
    }
}

/// The page's own origin (what a CORS rule must allow).
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_sas_url_splits_into_endpoint_and_sas() {
        let c = Connection::parse(
            " https://acct.table.core.windows.net/?sv=2019-02-02&ss=t&sig=abc%3D ",
            false,
        )
        .unwrap();
        assert_eq!(c.endpoint, "https://acct.table.core.windows.net");
        assert_eq!(c.sas, "sv=2019-02-02&ss=t&sig=abc%3D");
        assert_eq!(
            c.url("/Tables"),
            "https://acct.table.core.windows.net/Tables?sv=2019-02-02&ss=t&sig=abc%3D"
        );
        assert_eq!(
            c.url("/T()?$top=2"),
            "https://acct.table.core.windows.net/T()?$top=2&sv=2019-02-02&ss=t&sig=abc%3D"
        );
        assert_eq!(c.origin(), "https://acct.table.core.windows.net");
        assert_eq!(c.account(), "acct");
    }

    #[wasm_bindgen_test]
    fn a_local_endpoint_needs_no_sas() {
        let c = Connection::parse("http://127.0.0.1:10002/devstoreaccount1/", true).unwrap();
        assert_eq!(c.endpoint, "http://127.0.0.1:10002/devstoreaccount1");
        assert_eq!(c.sas, "");
        assert_eq!(
            c.url("/Tables"),
            "http://127.0.0.1:10002/devstoreaccount1/Tables"
        );
        assert_eq!(c.origin(), "http://127.0.0.1:10002");
        assert_eq!(c.account(), "devstoreaccount1");
    }

    #[wasm_bindgen_test]
    fn what_is_not_a_connection() {
        assert_eq!(
            Connection::parse("acct.table.core.windows.net", false),
            Err(Invalid::NotUrl)
        );
        assert_eq!(Connection::parse("https://", false), Err(Invalid::NotUrl));
        assert_eq!(
            Connection::parse("https://a.table.core.windows.net/?comp=list", false),
            Err(Invalid::NotSas)
        );
    }

    #[wasm_bindgen_test]
    fn the_sas_is_kept_only_when_asked() {
        let mut c = Connection::parse("http://h/acct?sv=1&sig=x", false).unwrap();
        assert_eq!(
            c.saved_json(),
            r#"{"endpoint":"http://h/acct","sasNotKept":true}"#
        );
        let (back, complete) = Connection::from_saved(&c.saved_json()).unwrap();
        assert_eq!((back.sas.as_str(), complete), ("", false));
        c.keep_sas = true;
        assert_eq!(
            c.saved_json(),
            r#"{"endpoint":"http://h/acct","sas":"sv=1&sig=x"}"#
        );
        assert_eq!(Connection::from_saved(&c.saved_json()), Some((c, true)));
    }
}

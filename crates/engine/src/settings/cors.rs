//! CORS rules: what the account lets a page on another origin do, and which rule answers a
//! request (docs/service/settings.md#cors).

use super::{refuse, CorsList, SettingProblem};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// The most CORS rules an account keeps.
pub const MAX_CORS_RULES: usize = 5;
/// The most origins, or defined (not prefixed) headers, one list holds.
const MAX_LIST: usize = 64;
/// The most prefixed headers (`x-ms-meta-*`) one header list holds.
const MAX_PREFIXED: usize = 2;
/// The longest origin or header name.
const MAX_ENTRY: usize = 256;
/// The most characters all rules' entries hold together (the XML's tags left out).
const MAX_TOTAL: usize = 2048;

/// The methods a rule may allow, as the service's CORS reference lists them (PATCH among
/// them: the SDKs merge with it).
pub const CORS_METHODS: [&str; 8] = [
    "DELETE", "GET", "HEAD", "MERGE", "PATCH", "POST", "OPTIONS", "PUT",
];

/// One CORS rule, its lists as the service keeps them (in the order given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CorsRule {
    /// Origins (`https://example.com`), or `*` for every origin.
    pub allowed_origins: Vec<String>,
    /// Methods from [`CORS_METHODS`].
    pub allowed_methods: Vec<String>,
    /// Request headers a preflight may name: a name, a prefix ending in `*`, or `*`.
    pub allowed_headers: Vec<String>,
    /// Response headers a page may read: a name, a prefix ending in `*`, or `*`.
    pub exposed_headers: Vec<String>,
    /// How long a browser may keep a preflight's answer.
    pub max_age_in_seconds: u32,
}

impl CorsRule {
    /// Whether the rule admits a request from `origin` (exactly, or any origin with `*`).
    pub fn allows_origin(&self, origin: &str) -> bool {
        self.allowed_origins
            .iter()
            .any(|o| o == "*" || o.eq_ignore_ascii_case(origin))
    }

    /// Whether the rule allows `method` (the service's verbs, in capitals).
    pub fn allows_method(&self, method: &str) -> bool {
        self.allowed_methods.iter().any(|m| m == method)
    }

    /// Whether every header a preflight names (`Access-Control-Request-Headers`, comma
    /// separated) is allowed by name, by prefix or by `*`; case does not matter.
    pub fn allows_headers(&self, requested: &str) -> bool {
        requested
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .all(|h| matches_any(&self.allowed_headers, h))
    }

    /// Whether the rule admits all of it: the origin, the method, the requested headers.
    pub fn admits(&self, origin: &str, method: &str, requested_headers: Option<&str>) -> bool {
        self.allows_origin(origin)
            && self.allows_method(method)
            && requested_headers.is_none_or(|h| self.allows_headers(h))
    }

    /// Whether the rule admits every origin (`*`).
    pub fn any_origin(&self) -> bool {
        self.allowed_origins.iter().any(|o| o == "*")
    }

    fn check(&self) -> Result<usize> {
        let lists = [
            (CorsList::AllowedOrigins, &self.allowed_origins),
            (CorsList::AllowedMethods, &self.allowed_methods),
            (CorsList::AllowedHeaders, &self.allowed_headers),
            (CorsList::ExposedHeaders, &self.exposed_headers),
        ];
        let mut total = 0;
        for (list, entries) in lists {
            let required = matches!(list, CorsList::AllowedOrigins | CorsList::AllowedMethods);
            if required && entries.is_empty() {
                return Err(refuse(SettingProblem::CorsEmpty { list }));
            }
            let prefixed = entries.iter().filter(|e| is_prefix(e)).count();
            let defined = entries.len() - prefixed;
            if defined > MAX_LIST {
                return Err(refuse(SettingProblem::CorsListTooLong {
                    list,
                    count: defined,
                    limit: MAX_LIST,
                }));
            }
            let headers = matches!(list, CorsList::AllowedHeaders | CorsList::ExposedHeaders);
            if headers && prefixed > MAX_PREFIXED {
                return Err(refuse(SettingProblem::CorsPrefixes {
                    list,
                    count: prefixed,
                }));
            }
            for entry in entries.iter() {
                let len = entry.chars().count();
                if len > MAX_ENTRY {
                    return Err(refuse(SettingProblem::CorsEntryTooLong { list, len }));
                }
                total += len;
            }
        }
        if let Some(method) = self
            .allowed_methods
            .iter()
            .find(|m| !CORS_METHODS.contains(&m.as_str()))
        {
            return Err(refuse(SettingProblem::CorsMethod {
                method: method.clone(),
            }));
        }
        Ok(total)
    }
}

/// A prefixed header: `x-ms-meta-*` (a name ending in `*`, but not `*` alone).
fn is_prefix(entry: &str) -> bool {
    entry.len() > 1 && entry.ends_with('*')
}

/// Whether `header` is in `list`: by name, by a prefix, or by `*`; case does not matter.
pub fn matches_any(list: &[String], header: &str) -> bool {
    list.iter().any(|entry| {
        entry == "*"
            || match entry.strip_suffix('*') {
                Some(prefix) => header
                    .get(..prefix.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(prefix)),
                None => entry.eq_ignore_ascii_case(header),
            }
    })
}

/// Checks a list of rules as Set Table Service Properties would.
pub(crate) fn check_rules(rules: &[CorsRule]) -> Result<()> {
    if rules.len() > MAX_CORS_RULES {
        return Err(refuse(SettingProblem::TooManyCorsRules {
            count: rules.len(),
            limit: MAX_CORS_RULES,
        }));
    }
    let mut total = 0;
    for rule in rules {
        total += rule.check()?;
    }
    if total > MAX_TOTAL {
        return Err(refuse(SettingProblem::CorsTooLong {
            len: total,
            limit: MAX_TOTAL,
        }));
    }
    Ok(())
}

//! Shared access signatures in the query string ("Create an account SAS", "Create a service
//! SAS"). A table SAS carries `tn`; an account SAS carries `ss` and `srt`. Every field is
//! signed as the token carries it (decoded once from the query), absent fields as empty
//! lines, in the order of the SAS version:
//! - account SAS: `account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n`, and from
//!   version 2020-12-06 on also `ses \n` (the encryption scope);
//! - table SAS (versions from 2015-04-05 on): `sp \n st \n se \n /table/account/<tn in
//!   lower case> \n si \n sip \n spr \n sv \n spk \n srk \n epk \n erk`.
//!
//! The current SDKs (JS 13.x, Python 12.x) sign version 2019-02-02. `sip` and `spr` are
//! signed but not enforced: the endpoint does not see the caller's address, and a local
//! endpoint is plain HTTP by design.

use super::{authentication_failed, decode_signature, signature_matches, KeyRange, Sas};
use crate::Endpoint;
use tablescope_engine::{Account, DateTime};
use tablescope_engine::{Error, ErrorCode, Result};

/// The first SAS version whose string-to-sign this module knows (account SAS began there).
const FIRST_VERSION: &str = "2015-04-05";
/// From this version on an account SAS also signs the encryption scope (`ses`).
const ENCRYPTION_SCOPE_VERSION: &str = "2020-12-06";

/// A SAS token's fields, decoded, by their query names.
struct Token<'a> {
    params: &'a [(String, String)],
}

impl<'a> Token<'a> {
    /// The field's value, or "" when absent (an absent field signs as an empty line).
    fn get(&self, name: &str) -> &'a str {
        self.find(name).unwrap_or("")
    }

    fn find(&self, name: &str) -> Option<&'a str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn required(&self, name: &str) -> Result<&'a str> {
        self.find(name)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| authentication_failed(format!("the SAS has no '{name}'")))
    }
}

/// Checks the SAS in `params` (the decoded query) and returns what it grants.
pub(super) fn verify(
    endpoint: &Endpoint,
    params: &[(String, String)],
    now: DateTime,
) -> Result<Sas> {
    let token = Token { params };
    let version = token.required("sv")?;
    if version < FIRST_VERSION {
        return Err(authentication_failed(format!(
            "SAS version '{version}' is older than {FIRST_VERSION}, which Tablescope does not read"
        )));
    }
    if token.find("si").is_some() {
        // `verify_with_policy` reads such a SAS, with the account whose table holds the policy.
        return Err(authentication_failed(
            "the SAS names a stored access policy (si), which only the account's table can resolve",
        ));
    }
    let permissions = token.required("sp")?;
    let signature = decode_signature(token.required("sig")?)?;
    let sas = if let Some(table) = token.find("tn") {
        let string_to_sign = table_string_to_sign(&token, &endpoint.account, table);
        check_signature(endpoint, &string_to_sign, &signature)?;
        Sas {
            permissions: permissions.to_string(),
            table: Some(table.to_lowercase()),
            resource_types: None,
            keys: key_range(&token),
        }
    } else if token.find("ss").is_some() {
        let string_to_sign = account_string_to_sign(&token, &endpoint.account, version);
        check_signature(endpoint, &string_to_sign, &signature)?;
        Sas {
            permissions: permissions.to_string(),
            table: None,
            resource_types: Some(token.required("srt")?.to_string()),
            keys: KeyRange::default(),
        }
    } else {
        return Err(authentication_failed(
            "the SAS names neither a table (tn) nor services (ss)",
        ));
    };
    check_window(&token, now)?;
    if sas.table.is_none() && !token.get("ss").contains('t') {
        return Err(Error::with_text(
            ErrorCode::AuthorizationServiceMismatch,
            format!("the SAS's services '{}' lack t (Table)", token.get("ss")),
        ));
    }
    Ok(sas)
}

/// Checks a table SAS that names a stored access policy of its table (`si`) and returns
/// what it grants ("Create a service SAS", "Define a stored access policy"): the signature
/// as for any table SAS, then the policy, which must exist now (removing it revokes every SAS
/// that names it). Permissions, start and expiry come from the policy or from the SAS, never
/// both: a field given twice, or an expiry or permission list given by neither, is 403
/// `AuthenticationFailed`, as an unknown policy is.
pub(crate) fn verify_with_policy(
    endpoint: &Endpoint,
    account: &Account,
    params: &[(String, String)],
    now: DateTime,
) -> Result<Sas> {
    let token = Token { params };
    let version = token.required("sv")?;
    if version < FIRST_VERSION {
        return Err(authentication_failed(format!(
            "SAS version '{version}' is older than {FIRST_VERSION}, which Tablescope does not read"
        )));
    }
    let table = token.find("tn").ok_or_else(|| {
        authentication_failed("only a table SAS (tn) may name a stored access policy (si)")
    })?;
    let id = token.required("si")?;
    let signature = decode_signature(token.required("sig")?)?;
    let string_to_sign = table_string_to_sign(&token, &endpoint.account, table);
    check_signature(endpoint, &string_to_sign, &signature)?;
    let identifier = account.stored_access_policy(table, id).ok_or_else(|| {
        authentication_failed(format!(
            "table '{table}' has no stored access policy '{id}'"
        ))
    })?;
    let policy = identifier.access_policy.clone().unwrap_or_default();
    let given = |name: &str| token.find(name).filter(|v| !v.is_empty());
    let twice = |field: &str| {
        authentication_failed(format!(
            "{field} is given by both the SAS and the stored access policy '{id}'"
        ))
    };
    let neither = |field: &str| {
        authentication_failed(format!(
            "{field} is given by neither the SAS nor the stored access policy '{id}'"
        ))
    };
    let permissions = match (given("sp"), policy.permission) {
        (Some(_), Some(_)) => return Err(twice("the permissions (sp)")),
        (Some(p), None) => p.to_string(),
        (None, Some(p)) => p,
        (None, None) => return Err(neither("the permissions (sp)")),
    };
    let expiry = match (given("se"), policy.expiry) {
        (Some(_), Some(_)) => return Err(twice("the expiry (se)")),
        (Some(t), None) => parse_sas_time(t)?,
        (None, Some(t)) => t,
        (None, None) => return Err(neither("the expiry (se)")),
    };
    let start = match (given("st"), policy.start) {
        (Some(_), Some(_)) => return Err(twice("the start (st)")),
        (Some(t), None) => Some(parse_sas_time(t)?),
        (None, t) => t,
    };
    if now > expiry {
        return Err(authentication_failed(format!(
            "the SAS expired at {expiry} (now {now})"
        )));
    }
    if let Some(start) = start.filter(|s| now < *s) {
        return Err(authentication_failed(format!(
            "the SAS is valid from {start} (now {now})"
        )));
    }
    Ok(Sas {
        permissions,
        table: Some(table.to_lowercase()),
        resource_types: None,
        keys: key_range(&token),
    })
}

fn check_signature(endpoint: &Endpoint, string_to_sign: &str, signature: &[u8]) -> Result<()> {
    if signature_matches(&endpoint.key, string_to_sign, signature) {
        Ok(())
    } else {
        Err(authentication_failed(
            "the SAS signature does not match its fields signed with the account key",
        ))
    }
}

fn table_string_to_sign(token: &Token, account: &str, table: &str) -> String {
    let resource = format!("/table/{account}/{}", table.to_lowercase());
    [
        token.get("sp"),
        token.get("st"),
        token.get("se"),
        &resource,
        token.get("si"),
        token.get("sip"),
        token.get("spr"),
        token.get("sv"),
        token.get("spk"),
        token.get("srk"),
        token.get("epk"),
        token.get("erk"),
    ]
    .join("\n")
}

fn account_string_to_sign(token: &Token, account: &str, version: &str) -> String {
    let mut fields = vec![
        account,
        token.get("sp"),
        token.get("ss"),
        token.get("srt"),
        token.get("st"),
        token.get("se"),
        token.get("sip"),
        token.get("spr"),
        version,
    ];
    if version >= ENCRYPTION_SCOPE_VERSION {
        fields.push(token.get("ses"));
    }
    // Every field ends with a newline, the last one included.
    fields.push("");
    fields.join("\n")
}

fn key_range(token: &Token) -> KeyRange {
    let bound = |name: &str| {
        token
            .find(name)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    KeyRange {
        start_partition_key: bound("spk"),
        start_row_key: bound("srk"),
        end_partition_key: bound("epk"),
        end_row_key: bound("erk"),
    }
}

/// The SAS is valid from `st` (when given) to `se`, both in UTC.
fn check_window(token: &Token, now: DateTime) -> Result<()> {
    let expiry = parse_sas_time(token.required("se")?)?;
    if now > expiry {
        return Err(authentication_failed(format!(
            "the SAS expired at {} (now {now})",
            token.get("se")
        )));
    }
    if let Some(start) = token.find("st").filter(|v| !v.is_empty()) {
        if now < parse_sas_time(start)? {
            return Err(authentication_failed(format!(
                "the SAS is valid from {start} (now {now})"
            )));
        }
    }
    Ok(())
}

/// SAS times are ISO 8601 in UTC: `YYYY-MM-DD`, `YYYY-MM-DDThh:mmZ` or
/// `YYYY-MM-DDThh:mm:ssZ` (seconds may carry a fraction).
fn parse_sas_time(text: &str) -> Result<DateTime> {
    let parsed = if text.len() == 10 {
        DateTime::parse(&format!("{text}T00:00:00Z"))
    } else {
        DateTime::parse(text)
    };
    parsed.map_err(|_| authentication_failed(format!("the SAS time '{text}' is not ISO 8601 UTC")))
}

//! Who sent the request, and may they do this: SharedKey, SharedKeyLite and SAS (docs/service/wire.md#authorization).
//!
//! [`authenticate`] checks the credential a request carries against the endpoint's account
//! and key, once per HTTP request (for `$batch`, the outer request); [`authorize`] and
//! [`authorize_entity`] check what that credential may do, once per operation. Signatures
//! are HMAC-SHA256 from RustCrypto's `hmac` and `sha2`, compared in constant time.
//!
//! The string each scheme signs, as the SDKs build it and the service checks it:
//! - SharedKeyLite (JS, .NET): `date \n /account<path as sent>[?comp=x]` ([`shared_key`]);
//! - SharedKey (Python, Java): `VERB \n Content-MD5 \n Content-Type \n date \n` + the same
//!   resource;
//! - SAS ([`sas`]): the token's own fields, in the order of the SAS version.

mod sas;
pub(crate) use sas::verify_with_policy;
mod shared_key;
#[cfg(test)]
mod tests;

use super::http::{query_pairs, split_target, HttpRequest};
use super::Endpoint;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::cmp::Ordering;
use tablescope_engine::cmp_utf16;
use tablescope_engine::DateTime;
use tablescope_engine::{Error, ErrorCode, Result};

/// What an operation needs, named after the SAS permission that grants it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Query entities or get one (`r`).
    Read,
    /// Insert, and the insert half of an upsert (`a`).
    Add,
    /// Replace, merge, and the update half of an upsert (`u`).
    Update,
    /// Delete an entity (`d`).
    Delete,
    /// Query the table list.
    ListTables,
    CreateTable,
    DeleteTable,
}

/// The credential a request proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// No credential (served only where the endpoint allows it).
    Anonymous,
    /// A SharedKey or SharedKeyLite signature with the account key: may do anything.
    AccountKey,
    /// A valid, unexpired SAS and what it grants.
    Sas(Sas),
}

/// What a SAS grants.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sas {
    /// The permission letters (`raud` for a table SAS; account SAS letters otherwise).
    pub permissions: String,
    /// A table SAS's table (`tn`), lower-cased; `None` for an account SAS.
    pub table: Option<String>,
    /// An account SAS's resource types (`srt`: `s`ervice, `c`ontainer = tables,
    /// `o`bject = entities); `None` for a table SAS.
    pub resource_types: Option<String>,
    /// A table SAS's key range (`spk`, `srk`, `epk`, `erk`); unbounded for an account SAS.
    pub keys: KeyRange,
}

/// The entities a table SAS reaches: from (`spk`, `srk`) to (`epk`, `erk`), both ends
/// included, in the service's key order. The bounds are a range of (PartitionKey, RowKey)
/// pairs, so `spk = epk, srk = erk` names one entity. A missing bound is open.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyRange {
    pub start_partition_key: Option<String>,
    pub start_row_key: Option<String>,
    pub end_partition_key: Option<String>,
    pub end_row_key: Option<String>,
}

impl KeyRange {
    /// A `$filter` that admits exactly the range's entities (`None` when unbounded), to
    /// narrow a query made through a key-range SAS the way the service does.
    pub fn filter(&self) -> Option<String> {
        let quote = |k: &str| format!("'{}'", k.replace('\'', "''"));
        let bound = |pk: &Option<String>, rk: &Option<String>, strict: &str, inclusive: &str| {
            let pk = pk.as_deref()?;
            Some(match rk {
                Some(rk) => format!(
                    "(PartitionKey {strict} {} or (PartitionKey eq {} and RowKey {inclusive} {}))",
                    quote(pk),
                    quote(pk),
                    quote(rk)
                ),
                None => format!("PartitionKey {inclusive} {}", quote(pk)),
            })
        };
        let parts: Vec<String> = [
            bound(&self.start_partition_key, &self.start_row_key, "gt", "ge"),
            bound(&self.end_partition_key, &self.end_row_key, "lt", "le"),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join(" and "))
    }

    /// Whether the range has any bound (queries through such a SAS must be narrowed to it).
    pub fn is_bounded(&self) -> bool {
        self.start_partition_key.is_some() || self.end_partition_key.is_some()
    }

    /// Whether the entity (`partition_key`, `row_key`) lies inside the range.
    pub fn admits(&self, partition_key: &str, row_key: &str) -> bool {
        let after_start = match &self.start_partition_key {
            None => true,
            Some(spk) => match cmp_utf16(partition_key, spk) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => self
                    .start_row_key
                    .as_deref()
                    .is_none_or(|srk| cmp_utf16(row_key, srk) != Ordering::Less),
            },
        };
        let before_end = match &self.end_partition_key {
            None => true,
            Some(epk) => match cmp_utf16(partition_key, epk) {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => self
                    .end_row_key
                    .as_deref()
                    .is_none_or(|erk| cmp_utf16(row_key, erk) != Ordering::Greater),
            },
        };
        after_start && before_end
    }
}

/// Checks the request's credential: an `Authorization` header (SharedKey, SharedKeyLite) or
/// a SAS in the query (a `sig` parameter), never both; a request with neither passes only
/// where the endpoint allows anonymous callers. Any signature must be right, for the
/// endpoint's account, and current at `now`.
///
/// Errors: 400 `InvalidAuthenticationInfo` for a request carrying both a SAS and an
/// `Authorization` header (the service refuses the ambiguity before looking at either) or
/// an unreadable header; 403 `AuthenticationFailed` for a wrong, stale or undated one (an
/// account SAS for other services: see [`sas`]); 401 `NoAuthenticationInformation` for none.
pub fn authenticate(
    endpoint: &Endpoint,
    request: &HttpRequest,
    now: DateTime,
) -> Result<Credential> {
    let parts = split_target(&request.url);
    let params = query_pairs(parts.query).ok_or_else(|| {
        authentication_failed("the query string is not valid percent-encoded UTF-8")
    })?;
    let has_sas = params.iter().any(|(name, _)| name == "sig");
    match request.header_value("Authorization") {
        Some(_) if has_sas => Err(invalid_authentication_info(
            "the request carries both a SAS (sig in the query) and an Authorization header; send one",
        )),
        Some(header) => {
            shared_key::verify(endpoint, request, header, now)?;
            Ok(Credential::AccountKey)
        }
        None if has_sas => sas::verify(endpoint, &params, now).map(Credential::Sas),
        None if endpoint.allow_anonymous => Ok(Credential::Anonymous),
        None => Err(no_credential()),
    }
}

/// Whether `credential` may do `access` on `table` (`None` for the table list). For an
/// operation on one entity, call [`authorize_entity`], which also checks a SAS key range.
/// Errors are 403: `AuthorizationPermissionMismatch` for a missing permission letter, and
/// the stand-ins documented at [`authorization_failure`] for a SAS used outside its scope.
pub fn authorize(credential: &Credential, access: Access, table: Option<&str>) -> Result<()> {
    check(credential, access, table, None)
}

/// [`authorize`] for an operation on the entity (`partition_key`, `row_key`) of `table`:
/// a table SAS with a key range refuses entities outside it.
pub fn authorize_entity(
    credential: &Credential,
    access: Access,
    table: &str,
    partition_key: &str,
    row_key: &str,
) -> Result<()> {
    check(
        credential,
        access,
        Some(table),
        Some((partition_key, row_key)),
    )
}

fn check(
    credential: &Credential,
    access: Access,
    table: Option<&str>,
    entity: Option<(&str, &str)>,
) -> Result<()> {
    let sas = match credential {
        Credential::Anonymous | Credential::AccountKey => return Ok(()),
        Credential::Sas(sas) => sas,
    };
    match &sas.table {
        Some(granted) => authorize_table_sas(sas, granted, access, table, entity),
        None => authorize_account_sas(sas, access),
    }
}

/// A table (service) SAS reaches entities of its own table only, within its key range,
/// with its letters.
fn authorize_table_sas(
    sas: &Sas,
    granted: &str,
    access: Access,
    table: Option<&str>,
    entity: Option<(&str, &str)>,
) -> Result<()> {
    let letter = match access {
        Access::Read => 'r',
        Access::Add => 'a',
        Access::Update => 'u',
        Access::Delete => 'd',
        Access::ListTables | Access::CreateTable | Access::DeleteTable => {
            return Err(authorization_failure(
                "a table SAS reaches one table's entities, not the table list",
            ))
        }
    };
    match table {
        Some(t) if t.eq_ignore_ascii_case(granted) => {}
        _ => {
            return Err(authorization_failure(format!(
                "this SAS is for table '{granted}'"
            )))
        }
    }
    require_letters(&sas.permissions, &[letter])?;
    match entity {
        Some((partition_key, row_key)) if !sas.keys.admits(partition_key, row_key) => {
            Err(authorization_failure(format!(
                "the entity ('{partition_key}', '{row_key}') is outside the SAS's key range"
            )))
        }
        // A query is narrowed to the range by the caller; a write must name its entity.
        None if access != Access::Read && sas.keys.is_bounded() => Err(authorization_failure(
            "a key-range SAS writes only entities whose keys it can check",
        )),
        _ => Ok(()),
    }
}

/// An account SAS: the resource type (`c` for tables, `o` for entities) and one of the
/// letters "Create an account SAS" lists for the Table service operation.
fn authorize_account_sas(sas: &Sas, access: Access) -> Result<()> {
    let (resource_type, letters): (char, &[char]) = match access {
        Access::ListTables => ('c', &['l']),
        Access::CreateTable => ('c', &['a', 'c', 'w']),
        Access::DeleteTable => ('c', &['d']),
        Access::Read => ('o', &['r']),
        Access::Add => ('o', &['a']),
        Access::Update => ('o', &['u']),
        Access::Delete => ('o', &['d']),
    };
    let types = sas.resource_types.as_deref().unwrap_or("");
    if !types.contains(resource_type) {
        return Err(Error::with_text(
            ErrorCode::AuthorizationResourceTypeMismatch,
            format!("the SAS's resource types '{types}' lack '{resource_type}'"),
        ));
    }
    require_letters(&sas.permissions, letters)
}

fn require_letters(permissions: &str, any_of: &[char]) -> Result<()> {
    if permissions.chars().any(|c| any_of.contains(&c)) {
        Ok(())
    } else {
        let wanted: String = any_of.iter().collect();
        Err(Error::with_text(
            ErrorCode::AuthorizationPermissionMismatch,
            format!("the SAS grants '{permissions}'; this operation needs one of '{wanted}'"),
        ))
    }
}

/// 403 `AuthenticationFailed`, with what was wrong (the service's AuthenticationErrorDetail).
fn authentication_failed(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::AuthenticationFailed, detail)
}

/// Credentials the service cannot read: 400 `InvalidAuthenticationInfo`.
fn invalid_authentication_info(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::InvalidAuthenticationInfo, detail)
}

/// A SAS used outside its scope (another table, the table list, an entity outside its key
/// range): 403 `AuthorizationFailure`, as production answers a table SAS listing tables.
fn authorization_failure(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::AuthorizationFailure, detail)
}

/// A request with no credential where one is required: 401 `NoAuthenticationInformation`,
/// as the Storage services answer at API versions from 2019-12-12 on.
fn no_credential() -> Error {
    Error::with_text(
        ErrorCode::NoAuthenticationInformation,
        "the request carries no Authorization header and no SAS",
    )
}

/// Whether `signature` (base64) is the HMAC-SHA256 of `string_to_sign` under `key`,
/// compared in constant time.
fn signature_matches(key: &[u8], string_to_sign: &str, signature: &[u8]) -> bool {
    match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(string_to_sign.as_bytes());
            mac.verify_slice(signature).is_ok()
        }
        Err(_) => false,
    }
}

/// Decodes a base64 signature. A `+` that reached us as a space (an unencoded `+` in a
/// query string) is restored: base64 has no spaces, so the mapping is unambiguous.
fn decode_signature(text: &str) -> Result<Vec<u8>> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text.trim().replace(' ', "+"))
        .map_err(|_| authentication_failed("the signature is not base64"))
}

//! A table's stored access policies (signed identifiers): what a SAS that names one with
//! `si=` may do, and when (docs/service/settings.md#stored-access-policies).

use super::{refuse, SettingProblem};
use crate::datetime::DateTime;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The most signed identifiers a table keeps.
pub const MAX_SIGNED_IDENTIFIERS: usize = 5;
/// The longest id.
const MAX_ID: usize = 64;

/// One stored access policy, under its id, kept as it was set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignedIdentifier {
    pub id: String,
    /// The service keeps an identifier without a policy, and a policy with only some parts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_policy: Option<AccessPolicy>,
}

/// The parts of a policy a SAS that names it takes from it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<DateTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiry: Option<DateTime>,
    /// `r`, `a`, `u`, `d`, in that order (see [`Permissions`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission: Option<String>,
}

/// A table permission list: query (`r`), add (`a`), update (`u`), delete (`d`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions {
    pub read: bool,
    pub add: bool,
    pub update: bool,
    pub delete: bool,
}

impl Permissions {
    /// A stored policy's list: the letters in the service's order, each at most once.
    /// (A SAS's own `sp` is read more leniently, by `tablescope_wire`.)
    pub fn parse_ordered(text: &str) -> Option<Permissions> {
        let mut p = Permissions::default();
        let mut rest = text;
        for (letter, flag) in [
            ('r', &mut p.read),
            ('a', &mut p.add),
            ('u', &mut p.update),
            ('d', &mut p.delete),
        ] {
            if let Some(after) = rest.strip_prefix(letter) {
                *flag = true;
                rest = after;
            }
        }
        rest.is_empty().then_some(p)
    }
}

/// Checks a table's new list as Set Table ACL would.
pub(crate) fn check_identifiers(identifiers: &[SignedIdentifier]) -> Result<()> {
    if identifiers.len() > MAX_SIGNED_IDENTIFIERS {
        return Err(refuse(SettingProblem::TooManySignedIdentifiers {
            count: identifiers.len(),
            limit: MAX_SIGNED_IDENTIFIERS,
        }));
    }
    let mut seen = HashSet::new();
    for identifier in identifiers {
        let len = identifier.id.chars().count();
        if len == 0 || len > MAX_ID {
            return Err(refuse(SettingProblem::SignedIdentifierId { len }));
        }
        if !seen.insert(identifier.id.as_str()) {
            return Err(refuse(SettingProblem::SignedIdentifierTwice {
                id: identifier.id.clone(),
            }));
        }
        let permission = identifier
            .access_policy
            .as_ref()
            .and_then(|p| p.permission.as_deref());
        if let Some(permission) = permission {
            if Permissions::parse_ordered(permission).is_none() {
                return Err(refuse(SettingProblem::Permission {
                    permission: permission.to_string(),
                }));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_are_read_in_the_services_order_only() {
        let p = Permissions::parse_ordered("rud").unwrap();
        assert_eq!(
            (p.read, p.add, p.update, p.delete),
            (true, false, true, true)
        );
        assert_eq!(Permissions::parse_ordered(""), Some(Permissions::default()));
        assert_eq!(Permissions::parse_ordered("dr"), None);
        assert_eq!(Permissions::parse_ordered("rr"), None);
        assert_eq!(Permissions::parse_ordered("rw"), None);
    }
}

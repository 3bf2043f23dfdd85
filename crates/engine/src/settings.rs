//! The account's settings beside its tables (docs/service/settings.md): the service
//! properties (logging, metrics, CORS rules) and each table's stored access policies.
//!
//! Both are checked whole before anything changes, as the service does: a refused update
//! leaves the settings as they were. Every refusal is `400 InvalidXmlDocument` on the wire;
//! the [`SettingProblem`] says which rule the document broke, for the playground's editor.

mod access_policy;
mod cors;
mod properties;

pub(crate) use access_policy::check_identifiers;
pub use access_policy::{AccessPolicy, Permissions, SignedIdentifier, MAX_SIGNED_IDENTIFIERS};
pub use cors::{matches_any as header_matches, CorsRule, CORS_METHODS, MAX_CORS_RULES};
pub use properties::{Logging, Metrics, PropertiesUpdate, RetentionPolicy, ServiceProperties};

use super::detail::Detail;
use super::error::{Error, ErrorCode, Result};
use std::fmt;

/// Which rule of the service's settings a document broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingProblem {
    /// More CORS rules than the service keeps.
    TooManyCorsRules { count: usize, limit: usize },
    /// A CORS rule's method the service does not allow.
    CorsMethod { method: String },
    /// A CORS rule without any method, or without any origin.
    CorsEmpty { list: CorsList },
    /// A CORS rule's list (origins, headers) longer than the service keeps.
    CorsListTooLong {
        list: CorsList,
        count: usize,
        limit: usize,
    },
    /// More prefixed headers (`x-ms-meta-*`) in one list than the service keeps.
    CorsPrefixes { list: CorsList, count: usize },
    /// A header name or origin longer than the service keeps.
    CorsEntryTooLong { list: CorsList, len: usize },
    /// The CORS rules' entries together longer than the service keeps (2 KiB).
    CorsTooLong { len: usize, limit: usize },
    /// A retention policy's days outside 1 to 365 (`None`: enabled without days).
    RetentionDays { days: Option<u32> },
    /// Enabled metrics that do not say whether they include the APIs.
    IncludeApisMissing,
    /// More signed identifiers than a table keeps.
    TooManySignedIdentifiers { count: usize, limit: usize },
    /// A signed identifier's id longer than 64 characters (or empty).
    SignedIdentifierId { len: usize },
    /// A signed identifier given twice.
    SignedIdentifierTwice { id: String },
    /// A permission list that is not `r`, `a`, `u`, `d` in that order, each at most once.
    Permission { permission: String },
}

/// Which list of a CORS rule a [`SettingProblem`] names, as the service's XML names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CorsList {
    AllowedOrigins,
    AllowedMethods,
    AllowedHeaders,
    ExposedHeaders,
}

impl CorsList {
    /// The element's name in the service's XML.
    pub fn element(self) -> &'static str {
        match self {
            CorsList::AllowedOrigins => "AllowedOrigins",
            CorsList::AllowedMethods => "AllowedMethods",
            CorsList::AllowedHeaders => "AllowedHeaders",
            CorsList::ExposedHeaders => "ExposedHeaders",
        }
    }
}

impl fmt::Display for SettingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SettingProblem::*;
        match self {
            TooManyCorsRules { count, limit } => {
                write!(f, "an account keeps at most {limit} CORS rules; this has {count}")
            }
            CorsMethod { method } => write!(
                f,
                "{method:?} is not a method a CORS rule may allow (allowed: {})",
                CORS_METHODS.join(", ")
            ),
            CorsEmpty { list } => write!(f, "a CORS rule needs at least one entry in {}", list.element()),
            CorsListTooLong { list, count, limit } => write!(
                f,
                "{} holds at most {limit} entries; this one has {count}",
                list.element()
            ),
            CorsPrefixes { list, count } => write!(
                f,
                "{} holds at most 2 prefixed headers (ending in *); this one has {count}",
                list.element()
            ),
            CorsEntryTooLong { list, len } => write!(
                f,
                "an entry of {} has at most 256 characters; this one has {len}",
                list.element()
            ),
            CorsTooLong { len, limit } => write!(
                f,
                "the CORS rules hold at most {limit} characters together, tags left out; these hold {len}"
            ),
            RetentionDays { days: Some(days) } => {
                write!(f, "a retention policy keeps 1 to 365 days, not {days}")
            }
            RetentionDays { days: None } => {
                f.write_str("an enabled retention policy says how many days it keeps (1 to 365)")
            }
            IncludeApisMissing => {
                f.write_str("enabled metrics say whether they include the APIs (IncludeAPIs)")
            }
            TooManySignedIdentifiers { count, limit } => write!(
                f,
                "a table keeps at most {limit} stored access policies; this has {count}"
            ),
            SignedIdentifierId { len } => write!(
                f,
                "a stored access policy's id has 1 to 64 characters; this one has {len}"
            ),
            SignedIdentifierTwice { id } => {
                write!(f, "the stored access policy {id:?} is given twice")
            }
            Permission { permission } => write!(
                f,
                "{permission:?} is not a table permission list: r, a, u, d, in that order, each at most once"
            ),
        }
    }
}

/// The service's refusal of a settings document: `400 InvalidXmlDocument`.
pub(crate) fn refuse(problem: SettingProblem) -> Error {
    Error::with_detail(ErrorCode::InvalidXmlDocument, Detail::Setting(problem))
}

impl crate::Account {
    /// The service properties, as Get Table Service Properties answers them.
    pub fn service_properties(&self) -> &ServiceProperties {
        &self.properties
    }

    /// Set Table Service Properties: the parts given replace the stored ones, all or none.
    pub fn set_service_properties(&mut self, update: &PropertiesUpdate) -> Result<()> {
        let mut next = self.properties.clone();
        next.update(update)?;
        self.properties = next;
        self.record(vec![crate::Change::ServicePropertiesSet]);
        Ok(())
    }

    /// Replaces the service properties without the service's checks, and records nothing:
    /// for restoring an account from a snapshot or a log (the values were checked when set).
    pub fn restore_service_properties(&mut self, properties: ServiceProperties) {
        self.properties = properties;
    }

    /// Get Table ACL: the table's signed identifiers, in the order they were set.
    pub fn table_acl(&self, table: &str) -> Result<&[SignedIdentifier]> {
        Ok(&self.table(table)?.acl)
    }

    /// Set Table ACL: replaces the table's signed identifiers (none clears them), or changes
    /// nothing and says which rule the list broke.
    pub fn set_table_acl(&mut self, table: &str, identifiers: Vec<SignedIdentifier>) -> Result<()> {
        self.table(table)?;
        access_policy::check_identifiers(&identifiers)?;
        let t = self.table_mut(table)?;
        t.acl = identifiers;
        let table = t.name.clone();
        self.record(vec![crate::Change::AclSet { table }]);
        Ok(())
    }

    /// The stored access policy `id` of `table`, for a SAS that names it (`si=`); `None`
    /// when the table has no identifier of that id (the SAS is then refused).
    pub fn stored_access_policy(&self, table: &str, id: &str) -> Option<&SignedIdentifier> {
        let t = self.table(table).ok()?;
        t.acl.iter().find(|i| i.id == id)
    }
}

impl crate::Table {
    /// The table's stored access policies.
    pub fn acl(&self) -> &[SignedIdentifier] {
        &self.acl
    }

    /// Sets the stored access policies without the service's checks: for restoring a table
    /// from a snapshot or a log (the values were checked when set).
    pub fn restore_acl(&mut self, acl: Vec<SignedIdentifier>) {
        self.acl = acl;
    }
}

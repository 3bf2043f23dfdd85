//! Export and import of a whole account as versioned JSON.
//!
//! ```json
//! { "format": "tablescope-account", "version": 1,
//!   "tables": [ { "name": "Employees", "entities": [ { "PartitionKey": "...", ... } ] } ] }
//! ```
//! Entities are in the service's JSON form with their Timestamp, so ETags survive a round trip.
//! An import is checked whole before anything changes: a bad file leaves the account untouched.

use super::account::Account;
use super::changes::Change;
use super::datetime::DateTime;
use super::detail::Detail;
use super::error::Result;
use super::json::RawEntity;
use super::json_problem::JsonProblem;
use super::settings::{PropertiesUpdate, ServiceProperties, SignedIdentifier};
use super::table::Table;
use crate::target::Target;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

mod build;
pub mod stream;

pub const FORMAT: &str = "tablescope-account";
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    pub format: String,
    pub version: u32,
    /// The account's target, when it is not Table storage (so storage exports are as they
    /// were, and files without it load as storage accounts).
    #[serde(default, skip_serializing_if = "is_table_storage")]
    pub target: Target,
    /// The service properties, when they are not a new account's.
    #[serde(
        default,
        rename = "serviceProperties",
        skip_serializing_if = "Option::is_none"
    )]
    pub service_properties: Option<ServiceProperties>,
    pub tables: Vec<TableSnapshot>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSnapshot {
    pub name: String,
    /// The table's stored access policies, when it has any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acl: Vec<SignedIdentifier>,
    pub entities: Vec<RawEntity>,
}

use build::bad;

fn is_table_storage(t: &Target) -> bool {
    *t == Target::TableStorage
}

impl Account {
    /// The whole account as a snapshot.
    pub fn export(&self) -> Snapshot {
        let tables = self
            .tables()
            .map(|t| TableSnapshot {
                name: t.name.clone(),
                acl: t.acl().to_vec(),
                entities: t
                    .partitions()
                    .iter()
                    .flat_map(|(pk, p)| {
                        p.rows.iter().map(move |(rk, s)| {
                            RawEntity::from_entity(&super::table::to_entity(
                                pk.as_str(),
                                rk.as_str(),
                                s,
                            ))
                        })
                    })
                    .collect(),
            })
            .collect();
        let properties = self.service_properties();
        Snapshot {
            format: FORMAT.into(),
            version: VERSION,
            target: self.target(),
            service_properties: (*properties != ServiceProperties::default())
                .then(|| properties.clone()),
            tables,
        }
    }

    /// Replaces every table with the snapshot's, or changes nothing and says what is wrong.
    ///
    /// The snapshot is checked and its Timestamps planned against a copy of the clock's state;
    /// the tables and the clock change together, and only when all of it is good.
    pub fn import(&mut self, snapshot: &Snapshot) -> Result<()> {
        let (tables, last) = build_tables(self, snapshot)?;
        let properties = checked_properties(snapshot.service_properties.as_ref())?;
        self.replace_tables(snapshot.target, tables, last, properties);
        Ok(())
    }

    /// Replaces every table, the service properties and the clock's last Timestamp with
    /// checked ones, recorded as one [`Change::AccountReplaced`].
    pub(crate) fn replace_tables(
        &mut self,
        target: Target,
        tables: Vec<Table>,
        last: DateTime,
        properties: ServiceProperties,
    ) {
        let names: Vec<String> = self.tables().map(|t| t.name.clone()).collect();
        for name in names {
            let _ = self.delete_table(name.as_str());
        }
        self.target = target;
        for t in tables {
            self.restore_table(t);
        }
        self.restore_service_properties(properties);
        self.observe_timestamp(last);
        self.take_changes();
        self.record(vec![Change::AccountReplaced]);
    }

    /// Parses and imports snapshot JSON bytes: UTF-8, with or without a byte order mark (or
    /// UTF-16 with one, see [`crate::encoding`]); bytes that are not are refused, never
    /// replaced by U+FFFD.
    pub fn import_json_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.import_json(&crate::encoding::decode(bytes)?)
    }

    /// Parses and imports snapshot JSON text.
    ///
    /// Read straight into [`Snapshot`], never through a JSON map: a map keeps only the last of
    /// members named twice, and a property, key or `"tables"` given twice must be refused.
    pub fn import_json(&mut self, text: &str) -> Result<()> {
        // A byte order mark is not part of the text (a decoder that kept it left it here).
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let header: Header = serde_json::from_str(text).map_err(|e| match e.classify() {
            serde_json::error::Category::Data => bad(Detail::Malformed(JsonProblem::from(&e))),
            _ => bad(Detail::NotJson(JsonProblem::from(&e))),
        })?;
        if header.format.as_ref().and_then(Json::as_str) != Some(FORMAT) {
            return Err(bad(Detail::NotExport));
        }
        // The version as the file wrote it (`2`, `"1"`), so the message quotes the file.
        let version = header.version.as_ref();
        if version.and_then(Json::as_u64) != Some(u64::from(VERSION)) {
            return Err(bad(match version {
                Some(v) => Detail::Version {
                    version: v.to_string(),
                },
                None => Detail::NoVersion,
            }));
        }
        let snapshot: Snapshot = serde_json::from_str(text)
            .map_err(|e| bad(Detail::Malformed(JsonProblem::from(&e))))?;
        self.import(&snapshot)
    }
}

/// A snapshot's service properties, checked as Set Table Service Properties checks them; a
/// snapshot without them has a new account's.
pub(crate) fn checked_properties(
    properties: Option<&ServiceProperties>,
) -> Result<ServiceProperties> {
    let mut checked = ServiceProperties::default();
    if let Some(p) = properties {
        checked.update(&PropertiesUpdate {
            logging: Some(p.logging.clone()),
            hour_metrics: Some(p.hour_metrics.clone()),
            minute_metrics: Some(p.minute_metrics.clone()),
            cors: Some(p.cors.clone()),
        })?;
    }
    Ok(checked)
}

/// The members that say what a file is, read first so a file of another kind or version gets
/// a message saying so; other members are skipped here. A member given twice is refused.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: Option<Json>,
    #[serde(default)]
    version: Option<Json>,
}

/// An imported file's bytes as text: JSON exports and CSV files are UTF-8, and a byte that is
/// not is refused (400 `InvalidInput`, naming its offset) rather than turned into U+FFFD.
pub fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        bad(Detail::NotUtf8 {
            offset: e.valid_up_to(),
        })
    })
}

/// The snapshot's tables and the latest Timestamp they hold or were given, computed without
/// touching the account (see [`build::Builder`]).
fn build_tables(account: &Account, snapshot: &Snapshot) -> Result<(Vec<Table>, DateTime)> {
    if snapshot.format != FORMAT || snapshot.version != VERSION {
        return Err(bad(Detail::Format));
    }
    let mut builder = build::Builder::new(account, snapshot.target);
    for ts in &snapshot.tables {
        builder.table(&ts.name)?;
        builder.acl(ts.acl.clone())?;
        for raw in &ts.entities {
            builder.entity(account, raw)?;
        }
    }
    Ok(builder.finish())
}

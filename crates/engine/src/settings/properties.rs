//! The Table service properties: Storage Analytics logging, hour and minute metrics, and
//! the CORS rules (docs/service/settings.md#service-properties).

use super::cors::{check_rules, CorsRule};
use super::{refuse, SettingProblem};
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// What Get Table Service Properties answers. A new account has logging and metrics off
/// and no CORS rules (the service's defaults depend on how the account was made; these are
/// the ones an account made without analytics has, and Azurite's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceProperties {
    pub logging: Logging,
    pub hour_metrics: Metrics,
    pub minute_metrics: Metrics,
    pub cors: Vec<CorsRule>,
}

/// Storage Analytics logging: which requests are logged, and for how long.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Logging {
    pub version: String,
    pub delete: bool,
    pub read: bool,
    pub write: bool,
    pub retention_policy: RetentionPolicy,
}

/// Hour or minute metrics.
///
/// Invariant (after [`ServiceProperties::update`]): `include_apis` is `Some` when enabled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Metrics {
    pub version: String,
    pub enabled: bool,
    /// Whether the metrics cover each API; the service leaves it out when disabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_apis: Option<bool>,
    pub retention_policy: RetentionPolicy,
}

/// How long logs or metrics are kept.
///
/// Invariant (after [`ServiceProperties::update`]): `days` is 1 to 365 when enabled; the
/// service leaves it out when disabled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetentionPolicy {
    pub enabled: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// Set Table Service Properties: each part given replaces the stored one; a part left out
/// keeps what is stored (an empty `cors` removes every rule).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PropertiesUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Logging>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hour_metrics: Option<Metrics>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minute_metrics: Option<Metrics>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cors: Option<Vec<CorsRule>>,
}

impl Default for ServiceProperties {
    fn default() -> Self {
        ServiceProperties {
            logging: Logging {
                version: "1.0".into(),
                delete: false,
                read: false,
                write: false,
                retention_policy: RetentionPolicy::OFF,
            },
            hour_metrics: Metrics::off(),
            minute_metrics: Metrics::off(),
            cors: Vec::new(),
        }
    }
}

impl RetentionPolicy {
    pub const OFF: RetentionPolicy = RetentionPolicy {
        enabled: false,
        days: None,
    };

    fn check(&self) -> Result<()> {
        match (self.enabled, self.days) {
            (true, Some(1..=365)) | (false, _) => Ok(()),
            (true, days) => Err(refuse(SettingProblem::RetentionDays { days })),
        }
    }

    /// As the service keeps it: no days when disabled.
    fn stored(&self) -> RetentionPolicy {
        RetentionPolicy {
            enabled: self.enabled,
            days: self.days.filter(|_| self.enabled),
        }
    }
}

impl Metrics {
    /// Disabled, at version 1.0.
    pub fn off() -> Metrics {
        Metrics {
            version: "1.0".into(),
            enabled: false,
            include_apis: None,
            retention_policy: RetentionPolicy::OFF,
        }
    }

    fn check(&self) -> Result<()> {
        if self.enabled && self.include_apis.is_none() {
            return Err(refuse(SettingProblem::IncludeApisMissing));
        }
        self.retention_policy.check()
    }

    fn stored(&self) -> Metrics {
        Metrics {
            version: self.version.clone(),
            enabled: self.enabled,
            include_apis: self.include_apis.filter(|_| self.enabled),
            retention_policy: self.retention_policy.stored(),
        }
    }
}

impl ServiceProperties {
    /// Applies `update` whole, or changes nothing and says which rule it broke.
    pub fn update(&mut self, update: &PropertiesUpdate) -> Result<()> {
        if let Some(logging) = &update.logging {
            logging.retention_policy.check()?;
        }
        for metrics in [&update.hour_metrics, &update.minute_metrics]
            .into_iter()
            .flatten()
        {
            metrics.check()?;
        }
        if let Some(rules) = &update.cors {
            check_rules(rules)?;
        }
        if let Some(logging) = &update.logging {
            self.logging = Logging {
                retention_policy: logging.retention_policy.stored(),
                ..logging.clone()
            };
        }
        if let Some(metrics) = &update.hour_metrics {
            self.hour_metrics = metrics.stored();
        }
        if let Some(metrics) = &update.minute_metrics {
            self.minute_metrics = metrics.stored();
        }
        if let Some(rules) = &update.cors {
            self.cors = rules.clone();
        }
        Ok(())
    }

    /// The first rule that admits a request from `origin` with `method` (and, for a
    /// preflight, the headers it names): the one the service answers by.
    pub fn cors_rule(
        &self,
        origin: &str,
        method: &str,
        requested_headers: Option<&str>,
    ) -> Option<&CorsRule> {
        self.cors
            .iter()
            .find(|rule| rule.admits(origin, method, requested_headers))
    }
}

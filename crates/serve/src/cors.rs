//! The CORS rules `tablescope-serve` starts with (docs/serve.md#cors).
//!
//! CORS itself is the wire layer's (`tablescope_wire::cors`): preflights and response headers
//! by the account's rules, as the service applies them. The server only chooses the rules an
//! account starts with, so that the playground's Connect section reaches it out of the box:
//! one rule admitting the playground's own origins (`scripts/run.sh` and `trunk serve` serve
//! it at port 8080), every method a rule may allow, any request header, and every response
//! header exposed (the SDK reads `ETag` and the continuation headers). `--cors-origin` names
//! the origins instead; `--no-cors` starts without rules.

use tablescope_engine::settings::CORS_METHODS;
use tablescope_engine::{CorsRule, PropertiesUpdate};

/// The playground's origins, as `scripts/run.sh` serves it.
pub const DEFAULT_ORIGINS: [&str; 2] = ["http://127.0.0.1:8080", "http://localhost:8080"];

/// How long a browser may keep a preflight's answer (browsers cap it: Chromium at 2 hours).
pub const MAX_AGE_SECONDS: u32 = 86400;

/// Which rules the account starts with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CorsStart {
    /// The default rule, for [`DEFAULT_ORIGINS`]; applied only to an account that has no
    /// stored properties of its own (in memory, a new data directory, a loaded workspace
    /// without rules).
    #[default]
    Default,
    /// `--cors-origin`: one rule for these origins, applied at every start.
    Origins(Vec<String>),
    /// `--no-cors`: no rules, applied at every start.
    None,
}

impl CorsStart {
    /// Whether the rules were asked for on the command line (and so replace stored ones).
    pub fn explicit(&self) -> bool {
        !matches!(self, CorsStart::Default)
    }

    /// The update that sets the starting rules.
    pub fn update(&self) -> PropertiesUpdate {
        let origins: Vec<String> = match self {
            CorsStart::Default => DEFAULT_ORIGINS.iter().map(|o| o.to_string()).collect(),
            CorsStart::Origins(origins) => origins.clone(),
            CorsStart::None => Vec::new(),
        };
        let rules = if origins.is_empty() {
            Vec::new()
        } else {
            vec![CorsRule {
                allowed_origins: origins,
                allowed_methods: CORS_METHODS.iter().map(|m| m.to_string()).collect(),
                allowed_headers: vec!["*".into()],
                exposed_headers: vec!["*".into()],
                max_age_in_seconds: MAX_AGE_SECONDS,
            }]
        };
        PropertiesUpdate {
            cors: Some(rules),
            ..PropertiesUpdate::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablescope_engine::Account;

    #[test]
    fn the_default_rule_admits_the_playground_and_nothing_else() {
        let mut account = Account::default();
        account
            .set_service_properties(&CorsStart::Default.update())
            .unwrap();
        let p = account.service_properties();
        for origin in DEFAULT_ORIGINS {
            assert!(p
                .cors_rule(origin, "PATCH", Some("x-ms-date,if-match"))
                .is_some());
        }
        assert!(p.cors_rule("http://evil.example", "GET", None).is_none());
        account
            .set_service_properties(&CorsStart::None.update())
            .unwrap();
        assert!(account.service_properties().cors.is_empty());
    }
}

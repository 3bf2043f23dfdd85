//! The account-settings cases of "show as code": one request per operation and shape, used by
//! the golden test (crates/codegen/tests/settings_golden.rs) and run with the real SDKs against
//! `tablescope-serve` (crates/serve/tests/code_sdk_settings.rs).

use tablescope_engine::settings::{Logging, Metrics, RetentionPolicy};
use tablescope_engine::{
    AccessPolicy, CorsRule, DateTime, PropertiesUpdate, Request, SignedIdentifier,
};

/// The table the ACL cases name.
pub const TABLE: &str = "Things";

fn rule(origins: &[&str], methods: &[&str], headers: &[&str], max_age: u32) -> CorsRule {
    let list = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
    CorsRule {
        allowed_origins: list(origins),
        allowed_methods: list(methods),
        allowed_headers: list(headers),
        exposed_headers: list(headers),
        max_age_in_seconds: max_age,
    }
}

fn time(text: &str) -> Option<DateTime> {
    Some(DateTime::parse(text).unwrap())
}

pub fn cases() -> Vec<(&'static str, Request)> {
    let metrics = Metrics {
        version: "1.0".into(),
        enabled: true,
        include_apis: Some(false),
        retention_policy: RetentionPolicy {
            enabled: true,
            days: Some(7),
        },
    };
    vec![
        ("get-service-properties", Request::GetServiceProperties {}),
        (
            "set-cors-rules",
            Request::SetServiceProperties {
                properties: PropertiesUpdate {
                    cors: Some(vec![
                        rule(
                            &["https://example.com", "http://127.0.0.1:8080"],
                            &["GET", "PUT", "OPTIONS"],
                            &["x-ms-meta-*", "content-type"],
                            3600,
                        ),
                        rule(&["*"], &["GET"], &[], 0),
                    ]),
                    ..PropertiesUpdate::default()
                },
            },
        ),
        (
            "set-service-properties",
            Request::SetServiceProperties {
                properties: PropertiesUpdate {
                    logging: Some(Logging {
                        version: "1.0".into(),
                        delete: true,
                        read: false,
                        write: true,
                        retention_policy: RetentionPolicy {
                            enabled: true,
                            days: Some(30),
                        },
                    }),
                    hour_metrics: Some(metrics),
                    minute_metrics: Some(Metrics::off()),
                    cors: Some(Vec::new()),
                },
            },
        ),
        (
            "get-table-acl",
            Request::GetTableAcl {
                table: TABLE.into(),
            },
        ),
        (
            "set-table-acl",
            Request::SetTableAcl {
                table: TABLE.into(),
                identifiers: vec![
                    SignedIdentifier {
                        id: "readers".into(),
                        access_policy: Some(AccessPolicy {
                            start: time("2030-01-01T00:00:00Z"),
                            expiry: time("2030-12-31T23:59:59Z"),
                            permission: Some("raud".into()),
                        }),
                    },
                    SignedIdentifier {
                        id: "query-only".into(),
                        access_policy: Some(AccessPolicy {
                            start: None,
                            expiry: None,
                            permission: Some("r".into()),
                        }),
                    },
                    SignedIdentifier {
                        id: "revoked".into(),
                        access_policy: None,
                    },
                ],
            },
        ),
        (
            "clear-table-acl",
            Request::SetTableAcl {
                table: TABLE.into(),
                identifiers: Vec::new(),
            },
        ),
    ]
}

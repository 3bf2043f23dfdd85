//! "Show as code" for the account's settings: every form of Get and Set Table Service
//! Properties and Get and Set Table ACL is exactly the text in tests/code/settings/<case>.<ext>
//! (`UPDATE_GOLDEN=1 cargo test --test settings_golden` rewrites them; review the diff), and
//! every case is a request the engine accepts.
//!
//! Pending: `code_golden.rs` also reads each HTTP form back through `tablescope_wire` and runs
//! the JavaScript and Python forms against the SDKs and `tablescope-serve`
//! (crates/serve/tests/code_sdk.rs); these cases join them once the wire layer reads the
//! settings' XML.

use std::path::PathBuf;
use tablescope_codegen::{self as code, Form};
use tablescope_engine::settings::{Logging, Metrics, RetentionPolicy};
use tablescope_engine::{
    AccessPolicy, Account, CorsRule, DateTime, PropertiesUpdate, Request, SignedIdentifier,
};

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/code/settings")
}

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

fn cases() -> Vec<(&'static str, Request)> {
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
                table: "Things".into(),
            },
        ),
        (
            "set-table-acl",
            Request::SetTableAcl {
                table: "Things".into(),
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
                table: "Things".into(),
                identifiers: Vec::new(),
            },
        ),
    ]
}

#[test]
fn every_settings_form_matches_its_golden_file() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut differ = Vec::new();
    for (name, request) in cases() {
        for form in Form::ALL {
            let text =
                code::show(&request, form).unwrap_or_else(|e| panic!("{name}: {form:?}: {e}"));
            let path = golden_dir().join(format!("{name}.{}", form.extension()));
            if update {
                std::fs::create_dir_all(golden_dir()).unwrap();
                std::fs::write(&path, &text).unwrap();
            } else {
                let golden = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                if golden != text {
                    differ.push(format!("{}\n--- generated:\n{text}", path.display()));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}

#[test]
fn every_settings_case_is_a_request_the_engine_accepts() {
    let mut account = Account::default();
    account.create_table("Things").unwrap();
    for (name, request) in cases() {
        let response = account.execute(&request);
        assert_eq!(response.error, None, "{name}");
    }
}

#[test]
fn the_http_form_sends_the_services_xml() {
    let (_, request) = cases().into_iter().nth(1).unwrap();
    let http = code::show(&request, Form::Http).unwrap();
    assert!(http.starts_with(
        "PUT http://127.0.0.1:10002/devstoreaccount1/?restype=service&comp=properties HTTP/1.1\n\
         Accept: application/xml\nContent-Type: application/xml\nx-ms-version: 2019-02-02\n\n\
         <?xml version=\"1.0\" encoding=\"utf-8\"?>\n<StorageServiceProperties>\n  <Cors>\n"
    ));
    assert!(
        http.contains("<AllowedOrigins>https://example.com,http://127.0.0.1:8080</AllowedOrigins>")
    );
}

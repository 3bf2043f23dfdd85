//! The account's settings (docs/service/settings.md): each of the service's limits at
//! limit − 1, limit and limit + 1; an update leaves the parts it does not name; a refused
//! update changes nothing and records nothing; the settings survive the export format.

use tablescope_engine::settings::{
    CorsList, Logging, Metrics, RetentionPolicy, SettingProblem, MAX_CORS_RULES,
    MAX_SIGNED_IDENTIFIERS,
};
use tablescope_engine::{
    AccessPolicy, Account, CorsRule, DateTime, ErrorCode, PropertiesUpdate, Request,
    SignedIdentifier,
};

fn rule(origin: &str) -> CorsRule {
    CorsRule {
        allowed_origins: vec![origin.to_string()],
        allowed_methods: vec!["GET".into()],
        allowed_headers: vec![],
        exposed_headers: vec![],
        max_age_in_seconds: 10,
    }
}

fn cors(rules: Vec<CorsRule>) -> PropertiesUpdate {
    PropertiesUpdate {
        cors: Some(rules),
        ..PropertiesUpdate::default()
    }
}

/// The problem a refused update names (every refusal is `InvalidXmlDocument`).
fn problem(result: tablescope_engine::Result<()>) -> SettingProblem {
    let e = result.expect_err("refused");
    assert_eq!(e.code, ErrorCode::InvalidXmlDocument);
    assert_eq!(e.status(), 400);
    match e.detail.map(|d| *d) {
        Some(tablescope_engine::Detail::Setting(p)) => p,
        other => panic!("{other:?}"),
    }
}

fn logging(days: Option<u32>, enabled: bool) -> PropertiesUpdate {
    PropertiesUpdate {
        logging: Some(Logging {
            version: "1.0".into(),
            delete: true,
            read: false,
            write: true,
            retention_policy: RetentionPolicy { enabled, days },
        }),
        ..PropertiesUpdate::default()
    }
}

#[test]
fn an_account_keeps_five_cors_rules() {
    let mut a = Account::default();
    for n in [MAX_CORS_RULES - 1, MAX_CORS_RULES] {
        let rules = (0..n)
            .map(|i| rule(&format!("http://o{i}.example")))
            .collect();
        a.set_service_properties(&cors(rules)).unwrap();
        assert_eq!(a.service_properties().cors.len(), n);
    }
    a.take_changes();
    let six = (0..MAX_CORS_RULES + 1)
        .map(|i| rule(&format!("http://x{i}.example")))
        .collect();
    assert_eq!(
        problem(a.set_service_properties(&cors(six))),
        SettingProblem::TooManyCorsRules { count: 6, limit: 5 }
    );
    assert_eq!(a.service_properties().cors.len(), 5);
    assert!(a.service_properties().cors[0].allows_origin("http://o0.example"));
    assert!(
        a.take_changes().is_empty(),
        "a refused update records nothing"
    );
}

#[test]
fn retention_keeps_one_to_365_days() {
    let mut a = Account::default();
    for days in [1, 2, 364, 365] {
        a.set_service_properties(&logging(Some(days), true))
            .unwrap();
        assert_eq!(
            a.service_properties().logging.retention_policy.days,
            Some(days)
        );
    }
    for days in [Some(0), Some(366), None] {
        assert_eq!(
            problem(a.set_service_properties(&logging(days, true))),
            SettingProblem::RetentionDays { days }
        );
    }
    assert_eq!(
        a.service_properties().logging.retention_policy.days,
        Some(365)
    );
    // Disabled, the days are not kept (the service leaves them out).
    a.set_service_properties(&logging(Some(400), false))
        .unwrap();
    assert_eq!(a.service_properties().logging.retention_policy.days, None);
}

#[test]
fn an_update_leaves_the_parts_it_does_not_name() {
    let mut a = Account::default();
    a.set_service_properties(&logging(Some(7), true)).unwrap();
    a.set_service_properties(&cors(vec![rule("*")])).unwrap();
    let metrics = Metrics {
        version: "1.0".into(),
        enabled: true,
        include_apis: Some(true),
        retention_policy: RetentionPolicy {
            enabled: true,
            days: Some(3),
        },
    };
    a.set_service_properties(&PropertiesUpdate {
        hour_metrics: Some(metrics.clone()),
        ..PropertiesUpdate::default()
    })
    .unwrap();
    let p = a.service_properties();
    assert_eq!(p.logging.retention_policy.days, Some(7));
    assert_eq!(p.cors.len(), 1);
    assert_eq!(p.hour_metrics, metrics);
    assert_eq!(p.minute_metrics, Metrics::off());
    // An empty list removes every rule.
    a.set_service_properties(&cors(Vec::new())).unwrap();
    assert!(a.service_properties().cors.is_empty());
}

#[test]
fn a_refused_update_changes_no_part() {
    let mut a = Account::default();
    a.set_service_properties(&logging(Some(7), true)).unwrap();
    let before = a.service_properties().clone();
    // Good logging, bad CORS: neither is applied.
    let mut update = logging(Some(30), true);
    update.cors = Some(vec![CorsRule {
        allowed_methods: vec!["TRACE".into()],
        ..rule("*")
    }]);
    assert_eq!(
        problem(a.set_service_properties(&update)),
        SettingProblem::CorsMethod {
            method: "TRACE".into()
        }
    );
    assert_eq!(a.service_properties(), &before);
    // Enabled metrics must say whether they include the APIs.
    let update = PropertiesUpdate {
        minute_metrics: Some(Metrics {
            enabled: true,
            include_apis: None,
            ..Metrics::off()
        }),
        ..PropertiesUpdate::default()
    };
    assert_eq!(
        problem(a.set_service_properties(&update)),
        SettingProblem::IncludeApisMissing
    );
    assert_eq!(a.service_properties(), &before);
}

#[test]
fn cors_rule_lists_have_their_limits() {
    let mut a = Account::default();
    let with = |f: &dyn Fn(&mut CorsRule)| {
        let mut r = rule("http://a.example");
        f(&mut r);
        cors(vec![r])
    };
    assert_eq!(
        problem(a.set_service_properties(&with(&|r| r.allowed_origins.clear()))),
        SettingProblem::CorsEmpty {
            list: CorsList::AllowedOrigins
        }
    );
    // Two prefixed headers are kept, three refused.
    let prefixes = |n: usize| {
        (0..n)
            .map(|i| format!("x-ms-meta-{i}*"))
            .collect::<Vec<_>>()
    };
    a.set_service_properties(&with(&|r| r.allowed_headers = prefixes(2)))
        .unwrap();
    assert_eq!(
        problem(a.set_service_properties(&with(&|r| r.allowed_headers = prefixes(3)))),
        SettingProblem::CorsPrefixes {
            list: CorsList::AllowedHeaders,
            count: 3
        }
    );
    // An entry of 256 characters is kept, 257 refused.
    for (len, ok) in [(255, true), (256, true), (257, false)] {
        let header = "h".repeat(len);
        let result = a.set_service_properties(&with(&|r| r.exposed_headers = vec![header.clone()]));
        assert_eq!(result.is_ok(), ok, "{len}");
    }
    // PATCH is a method a rule may allow (the SDKs merge with it).
    a.set_service_properties(&with(&|r| r.allowed_methods = vec!["PATCH".into()]))
        .unwrap();
}

#[test]
fn the_first_matching_rule_answers() {
    let mut a = Account::default();
    let mut first = rule("http://a.example");
    first.allowed_headers = vec!["x-ms-*".into()];
    let mut second = rule("*");
    second.allowed_methods = vec!["GET".into(), "PUT".into()];
    second.allowed_headers = vec!["*".into()];
    second.max_age_in_seconds = 99;
    a.set_service_properties(&cors(vec![first, second]))
        .unwrap();
    let p = a.service_properties();
    let hit = |origin, method, headers| {
        p.cors_rule(origin, method, headers)
            .map(|r| r.max_age_in_seconds)
    };
    assert_eq!(hit("http://a.example", "GET", Some("x-ms-date")), Some(10));
    assert_eq!(hit("http://a.example", "GET", Some("if-match")), Some(99));
    assert_eq!(hit("http://b.example", "PUT", None), Some(99));
    assert_eq!(hit("http://b.example", "DELETE", None), None);
}

fn identifier(id: &str) -> SignedIdentifier {
    SignedIdentifier {
        id: id.to_string(),
        access_policy: Some(AccessPolicy {
            start: None,
            expiry: Some(DateTime::parse("2030-01-01T00:00:00Z").unwrap()),
            permission: Some("raud".into()),
        }),
    }
}

#[test]
fn a_table_keeps_five_signed_identifiers() {
    let mut a = Account::default();
    a.create_table("mytable").unwrap();
    for n in [MAX_SIGNED_IDENTIFIERS - 1, MAX_SIGNED_IDENTIFIERS] {
        let ids = (0..n).map(|i| identifier(&format!("id{i}"))).collect();
        a.set_table_acl("mytable", ids).unwrap();
        assert_eq!(a.table_acl("MyTable").unwrap().len(), n);
    }
    a.take_changes();
    let six = (0..6).map(|i| identifier(&format!("x{i}"))).collect();
    assert_eq!(
        problem(a.set_table_acl("mytable", six)),
        SettingProblem::TooManySignedIdentifiers { count: 6, limit: 5 }
    );
    assert_eq!(a.table_acl("mytable").unwrap()[0].id, "id0");
    assert!(a.take_changes().is_empty());
    assert!(a.stored_access_policy("MYTABLE", "id4").is_some());
    assert!(a.stored_access_policy("mytable", "x0").is_none());
    a.set_table_acl("mytable", Vec::new()).unwrap();
    assert!(
        a.stored_access_policy("mytable", "id4").is_none(),
        "cleared"
    );
}

#[test]
fn an_id_has_one_to_64_characters_and_appears_once() {
    let mut a = Account::default();
    a.create_table("mytable").unwrap();
    for len in [1, 63, 64] {
        a.set_table_acl("mytable", vec![identifier(&"i".repeat(len))])
            .unwrap();
    }
    for len in [0, 65] {
        assert_eq!(
            problem(a.set_table_acl("mytable", vec![identifier(&"i".repeat(len))])),
            SettingProblem::SignedIdentifierId { len }
        );
    }
    assert_eq!(
        problem(a.set_table_acl("mytable", vec![identifier("a"), identifier("a")])),
        SettingProblem::SignedIdentifierTwice { id: "a".into() }
    );
    let mut bad = identifier("p");
    if let Some(p) = bad.access_policy.as_mut() {
        p.permission = Some("dr".into());
    }
    assert_eq!(
        problem(a.set_table_acl("mytable", vec![bad])),
        SettingProblem::Permission {
            permission: "dr".into()
        }
    );
    assert_eq!(a.table_acl("mytable").unwrap()[0].id, "i".repeat(64));
}

#[test]
fn acls_of_missing_tables_are_not_found_and_settings_survive_the_export() {
    let mut a = Account::default();
    assert_eq!(
        a.set_table_acl("nothere", vec![]).unwrap_err().code,
        ErrorCode::TableNotFound
    );
    let r = a.execute(&Request::GetTableAcl {
        table: "nothere".into(),
    });
    assert_eq!(r.error.map(|e| e.code), Some(ErrorCode::TableNotFound));
    a.create_table("mytable").unwrap();
    a.set_table_acl("mytable", vec![identifier("kept")])
        .unwrap();
    a.set_service_properties(&cors(vec![rule("http://kept.example")]))
        .unwrap();
    let text = serde_json::to_string(&a.export()).unwrap();
    let mut b = Account::default();
    b.import_json(&text).unwrap();
    assert_eq!(b.service_properties(), a.service_properties());
    assert_eq!(
        b.table_acl("mytable").unwrap(),
        a.table_acl("mytable").unwrap()
    );
}

//! A design on both targets: the Cosmos figures of every read agree with what the engine's
//! Cosmos DB for Table target measures for the same requests on the generated data; the
//! costs follow the price table; the guide's index copies are judged by what reads them.

use tablescope_design::{
    self as design, gallery, two_targets, Because, CopyOnCosmos, CosmosPrices, Design, EvalOptions,
    GuidePattern, Latency, Pattern, Prices, Target, TwoTargets,
};
use tablescope_engine::{Account, FixedClock, Request, Target as Service};

fn on_both(d: &Design, target: &Target) -> TwoTargets {
    let p = design::project(d, target, &Prices::default()).unwrap();
    two_targets(d, &p, &CosmosPrices::default()).unwrap()
}

fn at_own_size(d: &Design) -> TwoTargets {
    on_both(d, &Target::of_design(d))
}

fn row<'a>(t: &'a TwoTargets, name: &str) -> &'a design::OnBoth {
    t.patterns.iter().find(|p| p.pattern == name).unwrap()
}

#[test]
fn the_email_index_on_both_targets() {
    let d = gallery::design("email-index").unwrap();
    let t = at_own_size(&d);
    let point = row(&t, "Employee by email in a department");
    assert_eq!(
        (point.storage.read, point.cosmos.read, point.cosmos.returned),
        (1.0, 1.0, 1.0)
    );
    assert_eq!(
        (point.storage.latency, point.cosmos.latency),
        (Latency::Point, Latency::Point)
    );
    assert_eq!(point.ru_per_call, 1.0, "an item under 1 KB: 1 RU");
    assert!(point.indexed.is_empty());
    let scan = row(&t, "Employee by email, department unknown");
    assert_eq!(
        scan.storage.read, 20_000.0,
        "both types of the table scanned"
    );
    assert_eq!(scan.storage.latency, Latency::Scan);
    // The employee and its index entity both hold the address.
    assert_eq!(
        (
            scan.storage.returned,
            scan.cosmos.read,
            scan.cosmos.returned
        ),
        (2.0, 2.0, 2.0)
    );
    assert_eq!(scan.ru_per_call, 2.0);
    assert_eq!(scan.cosmos.latency, Latency::OneRoundTrip);
    assert_eq!(scan.indexed, ["Email"]);
    assert_eq!(t.scans_answered, ["Employee by email, department unknown"]);
    let hire = row(&t, "Hire an employee with the email index");
    assert_eq!(
        (hire.storage.requests, hire.cosmos.requests),
        (1.0, 1.0),
        "one batch"
    );
    assert_eq!(
        hire.ru_per_call,
        2.0 * tablescope_engine::target::ru::write_ru(100)
    );
    assert_eq!(t.copies.len(), 1);
    let c = &t.copies[0];
    assert_eq!(
        (c.copy.as_str(), c.of.as_str()),
        ("EmployeeByEmail", "Employee")
    );
    assert_eq!(c.guide_pattern, GuidePattern::IntraPartitionSecondaryIndex);
    assert_eq!(c.on_cosmos, CopyOnCosmos::Unnecessary);
    assert_eq!(
        c.because,
        [Because::IndexAnswers {
            pattern: "Employee by email in a department".into(),
            properties: vec!["DepartmentId".into(), "Email".into()],
        }]
    );
    assert_eq!(c.writes_per_sec, 1.0);
    assert!(t.order_lost.is_empty());
}

#[test]
fn the_log_tail_loses_its_order_on_cosmos() {
    let d = gallery::design("log-tail").unwrap();
    let t = at_own_size(&d);
    assert_eq!(t.order_lost, ["Latest 50 lines of a service"]);
    let level = row(&t, "Lines of a service at a level");
    assert_eq!(level.indexed, ["Level"]);
    assert!(level.cosmos.read < level.storage.read);
    assert_eq!(level.cosmos.read, level.cosmos.returned);
    assert!(t.copies.is_empty());
}

#[test]
fn costs_follow_the_price_table() {
    let d = gallery::design("employees-by-department").unwrap();
    let t = on_both(&d, &Target::scaled(&d, 1_000_000_000));
    let c = &t.cosmos;
    assert_eq!(c.containers.len(), 1);
    let ru: f64 = t.patterns.iter().map(|p| p.ru_per_sec).sum();
    assert!((c.ru_per_sec - ru).abs() < 1e-6 * ru);
    let step = (ru / 100.0).ceil() * 100.0;
    assert_eq!(c.containers[0].provisioned_ru_per_sec, step.max(400.0));
    let prices = CosmosPrices::default();
    let hours = 730.0;
    assert!(
        (c.provisioned - step.max(400.0) / 100.0 * prices.per_100_ru_per_sec_hour * hours).abs()
            < 1e-6
    );
    assert!(
        (c.serverless - ru * 730.0 * 3600.0 / 1e6 * prices.per_million_ru).abs()
            < 1e-6 * c.serverless.max(1.0)
    );
    assert!((c.provisioned_total - c.provisioned - c.storage).abs() < 1e-9);
    assert_eq!(c.currency, "USD");
    // The same design with twice the price of a provisioned 100 RU/s costs twice as much.
    let p = design::project(&d, &Target::scaled(&d, 1_000_000_000), &Prices::default()).unwrap();
    let dear = CosmosPrices {
        per_100_ru_per_sec_hour: 2.0 * prices.per_100_ru_per_sec_hour,
        ..prices
    };
    let t2 = two_targets(&d, &p, &dear).unwrap();
    assert!((t2.cosmos.provisioned - 2.0 * c.provisioned).abs() < 1e-6);
    println!("{}", serde_json::to_string_pretty(&t).unwrap());
}

/// Every read's first draw, run page by page on a Cosmos DB for Table account holding the
/// generated data: entities read, returned and request units as the two-target figures say.
#[test]
fn cosmos_figures_agree_with_the_engines_cosmos_target() {
    let mut checked = 0;
    for id in ["email-index", "employees-by-department", "log-tail"] {
        let d = gallery::design(id).unwrap();
        let mut account =
            Account::for_target(Service::CosmosTable, Box::new(FixedClock::default()));
        design::Generator::new(&d)
            .unwrap()
            .run(&mut account)
            .unwrap();
        let target = Target {
            draws: EvalOptions {
                draws: 1,
                table_draws: 1,
            },
            ..Target::of_design(&d)
        };
        let p = design::project(&d, &target, &Prices::default()).unwrap();
        let t = two_targets(&d, &p, &CosmosPrices::default()).unwrap();
        for ((pattern, projected), both) in d.patterns.iter().zip(&p.patterns).zip(&t.patterns) {
            let Pattern::Read(r) = pattern else { continue };
            if r.result_size.is_some() || r.fan_out {
                continue;
            }
            let table = &d.entity_type(&r.entity_type).unwrap().table;
            let (mut read, mut returned, mut ru, mut pages) = (0u64, 0u64, 0.0, 0u64);
            let mut continuation = None;
            loop {
                let answer = account.execute(&Request::Query {
                    table: table.clone(),
                    filter: Some(projected.figures.example_filter.clone()),
                    select: None,
                    top: None,
                    continuation: continuation.take(),
                    page_budget: Some(tablescope_engine::query::PAGE_SCAN_BUDGET),
                    trace: false,
                });
                assert_eq!(answer.status, 200, "{id}: {}", r.name);
                let stats = answer.stats.unwrap();
                read += stats.scanned;
                returned += stats.returned;
                ru += answer.ru.and_then(|e| e.value).unwrap_or(0.0);
                pages += 1;
                match answer.continuation {
                    Some(c) => continuation = Some(c),
                    None => break,
                }
            }
            let name = format!("{id}: {}", r.name);
            // Within the projection's stated sampling error where it combines independent
            // properties, else within 1%.
            let tolerance = 4.0 * projected.figures.returned_sampling_sd + 0.01 * read as f64;
            let near = |what: &str, projected: f64, measured: f64| {
                assert!(
                    (projected - measured).abs() <= tolerance.max(1e-9),
                    "{name}: {what} projected {projected}, measured {measured}"
                )
            };
            near("entities read", both.cosmos.read, read as f64);
            near("returned", both.cosmos.returned, returned as f64);
            near("RU", both.ru_per_call, ru);
            assert_eq!(both.cosmos.requests, pages as f64, "{name}: round trips");
            if !both.indexed.is_empty() || both.kind == design::Kind::Point {
                assert_eq!(read, returned, "{name}: the index reads what it returns");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 8, "every read without a result size or a fan-out");
}

//! Two designs side by side: the date-keyed events and their bucketed fix, projected to the
//! same size with the same patterns.

use tablescope_design::{self as design, gallery, Grade, Prices, Rule};

#[test]
fn the_bucketed_fix_spreads_the_hot_partition_the_date_key_makes() {
    let left = gallery::design("date-keyed-hot-partition").unwrap();
    let right = gallery::design("date-keyed-bucketed").unwrap();
    let c = design::compare(&left, &right, 1_000_000_000, &Prices::default()).unwrap();
    assert_eq!(c.left.name, "Date-keyed events (hot partition)");
    assert_eq!(c.right.name, "Date-keyed events, bucketed (the fix)");
    assert_eq!(
        c.left.projection.counts,
        [("Event".to_string(), 1_000_000_000)]
    );
    assert_eq!(c.right.projection.counts, c.left.projection.counts);

    // Every new event goes to today's partition (the range ends 2026-11-23): 3,000/s.
    let write = |s: &design::Side| s.projection.patterns[0].hottest.clone().unwrap();
    let (l, r) = (write(&c.left), write(&c.right));
    assert_eq!(
        (l.partition_key.as_str(), l.entities_per_sec),
        ("2026-11-23", 3000.0)
    );
    assert_eq!(l.of_target, 1.5);
    // Bucketed: one of 16 buckets of today, 3000/16 = 187.5/s give or take the hash's spread
    // over sequential ids (the generator's own ids hashed).
    assert!(
        r.partition_key.ends_with("_2026-11-23"),
        "{}",
        r.partition_key
    );
    assert!(
        (r.entities_per_sec - 187.5).abs() < 1.0,
        "{}",
        r.entities_per_sec
    );

    let grade =
        |s: &design::Side, rule: Rule| s.findings.iter().find(|f| f.rule == rule).unwrap().grade;
    assert_eq!(grade(&c.left, Rule::WriteSpread), Grade::Fail);
    assert_eq!(grade(&c.left, Rule::AppendOnly), Grade::Fail);
    assert_eq!(grade(&c.right, Rule::WriteSpread), Grade::Pass);
    assert_eq!(grade(&c.right, Rule::AppendOnly), Grade::Pass);
    // The fix costs reads: a day is now 16 requests.
    assert_eq!(grade(&c.right, Rule::Denormalisation), Grade::Warn);
    assert_eq!(c.right.projection.patterns[1].figures.partitions.mean, 16.0);
    assert_eq!(c.left.projection.patterns[1].figures.partitions.mean, 1.0);
    // Same entities scanned for a day either way: 10^9 over 30 days.
    let day = |s: &design::Side| s.projection.patterns[1].figures.scanned.mean;
    assert!((day(&c.left) - 1e9 / 30.0).abs() < 1.0, "{}", day(&c.left));
    assert!((day(&c.right) - day(&c.left)).abs() < 1e-6);

    // The monthly cost: transactions at the default price plus the stored GB.
    let cost = &c.left.projection.cost;
    let tx = (3000.0 + 0.01 * c.left.projection.patterns[1].figures.requests.mean + 50.0)
        * 730.0
        * 3600.0;
    assert!(
        (cost.transactions_per_month - tx).abs() < 1.0,
        "{} vs {tx}",
        cost.transactions_per_month
    );
    assert!((cost.transactions - tx / 10_000.0 * 0.00036).abs() < 1e-6);
    assert!((cost.total - cost.transactions - cost.stored_gb * 0.045).abs() < 1e-9);
}

#[test]
fn one_pattern_at_a_time_gives_the_same_figures_as_all_at_once() {
    let mut d = gallery::design("email-index").unwrap();
    d.entity_types.iter_mut().for_each(|t| t.count = 2_000);
    let mut account = tablescope_engine::Account::default();
    design::Generator::new(&d)
        .unwrap()
        .run(&mut account)
        .unwrap();
    let options = design::EvalOptions::default();
    let all = design::evaluate(&d, &account, &options).unwrap();
    for (i, figures) in all.patterns.iter().enumerate() {
        assert_eq!(
            &design::evaluate_pattern(&d, &account, i, &options).unwrap(),
            figures
        );
    }
    let e = design::evaluate_pattern(&d, &account, 4, &options).unwrap_err();
    assert_eq!(e.problems[0].path, "patterns[4]");
    assert_eq!(e.problems[0].issue.to_string(), "the design has 4 patterns");
    // The index entity and the employee both hold the email: a table scan for it finds two.
    assert_eq!(all.patterns[2].returned.mean, 2.0);
    assert_eq!(all.patterns[2].scanned.mean, 4_000.0);
    assert_eq!(all.patterns[3].batchable, Some(true));
}

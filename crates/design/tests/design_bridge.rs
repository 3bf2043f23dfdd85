//! The generator writes to any [`Sink`] and the evaluator reads any [`Data`]: the browser's
//! Design section runs them in its own wasm against the playground's account, through a
//! bridge. Here a sink that only collects, and a reader that sees the account only through
//! `Data` and counts its calls, give exactly what the account itself gives.

use std::cell::Cell;
use tablescope_design::{self as design, gallery, Data, DataPage, EvalOptions, Generator, Sink};
use tablescope_engine::query::QueryOptions;
use tablescope_engine::{Account, Entity};

/// Collects what the generator writes, as the browser's bridge writer does between flushes.
#[derive(Default)]
struct Collect {
    tables: Vec<String>,
    written: Vec<(String, Entity)>,
}

impl Sink for Collect {
    fn entities_in(&self, table: &str) -> Option<u64> {
        self.tables.iter().any(|t| t == table).then_some(0)
    }
    fn create_table(&mut self, table: &str) -> Result<(), String> {
        self.tables.push(table.to_string());
        Ok(())
    }
    fn insert(&mut self, table: &str, entity: Entity) -> Result<(), String> {
        self.written.push((table.to_string(), entity));
        Ok(())
    }
}

/// The account behind `Data` only, counting pages.
struct Remote<'a> {
    account: &'a Account,
    pages: Cell<u32>,
}

impl Data for Remote<'_> {
    fn has_table(&self, table: &str) -> bool {
        self.account.has_table(table)
    }
    fn page(&self, table: &str, options: &QueryOptions) -> Result<DataPage, String> {
        self.pages.set(self.pages.get() + 1);
        self.account.page(table, options)
    }
    fn contains(&self, table: &str, partition_key: &str, row_key: &str) -> bool {
        self.account.contains(table, partition_key, row_key)
    }
}

#[test]
fn a_collecting_sink_gets_what_the_account_stores_and_a_remote_reader_measures_the_same() {
    let mut d = gallery::design("employees-by-department").unwrap();
    for t in &mut d.entity_types {
        t.count = t.count.min(2_000);
    }
    let mut account = Account::default();
    let total = Generator::new(&d).unwrap().run(&mut account).unwrap();

    let mut collect = Collect::default();
    let mut g = Generator::new(&d).unwrap();
    while !g.step(&mut collect, 333).unwrap().is_complete() {}
    assert_eq!(collect.tables, d.tables);
    assert_eq!(collect.written.len() as u64, total);
    // Every collected entity is in the account with the same properties.
    for (table, e) in &collect.written {
        let stored = account
            .table(table)
            .unwrap()
            .get(&e.partition_key, &e.row_key)
            .unwrap_or_else(|| panic!("({}, {}) is not stored", e.partition_key, e.row_key));
        assert_eq!(stored.properties.to_vec(), e.properties);
    }

    let options = EvalOptions::default();
    let direct = design::evaluate(&d, &account, &options).unwrap();
    let remote = Remote {
        account: &account,
        pages: Cell::new(0),
    };
    let through = design::evaluate(&d, &remote, &options).unwrap();
    assert_eq!(direct, through);
    assert!(remote.pages.get() > 0);
}

#[test]
fn a_table_that_holds_entities_is_refused_through_any_sink() {
    let d = gallery::design("employees-by-department").unwrap();
    struct Full;
    impl Sink for Full {
        fn entities_in(&self, _: &str) -> Option<u64> {
            Some(7)
        }
        fn create_table(&mut self, _: &str) -> Result<(), String> {
            unreachable!("the table exists")
        }
        fn insert(&mut self, _: &str, _: Entity) -> Result<(), String> {
            unreachable!("nothing may be written")
        }
    }
    let e = Generator::new(&d).unwrap().step(&mut Full, 10).unwrap_err();
    assert!(e.to_string().contains("already holds 7 entities"), "{e}");
}

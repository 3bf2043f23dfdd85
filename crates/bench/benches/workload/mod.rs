//! The benchmark workload: 1,000,000 entities in 1,000 partitions, each with six
//! properties of mixed types.

use tablescope_engine::{Account, DateTime, Entity, FixedClock, Target, Value};

pub const PARTITIONS: usize = 1_000;
pub const PER_PARTITION: usize = 1_000;

pub fn partition_key(p: usize) -> String {
    format!("p{p:04}")
}

pub fn row_key(r: usize) -> String {
    format!("r{r:06}")
}

/// Entity `i` of partition `p`. `Bucket` is `i % 100`, so `Bucket eq 42` matches 1%.
pub fn entity(p: usize, i: usize) -> Entity {
    Entity::new(partition_key(p), row_key(i))
        .with("Name", Value::string(format!("Customer {p}-{i}")))
        .with("Bucket", Value::Int32((i % 100) as i32))
        .with("Balance", Value::Int64((p * 1_000_003 + i) as i64 * 97))
        .with("Score", Value::Double(i as f64 / 7.0))
        .with("Active", Value::Boolean(i.is_multiple_of(3)))
        .with(
            "Joined",
            Value::DateTime(
                DateTime::from_ticks(133_000_000_000_000_000 + (i as i64) * 10_000_000)
                    .unwrap_or(DateTime::MIN),
            ),
        )
}

/// An account holding the whole workload in table `Bench`.
#[allow(dead_code)]
pub fn account() -> Account {
    account_on(Target::TableStorage)
}

/// [`account`] on `target`.
pub fn account_on(target: Target) -> Account {
    let mut a = Account::for_target(target, Box::new(FixedClock::default()));
    a.set_change_feed(false);
    a.create_table("Bench").expect("create");
    for p in 0..PARTITIONS {
        for i in 0..PER_PARTITION {
            a.insert("Bench", entity(p, i)).expect("insert");
        }
    }
    a
}

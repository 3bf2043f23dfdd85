//! `cosmos-bench [rounds] [partitions]`: the engine benchmarks' four lines (point get,
//! partition query, filtered table scan, insert of 100,000 entities) on a Table storage
//! account and on a Cosmos DB for Table account, alternated in every round (which goes first
//! switches each round), timed by the thread's own CPU time (`/proc/thread-self/schedstat`:
//! on the shared machine a pass is often descheduled) and by the wall clock. Both read
//! accounts are loaded before anything is timed, so that neither is laid out in memory the
//! other freed. Prints each line's median per-operation time on both targets and the median
//! of the rounds' paired ratios (min–max), then what a property filter reads on Cosmos at
//! 100,000 entities. Build with the serve profile (opt-level 3):
//! `cargo build --profile serve -p tablescope-bench --bin cosmos-bench`.

use std::time::Instant;
use tablescope_bench::{cpu_ns, entity};
use tablescope_engine::query::{execute_page, plan, QueryOptions};
use tablescope_engine::{filter, Account, FixedClock, Target};

type Outcome<T> = Result<T, String>;

const PER_PARTITION: usize = 1_000;
// Passes of about 100 ms or more: the kernel counts a thread's CPU time in ticks of a few
// milliseconds.
const GETS: usize = 300_000;
const QUERY_LAPS: usize = 5_000;
const SCAN_LAPS: usize = 20;
const INSERTS: usize = 100_000;
const INSERT_LOADS: usize = 3;

/// An account on `target` with table `Bench` holding `partitions` × 1,000 entities, loaded in
/// key order (as the criterion benches load theirs).
fn loaded(target: Target, partitions: usize) -> Outcome<Account> {
    let mut a = Account::for_target(target, Box::new(FixedClock::default()));
    a.set_change_feed(false);
    a.create_table("Bench")
        .map_err(|e| format!("create: {e:?}"))?;
    for p in 0..partitions {
        for i in 0..PER_PARTITION {
            a.insert("Bench", entity(p, i))
                .map_err(|e| format!("insert: {e:?}"))?;
        }
    }
    Ok(a)
}

/// CPU and wall nanoseconds of `f`, divided by `per`.
fn timed(per: usize, f: impl FnOnce() -> Outcome<()>) -> Outcome<(f64, f64)> {
    let (cpu, wall) = (cpu_ns(), Instant::now());
    f()?;
    let n = per as f64;
    Ok((
        (cpu_ns() - cpu) as f64 / n,
        wall.elapsed().as_nanos() as f64 / n,
    ))
}

/// Every page of `text`: (entities read, entities returned).
fn all_pages(a: &Account, text: &str) -> Outcome<(u64, u64)> {
    let table = a.table("Bench").map_err(|e| format!("table: {e:?}"))?;
    let mut options = QueryOptions::default();
    let (mut scanned, mut returned) = (0, 0);
    loop {
        let p = plan(filter::parse(text).map_err(|e| format!("parse: {e:?}"))?);
        let page = execute_page(table, p, &options, false).map_err(|e| format!("page: {e:?}"))?;
        scanned += page.stats.scanned;
        returned += page.stats.returned;
        options.continuation = page.continuation;
        if options.continuation.is_none() {
            return Ok((scanned, returned));
        }
    }
}

/// One pass of `line` on `a` (`target`'s account): (CPU ns, wall ns) per operation.
fn pass(line: &str, target: Target, a: &Account, keys: &[(String, String)]) -> Outcome<(f64, f64)> {
    let table = a.table("Bench").map_err(|e| format!("table: {e:?}"))?;
    match line {
        "point get" => timed(GETS, || {
            for (pk, rk) in keys.iter().cycle().take(GETS) {
                assert!(table.get(pk, rk).is_some());
            }
            Ok(())
        }),
        "partition query" => timed(QUERY_LAPS, || {
            for _ in 0..QUERY_LAPS {
                let p = plan(
                    filter::parse("PartitionKey eq 'p0500'")
                        .map_err(|e| format!("parse: {e:?}"))?,
                );
                let page = execute_page(table, p, &QueryOptions::default(), false);
                assert_eq!(
                    page.map_err(|e| format!("page: {e:?}"))?.entities.len(),
                    1_000
                );
            }
            Ok(())
        }),
        "table scan" => timed(SCAN_LAPS, || {
            for _ in 0..SCAN_LAPS {
                // `Bucket` is `i % 100`: 1% match.
                let (_, returned) = all_pages(a, "Bucket eq 42")?;
                assert_eq!(returned as usize, table.entity_count() / 100);
            }
            Ok(())
        }),
        // 100,000 entities into a new table, as the criterion bench inserts them (partitions
        // in turn), a few times over; only the inserts are timed.
        _ => {
            let (mut cpu, mut wall) = (0.0, 0.0);
            for _ in 0..INSERT_LOADS {
                let mut fresh = Account::for_target(target, Box::new(FixedClock::default()));
                fresh.set_change_feed(false);
                fresh
                    .create_table("Bench")
                    .map_err(|e| format!("create: {e:?}"))?;
                let es: Vec<_> = (0..INSERTS).map(|i| entity(i % 100, i)).collect();
                let (c, w) = timed(INSERTS * INSERT_LOADS, || {
                    for e in es {
                        fresh
                            .insert("Bench", e)
                            .map_err(|e| format!("insert: {e:?}"))?;
                    }
                    Ok(())
                })?;
                (cpu, wall) = (cpu + c, wall + w);
            }
            Ok((cpu, wall))
        }
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() -> Outcome<()> {
    let arg = |i: usize, default: usize| {
        let a = std::env::args().nth(i);
        a.and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (rounds, partitions) = (arg(1, 5), arg(2, 1_000));
    let n = partitions * PER_PARTITION;
    let storage = loaded(Target::TableStorage, partitions)?;
    let cosmos = loaded(Target::CosmosTable, partitions)?;
    // Keys visited in a scattered order: (k × 7919) mod n, as the criterion bench does.
    let keys: Vec<(String, String)> = (0..10_000usize)
        .map(|k| {
            let i = (k * 7919) % n;
            (
                format!("p{:04}", i / PER_PARTITION),
                format!("r{:06}", i % PER_PARTITION),
            )
        })
        .collect();
    let lines = ["point get", "partition query", "table scan", "insert"];
    println!(
        "{partitions} partitions x {PER_PARTITION}; {rounds} rounds; load {}",
        load()
    );
    println!("| line | storage CPU (wall) | Cosmos CPU (wall) | Cosmos / storage, CPU: median (min-max) |");
    println!("|---|---|---|---|");
    for line in lines {
        // Warm: one untimed pass each.
        pass(line, Target::TableStorage, &storage, &keys)?;
        pass(line, Target::CosmosTable, &cosmos, &keys)?;
        let (mut s, mut c, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let (sp, cp) = if round % 2 == 0 {
                let sp = pass(line, Target::TableStorage, &storage, &keys)?;
                (sp, pass(line, Target::CosmosTable, &cosmos, &keys)?)
            } else {
                let cp = pass(line, Target::CosmosTable, &cosmos, &keys)?;
                (pass(line, Target::TableStorage, &storage, &keys)?, cp)
            };
            ratios.push(cp.0 / sp.0);
            s.push(sp);
            c.push(cp);
        }
        let cpu = |v: &[(f64, f64)]| median(v.iter().map(|x| x.0).collect());
        let wall = |v: &[(f64, f64)]| median(v.iter().map(|x| x.1).collect());
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, 0f64), |(l, h), r| (l.min(*r), h.max(*r)));
        println!(
            "| {line} | {} ({}) | {} ({}) | {:.2}x ({lo:.2}-{hi:.2}) |",
            shown(cpu(&s)),
            shown(wall(&s)),
            shown(cpu(&c)),
            shown(wall(&c)),
            median(ratios.clone()),
        );
    }
    // The property filter at 100,000 entities: what the index read against what it returned.
    let small = loaded(Target::CosmosTable, 100)?;
    for text in ["Bucket eq 42", "Bucket lt 3", "Name eq 'Customer 7-700'"] {
        let (read, returned) = all_pages(&small, text)?;
        println!("Cosmos, 100,000 entities, `{text}`: {read} read, {returned} returned");
    }
    println!("load {}", load());
    Ok(())
}

fn shown(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The 1-, 5- and 15-minute load averages.
fn load() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

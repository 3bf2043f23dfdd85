//! `scan-bench [passes] [typed|execute]`: the filtered table scan alone, for
//! quick before/after runs and profiles: the side-by-side workload (100,000 entities in 100
//! partitions) loaded in batches of 100 through `Account::execute` as `scripts/bench/run.sh`
//! loads it (or through `Account::insert` with `typed`), then `Bucket eq 42` followed to its
//! end `passes` times through `Account::execute`, each pass checked (exactly 1,000 entities).
//! Prints each pass's rate by the wall clock and the median, in million scanned entities per
//! second, and the rate over all passes by the thread's own CPU time
//! (`/proc/thread-self/schedstat`: on a shared machine a pass is often descheduled, which
//! halves its wall-clock rate; the kernel accounts CPU time in ticks here, so only the total
//! over many passes is exact enough). Build with
//! the serve profile (`cargo build --profile serve -p tablescope-bench --bin scan-bench`).

use std::time::Instant;
use tablescope_bench::{cpu_ns, entity};
use tablescope_engine::{Account, BatchRequest, RawEntity, Request};

const PARTITIONS: usize = 100;
const PER_PARTITION: usize = 1_000;
const BATCH: usize = 100;

fn main() -> Result<(), String> {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(101);
    let typed = std::env::args().nth(2).as_deref() == Some("typed");
    let mut account = Account::default();
    account.set_change_feed(false);
    account
        .create_table("Bench")
        .map_err(|e| format!("{e:?}"))?;
    for p in 0..PARTITIONS {
        for first in (0..PER_PARTITION).step_by(BATCH) {
            let entities = (first..first + BATCH).map(|i| entity(p, i));
            if typed {
                for e in entities {
                    account.insert("Bench", e).map_err(|e| format!("{e:?}"))?;
                }
                continue;
            }
            let batch = Request::Batch {
                table: "Bench".into(),
                operations: entities
                    .map(|e| BatchRequest::Insert {
                        entity: RawEntity::from_entity(&e),
                    })
                    .collect(),
            };
            let r = account.execute(&batch);
            if let Some(e) = r.error {
                return Err(format!("batch: {} {}", e.code, e.message));
            }
        }
    }
    let scanned = (PARTITIONS * PER_PARTITION) as f64;
    let mut rates = Vec::with_capacity(passes);
    let cpu_start = cpu_ns();
    for _ in 0..passes {
        let start = Instant::now();
        let mut returned = 0;
        let mut continuation = None;
        loop {
            let r = account.execute(&Request::Query {
                table: "Bench".into(),
                filter: Some("Bucket eq 42".into()),
                select: None,
                top: None,
                continuation: continuation.take(),
                page_budget: None,
                trace: false,
            });
            returned += r.entities.as_ref().map_or(0, Vec::len);
            continuation = r.continuation;
            if continuation.is_none() {
                break;
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        if returned != PARTITIONS * PER_PARTITION / 100 {
            return Err(format!("the scan returned {returned} entities"));
        }
        rates.push(scanned / seconds / 1e6);
    }
    let cpu_seconds = cpu_ns().saturating_sub(cpu_start) as f64 / 1e9;
    let line: Vec<String> = rates.iter().map(|r| format!("{r:.1}")).collect();
    println!("wall clock, passes (M scanned/s): {}", line.join(" "));
    rates.sort_by(f64::total_cmp);
    println!(
        "wall clock: median {:.1} M/s, best {:.1} M/s; CPU time over all passes: {:.1} M/s",
        rates[rates.len() / 2],
        rates[rates.len() - 1],
        scanned * passes as f64 / cpu_seconds / 1e6
    );
    Ok(())
}

//! `wire-bench [passes]`: the point get and the 1,000-entity partition query through
//! `tablescope_wire::handle`, request bytes in to response bytes out, as `benches/wire.rs`
//! measures them (100,000 entities in 100 partitions; 10,000 prepared gets visited in a
//! scattered order; the query of each partition in turn, with the `Accept` headers the SDKs
//! send) but as a plain binary for quick before/after runs: prints each pass's mean per
//! request and the median pass, and the mean by the thread's CPU time over all passes.
//! Build with the serve profile (`cargo build --profile serve -p tablescope-bench --bin
//! wire-bench`).

use std::time::Instant;
use tablescope_bench::{cpu_ns, entity};
use tablescope_engine::{Account, BatchRequest, DateTime, RawEntity, Request};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};

const PARTITIONS: usize = 100;
const PER_PARTITION: usize = 1_000;

fn main() -> Result<(), String> {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(9);
    let mut account = Account::default();
    account.set_change_feed(false);
    account
        .create_table("Bench")
        .map_err(|e| format!("{e:?}"))?;
    // In batches of 100, as the served benchmark loads it (scripts/bench/lean.sh): a batch's
    // inserts share one Timestamp.
    for p in 0..PARTITIONS {
        for first in (0..PER_PARTITION).step_by(100) {
            let batch = Request::Batch {
                table: "Bench".into(),
                operations: (first..(first + 100).min(PER_PARTITION))
                    .map(|i| BatchRequest::Insert {
                        entity: RawEntity::from_entity(&entity(p, i)),
                    })
                    .collect(),
            };
            let response = account.execute(&batch);
            if response.status != 202 {
                return Err(format!("batch: {} {:?}", response.status, response.error));
            }
        }
    }
    let endpoint = Endpoint::anonymous("devstoreaccount1");
    let context = Context {
        now: DateTime::MIN,
        request_id: "bench".into(),
    };
    let gets: Vec<HttpRequest> = (0..10_000usize)
        .map(|k| {
            let i = (k * 7919) % (PARTITIONS * PER_PARTITION);
            let url = format!(
                "/devstoreaccount1/Bench(PartitionKey='p{:04}',RowKey='r{:06}')",
                i / PER_PARTITION,
                i % PER_PARTITION
            );
            HttpRequest::new("GET", &url)
                .header("Host", "127.0.0.1:10002")
                .header("Accept", "application/json;odata=minimalmetadata")
                .header("x-ms-version", "2019-02-02")
                .header("DataServiceVersion", "3.0")
        })
        .collect();
    point_gets(&mut account, &endpoint, &context, &gets, passes)?;
    for level in ["nometadata", "minimalmetadata"] {
        partition_queries(&mut account, &endpoint, &context, level, passes)?;
    }
    Ok(())
}

fn point_gets(
    account: &mut Account,
    endpoint: &Endpoint,
    context: &Context,
    gets: &[HttpRequest],
    passes: usize,
) -> Result<(), String> {
    let mut per_get = Vec::new();
    let cpu_start = cpu_ns();
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        let mut bytes = 0;
        for g in gets {
            let out = wire::handle(account, endpoint, context, g);
            if out.response.status != 200 {
                return Err(format!("status {}", out.response.status));
            }
            bytes += out.response.body.len();
        }
        std::hint::black_box(bytes);
        per_get.push(start.elapsed().as_secs_f64() / gets.len() as f64);
    }
    let cpu_per_get =
        cpu_ns().saturating_sub(cpu_start) as f64 / (per_get.len() * gets.len()) as f64;
    let shown: Vec<String> = per_get.iter().map(|s| format!("{:.2}", s * 1e6)).collect();
    per_get.sort_by(f64::total_cmp);
    println!(
        "wire point get: median {:.3} µs over {} passes of 10,000 (passes: {})",
        per_get[per_get.len() / 2] * 1e6,
        per_get.len(),
        shown.join(" ")
    );
    // On a shared machine a pass is often descheduled; the thread's own CPU time is not.
    println!(
        "wire point get by CPU time over all passes: {:.3} µs",
        cpu_per_get / 1e3
    );
    Ok(())
}

/// Each partition's query once per pass (100 queries of 1,000 entities), at `level`.
fn partition_queries(
    account: &mut Account,
    endpoint: &Endpoint,
    context: &Context,
    level: &str,
    passes: usize,
) -> Result<(), String> {
    let accept = format!("application/json;odata={level}");
    let queries: Vec<HttpRequest> = (0..PARTITIONS)
        .map(|p| {
            let url =
                format!("/devstoreaccount1/Bench()?$filter=PartitionKey%20eq%20%27p{p:04}%27");
            HttpRequest::new("GET", &url)
                .header("Host", "127.0.0.1:10002")
                .header("Accept", &accept)
                .header("x-ms-version", "2019-02-02")
                .header("DataServiceVersion", "3.0")
        })
        .collect();
    let mut per_query = Vec::new();
    let mut bytes = 0;
    let cpu_start = cpu_ns();
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        for q in &queries {
            let out = wire::handle(account, endpoint, context, q);
            if out.stats.map(|s| s.returned) != Some(PER_PARTITION as u64) {
                return Err(format!("status {}", out.response.status));
            }
            bytes = out.response.body.len();
        }
        per_query.push(start.elapsed().as_secs_f64() / queries.len() as f64);
    }
    let cpu_per_query =
        cpu_ns().saturating_sub(cpu_start) as f64 / (per_query.len() * queries.len()) as f64;
    per_query.sort_by(f64::total_cmp);
    println!(
        "wire partition query ({level}, {bytes} bytes): median {:.1} µs, by CPU time {:.1} µs = {:.0} ns per entity",
        per_query[per_query.len() / 2] * 1e6,
        cpu_per_query / 1e3,
        cpu_per_query / PER_PARTITION as f64
    );
    Ok(())
}

//! The engine's lines of the side-by-side benchmark (`scripts/bench/run.sh`): the
//! workload of `scripts/bench/lib/workload.mjs` run in-process, through the typed API or
//! through [`Account::execute`], natively (`src/main.rs`) or as a bare wasm module in headless
//! Chromium (`src/main.rs` built for wasm32, driven by `scripts/bench/lib/engine.mjs`).
//!
//! The plan comes in as the JSON of `workload.mjs`'s `plan()`, so every line reads the same
//! keys; the figures go out in the shape of `lib/sdk.mjs`'s `runWorkload`, so the report
//! treats an engine line like a server line. As there, reads run untimed first (here for
//! [`WARM_UP`] seconds), then timed (reads warm, as a user's second query), the queries'
//! figure is the median of `queryPasses` passes (here the 1,000 point gets' too), and every
//! read is checked, so a fast wrong answer cannot pass. In-process a read takes tens of
//! microseconds to a millisecond, a few steps of a browser's 100 µs clock: each pass makes
//! laps of the gets or of the query ([`GET_LAPS`], [`QUERY_LAPS`]), and its time is divided
//! by their number.
//!
//! Requests (and typed entities) are built outside the clock, one partition at a time just
//! before it is timed: the SDK lines also build their batches before the clock, and building
//! all 100,000 up front would inflate the memory figure (wasm memory never shrinks).

use serde::{Deserialize, Serialize};
use tablescope_engine::query::{self, QueryOptions};
use tablescope_engine::{
    filter, Account, BatchRequest, DateTime, Entity, RawEntity, Request, Response, Value,
};

/// `workload.mjs`'s plan (the fields the engine needs).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub partitions: usize,
    pub per_partition: usize,
    pub batch_size: usize,
    pub query_passes: usize,
    pub table: String,
    pub point_gets: Vec<PointGet>,
    pub partition_query: PartitionQuery,
    pub table_scan: TableScan,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PointGet {
    pub partition_key: String,
    pub row_key: String,
    pub bucket: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartitionQuery {
    pub partition_key: String,
    pub expected: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TableScan {
    pub filter: String,
    pub expected: usize,
}

/// Which API the workload goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// `Account::insert`, `Account::get`, `query::execute_page`: typed values in and out.
    Typed,
    /// `Account::execute`: requests as the UI, scenario files and share links send them
    /// (entities in their JSON form), answers as [`Response`]s.
    Execute,
}

/// What the host provides: a monotonic clock and the memory figure.
pub trait Host {
    /// Seconds since some fixed instant.
    fn now(&self) -> f64;
    /// The bytes the process (native: resident set) or module (wasm: linear memory) holds.
    fn memory_bytes(&self) -> u64;
}

/// Seconds a phase took: the server's CPU is the engine's time (it runs in-process, on one
/// thread, so CPU ≈ wall); there is no client.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Cpu {
    pub server: f64,
    pub client: f64,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Memory {
    /// After the load.
    pub rss_bytes: u64,
    /// Before the load (the table created, empty): `rss_bytes` minus this, over the entity
    /// count, is the memory per entity (at most 250 bytes).
    pub rss_before_bytes: u64,
    /// That growth per entity.
    pub bytes_per_entity: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Phases {
    pub insert: Cpu,
    pub point_get: Cpu,
    pub partition_query: Cpu,
    pub table_scan: Cpu,
}

/// The figures of one run, in `runWorkload`'s shape.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    pub insert_seconds: f64,
    pub point_get_seconds: f64,
    pub partition_query_seconds: f64,
    pub partition_query_passes: Vec<f64>,
    pub table_scan_seconds: f64,
    pub table_scan_passes: Vec<f64>,
    pub table_scan_pages: usize,
    pub memory: Memory,
    pub cpu: Phases,
}

/// Entity `i` of partition `p`, as `workload.mjs`'s `entity(p, i)` sends it.
pub fn entity(p: usize, i: usize) -> Entity {
    // 2023-06-01T00:00:00Z in ms, plus i seconds.
    const JOINED_BASE_MS: i64 = 1_685_577_600_000;
    let joined =
        DateTime::from_unix_millis(JOINED_BASE_MS + i as i64 * 1_000).unwrap_or(DateTime::MIN);
    Entity::new(format!("p{p:04}"), format!("r{i:06}"))
        .with("Name", Value::string(format!("Customer {p}-{i}")))
        .with("Bucket", Value::Int32((i % 100) as i32))
        .with("Balance", Value::Int64((p * 1_000_003 + i) as i64 * 97))
        .with("Score", Value::Double(i as f64 / 7.0))
        .with("Active", Value::Boolean(i.is_multiple_of(3)))
        .with("Joined", Value::DateTime(joined))
}

type Outcome<T> = std::result::Result<T, String>;

/// A timed pass of point gets goes through the plan's keys this many times, and its time is
/// divided by it: the 1,000 gets take about a millisecond in-process, ten steps of a
/// browser's clock.
const GET_LAPS: usize = 10;

/// A timed pass of a query follows it to its end this many times, and its time is divided
/// by it: in-process a partition query takes tens of microseconds and the table scan about
/// half a millisecond. With ten laps, a partition query's pass was four steps of a
/// browser's 100 µs clock, so its figure moved in steps of a quarter; fifty make it twenty.
const QUERY_LAPS: usize = 50;

/// Seconds each read kind runs untimed before its timed passes: the state of a user's second
/// query, which comes seconds after the first. A browser compiles wasm twice: a quick
/// baseline first, and, once a function runs hot, optimised code in the background (V8's
/// Liftoff, then TurboFan), which a later call picks up. The query loop is one large
/// function, and with a single untimed read the partition query's timed passes (3 ms in all)
/// ran before its optimised code was ready: they timed the baseline compiler. Natively
/// this only repeats warm reads.
const WARM_UP: f64 = 1.0;

/// `what` is only called on a mismatch: the checks run inside the timed loops.
fn check<T: PartialEq + std::fmt::Debug>(
    what: impl FnOnce() -> String,
    actual: T,
    expected: T,
) -> Outcome<()> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{}: expected {expected:?}, got {actual:?}", what()))
    }
}

fn succeeded(what: &str, r: &Response, status: u16) -> Outcome<()> {
    match &r.error {
        Some(e) => Err(format!("{what}: {} {}", e.code, e.message)),
        None => check(|| format!("{what} status"), r.status, status),
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[mid],
        _ => (sorted[mid - 1] + sorted[mid]) / 2.0,
    }
}

/// Runs the whole workload once on a fresh account.
pub fn run(plan: &Plan, path: Path, host: &dyn Host) -> Outcome<Figures> {
    let mut account = Account::default();
    // The change feed is what the app's persistence reads; neither path here persists.
    account.set_change_feed(false);
    let table = plan.table.as_str();
    account
        .create_table(table)
        .map_err(|e| format!("create table: {e:?}"))?;

    let memory_before = host.memory_bytes();
    // One partition's batches are built, then timed together: a browser's clock is coarse
    // (100 µs in Chromium without cross-origin isolation), so fewer, longer intervals.
    let mut insert_seconds = 0.0;
    for p in 0..plan.partitions {
        let batches: Vec<Vec<Entity>> = (0..plan.per_partition)
            .step_by(plan.batch_size.max(1))
            .map(|first| {
                let last = (first + plan.batch_size.max(1)).min(plan.per_partition);
                (first..last).map(|i| entity(p, i)).collect()
            })
            .collect();
        match path {
            Path::Typed => {
                let start = host.now();
                for e in batches.into_iter().flatten() {
                    account
                        .insert(table, e)
                        .map_err(|e| format!("insert: {e:?}"))?;
                }
                insert_seconds += host.now() - start;
            }
            Path::Execute => {
                let requests: Vec<Request> = batches
                    .iter()
                    .map(|entities| Request::Batch {
                        table: table.to_string(),
                        operations: entities
                            .iter()
                            .map(|e| BatchRequest::Insert {
                                entity: RawEntity::from_entity(e),
                            })
                            .collect(),
                    })
                    .collect();
                drop(batches);
                let start = host.now();
                let responses: Vec<Response> =
                    requests.iter().map(|r| account.execute(r)).collect();
                insert_seconds += host.now() - start;
                for r in &responses {
                    succeeded("batch", r, 202)?;
                }
            }
        }
    }
    let rss_bytes = host.memory_bytes();
    let memory = Memory {
        rss_bytes,
        rss_before_bytes: memory_before,
        bytes_per_entity: rss_bytes.saturating_sub(memory_before) as f64
            / (plan.partitions * plan.per_partition).max(1) as f64,
    };

    let gets: Vec<Request> = plan
        .point_gets
        .iter()
        .map(|g| Request::Get {
            table: table.to_string(),
            partition_key: g.partition_key.clone(),
            row_key: g.row_key.clone(),
            select: None,
        })
        .collect();
    let point_get = |account: &mut Account| -> Outcome<usize> {
        for (g, request) in (0..GET_LAPS).flat_map(|_| plan.point_gets.iter().zip(&gets)) {
            let bucket = match path {
                Path::Typed => account
                    .get(table, &g.partition_key, &g.row_key)
                    .map_err(|e| format!("get: {e:?}"))?
                    .get("Bucket")
                    .cloned(),
                Path::Execute => {
                    let r = account.execute(request);
                    succeeded("get", &r, 200)?;
                    r.entity.as_ref().and_then(|e| e.property("Bucket"))
                }
            };
            check(
                || format!("Bucket of {}/{}", g.partition_key, g.row_key),
                bucket,
                Some(Value::Int32(g.bucket)),
            )?;
        }
        Ok(plan.point_gets.len())
    };
    // (entities returned, pages) of a query followed to its end.
    let read_all = |account: &mut Account, filter_text: &str| -> Outcome<(usize, usize)> {
        let (mut count, mut pages) = (0, 0);
        let mut continuation = None;
        loop {
            match path {
                Path::Typed => {
                    let t = account.table(table).map_err(|e| format!("{e:?}"))?;
                    let expr = filter::parse(filter_text).map_err(|e| format!("{e:?}"))?;
                    let options = QueryOptions {
                        continuation: continuation.take(),
                        ..QueryOptions::default()
                    };
                    let page = query::execute_page(t, query::plan(expr), &options, false)
                        .map_err(|e| format!("query: {e:?}"))?;
                    count += page.entities.len();
                    continuation = page.continuation;
                }
                Path::Execute => {
                    let r = account.execute(&Request::Query {
                        table: table.to_string(),
                        filter: Some(filter_text.to_string()),
                        select: None,
                        top: None,
                        continuation: continuation.take(),
                        page_budget: None,
                        trace: false,
                    });
                    succeeded("query", &r, 200)?;
                    count += r.entities.as_ref().map_or(0, Vec::len);
                    continuation = r.continuation;
                }
            }
            pages += 1;
            if continuation.is_none() {
                return Ok((count, pages));
            }
        }
    };
    let partition_filter = format!(
        "PartitionKey eq '{}'",
        plan.partition_query.partition_key.replace('\'', "''")
    );
    let partition_query = |account: &mut Account| -> Outcome<usize> {
        let (count, pages) = read_all(account, &partition_filter)?;
        check(
            || "partition query entities".into(),
            count,
            plan.partition_query.expected,
        )?;
        Ok(pages)
    };
    let table_scan = |account: &mut Account| -> Outcome<usize> {
        let (count, pages) = read_all(account, &plan.table_scan.filter)?;
        check(
            || "table scan entities".into(),
            count,
            plan.table_scan.expected,
        )?;
        Ok(pages)
    };

    // Untimed reads for WARM_UP seconds, then `repeats` timed passes of `laps` reads each:
    // (median seconds per read, every pass's seconds per read, the value).
    let timed = |account: &mut Account,
                 read: &dyn Fn(&mut Account) -> Outcome<usize>,
                 repeats: usize,
                 laps: usize|
     -> Outcome<(f64, Vec<f64>, usize)> {
        let warm_from = host.now();
        read(account)?;
        while host.now() - warm_from < WARM_UP {
            read(account)?;
        }
        let mut passes = Vec::with_capacity(repeats);
        let mut value = 0;
        for _ in 0..repeats {
            let start = host.now();
            for _ in 0..laps {
                value = read(account)?;
            }
            passes.push((host.now() - start) / laps as f64);
        }
        Ok((median(&passes), passes, value))
    };
    let repeats = plan.query_passes.max(1);
    // The 1,000 gets take about a millisecond here (the SDK lines time them once: they are
    // 1,000 requests, seconds): each pass makes GET_LAPS laps of them, and the figure is the
    // median of `queryPasses` passes, like the queries, so one preemption on a busy machine
    // or one tick of the browser's coarse clock does not decide.
    let gets = timed(&mut account, &point_get, repeats, 1)?;
    let partition = timed(&mut account, &partition_query, repeats, QUERY_LAPS)?;
    let scan = timed(&mut account, &table_scan, repeats, QUERY_LAPS)?;
    let mean = |passes: &[f64]| passes.iter().sum::<f64>() / passes.len().max(1) as f64;
    let cpu = |seconds: f64| Cpu {
        server: seconds,
        client: 0.0,
    };
    Ok(Figures {
        insert_seconds,
        point_get_seconds: gets.0 / GET_LAPS as f64,
        partition_query_seconds: partition.0,
        table_scan_seconds: scan.0,
        table_scan_pages: scan.2,
        memory,
        cpu: Phases {
            insert: cpu(insert_seconds),
            point_get: cpu(mean(&gets.1) / GET_LAPS as f64),
            partition_query: cpu(mean(&partition.1)),
            table_scan: cpu(mean(&scan.1)),
        },
        partition_query_passes: partition.1,
        table_scan_passes: scan.1,
    })
}

/// Parses the plan, runs it, and answers the figures as JSON (or `{"error": …}`).
pub fn run_json(plan_json: &str, path: Path, host: &dyn Host) -> String {
    let result = serde_json::from_str::<Plan>(plan_json)
        .map_err(|e| format!("plan: {e}"))
        .and_then(|plan| run(&plan, path, host));
    match result {
        Ok(figures) => {
            serde_json::to_string(&figures).unwrap_or_else(|e| error_json(&format!("figures: {e}")))
        }
        Err(e) => error_json(&e),
    }
}

fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// Nanoseconds this thread has run on a CPU, from `/proc/thread-self/schedstat` (0 where there
/// is none). On a shared machine a timed pass is often descheduled; the thread's own CPU time
/// is not. The kernel accounts it in ticks here, so only a total over many operations is
/// exact enough.
pub fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

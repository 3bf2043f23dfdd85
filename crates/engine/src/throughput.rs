//! The throughput simulator: replays a generated workload against the service's scalability
//! targets (2,000 entities/s per partition, 20,000/s per account, for 1 KiB entities) and
//! reports which requests would be throttled (503 ServerBusy), and what retrying with
//! exponential backoff does to them.
//!
//! Model: time runs in ticks of 10 ms. Each partition and the account hold a token bucket
//! that refills at its target rate and holds at most 100 ms of it (a small burst). A request
//! takes one token from its partition and one from the account; if either is empty it is
//! throttled. A throttled request is retried after `base · 2^attempt` ms (capped, with
//! deterministic jitter) until it succeeds or runs out of retries. Same inputs, same output.
//!
//! On Azure Cosmos DB for Table ([`Provisioned`]) the same workload spends request units
//! instead: the container's provisioned RU/s are divided evenly among its physical partitions
//! (each serves at most 10,000 RU/s), every logical partition (PartitionKey) lives in one of
//! them, chosen by a hash of the key, and a 1 KiB write costs the published write figure
//! ([`crate::target::ru::write_ru`]). A request whose physical partition has too few RUs left
//! is throttled with 429 instead of 503. There is no account-wide target beyond the
//! container's RU/s. Sources: "Azure Cosmos DB service quotas" (10,000 RU/s per partition,
//! 20 GB per logical partition, 400 RU/s at least) and "Partitioning and horizontal scaling"
//! (throughput divided evenly among physical partitions), both on learn.microsoft.com. How
//! many physical partitions a container has is internal to the service; the model takes the
//! fewest that can serve the provisioned RU/s.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

pub const TICKS_PER_SECOND: u32 = 100;
/// The service's targets for 1 KiB entities.
pub const PARTITION_TARGET: u32 = 2_000;
pub const ACCOUNT_TARGET: u32 = 20_000;
/// Cosmos DB: the most request units per second one physical (or logical) partition serves.
pub const MAX_RU_PER_PARTITION: u32 = 10_000;
/// Cosmos DB: the least a container may be provisioned with.
pub const MIN_RU_PER_SECOND: u32 = 400;
/// The size of the simulated entities, as the storage targets assume.
pub const ENTITY_BYTES: usize = 1024;

/// A Cosmos DB for Table container's provisioned throughput.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provisioned {
    pub ru_per_second: u32,
}

impl Provisioned {
    /// The physical partitions the model gives the container: the fewest whose 10,000 RU/s
    /// each cover the provisioned throughput.
    pub fn physical_partitions(self) -> u32 {
        self.ru_per_second.div_ceil(MAX_RU_PER_PARTITION).max(1)
    }
}

/// How the workload chooses a PartitionKey for each new entity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum KeyDesign {
    /// Append-only by date: every write goes to today's partition (the guide's anti-pattern).
    DatePartition,
    /// A hashed bucket prefix spreads writes over `buckets` partitions (`07-2026-11-22`).
    HashedPrefix { buckets: u32 },
    /// Each entity in its own partition (e.g. keyed by a customer id).
    UniquePartition,
}

impl KeyDesign {
    pub fn label(&self) -> String {
        match self {
            KeyDesign::DatePartition => "PartitionKey = date (append-only)".into(),
            KeyDesign::HashedPrefix { buckets } => {
                format!("PartitionKey = hash % {buckets} + date")
            }
            KeyDesign::UniquePartition => "PartitionKey = entity id".into(),
        }
    }

    /// The partition of the `n`th write.
    fn partition(&self, n: u64) -> String {
        match self {
            KeyDesign::DatePartition => "2026-11-22".into(),
            KeyDesign::HashedPrefix { buckets } => {
                format!("{:02}-2026-11-22", mix(n) % u64::from((*buckets).max(1)))
            }
            KeyDesign::UniquePartition => format!("id{n:08}"),
        }
    }
}

/// Retry policy: exponential backoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Retry {
    pub max_retries: u32,
    pub base_delay_ms: u32,
    pub max_delay_ms: u32,
}

impl Default for Retry {
    fn default() -> Self {
        Retry {
            max_retries: 4,
            base_delay_ms: 100,
            max_delay_ms: 5_000,
        }
    }
}

/// What to replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    /// New writes offered per second.
    pub ops_per_second: u32,
    pub seconds: u32,
    /// New writes stop after this many seconds (a spike); retries go on draining until
    /// `seconds`. `None`: the load lasts the whole run.
    #[serde(default)]
    pub active_seconds: Option<u32>,
    pub design: KeyDesign,
    /// `None`: throttled requests simply fail.
    pub retry: Option<Retry>,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// `Some`: replay on Cosmos DB for Table with this throughput; `None`: Table storage.
    #[serde(default)]
    pub cosmos: Option<Provisioned>,
}

fn default_seed() -> u64 {
    42
}

/// One partition's load, second by second.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartitionLoad {
    pub partition_key: String,
    /// Requests attempted per second (first tries and retries).
    pub attempted: Vec<u32>,
    /// Requests throttled (503) per second.
    pub throttled: Vec<u32>,
}

/// The simulation's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub design: String,
    /// Writes offered (each counted once).
    pub offered: u64,
    pub succeeded: u64,
    /// 503 ServerBusy answers, retries included.
    pub throttled_responses: u64,
    /// Writes that still failed after all retries.
    pub failed: u64,
    pub retries: u64,
    /// Average extra delay, in ms, of writes that succeeded after a retry.
    pub mean_retry_delay_ms: u64,
    /// Partitions, busiest first (at most 50; the rest are summed into the last entry).
    pub partitions: Vec<PartitionLoad>,
    /// Account-wide attempts per second.
    pub account_attempted: Vec<u32>,
    pub account_throttled: Vec<u32>,
    /// The status of a throttled request: 503 (ServerBusy) on storage, 429 on Cosmos.
    pub throttle_status: u16,
    /// On Cosmos: how the throughput was spent.
    pub cosmos: Option<CosmosFigures>,
    /// New writes offered per second to the busiest partition (first tries only).
    pub busiest_offered_per_second: f64,
}

/// How a Cosmos container's throughput serves the workload.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CosmosFigures {
    pub provisioned: Provisioned,
    pub physical_partitions: u32,
    /// The request units each physical partition serves per second.
    pub ru_per_partition: f64,
    /// The estimated request units of one 1 KiB write.
    pub ru_per_write: f64,
}

impl CosmosFigures {
    /// The model's figures for a container provisioned with `provisioned` (at least
    /// [`MIN_RU_PER_SECOND`]).
    pub fn of(provisioned: Provisioned) -> CosmosFigures {
        let n = provisioned.physical_partitions();
        CosmosFigures {
            provisioned,
            physical_partitions: n,
            ru_per_partition: f64::from(provisioned.ru_per_second.max(MIN_RU_PER_SECOND))
                / f64::from(n),
            ru_per_write: crate::target::ru::write_ru(ENTITY_BYTES),
        }
    }

    /// The writes per second one physical partition serves.
    pub fn writes_per_partition(&self) -> f64 {
        self.ru_per_partition / self.ru_per_write
    }
}

impl Report {
    /// On Cosmos: the seconds the busiest logical partition takes to reach its 20 GB at the
    /// offered rate, if it keeps growing (`None` on storage, or with no writes).
    pub fn seconds_to_logical_limit(&self) -> Option<f64> {
        let bytes_per_second = self.busiest_offered_per_second * ENTITY_BYTES as f64;
        (self.cosmos.is_some() && bytes_per_second > 0.0)
            .then(|| crate::target::rules::MAX_LOGICAL_PARTITION_BYTES as f64 / bytes_per_second)
    }
}

/// A token bucket: refills `rate` per tick up to `burst`.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn new(per_second: u32) -> Self {
        Bucket::of(f64::from(per_second))
    }
    fn of(per_second: f64) -> Self {
        let rate = per_second / f64::from(TICKS_PER_SECOND);
        let burst = rate * 10.0;
        Bucket {
            tokens: burst,
            rate,
            burst,
        }
    }
    fn refill(&mut self) {
        self.tokens = (self.tokens + self.rate).min(self.burst);
    }
}

/// Takes one request's capacity, if there is enough: on storage one token from its partition
/// and one from the account; on Cosmos (`physical` not empty) `cost` RUs from the physical
/// partition `home`.
fn take(
    partition: &mut Bucket,
    account: &mut Bucket,
    physical: &mut [Bucket],
    home: usize,
    cost: f64,
) -> bool {
    if let Some(b) = physical.get_mut(home) {
        let ok = b.tokens >= cost;
        if ok {
            b.tokens -= cost;
        }
        return ok;
    }
    let ok = partition.tokens >= 1.0 && account.tokens >= 1.0;
    if ok {
        partition.tokens -= 1.0;
        account.tokens -= 1.0;
    }
    ok
}

/// A deterministic 64-bit mix (SplitMix64), for hashing keys and jitter.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

struct Pending {
    partition: usize,
    attempt: u32,
    first_tick: u32,
}

/// Runs the workload.
pub fn simulate(w: &Workload) -> Report {
    let seconds = w.seconds.clamp(1, 600);
    let total_ticks = seconds * TICKS_PER_SECOND;
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut keys: Vec<String> = Vec::new();
    let mut buckets: Vec<Bucket> = Vec::new();
    let mut attempted: Vec<Vec<u32>> = Vec::new();
    let mut throttled: Vec<Vec<u32>> = Vec::new();
    let mut account = Bucket::new(ACCOUNT_TARGET);
    // On Cosmos: each physical partition's RU bucket, each logical partition's home among
    // them, and what one write costs.
    let figures = w.cosmos.map(CosmosFigures::of);
    let mut physical: Vec<Bucket> = figures.map_or_else(Vec::new, |f| {
        (0..f.physical_partitions)
            .map(|_| Bucket::of(f.ru_per_partition))
            .collect()
    });
    let write_cost = figures.map_or(0.0, |f| f.ru_per_write);
    let mut home: Vec<usize> = Vec::new();
    let mut first_tries: Vec<u64> = Vec::new();
    let mut account_attempted = vec![0u32; seconds as usize];
    let mut account_throttled = vec![0u32; seconds as usize];
    // Retries due at a tick; retries due after the run are dropped (counted as failed).
    let mut due: BTreeMap<u32, Vec<Pending>> = BTreeMap::new();
    let mut report = Report {
        design: w.design.label(),
        offered: 0,
        succeeded: 0,
        throttled_responses: 0,
        failed: 0,
        retries: 0,
        mean_retry_delay_ms: 0,
        partitions: Vec::new(),
        account_attempted: Vec::new(),
        account_throttled: Vec::new(),
        throttle_status: if w.cosmos.is_some() { 429 } else { 503 },
        cosmos: figures,
        busiest_offered_per_second: 0.0,
    };
    let mut retry_delay_total: u64 = 0;
    let mut retried_successes: u64 = 0;
    let mut offered_so_far: u64 = 0;
    for tick in 0..total_ticks {
        for b in buckets.iter_mut().chain(physical.iter_mut()) {
            b.refill();
        }
        account.refill();
        let second = (tick / TICKS_PER_SECOND) as usize;
        // New writes spread evenly over the second.
        let active_ticks = w
            .active_seconds
            .map_or(total_ticks, |a| a.saturating_mul(TICKS_PER_SECOND));
        let offered_ticks = (tick + 1).min(active_ticks);
        let target =
            u64::from(w.ops_per_second) * u64::from(offered_ticks) / u64::from(TICKS_PER_SECOND);
        let mut batch: Vec<Pending> = due.remove(&tick).unwrap_or_default();
        while offered_so_far < target {
            let key = w.design.partition(offered_so_far ^ w.seed.rotate_left(17));
            let partition = *index.entry(key.clone()).or_insert_with(|| {
                let hash = key.bytes().fold(w.seed, |h, b| mix(h ^ u64::from(b)));
                home.push((hash % physical.len().max(1) as u64) as usize);
                first_tries.push(0);
                keys.push(key);
                buckets.push(Bucket::new(PARTITION_TARGET));
                attempted.push(vec![0; seconds as usize]);
                throttled.push(vec![0; seconds as usize]);
                keys.len() - 1
            });
            first_tries[partition] += 1;
            batch.push(Pending {
                partition,
                attempt: 0,
                first_tick: tick,
            });
            offered_so_far += 1;
        }
        for p in batch {
            attempted[p.partition][second] += 1;
            account_attempted[second] += 1;
            if take(
                &mut buckets[p.partition],
                &mut account,
                &mut physical,
                home[p.partition],
                write_cost,
            ) {
                report.succeeded += 1;
                if p.attempt > 0 {
                    retried_successes += 1;
                    retry_delay_total += u64::from(tick - p.first_tick) * 10;
                }
                continue;
            }
            throttled[p.partition][second] += 1;
            account_throttled[second] += 1;
            report.throttled_responses += 1;
            match w.retry {
                Some(r) if p.attempt < r.max_retries => {
                    let backoff = u64::from(r.base_delay_ms) << p.attempt.min(20);
                    let capped = backoff.min(u64::from(r.max_delay_ms)).max(10);
                    // Equal jitter: half fixed, half drawn from the seed.
                    let jitter = mix(w.seed
                        ^ (u64::from(tick) << 20)
                        ^ u64::from(p.attempt)
                        ^ report.retries)
                        % (capped / 2 + 1);
                    let delay_ticks = ((capped / 2 + jitter) / 10).max(1) as u32;
                    report.retries += 1;
                    due.entry(tick + delay_ticks).or_default().push(Pending {
                        attempt: p.attempt + 1,
                        ..p
                    });
                }
                _ => report.failed += 1,
            }
        }
    }
    report.failed += due.values().map(|v| v.len() as u64).sum::<u64>();
    report.offered = offered_so_far;
    let offered_seconds = w.active_seconds.unwrap_or(seconds).clamp(1, seconds);
    report.busiest_offered_per_second =
        first_tries.iter().max().copied().unwrap_or(0) as f64 / f64::from(offered_seconds);
    report.mean_retry_delay_ms = retry_delay_total
        .checked_div(retried_successes)
        .unwrap_or(0);
    let mut loads: Vec<PartitionLoad> = keys
        .into_iter()
        .zip(attempted.into_iter().zip(throttled))
        .map(|(partition_key, (attempted, throttled))| PartitionLoad {
            partition_key,
            attempted,
            throttled,
        })
        .collect();
    loads
        .sort_by_key(|l| std::cmp::Reverse(l.attempted.iter().map(|&x| u64::from(x)).sum::<u64>()));
    if loads.len() > 50 {
        let rest = loads.split_off(49);
        let mut other = PartitionLoad {
            partition_key: format!("({} more partitions)", rest.len()),
            attempted: vec![0; seconds as usize],
            throttled: vec![0; seconds as usize],
        };
        for l in rest {
            for s in 0..seconds as usize {
                other.attempted[s] += l.attempted[s];
                other.throttled[s] += l.throttled[s];
            }
        }
        loads.push(other);
    }
    report.partitions = loads;
    report.account_attempted = account_attempted;
    report.account_throttled = account_throttled;
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(design: KeyDesign, ops: u32, retry: Option<Retry>) -> Report {
        simulate(&Workload {
            ops_per_second: ops,
            seconds: 10,
            active_seconds: None,
            design,
            retry,
            seed: 7,
            cosmos: None,
        })
    }

    #[test]
    fn a_hot_partition_is_throttled_and_a_spread_one_is_not() {
        let hot = run(KeyDesign::DatePartition, 5_000, None);
        let spread = run(KeyDesign::HashedPrefix { buckets: 10 }, 5_000, None);
        assert_eq!(hot.offered, 50_000);
        assert_eq!(spread.offered, 50_000);
        assert_eq!(hot.partitions.len(), 1);
        // One partition sustains 2,000/s of the 5,000/s: a full 200-token burst at the first
        // tick, then 20 tokens in each of the other 999 ticks.
        assert_eq!(hot.succeeded, 20_180);
        assert_eq!(hot.failed, 29_820);
        assert_eq!(spread.throttled_responses, 0);
        assert_eq!(spread.succeeded, 50_000);
        assert_eq!(spread.partitions.len(), 10);
    }

    #[test]
    fn the_account_target_caps_everything() {
        let r = run(KeyDesign::UniquePartition, 30_000, None);
        assert_eq!(r.partitions.len(), 50, "busiest 49 plus one summary row");
        // The account's 2,000-token burst, then 200 per tick for 999 ticks.
        assert_eq!(r.succeeded, 201_800);
        // 30,000 offered per second against 20,000: the first second keeps its burst.
        assert_eq!(
            r.account_throttled,
            [8_200, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000]
        );
    }

    #[test]
    fn backoff_rescues_a_short_spike_but_not_a_sustained_overload() {
        // A 2-second spike of 4,000/s against one partition, then quiet.
        let spike = |retry| {
            simulate(&Workload {
                ops_per_second: 4_000,
                seconds: 10,
                active_seconds: Some(2),
                design: KeyDesign::DatePartition,
                retry,
                seed: 7,
                cosmos: None,
            })
        };
        let (without, with) = (
            spike(None),
            spike(Some(Retry {
                max_retries: 6,
                base_delay_ms: 200,
                max_delay_ms: 5_000,
            })),
        );
        assert_eq!(without.offered, 8_000);
        assert!(without.failed > 3_000, "{}", without.failed);
        assert_eq!(
            with.failed, 0,
            "retries spread the spike over the quiet seconds"
        );
        assert!(with.retries > 3_000 && with.mean_retry_delay_ms > 0);
        assert!(
            with.throttled_responses > without.throttled_responses,
            "retries add load"
        );
        // Sustained 5,000/s: retries cannot create capacity.
        let sustained = run(KeyDesign::DatePartition, 5_000, Some(Retry::default()));
        assert!(sustained.failed > 25_000, "{}", sustained.failed);
        // Same inputs, same output.
        assert_eq!(
            with,
            spike(Some(Retry {
                max_retries: 6,
                base_delay_ms: 200,
                max_delay_ms: 5_000
            }))
        );
    }
}

#[cfg(test)]
mod cosmos_tests {
    use super::*;

    fn on_cosmos(design: KeyDesign, ops: u32, ru_per_second: u32) -> Report {
        simulate(&Workload {
            ops_per_second: ops,
            seconds: 10,
            active_seconds: None,
            design,
            retry: None,
            seed: 7,
            cosmos: Some(Provisioned { ru_per_second }),
        })
    }

    #[test]
    fn physical_partitions_are_the_fewest_that_serve_the_throughput() {
        let n = |ru_per_second| Provisioned { ru_per_second }.physical_partitions();
        assert_eq!([n(400), n(10_000), n(10_001), n(50_000)], [1, 1, 2, 5]);
    }

    #[test]
    fn a_write_spends_its_request_units_and_a_short_one_is_throttled_with_429() {
        // 10,000 RU/s in one physical partition at 4.95 RU a write: the first tick has its
        // 100 ms burst (1,000 RU), then 100 RU come in each of the other 999 ticks, and the
        // remainder carries: (1,000 + 999 × 100) / 4.95 = 20,383.8 writes.
        let r = on_cosmos(KeyDesign::DatePartition, 5_000, 10_000);
        let c = r.cosmos.unwrap();
        assert_eq!((r.throttle_status, c.physical_partitions), (429, 1));
        assert_eq!((c.ru_per_partition, c.ru_per_write), (10_000.0, 4.95));
        assert_eq!(r.offered, 50_000);
        assert_eq!(r.succeeded, 20_383);
        assert_eq!(r.failed, 50_000 - 20_383);
        // No account target on Cosmos: what a partition cannot serve is all that fails.
        assert_eq!(r.account_throttled.iter().sum::<u32>() as u64, r.failed);
    }

    #[test]
    fn spread_keys_use_every_physical_partition_but_a_hot_key_only_one() {
        // 50,000 RU/s: 5 physical partitions of 10,000 RU/s each.
        let hot = on_cosmos(KeyDesign::DatePartition, 5_000, 50_000);
        let spread = on_cosmos(KeyDesign::HashedPrefix { buckets: 50 }, 5_000, 50_000);
        assert_eq!(hot.cosmos.unwrap().physical_partitions, 5);
        assert_eq!(
            hot.failed,
            50_000 - 20_383,
            "one key gets one partition's 10,000 RU/s"
        );
        assert_eq!(
            spread.failed, 0,
            "50 keys over 5 partitions carry 5,000 writes/s"
        );
    }

    #[test]
    fn the_busiest_logical_partition_reaches_20_gb_at_its_write_rate() {
        // 1,000 writes/s of 1 KiB to one key: 20 GiB / 1 MiB/s = 20,480 s, about 5.7 hours.
        let r = on_cosmos(KeyDesign::DatePartition, 1_000, 10_000);
        assert_eq!(r.busiest_offered_per_second, 1_000.0);
        assert_eq!(r.seconds_to_logical_limit(), Some(20_971.52));
        let storage = simulate(&Workload {
            ops_per_second: 1_000,
            seconds: 10,
            active_seconds: None,
            design: KeyDesign::DatePartition,
            retry: None,
            seed: 7,
            cosmos: None,
        });
        assert_eq!(storage.throttle_status, 503);
        assert_eq!(storage.seconds_to_logical_limit(), None);
    }
}

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

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

pub const TICKS_PER_SECOND: u32 = 100;
/// The service's targets for 1 KiB entities.
pub const PARTITION_TARGET: u32 = 2_000;
pub const ACCOUNT_TARGET: u32 = 20_000;

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// A token bucket: refills `rate` per tick up to `burst`.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn new(per_second: u32) -> Self {
        let rate = f64::from(per_second) / f64::from(TICKS_PER_SECOND);
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
    };
    let mut retry_delay_total: u64 = 0;
    let mut retried_successes: u64 = 0;
    let mut offered_so_far: u64 = 0;
    for tick in 0..total_ticks {
        for b in buckets.iter_mut() {
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
                keys.push(key);
                buckets.push(Bucket::new(PARTITION_TARGET));
                attempted.push(vec![0; seconds as usize]);
                throttled.push(vec![0; seconds as usize]);
                keys.len() - 1
            });
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
            let bucket = &mut buckets[p.partition];
            if bucket.tokens >= 1.0 && account.tokens >= 1.0 {
                bucket.tokens -= 1.0;
                account.tokens -= 1.0;
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

//! Memory per entity against the entity's JSON size (at most twice).
//! Measured from the process's resident set (Linux /proc), so it counts the allocator's
//! real overhead. Run: `cargo bench --bench memory`.

mod workload;

use tablescope_engine::RawEntity;

fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let before = rss_bytes();
    let account = workload::account();
    let after = rss_bytes();
    let n = (workload::PARTITIONS * workload::PER_PARTITION) as u64;
    let table = account.table("Bench").expect("table");
    // The JSON form of every entity, as the service would return it (with Timestamp and ETag).
    let json_bytes: u64 = table
        .partitions()
        .iter()
        .flat_map(|(pk, p)| p.rows.keys().map(move |rk| (pk.clone(), rk.clone())))
        .map(|(pk, rk)| {
            let e = account.get("Bench", pk.as_str(), rk.as_str()).expect("get");
            serde_json::to_string(&RawEntity::from_entity(&e)).map_or(0, |s| s.len() as u64)
        })
        .sum();
    let per_entity = (after - before) as f64 / n as f64;
    let json_per_entity = json_bytes as f64 / n as f64;
    println!("entities: {n}");
    println!("memory per entity: {per_entity:.0} bytes (resident set growth)");
    println!("JSON per entity:   {json_per_entity:.0} bytes");
    println!(
        "ratio: {:.2} (target: at most 2.00)",
        per_entity / json_per_entity
    );
}

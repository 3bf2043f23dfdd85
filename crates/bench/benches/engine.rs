//! Engine benchmarks: point get, partition query, filtered table scan,
//! insert, batch of 100. Run: `cargo bench --bench engine`. The same reads and inserts run
//! on a Cosmos DB for Table account too, named `cosmos: …` (`cargo bench --bench engine --
//! cosmos` runs only those).

mod workload;

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use tablescope_engine::query::{execute_page, plan, QueryOptions};
use tablescope_engine::{filter, Account, BatchRequest, FixedClock, RawEntity, Request, Target};

fn bench(c: &mut Criterion) {
    reads(c, Target::TableStorage);
    writes(c);
    cosmos(c);
}

/// The benchmark's name on `target`: storage's as it always was, Cosmos's prefixed.
fn named(target: Target, name: &str) -> String {
    match target {
        Target::TableStorage => name.to_string(),
        Target::CosmosTable => format!("cosmos: {name}"),
    }
}

/// Point gets, a partition query and a filtered table scan over the workload on `target`.
/// On Cosmos the filter is answered from the index, so only its matches are read.
fn reads(c: &mut Criterion, target: Target) {
    let account = workload::account_on(target);
    let table = account.table("Bench").expect("table");
    let all = (workload::PARTITIONS * workload::PER_PARTITION) as u64;

    // Keys made up front, visited in a scattered order, so the loop times only the read.
    let keys: Vec<(String, String)> = (0..10_000usize)
        .map(|k| {
            let i = (k * 7919) % (workload::PARTITIONS * workload::PER_PARTITION);
            (
                workload::partition_key(i / workload::PER_PARTITION),
                workload::row_key(i % workload::PER_PARTITION),
            )
        })
        .collect();
    c.bench_function(
        &named(target, "point get, stored entity (1M entities)"),
        |b| {
            let mut k = 0usize;
            b.iter(|| {
                k = (k + 1) % keys.len();
                black_box(table.get(&keys[k].0, &keys[k].1).expect("get"))
            })
        },
    );
    c.bench_function(
        &named(target, "point get, owned Entity (1M entities)"),
        |b| {
            let mut k = 0usize;
            b.iter(|| {
                k = (k + 1) % keys.len();
                black_box(account.get("Bench", &keys[k].0, &keys[k].1).expect("get"))
            })
        },
    );

    let mut g = c.benchmark_group(named(target, "query"));
    g.sample_size(20);
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("partition query, 1,000 entities", |b| {
        b.iter(|| {
            let p = plan(filter::parse("PartitionKey eq 'p0500'").expect("parse"));
            let page = execute_page(table, p, &QueryOptions::default(), false).expect("page");
            assert_eq!(page.entities.len(), 1_000);
            black_box(page)
        })
    });
    g.throughput(Throughput::Elements(all));
    g.sample_size(10);
    g.bench_function("table scan, filter matching 1% (entities scanned)", |b| {
        b.iter(|| {
            // Follow the pages to the end: 10,000 matches at 1,000 per page.
            let mut options = QueryOptions::default();
            let mut scanned = 0;
            loop {
                let p = plan(filter::parse("Bucket eq 42").expect("parse"));
                let page = execute_page(table, p, &options, false).expect("page");
                scanned += page.stats.scanned;
                options.continuation = page.continuation;
                if options.continuation.is_none() {
                    break;
                }
            }
            assert_eq!(scanned, if target.is_cosmos() { 10_000 } else { all });
        })
    });
    g.finish();
}

fn writes(c: &mut Criterion) {
    let mut g = c.benchmark_group("write");
    g.sample_size(10);
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("insert 100,000 entities (typed)", |b| {
        b.iter_batched(
            || {
                let mut a = Account::default();
                a.set_change_feed(false);
                a.create_table("Bench").expect("create");
                let es: Vec<_> = (0..100_000).map(|i| workload::entity(i % 100, i)).collect();
                (a, es)
            },
            |(mut a, es)| {
                for e in es {
                    a.insert("Bench", e).expect("insert");
                }
                a
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function(
        "insert 100,000 entities (JSON requests, change feed on)",
        |b| {
            b.iter_batched(
                || {
                    let mut a = Account::default();
                    a.create_table("Bench").expect("create");
                    let rs: Vec<_> = (0..100_000)
                        .map(|i| Request::Insert {
                            table: "Bench".into(),
                            entity: RawEntity::from_entity(&workload::entity(i % 100, i)),
                        })
                        .collect();
                    (a, rs)
                },
                |(mut a, rs)| {
                    for r in &rs {
                        assert_eq!(a.execute(r).status, 201);
                    }
                    a
                },
                BatchSize::PerIteration,
            )
        },
    );
    g.throughput(Throughput::Elements(100));
    g.sample_size(50);
    g.bench_function("batch of 100 upserts", |b| {
        let mut a = Account::default();
        a.create_table("Bench").expect("create");
        let ops: Vec<BatchRequest> = (0..100)
            .map(|i| BatchRequest::UpsertReplace {
                entity: RawEntity::from_entity(&workload::entity(1, i)),
            })
            .collect();
        let request = Request::Batch {
            table: "Bench".into(),
            operations: ops,
        };
        b.iter(|| {
            let r = a.execute(&request);
            assert_eq!(r.status, 202);
            a.take_changes();
        })
    });
    g.finish();
}

/// The Cosmos DB for Table line of the reads and of the typed insert: the index and order
/// are kept on every write, so inserts cost more there.
fn cosmos(c: &mut Criterion) {
    reads(c, Target::CosmosTable);
    let mut g = c.benchmark_group("cosmos: write");
    g.sample_size(10);
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("insert 100,000 entities (typed)", |b| {
        b.iter_batched(
            || {
                let mut a =
                    Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()));
                a.set_change_feed(false);
                a.create_table("Bench").expect("create");
                let es: Vec<_> = (0..100_000).map(|i| workload::entity(i % 100, i)).collect();
                (a, es)
            },
            |(mut a, es)| {
                for e in es {
                    a.insert("Bench", e).expect("insert");
                }
                a
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

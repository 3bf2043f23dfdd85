//! `tablescope_wire` benchmarks: request bytes in, response bytes out, on the
//! workload shape (100,000 entities in 100 partitions). Target: a point get under 3 µs.
//! Run: `cargo bench --bench wire`.

#[allow(dead_code)] // the engine bench uses the rest of the workload
mod workload;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tablescope_engine::{Account, DateTime};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};

const PARTITIONS: usize = 100;
const PER_PARTITION: usize = 1_000;

fn account() -> Account {
    let mut a = Account::default();
    a.set_change_feed(false);
    a.create_table("Bench").expect("create");
    for p in 0..PARTITIONS {
        for i in 0..PER_PARTITION {
            a.insert("Bench", workload::entity(p, i)).expect("insert");
        }
    }
    a
}

fn get(p: usize, i: usize) -> HttpRequest {
    let url = format!(
        "/devstoreaccount1/Bench(PartitionKey='{}',RowKey='{}')",
        workload::partition_key(p),
        workload::row_key(i)
    );
    HttpRequest::new("GET", &url)
        .header("Host", "127.0.0.1:10002")
        .header("Accept", "application/json;odata=minimalmetadata")
        .header("x-ms-version", "2019-02-02")
        .header("DataServiceVersion", "3.0")
}

fn bench(c: &mut Criterion) {
    let mut account = account();
    let endpoint = Endpoint::anonymous("devstoreaccount1");
    let context = Context {
        now: DateTime::MIN,
        request_id: "bench".into(),
    };
    // Requests made up front, visited in a scattered order, so the loop times only `handle`.
    let gets: Vec<HttpRequest> = (0..10_000usize)
        .map(|k| {
            let i = (k * 7919) % (PARTITIONS * PER_PARTITION);
            get(i / PER_PARTITION, i % PER_PARTITION)
        })
        .collect();
    c.bench_function("wire point get (100,000 entities)", |b| {
        let mut k = 0usize;
        b.iter(|| {
            k = (k + 1) % gets.len();
            let out = wire::handle(&mut account, &endpoint, &context, &gets[k]);
            assert_eq!(out.response.status, 200);
            black_box(out.response.body.len())
        })
    });

    let mut g = c.benchmark_group("wire query");
    g.sample_size(20);
    g.throughput(Throughput::Elements(PER_PARTITION as u64));
    let partition = HttpRequest::new(
        "GET",
        "/devstoreaccount1/Bench()?$filter=PartitionKey%20eq%20%27p0050%27",
    )
    .header("Host", "127.0.0.1:10002");
    g.bench_function("partition query, 1,000 entities", |b| {
        b.iter(|| {
            let out = wire::handle(&mut account, &endpoint, &context, &partition);
            assert_eq!(out.stats.map(|s| s.returned), Some(1_000));
            black_box(out.response.body.len())
        })
    });
    // As the SDKs ask for it when they need no metadata: the body is values only.
    let nometadata = partition
        .clone()
        .header("Accept", "application/json;odata=nometadata");
    g.bench_function("partition query, 1,000 entities, nometadata", |b| {
        b.iter(|| {
            let out = wire::handle(&mut account, &endpoint, &context, &nometadata);
            assert_eq!(out.stats.map(|s| s.returned), Some(1_000));
            black_box(out.response.body.len())
        })
    });
    g.finish();

    let mut n = 0usize;
    c.bench_function("wire insert (upsert, return-no-content)", |b| {
        b.iter(|| {
            n += 1;
            let body =
                format!(r#"{{"PartitionKey":"bench","RowKey":"{n:09}","Name":"x","Bucket":7}}"#);
            let request = HttpRequest::new("POST", "/devstoreaccount1/Bench")
                .header("Host", "127.0.0.1:10002")
                .header("Content-Type", "application/json")
                .header("Prefer", "return-no-content")
                .body(body.into_bytes());
            let out = wire::handle(&mut account, &endpoint, &context, &request);
            assert_eq!(out.response.status, 204);
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! How fast a durable store opens, and how much memory it then holds: fills a data directory
//! with the benchmark's workload (through the server's own `Store`, so the files are the ones
//! a server writes), then starts `tablescope-serve` on it again and again, timing each start
//! from spawn to the first answered point get and reading its CPU time and memory from
//! `/proc`.
//!
//!   cargo run --profile serve -p tablescope-serve --example startup -- \
//!       --bin target/serve/tablescope-serve [--entities N] [--partitions P] [--in-log M]
//!       [--runs R] [--dir DIR]
//!
//! The directory is filled once (DIR/filled) and copied afresh for each start (DIR/served).
//! `--in-log M`: the last M entities are written after the snapshot, as batches of 100 (one
//! change record each, as an SDK's batches are), so recovery replays them from the log.
//! The engine's own memory is this process's resident memory once it holds the same
//! entities (built by the engine's inserts, with the server's allocator), before any file
//! is read back. `scripts/bench/startup.sh` runs it with and without a large log.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tablescope_engine::{Account, BatchRequest, DateTime, Entity, RawEntity, Request, Value};
use tablescope_serve::store::Store;

const TABLE: &str = "Bench";
const BATCH: usize = 100;

struct Options {
    bin: PathBuf,
    entities: usize,
    partitions: usize,
    in_log: usize,
    runs: usize,
    dir: Option<PathBuf>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        bin: PathBuf::from("target/serve/tablescope-serve"),
        entities: 1_000_000,
        partitions: 1_000,
        in_log: 0,
        runs: 3,
        dir: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| {
            v.replace('_', "")
                .parse::<usize>()
                .map_err(|e| e.to_string())
        };
        match flag.as_str() {
            "--bin" => o.bin = PathBuf::from(value()?),
            "--entities" => o.entities = number(value()?)?,
            "--partitions" => o.partitions = number(value()?)?,
            "--in-log" => o.in_log = number(value()?)?,
            "--runs" => o.runs = number(value()?)?,
            "--dir" => o.dir = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if o.partitions == 0 || !o.entities.is_multiple_of(o.partitions) || o.in_log > o.entities {
        return Err(
            "--entities must be a multiple of --partitions, and --in-log at most it".into(),
        );
    }
    Ok(o)
}

fn partition_key(p: usize) -> String {
    format!("p{p:04}")
}

fn row_key(i: usize) -> String {
    format!("r{i:06}")
}

/// Entity i of partition p, as `scripts/bench/lib/workload.mjs` makes it.
fn entity(p: usize, i: usize) -> Entity {
    // 2023-06-01T00:00:00Z plus i seconds: in the service's range for any partition size.
    let joined =
        DateTime::from_unix_millis(1_685_577_600_000 + i as i64 * 1_000).unwrap_or(DateTime::MIN);
    Entity::new(partition_key(p), row_key(i))
        .with("Name", Value::String(format!("Customer {p}-{i}").into()))
        .with("Bucket", Value::Int32((i % 100) as i32))
        .with(
            "Balance",
            Value::Int64((p as i64 * 1_000_003 + i as i64) * 97),
        )
        .with("Score", Value::Double(i as f64 / 7.0))
        .with("Active", Value::Boolean(i.is_multiple_of(3)))
        .with("Joined", Value::DateTime(joined))
}

/// A field of `/proc/<pid>/status` (`VmRSS`, `VmHWM`), in bytes.
fn status_bytes(pid: &str, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The CPU time (user + system) a process has used, from `/proc/<pid>/stat`, in seconds.
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, in clock ticks of 1/100 s.
    (ticks(11) + ticks(12)) / 100.0
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Fills `dir` with the workload: the first `entities - in_log` in a snapshot, the rest as
/// change records after it. Returns the engine's own resident memory, holding them all.
fn fill(dir: &Path, o: &Options) -> Result<u64, String> {
    let started = Instant::now();
    let mut account = Account::default();
    let (mut store, _) = Store::open(dir, u64::MAX, &mut account).map_err(|e| e.to_string())?;
    account.set_change_feed(false);
    account.create_table(TABLE).map_err(|e| e.to_string())?;
    let per_partition = o.entities / o.partitions;
    let in_snapshot = o.entities - o.in_log;
    let mut logged = Vec::new();
    let mut n = 0;
    for p in 0..o.partitions {
        for i in 0..per_partition {
            if n < in_snapshot {
                account
                    .insert(TABLE, entity(p, i))
                    .map_err(|e| e.to_string())?;
            } else {
                logged.push((p, i));
            }
            n += 1;
        }
    }
    store.snapshot(&account).map_err(|e| e.to_string())?;
    account.set_change_feed(true);
    for chunk in logged.chunks(BATCH) {
        // A batch holds one partition: split where the partition changes.
        let mut start = 0;
        while start < chunk.len() {
            let p = chunk[start].0;
            let end = start + chunk[start..].iter().take_while(|(q, _)| *q == p).count();
            let operations = chunk[start..end]
                .iter()
                .map(|(p, i)| BatchRequest::Insert {
                    entity: RawEntity::from_entity(&entity(*p, *i)),
                })
                .collect();
            let response = account.execute(&Request::Batch {
                table: TABLE.into(),
                operations,
            });
            if let Some(e) = response.error {
                return Err(e.to_string());
            }
            let sets = account.take_changes();
            store.commit(&account, &sets).map_err(|e| e.to_string())?;
            start = end;
        }
    }
    let own = status_bytes("self", "VmRSS");
    eprintln!(
        "filled {} with {} entities ({} after the snapshot) in {:.1} s",
        dir.display(),
        o.entities,
        o.in_log,
        started.elapsed().as_secs_f64()
    );
    drop(store);
    Ok(own)
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// One point get; `true` when it was answered 200.
fn point_get(port: u16, path: &str) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-ms-version: 2019-02-02\r\n\
         Accept: application/json;odata=nometadata\r\nConnection: close\r\n\r\n"
    );
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200")
}

struct Start {
    seconds: f64,
    cpu: f64,
    rss: u64,
    hwm: u64,
    rss_later: u64,
}

/// Makes `to` a copy of the files in `from` (a start may write: a snapshot after a write, a
/// torn tail cut; each start reads the directory as the fill left it).
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(from).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        std::fs::copy(entry.path(), to.join(entry.file_name())).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn start(o: &Options, dir: &Path) -> Result<Start, String> {
    let port = free_port()?;
    let spawned = Instant::now();
    let mut child = Command::new(&o.bin)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .arg("--location")
        .arg(dir)
        .args(["--allow-anonymous", "--silent"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", o.bin.display()))?;
    let pid = child.id().to_string();
    let mid = o.partitions / 2;
    let path = format!(
        "/devstoreaccount1/{TABLE}(PartitionKey='{}',RowKey='{}')",
        partition_key(mid),
        row_key(o.entities / o.partitions / 2)
    );
    let result = loop {
        if point_get(port, &path) {
            break Ok(spawned.elapsed().as_secs_f64());
        }
        if let Ok(Some(status)) = child.try_wait() {
            break Err(format!("the server exited before answering: {status}"));
        }
        if spawned.elapsed() > Duration::from_secs(120) {
            break Err("no answer after 120 s".to_string());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let cpu = cpu_seconds(&pid);
    let (rss, hwm) = (status_bytes(&pid, "VmRSS"), status_bytes(&pid, "VmHWM"));
    std::thread::sleep(Duration::from_secs(2));
    let rss_later = status_bytes(&pid, "VmRSS");
    let _ = child.kill();
    let _ = child.wait();
    Ok(Start {
        seconds: result?,
        cpu,
        rss,
        hwm,
        rss_later,
    })
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("startup: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let o = options()?;
    let dir = o.dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("tablescope-startup-{}", std::process::id()))
    });
    let _ = std::fs::remove_dir_all(&dir);
    let (filled, served) = (dir.join("filled"), dir.join("served"));
    let own = fill(&filled, &o)?;
    let mut files: Vec<(String, u64)> = std::fs::read_dir(&filled)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .map(|e| {
            let len = e.metadata().map_or(0, |m| m.len());
            (e.file_name().to_string_lossy().into_owned(), len)
        })
        .collect();
    files.sort();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{} entities in {} partitions, {} of them after the snapshot; load {}",
        o.entities,
        o.partitions,
        o.in_log,
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (name, len) in &files {
        println!("  {name}: {} bytes ({})", len, mib(*len));
    }
    println!("engine's own resident memory: {}", mib(own));
    let mut seconds = Vec::new();
    for run in 1..=o.runs {
        copy_dir(&filled, &served)?;
        let s = start(&o, &served)?;
        println!(
            "start {run}: first answer after {:.3} s (the server's CPU {:.2} s); VmRSS {} \
             ({:.2}x the engine's), VmHWM {}, VmRSS 2 s later {}",
            s.seconds,
            s.cpu,
            mib(s.rss),
            s.rss as f64 / own as f64,
            mib(s.hwm),
            mib(s.rss_later)
        );
        seconds.push(s.seconds);
    }
    seconds.sort_by(f64::total_cmp);
    if let Some(median) = seconds.get(seconds.len() / 2) {
        println!("median first answer: {median:.3} s");
    }
    if o.dir.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

//! The data directory under every crash point: the states a kill can leave are built by hand
//! from the files of real runs, and each must load as the last acknowledged account.

use super::*;
use std::io::Write;
use tablescope_engine::{Entity, FixedClock, Request, Value};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablescope-store-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(account: &Account) -> String {
    serde_json::to_string(&account.export()).unwrap()
}

fn fresh() -> Account {
    Account::new(Box::new(FixedClock::default()))
}

/// A store in a new directory `name`, opened on a fresh account, holding table `Tab`.
fn with_table(name: &str) -> (std::path::PathBuf, Account, Store) {
    let dir = temp(name);
    let mut account = fresh();
    let (mut store, _) = Store::open(&dir, DEFAULT_SNAPSHOT_BYTES, &mut account).unwrap();
    run(
        &mut account,
        &mut store,
        Request::CreateTable {
            table: "Tab".into(),
        },
    );
    (dir, account, store)
}

/// Runs a request and commits its changes, as the server does.
fn run(account: &mut Account, store: &mut Store, request: Request) {
    let response = account.execute(&request);
    assert_eq!(response.error, None, "{request:?}");
    let sets = account.take_changes();
    store.commit(account, &sets).unwrap();
}

fn insert(pk: &str, rk: &str, n: i32) -> Request {
    let raw =
        tablescope_engine::RawEntity::from_entity(&Entity::new(pk, rk).with("N", Value::Int32(n)));
    Request::Insert {
        table: "Tab".into(),
        entity: raw,
    }
}

fn batch(pk: &str, rks: &[&str]) -> Request {
    Request::Batch {
        table: "Tab".into(),
        operations: rks
            .iter()
            .map(|rk| tablescope_engine::BatchRequest::Insert {
                entity: tablescope_engine::RawEntity::from_entity(&Entity::new(pk, *rk)),
            })
            .collect(),
    }
}

fn load(dir: &Path) -> (Account, Recovered) {
    let mut account = fresh();
    let (_store, recovered) = Store::open(dir, DEFAULT_SNAPSHOT_BYTES, &mut account).unwrap();
    (account, recovered)
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = fs::remove_dir_all(to);
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "LOCK" {
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// The directory's file names, a snapshot's without its checksum (`snapshot-<g>.bin`).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .map(|n| {
            let (stem, kind) = match (n.strip_suffix(".bin"), n.strip_suffix(".json")) {
                (Some(stem), _) => (stem, "bin"),
                (_, Some(stem)) => (stem, "json"),
                _ => return n,
            };
            match stem.split_once('.') {
                Some((stem, crc)) if n.starts_with("snapshot-") && crc.len() == 8 => {
                    format!("{stem}.{kind}")
                }
                _ => n,
            }
        })
        .collect();
    names.sort();
    names
}

/// The path of generation `g`'s snapshot, whatever its checksum.
fn snapshot_of(dir: &Path, g: u64) -> PathBuf {
    list(dir)
        .unwrap()
        .snapshot(g)
        .expect("snapshot")
        .path
        .clone()
}

#[test]
fn every_acknowledged_write_is_there_after_a_restart() {
    let dir = temp("restart");
    let mut account = fresh();
    let (mut store, recovered) = Store::open(&dir, DEFAULT_SNAPSHOT_BYTES, &mut account).unwrap();
    assert_eq!(
        recovered,
        Recovered {
            generation: 0,
            records: 0,
            torn_bytes: 0,
            entities: 0,
            repairs: vec![],
            target: Target::TableStorage,
        }
    );
    run(
        &mut account,
        &mut store,
        Request::CreateTable {
            table: "Tab".into(),
        },
    );
    run(&mut account, &mut store, insert("a", "1", 1));
    run(&mut account, &mut store, batch("b", &["1", "2", "3"]));
    let expected = text(&account);
    drop(store);
    assert_eq!(names(&dir), vec!["changes-0.log"]);
    let (back, recovered) = load(&dir);
    assert_eq!(text(&back), expected);
    assert_eq!(
        recovered,
        Recovered {
            generation: 0,
            records: 3,
            torn_bytes: 0,
            entities: 4,
            repairs: vec![],
            target: Target::TableStorage,
        }
    );
}

#[test]
fn a_second_server_cannot_open_the_same_directory() {
    let dir = temp("lock");
    let mut account = fresh();
    let _first = Store::open(&dir, DEFAULT_SNAPSHOT_BYTES, &mut account).unwrap();
    let err = Store::open(&dir, DEFAULT_SNAPSHOT_BYTES, &mut fresh()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{} is in use by another tablescope-serve", dir.display())
    );
}

/// Cuts the log after every byte of its last record (a batch of three inserts): the batch is
/// there whole or not at all, and the torn tail is cut off so appends continue cleanly.
#[test]
fn a_torn_batch_record_is_all_or_nothing() {
    let (dir, mut account, mut store) = with_table("torn-batch");
    run(&mut account, &mut store, insert("a", "1", 1));
    let before = text(&account);
    let before_len = store.log_len();
    run(&mut account, &mut store, batch("b", &["1", "2", "3"]));
    let after = text(&account);
    let after_len = store.log_len();
    drop(store);
    let whole = fs::read(dir.join("changes-0.log")).unwrap();
    assert_eq!(whole.len() as u64, after_len);
    let crash = temp("torn-batch-crash");
    // Every byte of the frame and the start of the payload, then a sample, then the end.
    let cuts = (before_len..before_len + 24)
        .chain((before_len + 24..after_len).step_by(13))
        .chain(after_len - 2..=after_len);
    for cut in cuts {
        copy_dir(&dir, &crash);
        fs::write(crash.join("changes-0.log"), &whole[..cut as usize]).unwrap();
        let mut back = fresh();
        let (mut store, recovered) =
            Store::open(&crash, DEFAULT_SNAPSHOT_BYTES, &mut back).unwrap();
        let complete = cut == after_len;
        assert_eq!(
            &text(&back),
            if complete { &after } else { &before },
            "cut {cut}"
        );
        assert_eq!(
            recovered.torn_bytes,
            if complete { 0 } else { cut - before_len }
        );
        assert_eq!(
            store.log_len(),
            if complete { after_len } else { before_len }
        );
        // The next write lands after the cut and survives another restart.
        run(&mut back, &mut store, insert("c", "1", 9));
        let expected = text(&back);
        drop(store);
        assert_eq!(text(&load(&crash).0), expected, "cut {cut}");
    }
}

#[test]
fn snapshots_switch_generations_and_remove_the_old_files() {
    let dir = temp("switch");
    let mut account = fresh();
    // A tiny threshold: the log outgrows it (and the snapshot) after a few records.
    let (mut store, _) = Store::open(&dir, 200, &mut account).unwrap();
    run(
        &mut account,
        &mut store,
        Request::CreateTable {
            table: "Tab".into(),
        },
    );
    let mut snapshots = 0;
    for i in 0..40 {
        run(&mut account, &mut store, insert("p", &format!("{i:03}"), i));
        if store.wants_snapshot() {
            store.snapshot(&account).unwrap();
            snapshots += 1;
        }
    }
    assert!(snapshots >= 3, "{snapshots} snapshots");
    let g = store.generation();
    assert_eq!(g, snapshots);
    assert_eq!(
        names(&dir),
        vec![format!("changes-{g}.log"), format!("snapshot-{g}.bin")]
    );
    let expected = text(&account);
    drop(store);
    let (back, recovered) = load(&dir);
    assert_eq!(text(&back), expected);
    assert_eq!(recovered.generation, g);
    assert_eq!(recovered.entities, 40);
}

/// Builds every directory a kill during a snapshot can leave, from the files before and
/// after it, and checks that each loads the same account.
#[test]
fn a_kill_at_any_step_of_a_snapshot_loses_nothing() {
    let (dir, mut account, mut store) = with_table("steps");
    store.snapshot(&account).unwrap(); // generation 1
    run(&mut account, &mut store, insert("a", "1", 1));
    run(&mut account, &mut store, batch("b", &["1", "2"]));
    let expected = text(&account);
    let before = temp("steps-before");
    copy_dir(&dir, &before);
    store.snapshot(&account).unwrap(); // generation 2
    let after = temp("steps-after");
    copy_dir(&dir, &after);
    drop(store);
    assert_eq!(names(&before), vec!["changes-1.log", "snapshot-1.bin"]);
    assert_eq!(names(&after), vec!["changes-2.log", "snapshot-2.bin"]);
    let snapshot2_path = snapshot_of(&after, 2);
    let snapshot2 = fs::read(&snapshot2_path).unwrap();
    let snapshot2_name = snapshot2_path.file_name().unwrap().to_str().unwrap();
    let log2 = fs::read(after.join("changes-2.log")).unwrap();

    let crash = temp("steps-crash");
    // (step, files added to the directory as it was before the snapshot)
    type Files<'a> = Vec<(&'a str, Vec<u8>)>;
    let states: Vec<(&str, Files)> = vec![
        (
            "tmp half written",
            vec![("snapshot-2.bin.tmp", snapshot2[..10].to_vec())],
        ),
        ("tmp whole", vec![("snapshot-2.bin.tmp", snapshot2.clone())]),
        ("renamed", vec![(snapshot2_name, snapshot2.clone())]),
        (
            "log header torn",
            vec![
                (snapshot2_name, snapshot2.clone()),
                ("changes-2.log", log2[..7].to_vec()),
            ],
        ),
        (
            "log empty file",
            vec![
                (snapshot2_name, snapshot2.clone()),
                ("changes-2.log", Vec::new()),
            ],
        ),
        (
            "log created",
            vec![
                (snapshot2_name, snapshot2.clone()),
                ("changes-2.log", log2.clone()),
            ],
        ),
    ];
    for (step, extra) in states {
        copy_dir(&before, &crash);
        for (name, bytes) in extra {
            fs::write(crash.join(name), bytes).unwrap();
        }
        let mut back = fresh();
        let (mut store, recovered) =
            Store::open(&crash, DEFAULT_SNAPSHOT_BYTES, &mut back).unwrap();
        assert_eq!(text(&back), expected, "{step}");
        let g = recovered.generation;
        assert_eq!(
            names(&crash),
            vec![format!("changes-{g}.log"), format!("snapshot-{g}.bin")],
            "{step}"
        );
        // Writing on from there survives the next restart too.
        run(&mut back, &mut store, insert("z", step, 5));
        let next = text(&back);
        drop(store);
        assert_eq!(text(&load(&crash).0), next, "{step}");
    }
    // And the directory as the snapshot left it.
    assert_eq!(text(&load(&after).0), expected);
}

#[test]
fn a_log_without_its_snapshot_is_refused_and_left_alone() {
    let (dir, _account, store) = with_table("orphan");
    drop(store);
    fs::copy(dir.join("changes-0.log"), dir.join("changes-3.log")).unwrap();
    let err = Store::open(&dir, DEFAULT_SNAPSHOT_BYTES, &mut fresh()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{} has no snapshot of generation 3: the directory was not written by this \
             server alone; nothing was changed",
            dir.join("changes-3.log").display()
        )
    );
    assert_eq!(names(&dir), vec!["changes-0.log", "changes-3.log"]);
}

#[test]
fn reading_changes_nothing() {
    let (dir, mut account, mut store) = with_table("read");
    run(&mut account, &mut store, insert("a", "1", 1));
    let expected = text(&account);
    let len = store.log_len();
    // A torn tail while the server holds the directory: an export reads past it.
    let mut file = OpenOptions::new()
        .append(true)
        .open(dir.join("changes-0.log"))
        .unwrap();
    file.write_all(&[1, 0, 0, 0, 9]).unwrap();
    let mut exported = fresh();
    let recovered = Store::read(&dir, &mut exported).unwrap();
    assert_eq!(text(&exported), expected);
    assert_eq!((recovered.records, recovered.torn_bytes), (2, 5));
    assert_eq!(
        fs::metadata(dir.join("changes-0.log")).unwrap().len(),
        len + 5
    );
}

#[test]
fn a_cosmos_directory_replays_case_sensitive_table_names_and_keeps_its_target() {
    let dir = temp("cosmos-names");
    let mut account = Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()));
    let (mut store, recovered) = Store::open_for(
        &dir,
        DEFAULT_SNAPSHOT_BYTES,
        false,
        Target::CosmosTable,
        &mut account,
    )
    .unwrap();
    assert_eq!(recovered.target, Target::CosmosTable);
    // The server's first snapshot of a new Cosmos directory, before any write.
    store.snapshot(&account).unwrap();
    for name in ["Tab", "tab"] {
        let create = Request::CreateTable { table: name.into() };
        run(&mut account, &mut store, create);
    }
    run(&mut account, &mut store, insert("p", "1", 1));
    drop(store);

    // Opened without a target (a storage account handed in): the directory's wins.
    let (back, recovered) = load(&dir);
    assert_eq!(recovered.target, Target::CosmosTable);
    assert_eq!(back.target(), Target::CosmosTable);
    assert_eq!((recovered.records, recovered.entities), (3, 1));
    assert_eq!(text(&back), text(&account));
    assert_eq!(back.table("Tab").unwrap().entity_count(), 1);
    assert_eq!(back.table("tab").unwrap().entity_count(), 0);

    // Asked for the other target: refused, and the directory is as it was.
    let before: Vec<_> = list(&dir).unwrap().logs;
    let err = Store::open_for(
        &dir,
        DEFAULT_SNAPSHOT_BYTES,
        true,
        Target::TableStorage,
        &mut fresh(),
    )
    .unwrap_err();
    assert!(err
        .to_string()
        .starts_with("it holds an Azure Cosmos DB for Table account (made with --target cosmos)"));
    assert_eq!(list(&dir).unwrap().logs, before);
}

/// A directory an earlier server wrote (its snapshot the playground's JSON export) opens as
/// it was; the next snapshot is written in the byte layout and the JSON one is removed.
#[test]
fn a_json_snapshot_of_an_earlier_server_still_opens() {
    let (dir, mut account, mut store) = with_table("json-snapshot");
    run(&mut account, &mut store, insert("p", "1", 1));
    store.snapshot(&account).unwrap();
    run(&mut account, &mut store, insert("p", "2", 2));
    let expected = text(&account);
    drop(store);
    // Generation 1's snapshot as an earlier server wrote it: the export, named `.json`.
    let binary = snapshot_of(&dir, 1);
    let tables = snapshot::read(&fs::read(&binary).unwrap()).unwrap();
    let mut at_1 = fresh();
    tables.restore(&mut at_1);
    let mut json = Vec::new();
    export::write(&at_1, &mut json).unwrap();
    let crc = crc32fast::hash(&json);
    fs::remove_file(&binary).unwrap();
    fs::write(dir.join(format!("snapshot-1.{crc:08x}.json")), &json).unwrap();
    assert_eq!(names(&dir), vec!["changes-1.log", "snapshot-1.json"]);

    let mut account = fresh();
    let (mut store, recovered) = Store::open(&dir, DEFAULT_SNAPSHOT_BYTES, &mut account).unwrap();
    assert_eq!(text(&account), expected);
    assert_eq!((recovered.generation, recovered.records), (1, 1));
    assert_eq!(recovered.entities, 2);
    run(&mut account, &mut store, insert("p", "3", 3));
    store.snapshot(&account).unwrap();
    let expected = text(&account);
    drop(store);
    assert_eq!(names(&dir), vec!["changes-2.log", "snapshot-2.bin"]);
    let (back, recovered) = load(&dir);
    assert_eq!(text(&back), expected);
    assert_eq!(recovered.entities, 3);
}

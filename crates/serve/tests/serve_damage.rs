//! A damaged data directory is told from a crash: the server refuses to start on damage,
//! naming the file, the offset and `--repair`, and changes nothing; `--repair` keeps every
//! record that reads whole and says what it dropped; a torn tail is still cut silently. And
//! the directory's lock holds whatever file is deleted.

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use serve_support::{temp_dir, Server};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TABLE: &str = "Damage";

/// Creates the table and inserts `n` entities, one request (one log record) each.
fn fill(server: &Server, n: usize) {
    let mut c = server.client();
    assert_eq!(c.create_table(TABLE).unwrap().status, 204);
    for i in 0..n {
        let entity = format!(r#"{{"PartitionKey":"p","RowKey":"{i:04}","N":{i}}}"#);
        assert_eq!(c.insert(TABLE, &entity).unwrap().status, 204);
    }
}

fn count(server: &Server) -> usize {
    server.client().scan(TABLE).len()
}

/// Runs the server on `dir` expecting it to refuse to start: its stderr.
fn refused(dir: &Path, extra: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args([
            "--port",
            "0",
            "--silent",
            "--location",
            dir.to_str().unwrap(),
        ])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tablescope-serve");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("it started");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!status.success(), "it exited with success");
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

/// The offsets of the log's records (after its 20-byte header).
fn record_offsets(log: &[u8]) -> Vec<usize> {
    let mut at = 20;
    let mut out = Vec::new();
    while at + 8 <= log.len() {
        out.push(at);
        let len = u32::from_le_bytes(log[at..at + 4].try_into().unwrap()) as usize;
        at += 8 + len;
    }
    out
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn snapshot_file(dir: &Path) -> PathBuf {
    let name = names(dir)
        .into_iter()
        .find(|n| n.starts_with("snapshot-") && n.ends_with(".bin"))
        .expect("a snapshot");
    dir.join(name)
}

fn newest_log(dir: &Path) -> PathBuf {
    let name = names(dir)
        .into_iter()
        .filter(|n| n.starts_with("changes-") && n.ends_with(".log"))
        .max_by_key(|n| n[8..n.len() - 4].parse::<u64>().unwrap())
        .expect("a log");
    dir.join(name)
}

fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir)
        .into_iter()
        .map(|n| {
            let bytes = fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

#[test]
fn a_flipped_bit_in_a_middle_record_is_refused_then_repaired() {
    let dir = temp_dir("damage-middle");
    let mut server = Server::durable(&dir, &[]);
    fill(&server, 100);
    server.kill();
    // A new directory starts at generation 1: the server snapshots its default CORS rules.
    let path = dir.join("changes-1.log");
    let mut log = fs::read(&path).unwrap();
    let offsets = record_offsets(&log);
    assert_eq!(offsets.len(), 101, "the table and 100 inserts");
    // Record 51: the 50th insert; a bit of its payload.
    let at = offsets[50];
    log[at + 20] ^= 0x04;
    fs::write(&path, &log).unwrap();
    let before = contents(&dir);

    let err = refused(&dir, &[]);
    let next = offsets[51];
    assert!(
        err.contains(&format!(
            "{}: the record at byte {at} fails its checksum and whole records follow it, from \
             byte {next}: that is damage, not a torn write; nothing was changed. Start with \
             --repair to keep every record that reads whole and drop bytes {at} to {next}",
            path.display()
        )),
        "{err}"
    );
    assert_eq!(contents(&dir), before, "a refused start changes nothing");

    let server = Server::durable(&dir, &["--repair"]);
    assert_eq!(count(&server), 99);
    let log_text = server.log_text();
    assert!(
        log_text.contains(&format!(
            "tablescope-serve: --repair: {}: dropped bytes {at} to {next} (not a whole record)",
            path.display()
        )),
        "{log_text}"
    );
    drop(server);
    assert!(dir.join("changes-1.log.damaged").exists());
    assert_eq!(fs::read(dir.join("changes-1.log.damaged")).unwrap(), log);
    // Whole again: a plain start keeps the 99.
    let server = Server::durable(&dir, &[]);
    assert_eq!(count(&server), 99);
}

#[test]
fn a_torn_last_record_is_still_cut_silently() {
    let dir = temp_dir("damage-torn");
    let mut server = Server::durable(&dir, &[]);
    fill(&server, 10);
    server.kill();
    let path = dir.join("changes-1.log");
    let log = fs::read(&path).unwrap();
    let last = *record_offsets(&log).last().unwrap();
    fs::write(&path, &log[..log.len() - 3]).unwrap();
    let server = Server::durable(&dir, &[]);
    assert_eq!(count(&server), 9);
    assert!(
        server.log_text().contains(&format!(
            "cut off a torn tail of {} bytes",
            log.len() - 3 - last
        )),
        "{}",
        server.log_text()
    );
}

#[test]
fn a_flipped_bit_in_a_complete_last_record_is_damage() {
    let dir = temp_dir("damage-last");
    let mut server = Server::durable(&dir, &[]);
    fill(&server, 10);
    server.kill();
    let path = dir.join("changes-1.log");
    let mut log = fs::read(&path).unwrap();
    let last = log.len() - 1;
    log[last] ^= 0x01;
    fs::write(&path, &log).unwrap();
    let err = refused(&dir, &[]);
    assert!(
        err.contains("fails its checksum although it is complete"),
        "{err}"
    );
    let server = Server::durable(&dir, &["--repair"]);
    assert_eq!(count(&server), 9);
}

#[test]
fn a_flipped_bit_in_the_header_is_refused_then_rebuilt() {
    let dir = temp_dir("damage-header");
    let mut server = Server::durable(&dir, &[]);
    fill(&server, 100);
    server.kill();
    let path = dir.join("changes-1.log");
    let mut log = fs::read(&path).unwrap();
    log[9] ^= 0x10;
    fs::write(&path, &log).unwrap();
    let before = contents(&dir);
    let err = refused(&dir, &[]);
    assert!(
        err.contains(&format!(
            "{}: its header (bytes 0 to 19) is damaged; nothing was changed. Start with \
             --repair to rebuild it from the file's name and keep every record that reads whole",
            path.display()
        )),
        "{err}"
    );
    assert_eq!(contents(&dir), before, "the log is never deleted");
    let server = Server::durable(&dir, &["--repair"]);
    assert_eq!(count(&server), 100);
    drop(server);
    let server = Server::durable(&dir, &[]);
    assert_eq!(count(&server), 100);
}

#[test]
fn an_edited_digit_in_a_snapshot_is_refused() {
    let dir = temp_dir("damage-snapshot");
    let mut server = Server::durable(&dir, &["--snapshot-bytes", "2048"]);
    fill(&server, 100);
    server.kill();
    let path = snapshot_file(&dir);
    let mut bytes = fs::read(&path).unwrap();
    // Entity 0001's N (Int32 1): after its RowKey, Timestamp (8 bytes), property count,
    // name index and type tag, as the snapshot's layout (src/snapshot.rs) writes them.
    let at = bytes
        .windows(5)
        .position(|w| w == b"\x040001")
        .expect("RowKey 0001")
        + 5
        + 8
        + 3;
    assert_eq!(bytes[at..at + 4], [1, 0, 0, 0], "N of entity 0001");
    bytes[at] = 7;
    fs::write(&path, &bytes).unwrap();
    let before = contents(&dir);
    let err = refused(&dir, &["--snapshot-bytes", "2048"]);
    assert!(
        err.contains(&format!(
            "{}: its bytes do not match the checksum in its name",
            path.display()
        )),
        "{err}"
    );
    assert!(err.contains("Start with --repair"), "{err}");
    assert_eq!(contents(&dir), before);
    let server = Server::durable(&dir, &["--repair", "--snapshot-bytes", "2048"]);
    assert_eq!(count(&server), 100);
    assert!(
        server.log_text().contains("loaded as it reads"),
        "{}",
        server.log_text()
    );
}

#[test]
fn a_deleted_or_emptied_log_is_refused() {
    for emptied in [false, true] {
        let dir = temp_dir(if emptied {
            "damage-emptied"
        } else {
            "damage-deleted"
        });
        let mut server = Server::durable(&dir, &["--snapshot-bytes", "2048"]);
        fill(&server, 100);
        // The last insert may have started a new generation: one more lands in its log.
        let mut c = server.client();
        let extra = r#"{"PartitionKey":"p","RowKey":"extra","N":0}"#;
        assert_eq!(c.insert(TABLE, extra).unwrap().status, 204);
        server.kill();
        let log = newest_log(&dir);
        assert!(
            fs::metadata(&log).unwrap().len() > 20,
            "the newest log holds records"
        );
        if emptied {
            fs::write(&log, b"").unwrap();
        } else {
            fs::remove_file(&log).unwrap();
        }
        let err = refused(&dir, &["--snapshot-bytes", "2048"]);
        let what = if emptied {
            "empty (it has no whole header)"
        } else {
            "missing"
        };
        assert!(
            err.contains(&format!("{} is {what}, but ", log.display())),
            "{err}"
        );
        assert!(
            err.contains("Start with --repair to start from the snapshot alone"),
            "{err}"
        );
        let server = Server::durable(&dir, &["--repair", "--snapshot-bytes", "2048"]);
        let n = count(&server);
        assert!(n > 0 && n < 101, "{n} from the snapshot alone");
    }
}

#[test]
fn deleting_files_does_not_defeat_the_lock() {
    let dir = temp_dir("damage-lock");
    let server = Server::durable(&dir, &[]);
    fill(&server, 10);
    // Whatever a user deletes beside the data (a LOCK file of an older server included):
    let _ = fs::remove_file(dir.join("LOCK"));
    let err = refused(&dir, &[]);
    assert!(
        err.contains(&format!(
            "{} is in use by another tablescope-serve",
            dir.display()
        )),
        "{err}"
    );
    assert_eq!(count(&server), 10, "the first server is untouched");
    drop(server);
    let server = Server::durable(&dir, &[]);
    assert_eq!(count(&server), 10);
}

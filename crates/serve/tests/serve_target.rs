//! A data directory keeps the service its account models: one made with `--target cosmos`
//! opens as Cosmos DB for Table without `--target`, and the other `--target` is refused with a
//! message naming both, a non-zero exit and every file as it was (a torn tail included).

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use serve_support::{temp_dir, Server, ACCOUNT};
use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every file in `dir` with its bytes, by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

/// Runs the server on `dir` with `extra`, expecting it to refuse to start within 20 s: its
/// stderr.
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

/// Whether the server answers as Cosmos DB for Table: table names are case-sensitive there
/// (a second table differing only in case is created) and no response carries `x-ms-version`.
fn answers_as_cosmos(server: &Server, existing: &str) -> bool {
    let mut c = server.client();
    let upper = c.create_table(&existing.to_ascii_uppercase()).unwrap();
    let listed = c
        .send("GET", &format!("/{ACCOUNT}/Tables"), &[], b"")
        .unwrap();
    assert_eq!(listed.status, 200, "{}", listed.text());
    match upper.status {
        204 => {
            assert_eq!(listed.header("x-ms-version"), None);
            true
        }
        409 => {
            assert!(listed.header("x-ms-version").is_some());
            false
        }
        other => panic!("create table answered {other}: {}", upper.text()),
    }
}

#[test]
fn a_cosmos_directory_opens_as_cosmos_without_target_and_refuses_storage() {
    let dir = temp_dir("target-cosmos");
    let mut server = Server::durable(&dir, &["--target", "cosmos"]);
    let mut c = server.client();
    assert_eq!(c.create_table("Orders").unwrap().status, 204);
    let insert = c
        .insert("Orders", r#"{"PartitionKey":"p","RowKey":"1","N":1}"#)
        .unwrap();
    assert_eq!(insert.status, 204, "{}", insert.text());
    server.kill();

    // Without --target: the directory's own.
    let mut server = Server::durable(&dir, &[]);
    assert!(
        server
            .log_text()
            .contains("(Azure Cosmos DB for Table, generation"),
        "{}",
        server.log_text()
    );
    assert_eq!(server.client().scan("Orders").len(), 1);
    assert!(answers_as_cosmos(&server, "Orders"));
    // Both tables (names differing in case) come back after a restart.
    server.kill();
    let mut server = Server::durable(&dir, &["--target", "cosmos"]);
    assert_eq!(server.client().scan("ORDERS").len(), 0);
    assert_eq!(server.client().scan("Orders").len(), 1);
    server.kill();

    // With the other target: refused, naming both; nothing changes, not even a torn tail.
    let log = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "log"))
        .expect("a log");
    let mut bytes = fs::read(&log).unwrap();
    bytes.extend_from_slice(&[7, 0, 0, 0, 1, 2]);
    fs::write(&log, &bytes).unwrap();
    let before = contents(&dir);
    let err = refused(&dir, &["--target", "storage"]);
    assert!(
        err.contains(
            "holds an Azure Cosmos DB for Table account (made with --target cosmos), which \
             --target storage cannot open; nothing was changed"
        ),
        "{err}"
    );
    assert_eq!(contents(&dir), before);
    // And it still opens as it was made.
    let server = Server::durable(&dir, &[]);
    assert!(server.log_text().contains("cut off a torn tail of 6 bytes"));
    assert_eq!(server.client().scan("Orders").len(), 1);
}

#[test]
fn a_storage_directory_refuses_cosmos_and_a_new_one_takes_what_it_is_given() {
    let dir = temp_dir("target-storage");
    let mut server = Server::durable(&dir, &[]);
    assert_eq!(server.client().create_table("Stock").unwrap().status, 204);
    server.kill();
    let before = contents(&dir);
    let err = refused(&dir, &["--target", "cosmos"]);
    assert!(
        err.contains(
            "holds an Azure Table storage account (made with --target storage), which \
             --target cosmos cannot open; nothing was changed. Start without --target, or \
             with --target storage, to serve it"
        ),
        "{err}"
    );
    assert_eq!(contents(&dir), before);
    let server = Server::durable(&dir, &["--target", "storage"]);
    assert!(!answers_as_cosmos(&server, "Stock"));
    drop(server);

    // A new directory takes the target it is first opened with, before any write.
    let fresh = temp_dir("target-fresh");
    let mut server = Server::durable(&fresh, &["--target", "cosmos"]);
    server.kill();
    let server = Server::durable(&fresh, &[]);
    assert!(server.log_text().contains("Azure Cosmos DB for Table"));
    drop(server);
    let err = refused(&fresh, &["--target", "storage"]);
    assert!(err.contains("made with --target cosmos"), "{err}");
}

#[test]
fn export_names_the_directorys_target() {
    let dir = temp_dir("target-export");
    let mut server = Server::durable(&dir, &["--target", "cosmos"]);
    let mut c = server.client();
    assert_eq!(c.create_table("Zoo").unwrap().status, 204);
    assert_eq!(c.create_table("zoo").unwrap().status, 204);
    server.kill();
    let out = Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args(["export", "--location", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["target"], "cosmosTable");
    let mut names: Vec<&str> = json["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["Zoo", "zoo"]);
}

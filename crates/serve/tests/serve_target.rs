//! `--target cosmos`: the server's account models Cosmos DB for Table (its answers on the
//! wire), and a data directory keeps its target: reopened with the other one, the server
//! refuses to start and names both.

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use serve_support::{temp_dir, Server};
use std::process::Command;

#[test]
fn a_cosmos_server_answers_as_cosmos_and_its_directory_keeps_the_target() {
    let dir = temp_dir("target");
    {
        let server = Server::durable(&dir, &["--target", "cosmos"]);
        let mut client = server.client();
        let r = client.create_table("People").unwrap();
        assert_eq!(r.status, 204, "{}", r.text());
        assert_eq!(r.header("x-ms-version"), None);
        assert_eq!(r.header("Cache-Control"), None);
        assert_eq!(r.header("Content-Length"), None);
        let r = client
            .insert("People", r#"{"PartitionKey":"p","RowKey":"1"}"#)
            .unwrap();
        assert!(r.status == 201 || r.status == 204, "{}", r.text());
        // Table names are case-sensitive on Cosmos: `people` is another table.
        let r = client.create_table("people").unwrap();
        assert_eq!(r.status, 204, "{}", r.text());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args([
            "--port",
            "0",
            "--silent",
            "--location",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("holds an Azure Cosmos DB for Table account (made with --target cosmos); it cannot be opened with --target storage"),
        "{stderr}"
    );
    // Reopened with its own target, everything is there.
    let server = Server::durable(&dir, &["--target", "cosmos"]);
    let mut client = server.client();
    assert_eq!(client.scan("People").len(), 1);
}

#[test]
fn a_storage_directory_refuses_the_cosmos_target() {
    let dir = temp_dir("target-storage");
    {
        let server = Server::durable(&dir, &[]);
        let r = server.client().create_table("T").unwrap();
        assert_eq!(r.status, 204, "{}", r.text());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args(["--port", "0", "--silent", "--target", "cosmos"])
        .args(["--location", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("holds an Azure Table storage account (made with --target storage); it cannot be opened with --target cosmos"),
        "{stderr}"
    );
}

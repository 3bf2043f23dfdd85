//! `tablescope-serve` end to end over real HTTP: tables, entities, batches, queries, CORS,
//! restarts, `export` and `--load`. (The official SDKs' tests live with the wire layer's.)

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use serve_support::{batch_etags, temp_dir, Server, ACCOUNT};

#[test]
fn writes_survive_a_restart_with_their_etags() {
    let dir = temp_dir("http-restart");
    let server = Server::durable(&dir, &[]);
    let mut c = server.client();
    assert_eq!(c.create_table("People").unwrap().status, 204);
    let one = c
        .insert("People", r#"{"PartitionKey":"a","RowKey":"1","Age":3}"#)
        .unwrap();
    assert_eq!(one.status, 204, "{}", one.text());
    // hyper passes production's explicit length of a bodiless 204 through.
    assert_eq!(one.header("content-length"), Some("0"));
    assert_eq!(one.header("content-type"), None);
    let etag = one.header("etag").unwrap().to_string();
    let entities: Vec<String> = (0..3)
        .map(|i| format!(r#"{{"PartitionKey":"b","RowKey":"{i}","N":{i}}}"#))
        .collect();
    let batch = c.batch_insert("People", &entities).unwrap();
    assert_eq!(batch.status, 202, "{}", batch.text());
    let etags = batch_etags(&batch);
    assert_eq!(etags.len(), 3, "{}", batch.text());
    let before = c.scan("People");
    assert_eq!(before.len(), 4);
    assert_eq!(before[&("a".into(), "1".into())], etag);
    assert_eq!(before[&("b".into(), "2".into())], etags[2]);
    drop(server);

    let server = Server::durable(&dir, &[]);
    assert!(
        server
            .log_text()
            .contains("(generation 0, 4 entities, 3 change records)"),
        "{}",
        server.log_text()
    );
    let mut c = server.client();
    assert_eq!(c.scan("People"), before);
    // Writes after the restart get later ETags than anything loaded.
    let two = c
        .insert("People", r#"{"PartitionKey":"c","RowKey":"1"}"#)
        .unwrap();
    assert!(two.header("etag").unwrap() > etags[2].as_str());
}

#[test]
fn export_and_load_move_the_account_in_the_playgrounds_format() {
    let dir = temp_dir("http-export");
    let server = Server::durable(&dir, &[]);
    let mut c = server.client();
    c.create_table("Zoo").unwrap();
    c.insert("Zoo", r#"{"PartitionKey":"x","RowKey":"y","Big":"9"}"#)
        .unwrap();
    let expected = c.scan("Zoo");
    // `export` reads while the server holds the directory, and changes nothing.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args(["export", "--location", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["format"], "tablescope-account");
    assert_eq!(json["tables"][0]["name"], "Zoo");
    assert_eq!(json["tables"][0]["entities"][0]["Big"], "9");
    // The engine imports it as the playground would.
    let mut account = tablescope_engine::Account::default();
    account.import_json(&text).unwrap();
    drop(server);

    let file = dir.join("workspace.json");
    std::fs::write(&file, &text).unwrap();
    let loaded = Server::start(&["--in-memory", "--load", file.to_str().unwrap()]);
    assert_eq!(loaded.client().scan("Zoo"), expected);
}

#[test]
fn a_preflight_gets_the_cors_headers_and_responses_expose_theirs() {
    let server = Server::start(&["--in-memory"]);
    let mut c = server.client();
    let r = c
        .send(
            "OPTIONS",
            &format!("/{ACCOUNT}/Tables"),
            &[
                ("Origin", "http://localhost:8080"),
                ("Access-Control-Request-Method", "POST"),
                (
                    "Access-Control-Request-Headers",
                    "content-type,x-ms-version,prefer",
                ),
            ],
            b"",
        )
        .unwrap();
    assert_eq!(r.status, 200);
    let names: Vec<(&str, &str)> = r
        .headers
        .iter()
        .filter(|(n, _)| n != "x-ms-request-id" && n != "date")
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("access-control-allow-origin", "http://localhost:8080"),
            ("access-control-allow-methods", "POST"),
            (
                "access-control-allow-headers",
                "content-type,x-ms-version,prefer"
            ),
            ("access-control-max-age", "86400"),
            ("access-control-allow-credentials", "true"),
            ("vary", "Origin"),
            ("x-ms-version", "2019-02-02"),
            ("content-length", "0"),
        ]
    );
    assert_eq!(r.header("x-ms-request-id").map(str::len), Some(36));

    let created = c
        .send(
            "POST",
            &format!("/{ACCOUNT}/Tables"),
            &[
                ("Origin", "http://localhost:8080"),
                ("Content-Type", "application/json"),
                ("Prefer", "return-no-content"),
            ],
            br#"{"TableName":"Cors"}"#,
        )
        .unwrap();
    assert_eq!(created.status, 204);
    assert_eq!(
        created.header("access-control-allow-origin"),
        Some("http://localhost:8080")
    );
    let exposed = created.header("access-control-expose-headers").unwrap();
    for name in [
        "ETag",
        "Location",
        "DataServiceId",
        "Preference-Applied",
        "x-ms-request-id",
        "x-ms-version",
        "Date",
        "x-ms-continuation-NextPartitionKey",
        "x-ms-continuation-NextRowKey",
        "x-ms-continuation-NextTableName",
        "x-ms-error-code",
    ] {
        assert_eq!(
            exposed
                .split(',')
                .filter(|e| e.eq_ignore_ascii_case(name))
                .count(),
            1,
            "{name} in {exposed}"
        );
    }

    let refused = c
        .send(
            "OPTIONS",
            &format!("/{ACCOUNT}/Tables"),
            &[("Origin", "http://localhost:8080")],
            b"",
        )
        .unwrap();
    assert_eq!(refused.status, 400);
    assert_eq!(refused.error_code().as_deref(), Some("InvalidHeaderValue"));
}

#[test]
fn a_request_without_credentials_is_refused_unless_anonymous_is_allowed() {
    let open = Server::start(&["--in-memory"]);
    let r = open.client().create_table("Open").unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    let strict = Server::start_strict(&["--in-memory"]);
    let r = strict.client().create_table("Closed").unwrap();
    assert_eq!(r.status, 401, "{}", r.text());
    assert_eq!(
        r.error_code().as_deref(),
        Some("NoAuthenticationInformation")
    );
}

#[test]
fn help_names_every_flag() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--host",
        "--port",
        "--account",
        "--key",
        "--location",
        "--in-memory",
        "--load",
        "--allow-anonymous",
        "--snapshot-bytes",
        "--silent",
        "export",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
}

#[test]
fn bad_arguments_exit_with_a_message() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tablescope-serve"))
        .args(["--location", "/tmp/x", "--in-memory"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "tablescope-serve: --location and --in-memory exclude each other\n"
    );
}

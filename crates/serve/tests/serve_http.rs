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

    // A new directory starts with a snapshot holding the default CORS rule: generation 1.
    let server = Server::durable(&dir, &[]);
    assert!(
        server
            .log_text()
            .contains("(Azure Table storage, generation 1, 4 entities, 3 change records)"),
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

fn preflight(c: &mut serve_support::Client, origin: &str, method: &str) -> serve_support::Reply {
    c.send(
        "OPTIONS",
        &format!("/{ACCOUNT}/Tables"),
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", method),
            (
                "Access-Control-Request-Headers",
                "content-type,x-ms-version,prefer",
            ),
        ],
        b"",
    )
    .unwrap()
}

#[test]
fn the_default_rule_admits_the_playground_and_refuses_other_origins() {
    let server = Server::start(&["--in-memory"]);
    let mut c = server.client();
    let r = preflight(&mut c, "http://localhost:8080", "POST");
    assert_eq!(r.status, 200);
    for (name, value) in [
        ("access-control-allow-origin", "http://localhost:8080"),
        ("access-control-allow-methods", "POST"),
        (
            "access-control-allow-headers",
            "content-type,x-ms-version,prefer",
        ),
        ("access-control-max-age", "86400"),
        ("access-control-allow-credentials", "true"),
        ("vary", "Origin"),
        ("x-ms-version", "2019-02-02"),
        ("content-length", "0"),
    ] {
        assert_eq!(r.header(name), Some(value), "{name}");
    }
    assert_eq!(r.header("x-ms-request-id").map(str::len), Some(36));

    let created = c
        .send(
            "POST",
            &format!("/{ACCOUNT}/Tables"),
            &[
                ("Origin", "http://127.0.0.1:8080"),
                ("Content-Type", "application/json"),
                ("Prefer", "return-no-content"),
            ],
            br#"{"TableName":"Cors"}"#,
        )
        .unwrap();
    assert_eq!(created.status, 204);
    assert_eq!(
        created.header("access-control-allow-origin"),
        Some("http://127.0.0.1:8080")
    );
    // The rule exposes every header the response carries.
    let exposed = created.header("access-control-expose-headers").unwrap();
    for name in [
        "Location",
        "DataServiceId",
        "Preference-Applied",
        "x-ms-request-id",
        "x-ms-version",
        "Date",
    ] {
        assert!(
            exposed.split(',').any(|e| e.eq_ignore_ascii_case(name)),
            "{name} in {exposed}"
        );
    }

    // Another origin: refused, and its actual requests carry no CORS headers.
    let r = preflight(&mut c, "http://elsewhere.example", "POST");
    assert_eq!(r.status, 403);
    assert_eq!(r.error_code().as_deref(), Some("CorsPreflightFailure"));
    let listed = c
        .send(
            "GET",
            &format!("/{ACCOUNT}/Tables"),
            &[("Origin", "http://elsewhere.example")],
            b"",
        )
        .unwrap();
    assert_eq!(listed.status, 200);
    assert_eq!(listed.header("access-control-allow-origin"), None);
    assert_eq!(listed.header("vary"), Some("Origin"));

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
fn cors_flags_choose_the_starting_rules() {
    let chosen = Server::start(&["--in-memory", "--cors-origin", "http://app.example"]);
    let mut c = chosen.client();
    assert_eq!(preflight(&mut c, "http://app.example", "GET").status, 200);
    assert_eq!(
        preflight(&mut c, "http://localhost:8080", "GET").status,
        403
    );
    let none = Server::start(&["--in-memory", "--no-cors"]);
    let mut c = none.client();
    assert_eq!(
        preflight(&mut c, "http://localhost:8080", "GET").status,
        403
    );
    let listed = c
        .send("GET", &format!("/{ACCOUNT}/Tables"), &[], b"")
        .unwrap();
    assert_eq!(listed.header("vary"), None, "no rules, no Vary");
}

const RULE: &str = "<StorageServiceProperties><Logging><Version>1.0</Version><Delete>true</Delete>\
<Read>false</Read><Write>true</Write><RetentionPolicy><Enabled>true</Enabled><Days>9</Days>\
</RetentionPolicy></Logging><Cors><CorsRule><AllowedOrigins>http://kept.example</AllowedOrigins>\
<AllowedMethods>GET</AllowedMethods><AllowedHeaders>*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders>\
<MaxAgeInSeconds>7</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>";

const POLICY: &str = "<SignedIdentifiers><SignedIdentifier><Id>kept</Id><AccessPolicy>\
<Expiry>2030-01-01T00:00:00Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier>\
</SignedIdentifiers>";

#[test]
fn a_durable_server_restarts_with_its_properties_and_acls_and_the_default_only_once() {
    let dir = temp_dir("settings");
    let server = Server::durable(&dir, &[]);
    let mut c = server.client();
    // A new directory starts with the default rule.
    assert_eq!(
        preflight(&mut c, "http://localhost:8080", "GET").status,
        200
    );
    assert_eq!(c.create_table("Kept").unwrap().status, 204);
    let props = format!("/{ACCOUNT}/?restype=service&comp=properties");
    let acl = format!("/{ACCOUNT}/Kept?comp=acl");
    let xml = [("Content-Type", "application/xml")];
    assert_eq!(
        c.send("PUT", &props, &xml, RULE.as_bytes()).unwrap().status,
        202
    );
    assert_eq!(
        c.send("PUT", &acl, &xml, POLICY.as_bytes()).unwrap().status,
        204
    );
    let before_props = c.send("GET", &props, &[], b"").unwrap().body;
    let before_acl = c.send("GET", &acl, &[], b"").unwrap().body;
    drop(c);
    drop(server);

    let server = Server::durable(&dir, &[]);
    let mut c = server.client();
    assert_eq!(c.send("GET", &props, &[], b"").unwrap().body, before_props);
    assert_eq!(c.send("GET", &acl, &[], b"").unwrap().body, before_acl);
    // The stored rules won over the default.
    assert_eq!(
        preflight(&mut c, "http://localhost:8080", "GET").status,
        403
    );
    assert_eq!(preflight(&mut c, "http://kept.example", "GET").status, 200);
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
        "--cors-origin",
        "--no-cors",
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

/// The generations of the snapshots in `dir`, from their file names.
fn snapshot_generations(dir: &std::path::Path) -> Vec<u64> {
    let mut out: Vec<u64> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let rest = name.strip_prefix("snapshot-")?.strip_suffix(".bin")?;
            rest.split_once('.')?.0.parse().ok()
        })
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn a_read_after_a_start_on_a_long_log_writes_no_snapshot_and_a_write_does() {
    let dir = temp_dir("http-long-log");
    let mut server = Server::durable(&dir, &[]);
    let mut c = server.client();
    assert_eq!(c.create_table("People").unwrap().status, 204);
    for i in 0..50 {
        let entity = format!(r#"{{"PartitionKey":"p","RowKey":"{i:02}","N":{i}}}"#);
        assert_eq!(c.insert("People", &entity).unwrap().status, 204);
    }
    server.kill();
    // The first start snapshot its CORS rule (generation 1); 51 records follow it.
    assert_eq!(snapshot_generations(&dir), vec![1]);
    let log = std::fs::metadata(dir.join("changes-1.log")).unwrap().len();
    assert!(log > 1024, "{log}");
    // Now the log is past the threshold: reads answer without writing a snapshot.
    let server = Server::durable(&dir, &["--snapshot-bytes", "1024"]);
    let mut c = server.client();
    assert_eq!(c.scan("People").len(), 50);
    assert_eq!(c.scan("People").len(), 50);
    assert_eq!(snapshot_generations(&dir), vec![1]);
    let entity = r#"{"PartitionKey":"p","RowKey":"50","N":50}"#;
    assert_eq!(c.insert("People", entity).unwrap().status, 204);
    assert_eq!(snapshot_generations(&dir), vec![2]);
    assert_eq!(c.scan("People").len(), 51);
}

//! "Show as code" run for real: for every case in crates/codegen/tests/code_cases, the JavaScript form runs
//! in Node with the official `@azure/data-tables` (as the Code section runs it,
//! tests/code/run.mjs) and the Python form with the official `azure-data-tables`
//! (tests/code/run.py), each against a fresh `tablescope-serve` set up by sending the setup's
//! own HTTP forms. Each must give the engine's answer: the same entities logged, in order,
//! with the same property names (or the same table names), the same service error, and the
//! same table contents afterwards, value by value and type by type.
//!
//! Needs Node with the repository's node_modules and `.venv-sdk` (scripts/setup.sh installs
//! both; scripts/test.sh ensures them before the native tests).

// A test states what it expects: an unwrap in it (or in its helpers) is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../codegen/tests/code_cases/mod.rs"]
mod code_cases;
mod serve_support;

use code_cases::{cases, expected_output, with_etag, Case, TABLE};
use serde_json::Value as Json;
use serve_support::{Client, Server, ACCOUNT};
use std::path::{Path, PathBuf};
use std::process::Command;
use tablescope_codegen::{self as code, Form, PLAYGROUND_URL};
use tablescope_engine::{json as entity_json, Account, Entity, RawEntity, Request};

const DEV_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// The repository's root: the SDKs are installed there (`node_modules`, `.venv-sdk`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Sends a request's HTTP form to the server.
fn send(client: &mut Client, request: &Request) -> serve_support::Reply {
    let text = code::show(request, Form::Http).expect("an HTTP form");
    let (head, body) = text.split_once("\n\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let start: Vec<&str> = lines.next().unwrap().split(' ').collect();
    let path = start[1].strip_prefix("http://127.0.0.1:10002").unwrap();
    let headers: Vec<(&str, &str)> = lines.map(|l| l.split_once(": ").unwrap()).collect();
    let body = body.strip_suffix('\n').unwrap_or(body);
    client
        .send(start[0], path, &headers, body.as_bytes())
        .expect("the server answers")
}

/// The table's entities on the server, without Timestamps; `None` when it does not exist.
fn server_table(client: &mut Client) -> Option<Vec<Entity>> {
    let mut out = Vec::new();
    let mut next: Option<(String, String)> = None;
    loop {
        let mut path = format!("/{ACCOUNT}/{TABLE}()");
        if let Some((pk, rk)) = &next {
            path.push_str(&format!(
                "?NextPartitionKey={}&NextRowKey={}",
                serve_support::encode(pk),
                serve_support::encode(rk)
            ));
        }
        let reply = client
            .send("GET", &path, &[("Accept", "application/json")], b"")
            .expect("query");
        if reply.status == 404 {
            return None;
        }
        assert_eq!(reply.status, 200, "{}", reply.text());
        for e in reply.json()["value"].as_array().expect("value") {
            let raw = RawEntity::parse(&e.to_string()).unwrap();
            out.push(entity_json::decode(&raw).expect("the server's entity"));
        }
        next = match (
            reply.header("x-ms-continuation-NextPartitionKey"),
            reply.header("x-ms-continuation-NextRowKey"),
        ) {
            (Some(pk), Some(rk)) => Some((pk.to_string(), rk.to_string())),
            _ => return Some(out),
        };
    }
}

fn engine_table(account: &Account) -> Option<Vec<Entity>> {
    let snapshot = account.export();
    let table = snapshot.tables.iter().find(|t| t.name == TABLE)?;
    Some(
        table
            .entities
            .iter()
            .map(|raw| entity_json::decode(raw).expect("a stored entity"))
            .collect(),
    )
}

fn current_etag(client: &mut Client, pk: &str, rk: &str) -> String {
    let get = Request::Get {
        table: TABLE.into(),
        partition_key: pk.into(),
        row_key: rk.into(),
        select: None,
    };
    let reply = send(client, &get);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.header("etag").expect("an ETag").to_string()
}

fn run_form(form: Form, file: &Path, endpoint: &str) -> Json {
    let mut command = match form {
        Form::JavaScript => {
            let mut c = Command::new("node");
            c.arg(root().join("crates/codegen/tests/code/run.mjs"));
            c
        }
        Form::Python => {
            let python = root().join(".venv-sdk/bin/python");
            assert!(
                python.exists(),
                "{} is missing: run scripts/setup.sh (ensure_python_sdk)",
                python.display()
            );
            let mut c = Command::new(python);
            c.arg(root().join("crates/codegen/tests/code/run.py"));
            c
        }
        other => panic!("{other:?} does not run here"),
    };
    let connection = format!(
        "DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={DEV_KEY};TableEndpoint={endpoint};"
    );
    let out = command
        .arg(file)
        .env("TABLESCOPE_TABLE_ENDPOINT", endpoint)
        .env(code::CONNECTION_STRING_VARIABLE, connection)
        .output()
        .unwrap_or_else(|e| panic!("{form:?} runner: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{form:?} runner failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn check(case: &Case, form: Form, dir: &Path) -> Result<(), String> {
    let server = Server::start(&["--in-memory"]);
    let endpoint = format!("http://127.0.0.1:{}/{ACCOUNT}", server.port);
    let mut client = server.client();
    let mut account = Account::default();
    for step in &case.setup {
        let reply = send(&mut client, step);
        assert!(
            reply.status < 300,
            "{}: setup {step:?}: {}",
            case.name,
            reply.text()
        );
        assert!(account.execute(step).is_success());
    }
    let (server_request, engine_request) = match case.etag_of {
        Some((pk, rk)) => {
            let engine_etag = account.get(TABLE, pk, rk).unwrap().etag().unwrap();
            (
                with_etag(&case.request, &current_etag(&mut client, pk, rk)),
                with_etag(&case.request, &engine_etag),
            )
        }
        None => (case.request.clone(), case.request.clone()),
    };
    let text = code::show(&server_request, form).unwrap();
    assert!(
        !text.contains(PLAYGROUND_URL),
        "no form but HTTP names the URL"
    );
    let file = dir.join(format!("{}.{}", case.name, form.extension()));
    std::fs::write(&file, &text).unwrap();
    let got = run_form(form, &file, &endpoint);
    let response = account.execute(&engine_request);
    let want = expected_output(&engine_request, &response);
    let mut problems = Vec::new();
    if got != want {
        problems.push(format!("output\n  got:  {got}\n  want: {want}"));
    }
    let (on_server, in_engine) = (server_table(&mut client), engine_table(&account));
    if on_server != in_engine {
        problems.push(format!(
            "table afterwards\n  server: {on_server:?}\n  engine: {in_engine:?}"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} ({form:?}):\n{text}\n{}",
            case.name,
            problems.join("\n")
        ))
    }
}

fn check_all(form: Form) {
    let dir = std::env::temp_dir().join(format!(
        "tablescope-code-sdk-{}-{}",
        form.extension(),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|case| check(case, form, &dir).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_javascript_form_gives_the_engines_answer_with_the_real_sdk() {
    check_all(Form::JavaScript);
}

#[test]
fn the_python_form_gives_the_engines_answer_with_the_real_sdk() {
    check_all(Form::Python);
}

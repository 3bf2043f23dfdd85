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
mod code_support;
mod serve_support;

use code_cases::{cases, expected_output, with_etag, Case, TABLE};
use code_support::{run_form, send};
use serve_support::{Client, Server, ACCOUNT};
use std::path::Path;
use tablescope_codegen::{self as code, Form, PLAYGROUND_URL};
use tablescope_engine::{json as entity_json, Account, Entity, RawEntity, Request};

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

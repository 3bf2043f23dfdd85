//! Running "show as code" for real, shared by the tests that do: a request's HTTP form sent
//! to `tablescope-serve`, and a JavaScript or Python form run with the official SDK
//! (crates/codegen/tests/code/run.mjs and run.py) against it.

use super::serve_support::{self, Client, ACCOUNT};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use tablescope_codegen::{self as code, Form};
use tablescope_engine::Request;

pub const DEV_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// The repository's root: the SDKs are installed there (`node_modules`, `.venv-sdk`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Sends a request's HTTP form to the server.
pub fn send(client: &mut Client, request: &Request) -> serve_support::Reply {
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

/// Runs `file` (a form of `form`) against `endpoint` and returns what it printed.
pub fn run_form(form: Form, file: &Path, endpoint: &str) -> Json {
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

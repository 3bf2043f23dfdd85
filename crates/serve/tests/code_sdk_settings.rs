//! "Show as code" for the account's settings, run for real: for every case of
//! crates/codegen/tests/settings_cases, the JavaScript form runs with the official
//! `@azure/data-tables` and the Python form with `azure-data-tables` against a fresh
//! `tablescope-serve`. Afterwards the server's settings, read back as the service's XML
//! (Get Table Service Properties and Get Table ACL), must be byte for byte what the engine
//! holds after running the same request: the code does what the playground shows it doing.
//!
//! Needs Node with the repository's node_modules and `.venv-sdk` (scripts/setup.sh).

mod code_support;
mod serve_support;
#[path = "../../codegen/tests/settings_cases/mod.rs"]
mod settings_cases;

use code_support::{run_form, send};
use serve_support::{Client, Server, ACCOUNT};
use settings_cases::{cases, TABLE};
use std::path::Path;
use tablescope_codegen::{self as code, Form};
use tablescope_engine::{Account, DateTime, Request, SignedIdentifier};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};

/// The two reads that show every setting: the service properties and the table's ACL.
fn reads() -> [Request; 2] {
    [
        Request::GetServiceProperties {},
        Request::GetTableAcl {
            table: TABLE.into(),
        },
    ]
}

/// What the server answers to the reads, as status and body.
fn on_server(client: &mut Client) -> Vec<(u16, String)> {
    reads()
        .iter()
        .map(|r| {
            let reply = send(client, r);
            (reply.status, reply.text())
        })
        .collect()
}

/// What the wire layer answers to the same reads on `account`.
fn in_engine(account: &mut Account) -> Vec<(u16, String)> {
    let endpoint = Endpoint::anonymous(ACCOUNT);
    let context = Context {
        now: DateTime::MIN,
        request_id: "r".into(),
    };
    reads()
        .iter()
        .map(|r| {
            let text = code::show(r, Form::Http).expect("an HTTP form");
            let (head, _) = text.split_once("\n\n").unwrap_or((&text, ""));
            let mut lines = head.lines();
            let start: Vec<&str> = lines.next().unwrap().split(' ').collect();
            let mut request = HttpRequest::new(start[0], start[1]);
            for (name, value) in lines.map(|l| l.split_once(": ").unwrap()) {
                request = request.header(name, value);
            }
            let out = wire::handle(account, &endpoint, &context, &request);
            let body = String::from_utf8(out.response.body).unwrap();
            (out.response.status, body)
        })
        .collect()
}

/// `request` as the SDK puts it on the wire: `@azure/data-tables` writes an `<AccessPolicy>`
/// element for every signed identifier, an empty one for an identifier without a policy, and
/// the service keeps what it is sent.
fn as_the_sdk_sends(request: &Request, form: Form) -> Request {
    match (request, form) {
        (Request::SetTableAcl { table, identifiers }, Form::JavaScript) => Request::SetTableAcl {
            table: table.clone(),
            identifiers: identifiers
                .iter()
                .map(|i| SignedIdentifier {
                    id: i.id.clone(),
                    access_policy: Some(i.access_policy.clone().unwrap_or_default()),
                })
                .collect(),
        },
        _ => request.clone(),
    }
}

fn check(name: &str, request: &Request, form: Form, dir: &Path) -> Result<(), String> {
    let server = Server::start(&["--in-memory", "--no-cors"]);
    let endpoint = format!("http://127.0.0.1:{}/{ACCOUNT}", server.port);
    let mut client = server.client();
    let create = Request::CreateTable {
        table: TABLE.into(),
    };
    assert!(send(&mut client, &create).status < 300, "{name}: create");
    let mut account = Account::default();
    assert!(account.execute(&create).is_success());

    let text = code::show(request, form).unwrap();
    let file = dir.join(format!("{name}.{}", form.extension()));
    std::fs::write(&file, &text).unwrap();
    let output = run_form(form, &file, &endpoint);
    if output.get("error").is_some_and(|e| !e.is_null()) {
        return Err(format!("{name} ({form:?}) ended with {output}:\n{text}"));
    }
    let expected = as_the_sdk_sends(request, form);
    assert!(
        account.execute(&expected).is_success(),
        "{name}: the engine"
    );
    let (got, want) = (on_server(&mut client), in_engine(&mut account));
    // Both reads answered, and something was read: not two empty answers agreeing.
    assert_eq!(want.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [200, 200]);
    assert!(
        want[0].1.contains("<StorageServiceProperties>"),
        "{}",
        want[0].1
    );
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{name} ({form:?}):\n{text}\n  server: {got:?}\n  engine: {want:?}"
        ))
    }
}

fn check_all(form: Form) {
    let dir = std::env::temp_dir().join(format!(
        "tablescope-code-settings-{}-{}",
        form.extension(),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let all = cases();
    assert_eq!(all.len(), 6);
    let failures: Vec<String> = all
        .iter()
        .filter_map(|(name, request)| check(name, request, form, &dir).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_javascript_settings_forms_leave_the_engines_settings() {
    check_all(Form::JavaScript);
}

#[test]
fn the_python_settings_forms_leave_the_engines_settings() {
    check_all(Form::Python);
}

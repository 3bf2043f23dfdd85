//! "Show as code" goldens: every form of every case in crates/codegen/tests/code_cases is exactly the text in
//! tests/code/golden/<case>.<ext> (`UPDATE_GOLDEN=1 cargo test --test code_golden` rewrites
//! them; review the diff). And the HTTP form is the request itself: `tablescope_wire` reads it
//! back to the same `Request`, and answers it as the engine answers that request.
//!
//! Each case also has tests/code/golden/<case>.check.json for the browser test of the Code
//! section (tests/e2e/code-runtime.test.mjs): the setup as JavaScript forms, what the
//! engine answers the case (in tests/code/run.mjs's terms), and the table afterwards as the
//! page's engine serves it on the wire (`Timestamp` and `odata.etag` left out).

mod code_cases;
mod golden_files;

use code_cases::{cases, expected_output, with_etag, Case, TABLE};
use std::path::PathBuf;
use tablescope_codegen::{self as code, Form};
use tablescope_engine::{json, Account, DateTime, RawEntity, Request};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/code/golden")
}

#[test]
fn every_form_matches_its_golden_file() {
    let mut files = Vec::new();
    for case in cases() {
        let check = serde_json::to_string_pretty(&browser_check(&case)).unwrap() + "\n";
        files.push((format!("{}.check.json", case.name), check));
        for form in Form::ALL {
            let text = code::show(&case.request, form)
                .unwrap_or_else(|e| panic!("{}: {form:?}: {e}", case.name));
            files.push((format!("{}.{}", case.name, form.extension()), text));
        }
    }
    golden_files::check(&golden_dir(), files);
}

/// The browser test's data for a case (see the header).
fn browser_check(case: &Case) -> serde_json::Value {
    let setup: String = case
        .setup
        .iter()
        .map(|r| format!("{{\n{}}}\n", code::show(r, Form::JavaScript).unwrap()))
        .collect();
    let mut account = Account::default();
    for step in &case.setup {
        assert!(account.execute(step).is_success());
    }
    let response = account.execute(&case.request);
    let endpoint = Endpoint::anonymous(wire::DEV_ACCOUNT);
    let context = Context {
        now: DateTime::MIN,
        request_id: "check".into(),
    };
    let read = HttpRequest::new("GET", &format!("/{}/{TABLE}()", wire::DEV_ACCOUNT))
        .header("Accept", "application/json;odata=minimalmetadata");
    let out = wire::handle(&mut account, &endpoint, &context, &read);
    let table = match out.response.status {
        404 => serde_json::Value::Null,
        200 => {
            let body: serde_json::Value = serde_json::from_slice(&out.response.body).unwrap();
            let mut rows = body["value"].as_array().unwrap().clone();
            for row in &mut rows {
                let map = row.as_object_mut().unwrap();
                map.remove("Timestamp");
                map.remove("odata.etag");
            }
            serde_json::Value::Array(rows)
        }
        other => panic!("{}: reading the table gave {other}", case.name),
    };
    serde_json::json!({
        "setup": setup,
        "expected": expected_output(&case.request, &response),
        "table": table,
    })
}

/// Splits `.http` text into the request `tablescope_wire` reads.
pub fn parse_http(text: &str) -> HttpRequest {
    let (head, body) = text.split_once("\n\n").unwrap_or((text, ""));
    let mut lines = head.lines();
    let start: Vec<&str> = lines.next().unwrap().split(' ').collect();
    assert_eq!(start.len(), 3, "{text}");
    let mut request = HttpRequest::new(start[0], start[1]);
    for line in lines {
        let (name, value) = line.split_once(": ").unwrap();
        request = request.header(name, value);
    }
    let body = body.strip_suffix('\n').unwrap_or(body);
    request.body(body.as_bytes().to_vec())
}

fn account_after(case: &Case) -> Account {
    let mut account = Account::default();
    for step in &case.setup {
        let r = account.execute(step);
        assert!(r.is_success(), "{}: setup {step:?}: {r:?}", case.name);
    }
    account
}

/// The case's request, taking the ETag its entity has after the setup.
fn request_for(case: &Case, account: &Account) -> Request {
    match case.etag_of {
        Some((pk, rk)) => {
            let entity = account
                .get(TABLE, pk, rk)
                .expect("the entity the case updates");
            with_etag(
                &case.request,
                &entity.etag().expect("a stored entity has an ETag"),
            )
        }
        None => case.request.clone(),
    }
}

/// The request with every entity in the engine's own JSON form (`2.0` and `2` with its
/// annotation, `.678Z` and `.6780000Z`, are the same value).
fn normalized(request: &Request) -> serde_json::Value {
    fn visit(v: &mut serde_json::Value) {
        if let serde_json::Value::Object(map) = v {
            for (name, member) in map.iter_mut() {
                if name == "entity" {
                    let raw = RawEntity::parse(&member.to_string()).unwrap();
                    *member = RawEntity::from_entity(&json::decode(&raw).unwrap()).to_json();
                } else {
                    visit(member);
                }
            }
        } else if let serde_json::Value::Array(items) = v {
            items.iter_mut().for_each(visit);
        }
    }
    let mut value = serde_json::to_value(request).unwrap();
    visit(&mut value);
    value
}

#[test]
fn the_http_form_reads_back_to_the_same_request_and_answer() {
    let endpoint = Endpoint::anonymous(wire::DEV_ACCOUNT);
    let context = Context {
        now: DateTime::parse("2024-05-06T07:08:09.1234567Z").unwrap(),
        request_id: "r1".into(),
    };
    for case in cases() {
        let mut by_wire = account_after(&case);
        let request = request_for(&case, &by_wire);
        let text = code::show(&request, Form::Http).unwrap();
        let http = parse_http(&text);
        let outcome = wire::handle(&mut by_wire, &endpoint, &context, &http);
        assert_eq!(
            outcome.request.as_ref().map(normalized),
            Some(normalized(&request)),
            "{}: {text}\n{}",
            case.name,
            String::from_utf8_lossy(&outcome.response.body)
        );
        let mut direct = account_after(&case);
        let expected = direct.execute(&request);
        assert_eq!(
            outcome.response.status,
            match (&request, expected.status) {
                (Request::Batch { .. }, _) => 202,
                // The form asks for `Prefer: return-no-content`, as the JS SDK does.
                (_, 201) if http.header_value("Prefer") == Some("return-no-content") => 204,
                (_, status) => status,
            },
            "{}: {}",
            case.name,
            String::from_utf8_lossy(&outcome.response.body)
        );
        assert_eq!(
            by_wire.export(),
            direct.export(),
            "{}: the HTTP form changed the tables differently",
            case.name
        );
    }
}

/// Connect's "Show as code" (`code::show_at`): the HTTP form addresses the endpoint given (a
/// trailing `/` dropped) wherever the playground's form names the playground, batch parts
/// included; every other form is the same text whatever the endpoint.
#[test]
fn a_forms_endpoint_is_the_one_given() {
    let endpoint = "https://account.table.core.windows.net";
    for case in cases() {
        for form in Form::ALL {
            let at_playground = code::show(&case.request, form).unwrap();
            let at_endpoint = code::show_at(&case.request, form, &format!("{endpoint}/")).unwrap();
            if form == Form::Http {
                assert!(
                    at_playground.contains(code::PLAYGROUND_URL),
                    "{}",
                    case.name
                );
                assert!(!at_endpoint.contains(code::PLAYGROUND_URL), "{}", case.name);
                assert_eq!(
                    at_endpoint,
                    at_playground.replace(code::PLAYGROUND_URL, endpoint),
                    "{}",
                    case.name
                );
            } else {
                assert_eq!(at_endpoint, at_playground, "{}: {form:?}", case.name);
            }
        }
    }
}

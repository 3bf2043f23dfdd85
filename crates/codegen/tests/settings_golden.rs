//! "Show as code" for the account's settings: every form of Get and Set Table Service
//! Properties and Get and Set Table ACL is exactly the text in tests/code/settings/<case>.<ext>
//! (`UPDATE_GOLDEN=1 cargo test --test settings_golden` rewrites them; review the diff), and
//! every case is a request the engine accepts.
//!
//! crates/serve/tests/code_sdk_settings.rs runs the JavaScript and Python forms of the same
//! cases with the real SDKs against `tablescope-serve`.

mod golden_files;
mod settings_cases;

use settings_cases::{cases, TABLE};
use std::path::PathBuf;
use tablescope_codegen::{self as code, Form};
use tablescope_engine::Account;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/code/settings")
}

#[test]
fn every_settings_form_matches_its_golden_file() {
    let mut files = Vec::new();
    for (name, request) in cases() {
        for form in Form::ALL {
            let text =
                code::show(&request, form).unwrap_or_else(|e| panic!("{name}: {form:?}: {e}"));
            files.push((format!("{name}.{}", form.extension()), text));
        }
    }
    golden_files::check(&golden_dir(), files);
}

#[test]
fn every_settings_case_is_a_request_the_engine_accepts() {
    let mut account = Account::default();
    account.create_table(TABLE).unwrap();
    for (name, request) in cases() {
        let response = account.execute(&request);
        assert_eq!(response.error, None, "{name}");
    }
}

#[test]
fn the_http_form_sends_the_services_xml() {
    let (_, request) = cases().into_iter().nth(1).unwrap();
    let http = code::show(&request, Form::Http).unwrap();
    assert!(http.starts_with(
        "PUT http://127.0.0.1:10002/devstoreaccount1/?restype=service&comp=properties HTTP/1.1\n\
         Accept: application/xml\nContent-Type: application/xml\nx-ms-version: 2019-02-02\n\n\
         <?xml version=\"1.0\" encoding=\"utf-8\"?>\n<StorageServiceProperties>\n  <Cors>\n"
    ));
    assert!(
        http.contains("<AllowedOrigins>https://example.com,http://127.0.0.1:8080</AllowedOrigins>")
    );
}

//! Any bytes as an HTTP request: `engine::wire::handle` must answer without panicking, and a
//! request it refuses (any status of 400 and up, or a `$batch` whose part is an error) must
//! leave the account exactly as it was.
//!
//! The input is split on its first three `\n`s into method, URL and `Content-Type`; the rest
//! is the body. URLs that start with `$batch` go to the batch parser, so the multipart reader
//! is fuzzed along with routing, headers and JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablescope_engine::wire::{self, Context, Endpoint, HttpRequest};
use tablescope_engine::{Account, DateTime, Request};

fuzz_target!(|data: &[u8]| {
    let mut fields = data.splitn(4, |b| *b == b'\n');
    let text = |f: Option<&[u8]>| String::from_utf8_lossy(f.unwrap_or_default()).into_owned();
    let method = text(fields.next());
    let url = format!("/devstoreaccount1/{}", text(fields.next()));
    let content_type = text(fields.next());
    let body = fields.next().unwrap_or_default().to_vec();
    let request = HttpRequest::new(&method, &url)
        .header("Content-Type", &content_type)
        .header("Prefer", "return-no-content")
        .header("If-Match", "*")
        .body(body);

    let mut account = Account::default();
    account.execute(&Request::CreateTable { table: "Orders".into() });
    account.execute(&Request::Insert {
        table: "Orders".into(),
        entity: tablescope_engine::RawEntity::parse(r#"{"PartitionKey":"p","RowKey":"r","N":1}"#)
            .unwrap_or_default(),
    });
    let before = account.export();
    let context = Context { now: DateTime::MIN, request_id: "fuzz".into() };
    let out = wire::handle(&mut account, &Endpoint::anonymous("devstoreaccount1"), &context, &request);
    let refused = out.response.status >= 400
        || (out.response.status == 202 && out.response.body.windows(11).any(|w| w == b"odata.error"));
    if refused {
        assert!(account.export() == before, "a refused request changed the account");
    }
});

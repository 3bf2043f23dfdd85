//! `$batch` bodies recorded from the real SDKs, through `wire::handle`: the multipart parser
//! and writer together with the batch orchestration. The parser's own tests (every tolerated
//! variant, every refusal, truncation at every offset) live beside it in `wire/multipart.rs`.

use tablescope_engine::{Account, DateTime};
use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};

/// Azure/azure-sdk-for-go, sdk/data/aztables/testdata/recordings/TestBatchError/
/// TestBatchError_storage.json: three inserts as Go's aztables sends them (production style
/// URLs with `$format`, `Content-Length` and `X-Ms-Version` in every part).
const GO: &[u8] = include_bytes!("fixtures/batch/go_transaction.txt");
const GO_CT: &str = "multipart/mixed; boundary=batch_00000000-0000-0000-0000-000000000000";
const HOST: &str = "fakeaccount.table.core.windows.net";

fn context() -> Context {
    Context {
        now: DateTime::MIN,
        request_id: "r1".into(),
    }
}

fn account_with_table() -> (Account, Endpoint) {
    let mut account = Account::default();
    let endpoint = Endpoint::anonymous("fakeaccount");
    let create = HttpRequest::new("POST", "/Tables")
        .header("Host", HOST)
        .header("Content-Type", "application/json")
        .header("Prefer", "return-no-content")
        .body(br#"{"TableName":"tableName2163872032"}"#.to_vec());
    let out = wire::handle(&mut account, &endpoint, &context(), &create);
    assert_eq!(out.response.status, 204);
    (account, endpoint)
}

fn batch(body: &[u8], content_type: &str) -> HttpRequest {
    HttpRequest::new("POST", "/$batch")
        .header("Host", HOST)
        .header("Content-Type", content_type)
        .body(body.to_vec())
}

#[test]
fn multipart_go_inserts_answer_one_part_each() {
    let (mut account, endpoint) = account_with_table();
    let out = wire::handle(&mut account, &endpoint, &context(), &batch(GO, GO_CT));
    let body = String::from_utf8_lossy(&out.response.body);
    assert_eq!(out.response.status, 202, "{body}");
    assert!(
        body.starts_with(
            "--batchresponse_r1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_r1\r\n\r\n\
             --changesetresponse_r1\r\nContent-Type: application/http\r\n\
             Content-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\n"
        ),
        "{body}"
    );
    assert!(
        body.ends_with("\r\n\r\n\r\n--changesetresponse_r1--\r\n--batchresponse_r1--\r\n"),
        "{body}"
    );
    assert_eq!(
        body.matches("HTTP/1.1 204 No Content\r\n").count(),
        3,
        "{body}"
    );
    assert_eq!(
        body.matches("Location: http://fakeaccount.table.core.windows.net/tableName2163872032(PartitionKey='partition',RowKey=").count(),
        3,
        "{body}"
    );
}

#[test]
fn multipart_truncated_batch_changes_nothing() {
    let (mut account, endpoint) = account_with_table();
    let cut = GO.len() - 20;
    let out = wire::handle(
        &mut account,
        &endpoint,
        &context(),
        &batch(&GO[..cut], GO_CT),
    );
    assert_eq!(out.response.status, 400);
    assert!(out.request.is_none());
    let body = String::from_utf8_lossy(&out.response.body);
    assert!(body.contains(r#""code":"InvalidInput""#), "{body}");
    let get = HttpRequest::new(
        "GET",
        "/tableName2163872032(PartitionKey='partition',RowKey='1')",
    )
    .header("Host", HOST);
    let out = wire::handle(&mut account, &endpoint, &context(), &get);
    assert_eq!(out.response.status, 404);
}

/// The whole failure response, byte for byte, against production's answer to the same
/// request (the Go recording: the third insert's entity already exists). Only the ids and the
/// time differ, and they are ours to choose.
#[test]
fn a_failing_batch_answers_exactly_as_production() {
    let (mut account, endpoint) = account_with_table();
    let existing = HttpRequest::new("POST", "/tableName2163872032")
        .header("Host", HOST)
        .header("Content-Type", "application/json")
        .header("Prefer", "return-no-content")
        .body(br#"{"PartitionKey":"partition","RowKey":"3"}"#.to_vec());
    assert_eq!(
        wire::handle(&mut account, &endpoint, &context(), &existing)
            .response
            .status,
        204
    );
    let before = account.export();
    let out = wire::handle(&mut account, &endpoint, &context(), &batch(GO, GO_CT));
    assert_eq!(out.response.status, 202);
    let production =
        String::from_utf8(include_bytes!("fixtures/batch/production_409_response.txt").to_vec())
            .unwrap()
            .replace("377b7eed-988f-4b9f-9e0f-8a1d09b47f46", "r1")
            .replace("349f1da0-6365-40f2-99ad-ea4fdf3be0ef", "r1")
            .replace("123ec98d-d002-00a9-036c-4f34c3000000", "r1")
            .replace(
                "2022-04-13T19:29:04.2712828Z",
                "1601-01-01T00:00:00.0000000Z",
            );
    assert_eq!(String::from_utf8_lossy(&out.response.body), production);
    assert_eq!(
        account.export(),
        before,
        "nothing of a failed batch is applied"
    );
}

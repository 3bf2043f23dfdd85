//! The multipart reader's and writer's tests: every tolerated variant, every refusal,
//! truncation at every offset, and the writer against production's recordings.

use super::*;

/// Bodies real clients sent, recorded by a custom transport (JS `@azure/data-tables`
/// 13.3.2, Python `azure-data-tables` 12.7.0) or kept in the SDK repositories (Go).
macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/batch/",
            $name
        ))
        .as_slice()
    };
}

const JS_CT: &str = "multipart/mixed; boundary=batch_95a68290-f6f8-4f3a-98e7-846bb037d4d5";
const JS_EMPTY_CT: &str = "multipart/mixed; boundary=batch_4013f47a-6047-4ce4-adae-09c9fcd0eea7";
const PY_CT: &str = "multipart/mixed; boundary=batch_602f12c1-ebd4-42e3-b8f4-0b4aab28f4ef";
const PY_EMPTY_CT: &str = "multipart/mixed; boundary=batch_aa8d5f83-58c5-420a-a202-3dee1cad2493";
const GO_CT: &str = "multipart/mixed; boundary=batch_00000000-0000-0000-0000-000000000000";
const NODE_CT: &str = "multipart/mixed; boundary=batch_0000000-0000-0000-0000-000000000000";

const BASE: &str = "http://127.0.0.1:10002/devstoreaccount1/t";
const ETAG: &str = "W/\"datetime'2024-01-02T03%3A04%3A05.6Z'\"";

fn header<'a>(part: &'a BatchPart, name: &str) -> Option<&'a str> {
    find(&part.headers, name)
}

fn body(part: &BatchPart) -> &str {
    std::str::from_utf8(&part.body).unwrap_or("<not UTF-8>")
}

fn detail(result: Result<ParsedBatch>) -> (ErrorCode, String) {
    match result {
        Ok(parsed) => panic!("expected an error, parsed {} parts", parsed.parts.len()),
        Err(e) => (e.code, e.detail.map(|d| d.to_string()).unwrap_or_default()),
    }
}

fn bad(detail: &str) -> (ErrorCode, String) {
    (ErrorCode::InvalidInput, detail.to_string())
}

fn replace(body: &[u8], from: &str, to: &str) -> Vec<u8> {
    String::from_utf8_lossy(body).replace(from, to).into_bytes()
}

/// `(method, url, If-Match, Prefer, body)` of each operation.
type Row<'a> = (&'a str, String, Option<&'a str>, Option<&'a str>, &'a str);

fn rows(parsed: &ParsedBatch) -> Vec<Row<'_>> {
    parsed
        .parts
        .iter()
        .map(|p| {
            (
                p.method.as_str(),
                p.url.clone(),
                header(p, "If-Match"),
                header(p, "Prefer"),
                body(p),
            )
        })
        .collect()
}

#[test]
fn js_sdk_transaction() {
    let parsed = parse(JS_CT, fixture!("js_transaction.txt")).expect("parses");
    assert!(parsed.changeset);
    let entity = |rk: &str| format!("{BASE}(PartitionKey='pk''1%25%C3%A9',RowKey='{rk}')");
    let no = Some("return-no-content");
    assert_eq!(
        rows(&parsed),
        vec![
            (
                "POST",
                BASE.to_string(),
                None,
                no,
                r#"{"PartitionKey":"pk'1%é","RowKey":"","n":1}"#
            ),
            (
                "POST",
                BASE.to_string(),
                None,
                no,
                r#"{"PartitionKey":"pk'1%é","RowKey":"a'b","big":"9007199254740993","big@odata.type":"Edm.Int64","when":"2024-01-02T03:04:05.600Z","when@odata.type":"Edm.DateTime"}"#
            ),
            (
                "PATCH",
                entity("c%25d"),
                None,
                None,
                r#"{"PartitionKey":"pk'1%é","RowKey":"c%d","s":"x"}"#
            ),
            (
                "PUT",
                entity("%E6%97%A5%E6%9C%AC"),
                None,
                None,
                r#"{"PartitionKey":"pk'1%é","RowKey":"日本","s":"y"}"#
            ),
            (
                "PATCH",
                entity("u1"),
                Some(ETAG),
                None,
                r#"{"PartitionKey":"pk'1%é","RowKey":"u1","d":1.5}"#
            ),
            (
                "PUT",
                entity("u2"),
                Some("*"),
                None,
                r#"{"PartitionKey":"pk'1%é","RowKey":"u2","b":true}"#
            ),
            ("DELETE", entity("del"), Some("*"), None, ""),
            ("DELETE", entity("del2"), Some("*"), None, ""),
        ]
    );
    let first = parsed.parts.first().expect("one part");
    assert_eq!(
        first.headers,
        vec![
            (
                "Content-Type".into(),
                "application/json;odata=nometadata".into()
            ),
            (
                "Accept".into(),
                "application/json;odata=minimalmetadata".into()
            ),
            ("DataServiceVersion".into(), "3.0".into()),
            ("Prefer".into(), "return-no-content".into()),
        ]
    );
    assert!(parsed.parts.iter().all(|p| p.content_id.is_none()));
}

#[test]
fn js_sdk_empty_keys() {
    let parsed = parse(JS_EMPTY_CT, fixture!("js_empty_keys.txt")).expect("parses");
    assert_eq!(
        rows(&parsed),
        vec![(
            "POST",
            BASE.to_string(),
            None,
            Some("return-no-content"),
            r#"{"PartitionKey":"","RowKey":"","v":"only"}"#
        )]
    );
}

#[test]
fn python_sdk_transaction() {
    let parsed = parse(PY_CT, fixture!("py_transaction.txt")).expect("parses");
    assert!(parsed.changeset);
    // Python doubles the quote, then percent-encodes it.
    let entity = |rk: &str| format!("{BASE}(PartitionKey='pk%27%271%25%C3%A9',RowKey='{rk}')");
    let got: Vec<_> = rows(&parsed)
        .into_iter()
        .map(|(m, u, i, p, b)| (m, u, i, p, b.len()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("POST", BASE.to_string(), None, None, 129),
            ("POST", BASE.to_string(), None, None, 256),
            ("PATCH", entity("c%25d"), None, None, 164),
            ("PUT", entity("%E6%97%A5%E6%9C%AC"), None, None, 173),
            ("PATCH", entity("u1"), Some(ETAG), None, 163),
            ("PUT", entity("u2"), Some("*"), None, 134),
            ("DELETE", entity("del"), Some("*"), None, 0),
            ("DELETE", entity("del2"), Some(ETAG), None, 0),
        ]
    );
    // The body is exactly what Content-Length announced.
    for part in &parsed.parts {
        let announced = header(part, "Content-Length").map(|l| l.parse::<usize>());
        if let Some(Ok(length)) = announced {
            assert_eq!(part.body.len(), length, "{}", part.url);
        }
    }
    let ids: Vec<_> = parsed
        .parts
        .iter()
        .map(|p| p.content_id.as_deref())
        .collect();
    assert_eq!(
        ids,
        ["0", "1", "2", "3", "4", "5", "6", "7"].map(Some).to_vec()
    );
    let first = parsed.parts.first().expect("one part");
    assert_eq!(
        body(first),
        r#"{"PartitionKey": "pk'1%\u00e9", "PartitionKey@odata.type": "Edm.String", "RowKey": "", "RowKey@odata.type": "Edm.String", "n": 1}"#
    );
    assert_eq!(header(first, "x-ms-version"), Some("2019-02-02"));
}

#[test]
fn python_sdk_empty_keys() {
    let parsed = parse(PY_EMPTY_CT, fixture!("py_empty_keys.txt")).expect("parses");
    assert_eq!(parsed.parts.len(), 1);
    let part = parsed.parts.first().expect("one part");
    assert_eq!(part.content_id.as_deref(), Some("0"));
    assert_eq!(
        body(part),
        r#"{"PartitionKey": "", "PartitionKey@odata.type": "Edm.String", "RowKey": "", "RowKey@odata.type": "Edm.String", "v": "only", "v@odata.type": "Edm.String"}"#
    );
}

/// Azure/azure-sdk-for-go, sdk/data/aztables/testdata/recordings/TestBatchError/
/// TestBatchError_storage.json: the request body Go's aztables sent to production.
#[test]
fn go_sdk_transaction() {
    let parsed = parse(GO_CT, fixture!("go_transaction.txt")).expect("parses");
    let url = "https://fakeaccount.table.core.windows.net/tableName2163872032\
               ?%24format=application%2Fjson%3Bodata%3Dminimalmetadata";
    assert_eq!(parsed.parts.len(), 3);
    for (i, part) in parsed.parts.iter().enumerate() {
        assert_eq!((part.method.as_str(), part.url.as_str()), ("POST", url));
        assert_eq!(header(part, "X-Ms-Version"), Some("2019-02-02"));
        assert_eq!(header(part, "Content-Length"), Some("194"));
        assert_eq!(part.body.len(), 194);
        let row_key = format!(r#""RowKey":"{}""#, i + 1);
        assert!(body(part).contains(&row_key), "{}", body(part));
    }
}

/// gluwer/azure-table-node, test/test-batch.js: a lone read, its Content-ID among the
/// request's own headers, and no line break after the closing delimiter.
#[test]
fn lone_read() {
    let parsed = parse(NODE_CT, fixture!("table_node_lone_get.txt")).expect("parses");
    assert_eq!(
        parsed,
        ParsedBatch {
            parts: vec![BatchPart {
                method: "GET".into(),
                url: "https://dummy.table.core.windows.net/testtable\
                      (PartitionKey=%27tests%27,RowKey=%27insert1%27)"
                    .into(),
                headers: vec![
                    ("content-id".into(), "0".into()),
                    (
                        "accept".into(),
                        "application/json;odata=minimalmetadata".into()
                    ),
                ],
                body: Vec::new(),
                content_id: Some("0".into()),
            }],
            changeset: false,
        }
    );
}

#[test]
fn tolerated_variants_parse_like_the_original() {
    let original = parse(JS_CT, fixture!("js_transaction.txt")).expect("parses");
    let js = fixture!("js_transaction.txt");
    let close = "--batch_95a68290-f6f8-4f3a-98e7-846bb037d4d5--\r\n";
    let open = "--batch_95a68290-f6f8-4f3a-98e7-846bb037d4d5\r\n";
    let quoted =
        "multipart/mixed; charset=utf-8; Boundary=\"batch_95a68290-f6f8-4f3a-98e7-846bb037d4d5\"";
    let mut framed = b"This is a preamble.\r\n".to_vec();
    framed.extend_from_slice(js);
    framed.extend_from_slice(b"an epilogue\r\n");
    let upper = JS_CT.replace("multipart/mixed", "Multipart/Mixed");
    let variants: Vec<(&str, &str, Vec<u8>)> = vec![
        ("bare LF", JS_CT, replace(js, "\r\n", "\n")),
        ("quoted boundary", quoted, js.to_vec()),
        ("upper-case media type", &upper, js.to_vec()),
        ("preamble and epilogue", JS_CT, framed),
        (
            "no CRLF after the close",
            JS_CT,
            js.strip_suffix(b"\r\n").unwrap_or(js).to_vec(),
        ),
        ("open end (JS SDK 2020)", JS_CT, replace(js, close, open)),
        (
            "padding after delimiters",
            JS_CT,
            replace(js, "2a2b2\r\n", "2a2b2 \t\r\n"),
        ),
    ];
    for (name, content_type, body) in variants {
        assert_eq!(parse(content_type, &body).as_ref(), Ok(&original), "{name}");
    }
}

#[test]
fn folded_and_lower_case_headers() {
    let body = b"--b\r\ncontent-type: multipart/mixed;\r\n boundary=c\r\n\r\n--c\r\n\
                 CONTENT-TYPE: Application/HTTP\r\n\r\n\
                 DELETE http://h/a/t(PartitionKey='p',RowKey='r') HTTP/1.1\r\n\
                 if-match: *\r\n--c--\r\n--b--";
    let parsed = parse("multipart/mixed; boundary=b", body).expect("parses");
    let part = parsed.parts.first().expect("one part");
    assert_eq!(part.method, "DELETE");
    assert_eq!(header(part, "If-Match"), Some("*"));
    assert_eq!(part.body, b"");
}

fn changeset_of(ops: &str) -> Vec<u8> {
    format!("--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n{ops}--c--\r\n--b--\r\n")
        .into_bytes()
}

const OP: &str =
    "--c\r\nContent-Type: application/http\r\n\r\nPOST http://h/a/t HTTP/1.1\r\n\r\n{}\r\n";
const CT: &str = "multipart/mixed; boundary=b";

#[test]
fn refused_envelopes() {
    let read = "--b\r\nContent-Type: application/http\r\n\r\nGET http://h/a/t() HTTP/1.1\r\n\r\n";
    let two_changesets = format!(
        "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n{OP}--c--\r\n\
         --b\r\nContent-Type: multipart/mixed; boundary=d\r\n\r\n--d--\r\n--b--"
    );
    let read_and_changeset =
        format!("--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n{OP}--c--\r\n{read}--b--");
    let mut latin1 = changeset_of(OP);
    latin1.splice(OP.len()..OP.len(), b"X-Name: caf\xe9\r\n".iter().copied());
    let cases: Vec<(&str, Vec<u8>, (ErrorCode, String))> = vec![
        ("multipart/mixed", changeset_of(OP), bad("the $batch request has no boundary in its Content-Type")),
        ("multipart/mixed; boundary=", changeset_of(OP), bad("the $batch request has an empty boundary")),
        ("multipart/mixed; boundary=\"\"", changeset_of(OP), bad("the $batch request has an empty boundary")),
        (
            "application/json",
            changeset_of(OP),
            (
                ErrorCode::MediaTypeNotSupported,
                "the $batch request has Content-Type `application/json`; expected multipart/mixed; boundary=…".into(),
            ),
        ),
        (CT, Vec::new(), bad("the body holds no delimiter line --b")),
        (CT, b"--b\r\n".to_vec(), bad("the body ends before the closing delimiter --b-- (truncated?)")),
        (CT, b"--b--\r\n".to_vec(), bad("the batch holds no part")),
        (CT, changeset_of(""), bad("the changeset holds no operation")),
        (
            CT,
            changeset_of("--c\r\nContent-Type: text/plain\r\n\r\nhi\r\n"),
            bad("a changeset part has Content-Type `text/plain`; expected application/http"),
        ),
        (
            CT,
            changeset_of("--c\r\nContent-Type: multipart/mixed; boundary=d\r\n\r\n--d--\r\n"),
            bad("a changeset part has Content-Type `multipart/mixed; boundary=d`; expected application/http"),
        ),
        (CT, changeset_of("--c\r\n\r\nPOST http://h/a/t HTTP/1.1\r\n"), bad("a part has no Content-Type")),
        (
            CT,
            b"--b\r\nContent-Type: text/plain\r\n\r\n--b--".to_vec(),
            bad("a batch part has Content-Type `text/plain`; expected multipart/mixed (a changeset) or application/http (one read)"),
        ),
        (
            CT,
            changeset_of(&OP.replace("POST http://h/a/t HTTP/1.1", "POST http://h/a/t")),
            bad("the request line `POST http://h/a/t` is not `METHOD URL HTTP/1.1`"),
        ),
        (
            CT,
            changeset_of(&OP.replace("POST http://h/a/t HTTP/1.1", "PO$T http://h/a/t HTTP/1.1")),
            bad("the request line `PO$T http://h/a/t HTTP/1.1` is not `METHOD URL HTTP/1.1`"),
        ),
        (
            CT,
            changeset_of(&OP.replace("POST http://h/a/t HTTP/1.1", "POST http://h/a t HTTP/1.1")),
            bad("the request line `POST http://h/a t HTTP/1.1` is not `METHOD URL HTTP/1.1`"),
        ),
        (
            CT,
            changeset_of("--c\r\nContent-Type: application/http\r\n\r\n\r\n\r\n"),
            bad("a part holds no request line"),
        ),
        (
            CT,
            changeset_of(&OP.replace("application/http\r\n", "application/http\r\nContent-Transfer-Encoding: base64\r\n")),
            bad("a part has Content-Transfer-Encoding `base64`; expected binary"),
        ),
        (
            CT,
            changeset_of(&OP.replace("HTTP/1.1\r\n", "HTTP/1.1\r\nno colon here\r\n")),
            bad("the header line `no colon here` is not `Name: value`"),
        ),
        (CT, latin1, bad("a part's headers are not UTF-8")),
        (
            CT,
            changeset_of("--c\r\nContent-Type: application/http\r\nPOST http://h/a/t HTTP/1.1\r\n"),
            bad("the header line `POST http://h/a/t HTTP/1.1` is not `Name: value`"),
        ),
        (
            CT,
            b"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\n--b--".to_vec(),
            bad("the body ends before the closing delimiter --c-- (truncated?)"),
        ),
        (CT, two_changesets.into_bytes(), bad("the batch holds more than one changeset; the service runs only one")),
        (
            CT,
            read_and_changeset.into_bytes(),
            bad("a read in a batch must be its only operation, outside any changeset"),
        ),
        (
            CT,
            format!("{}--b--", read.replace("GET http://h/a/t()", "POST http://h/a/t")).into_bytes(),
            bad("a POST outside a changeset; only a read may stand alone in a batch"),
        ),
    ];
    for (content_type, body, expected) in cases {
        let got = detail(parse(content_type, &body));
        assert_eq!(got, expected, "{}", String::from_utf8_lossy(&body));
    }
}

#[test]
fn overlong_boundary_and_detail_quotes_are_bounded() {
    let long = "b".repeat(71);
    assert_eq!(
        detail(parse(&format!("multipart/mixed; boundary={long}"), b"")),
        bad("the $batch request has a boundary of 71 characters; at most 70 are allowed")
    );
    let method = "A".repeat(200);
    let line = format!("{method} u");
    let (_, text) = detail(parse(
        CT,
        &changeset_of(&OP.replace("POST http://h/a/t HTTP/1.1", &line)),
    ));
    assert_eq!(
        text,
        format!(
            "the request line `{}…` is not `METHOD URL HTTP/1.1`",
            "A".repeat(80)
        )
    );
}

/// Every proper prefix of a real body is refused, never a panic and never a shorter batch.
#[test]
fn truncated_bodies_are_refused_at_every_offset() {
    let fixtures = [
        (JS_CT, fixture!("js_transaction.txt")),
        (PY_CT, fixture!("py_transaction.txt")),
        (GO_CT, fixture!("go_transaction.txt")),
        (NODE_CT, fixture!("table_node_lone_get.txt")),
    ];
    for (content_type, body) in fixtures {
        let complete = parse(content_type, body).expect("the whole body parses");
        // The closing delimiter's own dashes and line end are the only bytes whose loss
        // leaves the same batch: `--b` at the very end closes it as the JS SDK's did.
        let last_delimiter =
            body.len() - body.iter().rev().position(|b| *b == b'-').unwrap_or(0) - 2;
        for end in 0..body.len() {
            match parse(content_type, body.get(..end).unwrap_or_default()) {
                Err(e) => assert_eq!(e.code, ErrorCode::InvalidInput, "at {end}"),
                Ok(parsed) => {
                    assert!(end >= last_delimiter, "a prefix of {end} bytes parsed");
                    assert_eq!(parsed, complete, "at {end}");
                }
            }
        }
    }
}

#[test]
fn hostile_bodies_are_bounded() {
    // Many empty parts: refused at the part limit, before any of them is read.
    let many = "--b\r\n".repeat(MAX_PARTS + 5) + "--b--";
    assert_eq!(
        detail(parse(CT, many.as_bytes())),
        bad("the body holds more than 1000 parts")
    );
    // Many headers in one request.
    let headers = "a: b\r\n".repeat(MAX_HEADERS + 1);
    let op = OP.replace("HTTP/1.1\r\n", &format!("HTTP/1.1\r\n{headers}"));
    assert_eq!(
        detail(parse(CT, &changeset_of(&op))),
        bad("a part holds more than 100 headers")
    );
    // 4 MiB of near-delimiters and blank lines: one pass, refused as unterminated.
    let near = "--b-\r\n\r\n--bb\n".repeat(tablescope_engine::MAX_PAYLOAD_BYTES / 16);
    assert_eq!(
        detail(parse(CT, near.as_bytes())),
        bad("the body holds no delimiter line --b")
    );
}

/// Bytes of real bodies flipped at pseudo-random places: always an answer, never a panic.
#[test]
fn mutated_bodies_never_panic() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"-\r\n:; =\"bc_xHTP/1.GET";
    let mut refused = 0;
    for (content_type, body) in [
        (JS_CT, fixture!("js_transaction.txt")),
        (PY_CT, fixture!("py_transaction.txt")),
    ] {
        for _ in 0..2_000 {
            let mut body = body.to_vec();
            for _ in 0..(next() % 4 + 1) {
                let at = (next() as usize) % body.len();
                let byte = alphabet[(next() as usize) % alphabet.len()];
                if let Some(b) = body.get_mut(at) {
                    *b = byte;
                }
            }
            if parse(content_type, &body).is_err() {
                refused += 1;
            }
        }
    }
    // Some mutations land in JSON bodies or URLs and still parse; many break the envelope.
    assert!(refused > 100 && refused < 4_000, "{refused} refused");
}

fn h(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

const PART_JSON: &str = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";

/// Azure/azure-sdk-for-go, sdk/data/aztables/testdata/recordings/TestBatchError/
/// TestBatchError_storage.json: production's answer when operation 2 already exists.
#[test]
fn write_failure_as_production() {
    let part = PartResponse {
        status: 409,
        headers: vec![
            h("X-Content-Type-Options", "nosniff"),
            h("Cache-Control", "no-cache"),
            h("Preference-Applied", "return-no-content"),
            h("DataServiceVersion", "3.0;"),
            h("Content-Type", PART_JSON),
        ],
        body: br#"{"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US","value":"2:The specified entity already exists.\nRequestId:123ec98d-d002-00a9-036c-4f34c3000000\nTime:2022-04-13T19:29:04.2712828Z"}}}"#.to_vec(),
        content_id: None,
    };
    let (content_type, body) = write(
        "377b7eed-988f-4b9f-9e0f-8a1d09b47f46",
        "349f1da0-6365-40f2-99ad-ea4fdf3be0ef",
        true,
        &[part],
    );
    assert_eq!(
        content_type,
        "multipart/mixed; boundary=batchresponse_377b7eed-988f-4b9f-9e0f-8a1d09b47f46"
    );
    assert_eq!(
        String::from_utf8_lossy(&body),
        String::from_utf8_lossy(fixture!("production_409_response.txt"))
    );
}

/// Azure/azure-sdk-for-js, sdk/tables/data-tables/recordings/browsers/batch_operations/
/// recording_should_send_a_set_of_create_batch_operations.json: three inserts.
#[test]
fn write_inserts_as_production() {
    let base = "https://fakestorageaccount.table.core.windows.net/batchTableTestbrowser";
    let stamps = ["12.9700997", "12.9710979", "12.9710979"];
    let parts: Vec<_> = stamps
        .iter()
        .enumerate()
        .map(|(i, stamp)| {
            let url = format!("{base}(PartitionKey='batchTest',RowKey='{}')", i + 1);
            PartResponse {
                status: 204,
                headers: vec![
                    h("X-Content-Type-Options", "nosniff"),
                    h("Cache-Control", "no-cache"),
                    h("Preference-Applied", "return-no-content"),
                    h("DataServiceVersion", "3.0;"),
                    h("Location", &url),
                    h("DataServiceId", &url),
                    h(
                        "ETag",
                        &format!("W/\"datetime'2020-10-02T04%3A45%3A{stamp}Z'\""),
                    ),
                ],
                body: Vec::new(),
                content_id: None,
            }
        })
        .collect();
    let (_, body) = write(
        "6f78c0bf-9e5b-4a53-b050-d8021d3f14f6",
        "5ba1f259-8c6c-4572-a334-25a7df4023fd",
        true,
        &parts,
    );
    assert_eq!(
        String::from_utf8_lossy(&body),
        String::from_utf8_lossy(fixture!("production_insert_response.txt"))
    );
}

/// gluwer/azure-table-node, test/test-batch.js: production (2013-08-15) echoing the
/// request's Content-ID first among each part's headers.
#[test]
fn write_content_id_as_production() {
    let part = |id: &str, etag: Option<&str>| PartResponse {
        status: 204,
        headers: [
            h("X-Content-Type-Options", "nosniff"),
            h("Cache-Control", "no-cache"),
            h("DataServiceVersion", "1.0;"),
        ]
        .into_iter()
        .chain(etag.map(|e| h("ETag", e)))
        .collect(),
        body: Vec::new(),
        content_id: Some(id.to_string()),
    };
    let etag = "W/\"datetime'2014-01-31T10%3A39%3A48.8625852Z'\"";
    let (_, body) = write(
        "e4a1a0da-d414-41fb-a62c-d6534bb8cbf4",
        "20e8418a-6031-4765-aecd-88045fbe9b1b",
        true,
        &[part("0", Some(etag)), part("1", None)],
    );
    assert_eq!(
        String::from_utf8_lossy(&body),
        String::from_utf8_lossy(fixture!("production_content_id_response.txt"))
    );
}

/// gluwer/azure-table-node, test/test-batch.js: production's answer to a lone read, the
/// application/http part directly in the batch. (Production wrote that part's
/// Content-ID after Content-Type; `write` puts it first, as in changeset parts.)
#[test]
fn write_lone_read_as_production() {
    let part = PartResponse {
        status: 200,
        headers: vec![
            h("DataServiceVersion", "3.0;"),
            h("Content-Type", PART_JSON),
            h("X-Content-Type-Options", "nosniff"),
            h("Cache-Control", "no-cache"),
            h("ETag", "W/\"datetime'2014-01-31T10%3A39%3A48.8625852Z'\""),
        ],
        body: br#"{"odata.metadata":"https://dummy.table.core.windows.net/$metadata#testtable/@Element","PartitionKey":"tests","RowKey":"insert1","Timestamp":"2014-01-31T10:39:48.8625852Z","value":11}"#.to_vec(),
        content_id: Some("0".into()),
    };
    let (content_type, body) = write(
        "1e63b1d3-5284-43a5-b13f-b379dfe1a38b",
        "unused",
        false,
        &[part],
    );
    assert_eq!(
        content_type,
        "multipart/mixed; boundary=batchresponse_1e63b1d3-5284-43a5-b13f-b379dfe1a38b"
    );
    let production = String::from_utf8_lossy(fixture!("production_lone_get_response.txt"));
    let expected = production
        .replace("\r\nContent-ID: 0", "")
        .replace("200 OK\r\n", "200 OK\r\nContent-ID: 0\r\n");
    assert_eq!(String::from_utf8_lossy(&body), expected);
}

/// What `write` produces, parsed back with this module's own splitter: a check that
/// the delimiters nest (the SDK-level check is the Node script in the report).
#[test]
fn write_then_split_round_trips() {
    let part = PartResponse {
        status: 204,
        headers: vec![h("ETag", "W/\"x\"")],
        body: Vec::new(),
        content_id: None,
    };
    let (content_type, body) = write("b1", "c1", true, &[part.clone(), part]);
    let outer = boundary(&content_type, "response").expect("boundary");
    let batch = split(&body, &outer, Ending::MustClose).expect("outer");
    assert_eq!(batch.len(), 1);
    let mime = MimePart::read(batch.first().copied().unwrap_or_default()).expect("mime");
    let inner = boundary(mime.content_type().expect("ct"), "changeset").expect("inner");
    let ops = split(mime.content, &inner, Ending::MustClose).expect("ops");
    let expected: &[u8] = b"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 204 No Content\r\nETag: W/\"x\"\r\n\r\n";
    assert_eq!(ops, vec![expected, expected]);
}

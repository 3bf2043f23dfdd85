//! Golden wire tests: request bytes in, response bytes out, compared exactly. The time and
//! request id are injected (`Context`), so nothing needs masking. The expected texts follow
//! docs/service/wire.md and the REST reference's examples (Insert Entity, Query Entities, Create Table,
//! "Payload format for Table service operations").

mod golden;

use golden::{account, error_code, json_req, req, send, text, with_table, BASE, RID};
use tablescope_engine::Account;
use tablescope_wire::{self as wire, HttpRequest};

#[test]
fn create_table_answers_201_with_the_element_or_204() {
    let mut a = account();
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"mytable"}"#),
    );
    assert_eq!(
        text(&r),
        format!(
            "201 Created\n\
             Cache-Control: no-cache\n\
             Content-Type: application/json; odata=minimalmetadata; streaming=true; charset=utf-8\n\
             Location: {BASE}/Tables('mytable')\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: Fri, 10 Sep 2021 14:40:22 GMT\n\
             \n\
             {{\"odata.metadata\":\"{BASE}/$metadata#Tables/@Element\",\"TableName\":\"mytable\"}}"
        )
    );
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"other"}"#)
            .header("Prefer", "return-no-content"),
    );
    assert_eq!(
        text(&r),
        format!(
            "204 No Content\n\
             Cache-Control: no-cache\n\
             Content-Length: 0\n\
             Location: {BASE}/Tables('other')\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Preference-Applied: return-no-content\n\
             DataServiceId: {BASE}/Tables('other')\n\
             Date: Fri, 10 Sep 2021 14:40:22 GMT\n\n"
        )
    );
}

#[test]
fn errors_carry_the_odata_error_body_with_request_id_and_time() {
    let mut a = with_table("mytable");
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"MyTable"}"#),
    );
    assert_eq!(
        text(&r),
        format!(
            "409 Conflict\n\
             Cache-Control: no-cache\n\
             Content-Type: application/json; odata=minimalmetadata; streaming=true; charset=utf-8\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: Fri, 10 Sep 2021 14:40:22 GMT\n\
             \n\
             {{\"odata.error\":{{\"code\":\"TableAlreadyExists\",\"message\":{{\"lang\":\"en-US\",\
             \"value\":\"The table specified already exists.\\nRequestId:{RID}\\nTime:2021-09-10T14:40:22.0000000Z\"}}}}}}"
        )
    );
}

const ENTITY: &str = r#"{"PartitionKey":"mypartitionkey","RowKey":"myrowkey","Address":"Mountain View","Age":23,"AmountDue":200.23,"CustomerCode@odata.type":"Edm.Guid","CustomerCode":"c9da6455-213d-42c9-9a79-3e9149a57833","CustomerSince@odata.type":"Edm.DateTime","CustomerSince":"2008-07-10T00:00:00.0000000Z","IsActive":true,"NumberOfOrders@odata.type":"Edm.Int64","NumberOfOrders":"255","Name":"Jos\u00e9"}"#;

#[test]
fn insert_answers_with_the_entity_etag_and_location() {
    let mut a = with_table("Customers");
    let r = send(&mut a, json_req("POST", "/Customers", ENTITY));
    let etag = "W/\"datetime'2021-09-10T14%3A40%3A21.6047768Z'\"";
    let location = format!("{BASE}/Customers(PartitionKey='mypartitionkey',RowKey='myrowkey')");
    assert_eq!(
        text(&r),
        format!(
            "201 Created\n\
             Cache-Control: no-cache\n\
             Content-Type: application/json; odata=minimalmetadata; streaming=true; charset=utf-8\n\
             ETag: {etag}\n\
             Location: {location}\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: Fri, 10 Sep 2021 14:40:22 GMT\n\
             \n\
             {{\"odata.metadata\":\"{BASE}/$metadata#Customers/@Element\",\
             \"odata.etag\":\"W/\\\"datetime'2021-09-10T14%3A40%3A21.6047768Z'\\\"\",\
             \"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\",\
             \"Timestamp\":\"2021-09-10T14:40:21.6047768Z\",\"Address\":\"Mountain View\",\"Age\":23,\
             \"AmountDue\":200.23,\"CustomerCode@odata.type\":\"Edm.Guid\",\
             \"CustomerCode\":\"c9da6455-213d-42c9-9a79-3e9149a57833\",\
             \"CustomerSince@odata.type\":\"Edm.DateTime\",\"CustomerSince\":\"2008-07-10T00:00:00Z\",\
             \"IsActive\":true,\"NumberOfOrders@odata.type\":\"Edm.Int64\",\"NumberOfOrders\":\"255\",\
             \"Name\":\"Jos\\u00e9\"}}"
        )
    );
    let r = send(
        &mut a,
        json_req("POST", "/Customers", &ENTITY.replace("myrowkey", "it''s"))
            .header("Prefer", "return-no-content"),
    );
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header_value("DataServiceId"),
        Some(format!("{BASE}/Customers(PartitionKey='mypartitionkey',RowKey='it''''s')").as_str())
    );
    assert_eq!(
        r.header_value("Preference-Applied"),
        Some("return-no-content")
    );
    assert!(r.body.is_empty());
}

#[test]
fn a_point_read_at_each_metadata_level() {
    let mut a = with_table("Customers");
    send(&mut a, json_req("POST", "/Customers", ENTITY));
    let path = "/Customers(PartitionKey='mypartitionkey',RowKey='myrowkey')";
    let read = |a: &mut Account, accept: &str| {
        let r = send(a, req("GET", path).header("Accept", accept));
        assert_eq!(r.status, 200);
        String::from_utf8(r.body).unwrap()
    };
    assert_eq!(
        read(&mut a, "application/json;odata=nometadata"),
        "{\"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\",\"Timestamp\":\"2021-09-10T14:40:21.6047768Z\",\
         \"Address\":\"Mountain View\",\"Age\":23,\"AmountDue\":200.23,\
         \"CustomerCode\":\"c9da6455-213d-42c9-9a79-3e9149a57833\",\"CustomerSince\":\"2008-07-10T00:00:00Z\",\
         \"IsActive\":true,\"NumberOfOrders\":\"255\",\"Name\":\"Jos\\u00e9\"}"
    );
    let full = read(&mut a, "application/json;odata=fullmetadata");
    assert_eq!(
        full,
        format!(
            "{{\"odata.metadata\":\"{BASE}/$metadata#Customers/@Element\",\
             \"odata.type\":\"devstoreaccount1.Customers\",\
             \"odata.id\":\"{BASE}/Customers(PartitionKey='mypartitionkey',RowKey='myrowkey')\",\
             \"odata.etag\":\"W/\\\"datetime'2021-09-10T14%3A40%3A21.6047768Z'\\\"\",\
             \"odata.editLink\":\"Customers(PartitionKey='mypartitionkey',RowKey='myrowkey')\",\
             \"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\",\
             \"Timestamp@odata.type\":\"Edm.DateTime\",\"Timestamp\":\"2021-09-10T14:40:21.6047768Z\",\
             \"Address\":\"Mountain View\",\"Age\":23,\"AmountDue\":200.23,\
             \"CustomerCode@odata.type\":\"Edm.Guid\",\"CustomerCode\":\"c9da6455-213d-42c9-9a79-3e9149a57833\",\
             \"CustomerSince@odata.type\":\"Edm.DateTime\",\"CustomerSince\":\"2008-07-10T00:00:00Z\",\
             \"IsActive\":true,\"NumberOfOrders@odata.type\":\"Edm.Int64\",\"NumberOfOrders\":\"255\",\
             \"Name\":\"Jos\\u00e9\"}}"
        )
    );
    // $format overrides Accept.
    let r = send(
        &mut a,
        req(
            "GET",
            &format!("{path}?$format=application/json;odata=nometadata&$select=Age,Missing"),
        ),
    );
    assert_eq!(
        String::from_utf8(r.body).unwrap(),
        "{\"Age\":23,\"Missing\":null}"
    );
}

#[test]
fn queries_page_with_the_services_continuation_tokens() {
    let mut a = with_table("tab");
    for i in 0..5 {
        let body = format!(
            r#"{{"PartitionKey":"p'{}","RowKey":"r{i}","N":{i}}}"#,
            i % 2
        );
        let r = send(
            &mut a,
            json_req("POST", "/tab", &body).header("Prefer", "return-no-content"),
        );
        assert_eq!(r.status, 204);
    }
    let r = send(&mut a, req("GET", "/tab()?$top=2&$select=N"));
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header_value("x-ms-continuation-NextPartitionKey"),
        Some("1!4!cCcw")
    );
    assert_eq!(
        r.header_value("x-ms-continuation-NextRowKey"),
        Some("1!4!cjQ-")
    );
    assert_eq!(
        String::from_utf8(r.body.clone()).unwrap(),
        format!(
            "{{\"odata.metadata\":\"{BASE}/$metadata#tab&$select=N\",\"value\":[\
             {{\"odata.etag\":\"W/\\\"datetime'2021-09-10T14%3A40%3A21.6047768Z'\\\"\",\"N\":0}},\
             {{\"odata.etag\":\"W/\\\"datetime'2021-09-10T14%3A40%3A21.604777Z'\\\"\",\"N\":2}}]}}"
        )
    );
    let next = send(
        &mut a,
        req(
            "GET",
            "/tab()?$top=2&$select=N&NextPartitionKey=1!4!cCcw&NextRowKey=1!4!cjQ-",
        ),
    );
    let body = String::from_utf8(next.body.clone()).unwrap();
    assert!(
        body.contains("\"N\":4}") && body.contains("\"N\":1}"),
        "{body}"
    );
    assert_eq!(
        next.header_value("x-ms-continuation-NextRowKey"),
        Some("1!4!cjM-")
    );
    let filtered = send(
        &mut a,
        req("GET", "/tab()?$filter=N%20ge%203&$select=RowKey")
            .header("Accept", "application/json;odata=nometadata"),
    );
    assert_eq!(
        String::from_utf8(filtered.body).unwrap(),
        "{\"value\":[{\"RowKey\":\"r4\"},{\"RowKey\":\"r3\"}]}"
    );
}

#[test]
fn writes_without_if_match_are_upserts_and_etags_are_checked() {
    let mut a = with_table("tab");
    let path = "/tab(PartitionKey='p',RowKey='r')";
    let r = send(&mut a, json_req("PUT", path, r#"{"A":1}"#));
    assert_eq!(r.status, 204);
    let first = r.header_value("ETag").unwrap().to_string();
    assert_eq!(first, "W/\"datetime'2021-09-10T14%3A40%3A21.6047768Z'\"");
    let r = send(
        &mut a,
        json_req("MERGE", path, r#"{"B":2}"#).header("If-Match", &first),
    );
    assert_eq!(r.status, 204);
    let r = send(
        &mut a,
        json_req("PATCH", path, r#"{"C":3}"#).header("If-Match", &first),
    );
    assert_eq!(r.status, 412);
    assert_eq!(
        error_code(&r).as_deref(),
        Some("UpdateConditionNotSatisfied")
    );
    let r = send(
        &mut a,
        json_req("POST", path, r#"{"C":3}"#)
            .header("X-HTTP-Method", "MERGE")
            .header("If-Match", "*"),
    );
    assert_eq!(r.status, 204);
    let r = send(
        &mut a,
        req("GET", path).header("Accept", "application/json;odata=nometadata"),
    );
    let body = String::from_utf8(r.body).unwrap();
    assert!(body.ends_with(r#""A":1,"B":2,"C":3}"#), "{body}");
    let r = send(&mut a, req("DELETE", path));
    assert_eq!(r.status, 400);
    assert_eq!(error_code(&r).as_deref(), Some("MissingRequiredHeader"));
    let r = send(&mut a, req("DELETE", path).header("If-Match", "*"));
    assert_eq!(r.status, 204);
    let r = send(&mut a, req("DELETE", path).header("If-Match", "*"));
    assert_eq!(r.status, 404);
    assert_eq!(error_code(&r).as_deref(), Some("ResourceNotFound"));
}

#[test]
fn tables_list_and_page_by_next_table_name() {
    let mut a = account();
    for name in ["alpha", "Beta", "gamma"] {
        send(
            &mut a,
            json_req("POST", "/Tables", &format!(r#"{{"TableName":"{name}"}}"#)),
        );
    }
    let r = send(&mut a, req("GET", "/Tables?$top=2"));
    assert_eq!(
        r.header_value("x-ms-continuation-NextTableName"),
        Some("1!8!Z2FtbWE-")
    );
    assert_eq!(
        String::from_utf8(r.body).unwrap(),
        format!(
            "{{\"odata.metadata\":\"{BASE}/$metadata#Tables\",\"value\":[{{\"TableName\":\"alpha\"}},{{\"TableName\":\"Beta\"}}]}}"
        )
    );
    let r = send(
        &mut a,
        req("GET", "/Tables?$top=2&NextTableName=1!8!Z2FtbWE-"),
    );
    assert_eq!(r.header_value("x-ms-continuation-NextTableName"), None);
    assert!(String::from_utf8(r.body).unwrap().contains("gamma"));
    let r = send(&mut a, req("DELETE", "/Tables('alpha')"));
    assert_eq!(r.status, 204);
    let r = send(&mut a, req("DELETE", "/Tables('alpha')"));
    assert_eq!(
        (r.status, error_code(&r).as_deref()),
        (404, Some("ResourceNotFound"))
    );
}

/// Bad input: the service's status and code, never a panic, and nothing changes.
#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let mut a = with_table("tab");
    let before = a.export();
    let cases: Vec<(HttpRequest, u16, &str)> = vec![
        (req("GET", "/tab(PartitionKey='a')"), 400, "InvalidUri"),
        (
            req("GET", "/tab(PartitionKey='a',RowKey='b'"),
            400,
            "InvalidUri",
        ),
        (req("GET", "/a/b"), 400, "InvalidUri"),
        (req("GET", "/tab()?$filter=%ZZ"), 400, "InvalidUri"),
        (req("FROB", "/tab()"), 405, "UnsupportedHttpVerb"),
        (req("PUT", "/Tables"), 405, "UnsupportedHttpVerb"),
        (
            json_req("POST", "/tab", "{\"PartitionKey\":"),
            400,
            "InvalidInput",
        ),
        (json_req("POST", "/tab", "[1,2]"), 400, "InvalidInput"),
        (
            req("POST", "/tab")
                .header("Content-Type", "application/json")
                .body(vec![0xff, 0xfe]),
            400,
            "InvalidInput",
        ),
        (
            json_req(
                "POST",
                "/tab",
                r#"{"PartitionKey":"a","RowKey":"b","X":1,"X":2}"#,
            ),
            400,
            "DuplicatePropertiesSpecified",
        ),
        (
            req("POST", "/tab")
                .header("Content-Type", "application/atom+xml")
                .body(b"<entry/>".to_vec()),
            415,
            "AtomFormatNotSupported",
        ),
        (
            json_req("POST", "/tab", "{}").header("Accept", "application/atom+xml"),
            415,
            "AtomFormatNotSupported",
        ),
        (
            json_req("POST", "/tab", r#"{"PartitionKey":"a","RowKey":"b"}"#)
                .header("MaxDataServiceVersion", "2.0;NetFx"),
            400,
            "InvalidHeaderValue",
        ),
        (
            req("GET", "/tab()?$top=ten"),
            400,
            "InvalidQueryParameterValue",
        ),
        (req("GET", "/tab()?$top=1001"), 400, "InvalidInput"),
        (
            req("GET", "/tab()?NextPartitionKey=nope"),
            400,
            "InvalidInput",
        ),
        (
            req("GET", "/tab()?$filter=PartitionKey%20eq"),
            400,
            "InvalidInput",
        ),
        (
            json_req("POST", "/missing", r#"{"PartitionKey":"a","RowKey":"b"}"#),
            404,
            "TableNotFound",
        ),
        (
            json_req(
                "POST",
                "/tab",
                &format!(
                    r#"{{"PartitionKey":"a","RowKey":"b","S":"{}"}}"#,
                    "x".repeat(wire::MAX_BODY_BYTES)
                ),
            ),
            413,
            "RequestBodyTooLarge",
        ),
        (
            json_req("POST", "/Tables", r#"{"Name":"x"}"#),
            400,
            "PropertiesNeedValue",
        ),
        (
            json_req("POST", "/Tables", r#"{"TableName":"1bad"}"#),
            400,
            "InvalidResourceName",
        ),
        (
            req("POST", "/tab").header("X-HTTP-Method", "FROB"),
            400,
            "InvalidHeaderValue",
        ),
    ];
    for (request, status, code) in cases {
        let label = format!("{} {}", request.method, request.url);
        let r = send(&mut a, request);
        assert_eq!(
            (r.status, error_code(&r).as_deref()),
            (status, Some(code)),
            "{label}: {}",
            text(&r)
        );
        let body = String::from_utf8(r.body).unwrap();
        assert!(
            body.starts_with(&format!("{{\"odata.error\":{{\"code\":\"{code}\"")),
            "{label}: {body}"
        );
    }
    assert_eq!(a.export(), before);
}

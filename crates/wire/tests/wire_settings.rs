//! Golden tests of the account-level operations (docs/service/settings.md): Get and Set Table
//! Service Properties, Get and Set Table ACL, Get Table Service Stats, CORS by the rules, and
//! a SAS naming a stored access policy. Bytes in, bytes out; the expected documents follow
//! what production answers (the SDK teams' recordings, API version 2019-02-02).

mod golden;

use base64::Engine as _;
use golden::{account, req, send, text, with_table, RID};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use tablescope_engine::Account;
use tablescope_wire::{HttpRequest, HttpResponse, DEV_KEY};

const DATE: &str = "Fri, 10 Sep 2021 14:40:22 GMT";
const BOM_DECL: &str = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>";

fn xml_req(method: &str, path: &str, body: &str) -> HttpRequest {
    req(method, path)
        .header("Content-Type", "application/xml")
        .body(body.as_bytes().to_vec())
}

const PROPS: &str = "/?restype=service&comp=properties";

fn set_props(a: &mut Account, body: &str) -> HttpResponse {
    send(a, xml_req("PUT", PROPS, body))
}

fn get_props(a: &mut Account) -> String {
    let r = send(a, req("GET", PROPS).header("Accept", "application/xml"));
    assert_eq!(r.status, 200, "{}", text(&r));
    String::from_utf8(r.body).unwrap()
}

/// The code of an XML error, from its body, checked against `x-ms-error-code`.
fn xml_code(r: &HttpResponse) -> String {
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert!(body.starts_with("<m:error "), "{body}");
    let code = body
        .split("<m:code>")
        .nth(1)
        .and_then(|s| s.split("</m:code>").next())
        .unwrap()
        .to_string();
    assert_eq!(r.header_value("x-ms-error-code"), Some(code.as_str()));
    code
}

fn refused(r: &HttpResponse) -> (u16, String) {
    (r.status, xml_code(r))
}

fn invalid_xml() -> (u16, String) {
    (400, "InvalidXmlDocument".to_string())
}

const DEFAULT_PROPS: &str = "<StorageServiceProperties><Logging><Version>1.0</Version><Read>false</Read>\
<Write>false</Write><Delete>false</Delete><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy>\
</Logging><HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false\
</Enabled></RetentionPolicy></HourMetrics><MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled>\
<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics><Cors /></StorageServiceProperties>";

#[test]
fn get_service_properties_of_a_new_account() {
    let mut a = account();
    let r = send(
        &mut a,
        req("GET", PROPS).header("Accept", "application/xml"),
    );
    assert_eq!(
        text(&r),
        format!(
            "200 OK\n\
             Cache-Control: no-cache\n\
             Content-Type: application/xml\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: {DATE}\n\
             \n\
             {BOM_DECL}{DEFAULT_PROPS}"
        )
    );
    // Production style (no account segment) names the same resource.
    let r = send(
        &mut a,
        HttpRequest::new("GET", "/?restype=service&comp=properties"),
    );
    assert_eq!(r.status, 200);
}

const FULL: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<StorageServiceProperties>
  <Logging><Version>1.0</Version><Delete>true</Delete><Read>false</Read><Write>true</Write>
    <RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></Logging>
  <HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false</IncludeAPIs>
    <RetentionPolicy><Enabled>false</Enabled><Days>3</Days></RetentionPolicy></HourMetrics>
  <MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><IncludeAPIs>true</IncludeAPIs>
    <RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics>
  <Cors><CorsRule><AllowedOrigins>http://a.example,http://b.example</AllowedOrigins>
    <MaxAgeInSeconds>60</MaxAgeInSeconds><AllowedMethods>GET,PUT</AllowedMethods>
    <ExposedHeaders>x-ms-*</ExposedHeaders><AllowedHeaders>x-ms-meta-abc,x-ms-meta-data*</AllowedHeaders>
  </CorsRule></Cors>
</StorageServiceProperties>"#;

#[test]
fn set_service_properties_answers_202_and_get_returns_them_in_productions_order() {
    let mut a = account();
    let r = set_props(&mut a, FULL);
    assert_eq!(
        text(&r),
        format!(
            "202 Accepted\n\
             Cache-Control: no-cache\n\
             Content-Length: 0\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: {DATE}\n\
             Vary: Origin\n\n"
        )
    );
    assert_eq!(
        get_props(&mut a),
        format!(
            "{BOM_DECL}<StorageServiceProperties><Logging><Version>1.0</Version><Read>false</Read>\
             <Write>true</Write><Delete>true</Delete><RetentionPolicy><Enabled>true</Enabled>\
             <Days>7</Days></RetentionPolicy></Logging><HourMetrics><Version>1.0</Version>\
             <Enabled>true</Enabled><IncludeAPIs>false</IncludeAPIs><RetentionPolicy>\
             <Enabled>false</Enabled></RetentionPolicy></HourMetrics><MinuteMetrics>\
             <Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled>\
             </RetentionPolicy></MinuteMetrics><Cors><CorsRule><AllowedMethods>GET,PUT</AllowedMethods>\
             <AllowedOrigins>http://a.example,http://b.example</AllowedOrigins>\
             <AllowedHeaders>x-ms-meta-abc,x-ms-meta-data*</AllowedHeaders>\
             <ExposedHeaders>x-ms-*</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds>\
             </CorsRule></Cors></StorageServiceProperties>"
        )
    );
}

#[test]
fn a_set_leaves_the_parts_it_does_not_name() {
    let mut a = account();
    assert_eq!(set_props(&mut a, FULL).status, 202);
    let only_cors = "<StorageServiceProperties><Cors /></StorageServiceProperties>";
    assert_eq!(set_props(&mut a, only_cors).status, 202);
    let after = get_props(&mut a);
    assert!(after.contains("<Cors />"), "{after}");
    assert!(after.contains("<Days>7</Days>"), "logging kept: {after}");
    assert!(
        after.contains("<IncludeAPIs>false</IncludeAPIs>"),
        "{after}"
    );
}

fn rule(n: usize) -> String {
    format!(
        "<CorsRule><AllowedOrigins>http://o{n}.example</AllowedOrigins><AllowedMethods>GET\
         </AllowedMethods><AllowedHeaders></AllowedHeaders><ExposedHeaders></ExposedHeaders>\
         <MaxAgeInSeconds>5</MaxAgeInSeconds></CorsRule>"
    )
}

fn rules(count: usize) -> String {
    let all: String = (0..count).map(rule).collect();
    format!("<StorageServiceProperties><Cors>{all}</Cors></StorageServiceProperties>")
}

#[test]
fn five_cors_rules_are_kept_and_six_refused_whole() {
    let mut a = account();
    for count in [4, 5] {
        assert_eq!(set_props(&mut a, &rules(count)).status, 202, "{count}");
    }
    let before = get_props(&mut a);
    assert_eq!(before.matches("<CorsRule>").count(), 5);
    let r = set_props(&mut a, &rules(6));
    assert_eq!(
        text(&r),
        format!(
            "400 Bad Request\n\
             Cache-Control: no-cache\n\
             Content-Type: application/xml\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             x-ms-error-code: InvalidXmlDocument\n\
             Date: {DATE}\n\
             Vary: Origin\n\
             \n\
             <m:error xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\">\
             <m:code>InvalidXmlDocument</m:code><m:message xml:lang=\"en-US\">XML specified is not \
             syntactically valid.\nRequestId:{RID}\nTime:2021-09-10T14:40:22.0000000Z</m:message>\
             </m:error>"
        )
    );
    assert_eq!(get_props(&mut a), before, "a refused set changes nothing");
}

fn retention(days: &str) -> String {
    format!(
        "<StorageServiceProperties><Logging><Version>1.0</Version><Delete>false</Delete>\
         <Read>true</Read><Write>false</Write><RetentionPolicy><Enabled>true</Enabled>\
         <Days>{days}</Days></RetentionPolicy></Logging></StorageServiceProperties>"
    )
}

#[test]
fn retention_keeps_one_to_365_days() {
    let mut a = account();
    for days in ["1", "2", "364", "365"] {
        assert_eq!(set_props(&mut a, &retention(days)).status, 202, "{days}");
    }
    for days in ["0", "366", "-1", "x"] {
        assert_eq!(
            refused(&set_props(&mut a, &retention(days))),
            invalid_xml(),
            "{days}"
        );
    }
    assert!(get_props(&mut a).contains("<Days>365</Days>"));
}

#[test]
fn malformed_documents_are_invalid_xml() {
    let mut a = account();
    for body in [
        "",
        "<StorageServiceProperties>",
        "<StorageServiceProperties></Wrong>",
        "<Other/>",
        "<StorageServiceProperties><Logging><Version>1.0</Version></Logging></StorageServiceProperties>",
        "<StorageServiceProperties><Unknown/></StorageServiceProperties>",
        "<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>true</Enabled>\
         <RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics></StorageServiceProperties>",
        "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins>\
         <AllowedMethods>TRACE</AllowedMethods><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule></Cors>\
         </StorageServiceProperties>",
    ] {
        assert_eq!(refused(&set_props(&mut a, body)), invalid_xml(), "{body}");
    }
    assert_eq!(get_props(&mut a), format!("{BOM_DECL}{DEFAULT_PROPS}"));
}

// ---- Table ACL ----

fn acl_path(table: &str) -> String {
    format!("/{table}?comp=acl")
}

fn identifier(id: &str) -> String {
    format!(
        "<SignedIdentifier><Id>{id}</Id><AccessPolicy><Start>2020-01-01T00:00:00Z</Start>\
         <Expiry>2030-01-01T00:00:00.5Z</Expiry><Permission>raud</Permission></AccessPolicy>\
         </SignedIdentifier>"
    )
}

fn acl_body(ids: &[String]) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers>{}</SignedIdentifiers>",
        ids.concat()
    )
}

fn get_acl(a: &mut Account, table: &str) -> String {
    let r = send(
        a,
        req("GET", &acl_path(table)).header("Accept", "application/xml"),
    );
    assert_eq!(r.status, 200, "{}", text(&r));
    String::from_utf8(r.body).unwrap()
}

#[test]
fn a_table_without_policies_answers_an_empty_list() {
    let mut a = with_table("mytable");
    let r = send(&mut a, req("GET", &acl_path("mytable")));
    assert_eq!(
        text(&r),
        format!(
            "200 OK\n\
             Cache-Control: no-cache\n\
             Content-Type: application/xml\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: {DATE}\n\
             \n\
             {BOM_DECL}<SignedIdentifiers />"
        )
    );
}

#[test]
fn set_acl_answers_204_and_get_returns_the_list_as_stored() {
    let mut a = with_table("mytable");
    let body = acl_body(&[
        identifier("first"),
        "<SignedIdentifier><Id>bare</Id></SignedIdentifier>".into(),
        "<SignedIdentifier><Id>only-r</Id><AccessPolicy><Permission>r</Permission>\
         </AccessPolicy></SignedIdentifier>"
            .into(),
    ]);
    let r = send(&mut a, xml_req("PUT", &acl_path("mytable"), &body));
    assert_eq!(
        text(&r),
        format!(
            "204 No Content\n\
             Cache-Control: no-cache\n\
             Content-Length: 0\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: {DATE}\n\n"
        )
    );
    assert_eq!(
        get_acl(&mut a, "MyTable"),
        format!(
            "{BOM_DECL}<SignedIdentifiers><SignedIdentifier><Id>first</Id><AccessPolicy>\
             <Start>2020-01-01T00:00:00.0000000Z</Start><Expiry>2030-01-01T00:00:00.5000000Z</Expiry>\
             <Permission>raud</Permission></AccessPolicy></SignedIdentifier><SignedIdentifier>\
             <Id>bare</Id></SignedIdentifier><SignedIdentifier><Id>only-r</Id><AccessPolicy>\
             <Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>"
        )
    );
    // A PUT without a body clears the list.
    let r = send(&mut a, req("PUT", &acl_path("mytable")));
    assert_eq!(r.status, 204);
    assert_eq!(
        get_acl(&mut a, "mytable"),
        format!("{BOM_DECL}<SignedIdentifiers />")
    );
}

#[test]
fn five_identifiers_are_kept_and_six_refused() {
    let mut a = with_table("mytable");
    let ids = |n: usize| {
        (0..n)
            .map(|i| identifier(&format!("id{i}")))
            .collect::<Vec<_>>()
    };
    for n in [4, 5] {
        let r = send(
            &mut a,
            xml_req("PUT", &acl_path("mytable"), &acl_body(&ids(n))),
        );
        assert_eq!(r.status, 204, "{n}");
    }
    let before = get_acl(&mut a, "mytable");
    let r = send(
        &mut a,
        xml_req("PUT", &acl_path("mytable"), &acl_body(&ids(6))),
    );
    assert_eq!(refused(&r), invalid_xml());
    assert_eq!(get_acl(&mut a, "mytable"), before);
}

#[test]
fn an_id_has_at_most_64_characters() {
    let mut a = with_table("mytable");
    for (len, status) in [(63, 204), (64, 204), (65, 400)] {
        let body = acl_body(&[identifier(&"i".repeat(len))]);
        let r = send(&mut a, xml_req("PUT", &acl_path("mytable"), &body));
        assert_eq!(r.status, status, "{len}");
    }
}

#[test]
fn times_with_more_than_seven_fraction_digits_and_bad_permissions_are_refused() {
    let mut a = with_table("mytable");
    let with_expiry = |expiry: &str| {
        acl_body(&[format!(
            "<SignedIdentifier><Id>a</Id><AccessPolicy><Expiry>{expiry}</Expiry></AccessPolicy>\
             </SignedIdentifier>"
        )])
    };
    let ok = send(
        &mut a,
        xml_req(
            "PUT",
            &acl_path("mytable"),
            &with_expiry("2030-01-01T00:00:00.1234567Z"),
        ),
    );
    assert_eq!(ok.status, 204);
    for bad in [
        "2030-01-01T00:00:00.123456789Z",
        "2030-01-01T00:00:00.12345678Z",
        "soon",
    ] {
        let r = send(
            &mut a,
            xml_req("PUT", &acl_path("mytable"), &with_expiry(bad)),
        );
        assert_eq!(refused(&r), invalid_xml(), "{bad}");
    }
    let dr = acl_body(&[
        "<SignedIdentifier><Id>a</Id><AccessPolicy><Permission>dr</Permission>\
                         </AccessPolicy></SignedIdentifier>"
            .to_string(),
    ]);
    let r = send(&mut a, xml_req("PUT", &acl_path("mytable"), &dr));
    assert_eq!(refused(&r), invalid_xml());
    let r = send(
        &mut a,
        xml_req("PUT", &acl_path("mytable"), "<SignedIdentifiers>"),
    );
    assert_eq!(refused(&r), invalid_xml());
}

#[test]
fn the_acl_of_a_missing_table_is_not_found() {
    let mut a = account();
    let r = send(&mut a, req("GET", &acl_path("nothere")));
    assert_eq!(refused(&r), (404, "TableNotFound".to_string()));
}

#[test]
fn service_stats_on_a_primary_endpoint_are_refused() {
    let mut a = account();
    let r = send(&mut a, req("GET", "/?restype=service&comp=stats"));
    assert_eq!(refused(&r), (400, "InvalidQueryParameterValue".to_string()));
}

// ---- CORS ----

fn cors_rule(origins: &str, methods: &str) -> String {
    format!(
        "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>{origins}</AllowedOrigins>\
         <AllowedMethods>{methods}</AllowedMethods><AllowedHeaders>x-ms-*,content-type</AllowedHeaders>\
         <ExposedHeaders>x-ms-request-id,etag,x-custom</ExposedHeaders><MaxAgeInSeconds>300\
         </MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>"
    )
}

fn preflight(origin: &str, method: &str, headers: Option<&str>) -> HttpRequest {
    let mut r = HttpRequest::new("OPTIONS", "/devstoreaccount1/mytable()")
        .header("Origin", origin)
        .header("Access-Control-Request-Method", method);
    if let Some(h) = headers {
        r = r.header("Access-Control-Request-Headers", h);
    }
    r
}

#[test]
fn without_rules_a_preflight_is_refused_and_responses_carry_no_cors_headers() {
    let mut a = with_table("mytable");
    let r = send(&mut a, preflight("http://app.example", "GET", None));
    assert_eq!(r.status, 403);
    assert!(String::from_utf8_lossy(&r.body).contains("CorsPreflightFailure"));
    let r = send(
        &mut a,
        req("GET", "/mytable()").header("Origin", "http://app.example"),
    );
    assert_eq!(r.status, 200);
    assert!(r
        .headers
        .iter()
        .all(|(n, _)| !n.starts_with("Access-Control") && n != "Vary"));
}

#[test]
fn a_preflight_is_answered_by_the_first_matching_rule() {
    let mut a = with_table("mytable");
    assert_eq!(
        set_props(&mut a, &cors_rule("http://app.example", "GET,PUT")).status,
        202
    );
    let r = send(
        &mut a,
        preflight("http://app.example", "PUT", Some("x-ms-date,Content-Type")),
    );
    assert_eq!(
        text(&r),
        format!(
            "200 OK\n\
             Cache-Control: no-cache\n\
             Access-Control-Allow-Origin: http://app.example\n\
             Access-Control-Allow-Methods: PUT\n\
             Access-Control-Allow-Headers: x-ms-date,Content-Type\n\
             Access-Control-Max-Age: 300\n\
             Access-Control-Allow-Credentials: true\n\
             x-ms-request-id: {RID}\n\
             x-ms-version: 2019-02-02\n\
             X-Content-Type-Options: nosniff\n\
             Date: {DATE}\n\
             Vary: Origin\n\n"
        )
    );
    // Another origin, a method outside the rule, a header outside it: 403.
    for (origin, method, headers) in [
        ("http://other.example", "PUT", None),
        ("http://app.example", "DELETE", None),
        ("http://app.example", "GET", Some("if-match")),
    ] {
        let r = send(&mut a, preflight(origin, method, headers));
        assert_eq!(r.status, 403, "{origin} {method} {headers:?}");
        assert_eq!(r.header_value("Vary"), Some("Origin"));
    }
    // Without Origin or the method: 400.
    let r = send(
        &mut a,
        HttpRequest::new("OPTIONS", "/devstoreaccount1/mytable()")
            .header("Origin", "http://app.example"),
    );
    assert_eq!(r.status, 400);
}

#[test]
fn actual_requests_carry_cors_headers_only_when_a_rule_admits_them() {
    let mut a = with_table("mytable");
    assert_eq!(
        set_props(&mut a, &cors_rule("http://app.example", "GET")).status,
        202
    );
    let r = send(
        &mut a,
        req("GET", "/mytable()").header("Origin", "http://app.example"),
    );
    let tail: Vec<_> = r.headers.iter().rev().take(4).rev().cloned().collect();
    let h = |n: &str, v: &str| (n.to_string(), v.to_string());
    assert_eq!(
        tail,
        vec![
            h("Access-Control-Allow-Origin", "http://app.example"),
            h("Access-Control-Allow-Credentials", "true"),
            h(
                "Access-Control-Expose-Headers",
                "x-ms-request-id,etag,x-custom"
            ),
            h("Vary", "Origin"),
        ]
    );
    // A method the rule does not allow, another origin, no origin: only Vary.
    for request in [
        req("DELETE", "/mytable(PartitionKey='a',RowKey='b')")
            .header("Origin", "http://app.example")
            .header("If-Match", "*"),
        req("GET", "/mytable()").header("Origin", "http://other.example"),
        req("GET", "/mytable()"),
    ] {
        let r = send(&mut a, request);
        assert!(r.header_value("Access-Control-Allow-Origin").is_none());
        assert_eq!(r.header_value("Vary"), Some("Origin"), "{}", text(&r));
    }
    // A rule for every origin answers `*`, without credentials.
    assert_eq!(set_props(&mut a, &cors_rule("*", "GET")).status, 202);
    let r = send(
        &mut a,
        req("GET", "/mytable()").header("Origin", "http://any.example"),
    );
    assert_eq!(r.header_value("Access-Control-Allow-Origin"), Some("*"));
    assert_eq!(r.header_value("Access-Control-Allow-Credentials"), None);
}

// ---- A SAS naming a stored access policy ----

fn sign(fields: &[&str]) -> String {
    let key = base64::engine::general_purpose::STANDARD
        .decode(DEV_KEY)
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(fields.join("\n").as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

fn enc(s: &str) -> String {
    s.replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D")
        .replace(':', "%3A")
}

/// A table SAS for `mytable` naming policy `si`, with the optional `sp`, `st`, `se`.
fn policy_sas(si: &str, sp: &str, st: &str, se: &str) -> String {
    let sig = sign(&[
        sp,
        st,
        se,
        "/table/devstoreaccount1/mytable",
        si,
        "",
        "",
        "2019-02-02",
        "",
        "",
        "",
        "",
    ]);
    let mut q = format!("sv=2019-02-02&tn=mytable&si={si}");
    for (name, value) in [("sp", sp), ("st", st), ("se", se)] {
        if !value.is_empty() {
            q.push_str(&format!("&{name}={}", enc(value)));
        }
    }
    q.push_str(&format!("&sig={}", enc(&sig)));
    q
}

fn set_policy(a: &mut Account, xml: &str) {
    let r = send(a, xml_req("PUT", &acl_path("mytable"), xml));
    assert_eq!(r.status, 204, "{}", text(&r));
}

fn through(a: &mut Account, method: &str, path: &str, sas: &str) -> HttpResponse {
    send_keyed(a, req(method, &format!("{path}?{sas}")))
}

/// Sends `request` to an endpoint that requires a credential (the development key).
fn send_keyed(account: &mut Account, request: HttpRequest) -> HttpResponse {
    let request = request.header("Host", "127.0.0.1:10002");
    tablescope_wire::handle(
        account,
        &tablescope_wire::Endpoint::development(),
        &golden::context(),
        &request,
    )
    .response
}

fn json_code(r: &HttpResponse) -> (u16, String) {
    (r.status, golden::error_code(r).unwrap_or_default())
}

#[test]
fn a_sas_takes_its_policys_permissions_and_times_and_is_revoked_with_it() {
    let mut a = with_table("mytable");
    set_policy(
        &mut a,
        &acl_body(&[
            "<SignedIdentifier><Id>readers</Id><AccessPolicy><Start>2021-01-01T00:00:00Z\
                     </Start><Expiry>2022-01-01T00:00:00Z</Expiry><Permission>r</Permission>\
                     </AccessPolicy></SignedIdentifier>"
                .to_string(),
        ]),
    );
    let sas = policy_sas("readers", "", "", "");
    assert_eq!(through(&mut a, "GET", "/mytable()", &sas).status, 200);
    // The policy's permissions: no writes.
    let insert = send_keyed(
        &mut a,
        req("POST", &format!("/mytable?{sas}"))
            .header("Content-Type", "application/json")
            .body(br#"{"PartitionKey":"a","RowKey":"b"}"#.to_vec()),
    );
    assert_eq!(
        json_code(&insert),
        (403, "AuthorizationPermissionMismatch".into())
    );
    // A field the policy gives may not be repeated by the SAS.
    for sas in [
        policy_sas("readers", "r", "", ""),
        policy_sas("readers", "", "", "2022-01-01T00:00:00Z"),
        policy_sas("readers", "", "2021-01-01T00:00:00Z", ""),
    ] {
        let r = through(&mut a, "GET", "/mytable()", &sas);
        assert_eq!(json_code(&r), (403, "AuthenticationFailed".into()), "{sas}");
    }
    // An unknown policy.
    let r = through(
        &mut a,
        "GET",
        "/mytable()",
        &policy_sas("writers", "", "", ""),
    );
    assert_eq!(json_code(&r), (403, "AuthenticationFailed".into()));
    // Removing the policy revokes the SAS.
    let r = send(&mut a, req("PUT", &acl_path("mytable")));
    assert_eq!(r.status, 204);
    let r = through(&mut a, "GET", "/mytable()", &sas);
    assert_eq!(json_code(&r), (403, "AuthenticationFailed".into()));
}

#[test]
fn a_policy_without_a_field_takes_it_from_the_sas_and_its_expiry_is_enforced() {
    let mut a = with_table("mytable");
    set_policy(
        &mut a,
        &acl_body(&[
            "<SignedIdentifier><Id>open</Id></SignedIdentifier>".to_string(),
            "<SignedIdentifier><Id>past</Id><AccessPolicy><Expiry>2021-01-01T00:00:00Z</Expiry>\
                     <Permission>r</Permission></AccessPolicy></SignedIdentifier>"
                .to_string(),
        ]),
    );
    let sas = policy_sas("open", "r", "", "2022-01-01T00:00:00Z");
    assert_eq!(through(&mut a, "GET", "/mytable()", &sas).status, 200);
    // Neither gives an expiry.
    let r = through(
        &mut a,
        "GET",
        "/mytable()",
        &policy_sas("open", "r", "", ""),
    );
    assert_eq!(json_code(&r), (403, "AuthenticationFailed".into()));
    // The policy's expiry has passed.
    let r = through(&mut a, "GET", "/mytable()", &policy_sas("past", "", "", ""));
    assert_eq!(json_code(&r), (403, "AuthenticationFailed".into()));
}

#[test]
fn only_the_account_key_or_an_account_sas_for_the_service_reaches_the_settings() {
    let mut a = with_table("mytable");
    // An account SAS: ss=t, srt=s, sp=r reads the properties but does not set them.
    let account_sas = |sp: &str, srt: &str| {
        let sig = sign(&[
            "devstoreaccount1",
            sp,
            "t",
            srt,
            "",
            "2030-01-01T00:00:00Z",
            "",
            "",
            "2019-02-02",
            "",
        ]);
        format!(
            "sv=2019-02-02&ss=t&srt={srt}&sp={sp}&se={}&sig={}",
            enc("2030-01-01T00:00:00Z"),
            enc(&sig)
        )
    };
    let r = send_keyed(
        &mut a,
        req("GET", &format!("{PROPS}&{}", account_sas("r", "s"))),
    );
    assert_eq!(r.status, 200, "{}", text(&r));
    let r = send_keyed(
        &mut a,
        xml_req(
            "PUT",
            &format!("{PROPS}&{}", account_sas("r", "s")),
            &rules(1),
        ),
    );
    assert_eq!(refused(&r), (403, "AuthorizationPermissionMismatch".into()));
    let r = send_keyed(
        &mut a,
        xml_req(
            "PUT",
            &format!("{PROPS}&{}", account_sas("w", "s")),
            &rules(1),
        ),
    );
    assert_eq!(r.status, 202, "{}", text(&r));
    let r = send_keyed(
        &mut a,
        req("GET", &format!("{PROPS}&{}", account_sas("r", "co"))),
    );
    assert_eq!(
        refused(&r),
        (403, "AuthorizationResourceTypeMismatch".into())
    );
    // No SAS reads or sets an ACL.
    let r = send_keyed(
        &mut a,
        req(
            "GET",
            &format!("/mytable?comp=acl&{}", account_sas("rwdlacu", "sco")),
        ),
    );
    assert_eq!(refused(&r), (403, "AuthorizationFailure".into()));
    // Without any credential on a keyed endpoint: 401.
    let r = send_keyed(&mut a, req("GET", PROPS));
    assert_eq!(refused(&r), (401, "NoAuthenticationInformation".into()));
}

//! Golden vectors from the real SDKs: requests recorded from `@azure/data-tables` 13.3.2
//! (Node, `AzureNamedKeyCredential` → SharedKeyLite; `generateTableSas`,
//! `generateAccountSas`) and `azure-data-tables` 12.7.0 (Python → SharedKey;
//! `generate_table_sas`, `generate_account_sas`) through an `httpClient`/transport that
//! recorded instead of sending, for devstoreaccount1 with its well-known key. The
//! 2020-12-06 account SAS form comes from `azure-storage-blob` 12.31.1 (`ss=t`).

use super::*;
use crate::Endpoint;

/// The SDKs signed at these x-ms-date values; the service's clock is set close to them.
const JS_DATE: &str = "Mon, 23 Nov 2026 20:24:50 GMT";
const PY_DATE: &str = "Mon, 23 Nov 2026 20:25:06 GMT";
const BASE: &str = "http://127.0.0.1:10002/devstoreaccount1";

fn now() -> DateTime {
    at("2026-11-23T20:25:00Z")
}

fn at(text: &str) -> DateTime {
    DateTime::parse(text).unwrap()
}

fn dev() -> Endpoint {
    Endpoint::development()
}

/// A request the JS SDK signed (SharedKeyLite).
fn js(method: &str, path: &str, signature: &str) -> HttpRequest {
    HttpRequest::new(method, &format!("{BASE}{path}"))
        .header("Accept", "application/json;odata=minimalmetadata")
        .header("x-ms-version", "2019-02-02")
        .header("DataServiceVersion", "3.0")
        .header("x-ms-date", JS_DATE)
        .header(
            "authorization",
            &format!("SharedKeyLite devstoreaccount1:{signature}"),
        )
}

/// A request the Python SDK signed (SharedKey over VERB, Content-MD5, Content-Type, date).
fn py(method: &str, path: &str, content_type: Option<&str>, signature: &str) -> HttpRequest {
    let request = HttpRequest::new(method, &format!("{BASE}{path}"))
        .header("x-ms-date", PY_DATE)
        .header("x-ms-version", "2019-02-02")
        .header("Accept", "application/json;odata=minimalmetadata")
        .header(
            "Authorization",
            &format!("SharedKey devstoreaccount1:{signature}"),
        );
    match content_type {
        Some(ct) => request.header("Content-Type", ct),
        None => request,
    }
}

/// A request carrying a SAS in its query, as the SDKs send it.
fn with_sas(method: &str, path: &str, sas: &str) -> HttpRequest {
    HttpRequest::new(method, &format!("{BASE}{path}?{sas}"))
}

fn code(result: Result<Credential>) -> ErrorCode {
    result.unwrap_err().code
}

// SAS tokens exactly as the SDKs generated them (2099-01-01 expiry unless noted).
const JS_TABLE_R: &str = "sv=2019-02-02&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=r&sig=wUZ9hhtbqfcvpWHvaSRShtuvG1aqeCGBYEvwbQKINBI%3D&tn=Employees";
const PY_TABLE_R: &str = "st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=r&sv=2019-02-02&tn=Employees&sig=wUZ9hhtbqfcvpWHvaSRShtuvG1aqeCGBYEvwbQKINBI%3D";
const JS_TABLE_ALL: &str = "sv=2019-02-02&se=2099-01-01T00%3A00%3A00Z&sp=raud&sig=wmNQEvaXrhoM0Aumkl%2B%2FDIhFyjDp%2FIVOFdXis08Uzdo%3D&tn=Employees";
const JS_TABLE_RANGE: &str = "sv=2019-02-02&se=2099-01-01T00%3A00%3A00Z&sp=raud&sig=V8PU4RduvdbPezW6eCKcD1rZz9DGW0caly%2FBKk0r2iw%3D&tn=Employees&srk=1&spk=b&epk=d&erk=5";
const PY_TABLE_RANGE: &str = "se=2099-01-01T00%3A00%3A00Z&sp=raud&sv=2019-02-02&tn=Employees&spk=b&srk=1&epk=d&erk=5&sig=V8PU4RduvdbPezW6eCKcD1rZz9DGW0caly/BKk0r2iw%3D";
/// Valid 2024-01-01 to 2024-01-02.
const JS_TABLE_EXPIRED: &str = "sv=2019-02-02&st=2024-01-01T00%3A00%3A00Z&se=2024-01-02T00%3A00%3A00Z&sp=r&sig=hwBNFuEl3RaIcQFUcOfvB1F9EhlKrXOtCbkwSA7D9E8%3D&tn=Employees";
const JS_TABLE_OTHER: &str = "sv=2019-02-02&se=2099-01-01T00%3A00%3A00Z&sp=r&sig=lpa6F2aujg6zgT24wvY8qso%2BKCX%2B2CvWCNfpPOfVbss%3D&tn=Other";
const JS_ACCOUNT_DEFAULT: &str = "sv=2019-02-02&ss=t&srt=sco&se=2099-01-01T00%3A00%3A00Z&sp=rl&sig=m7ATpVUowu70n2NLsnDz0c1%2B%2FekA4XLDT8xCl3MKgIA%3D";
const JS_ACCOUNT_ALL: &str = "sv=2019-02-02&ss=t&srt=sco&st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=rwdlau&sig=H8TCYt85YsVKGFYJ%2FMhp3pUEZ7UTWXW3PX3DkeO4HzE%3D";
const JS_ACCOUNT_OBJECTS: &str = "sv=2019-02-02&ss=t&srt=o&se=2099-01-01T00%3A00%3A00Z&sp=rl&sig=DhvTo4wv92q3rFoic9qsKh3X0ataPl8VijwC3DSk5i8%3D";
const JS_ACCOUNT_BLOB: &str = "sv=2019-02-02&ss=b&srt=sco&se=2099-01-01T00%3A00%3A00Z&sp=rl&sig=6wbID1CZm3aViJIQH%2BKTk8IOK%2FDCCfvLgPB3C8tjjC0%3D";
/// Signed by the development key for an account called `otheraccount`.
const JS_ACCOUNT_OTHER: &str = "sv=2019-02-02&ss=t&srt=sco&se=2099-01-01T00%3A00%3A00Z&sp=rl&sig=yIi30%2BQS5PHgqybk6rMdBURSu62SHw%2Bw0F9e5A8PJ4o%3D";
const PY_ACCOUNT: &str = "st=2024-01-01T00%3A00%3A00Z&se=2099-01-01T00%3A00%3A00Z&sp=rwdlau&sv=2019-02-02&ss=t&srt=soc&sig=J39f0iEjU6UPMJwuEKm9x33AO4PrlnVvr8fjxVAwVq0%3D";
/// Version 2026-10-06: signs the encryption scope line too.
const PY_BLOB_SDK_ACCOUNT_2026: &str = "se=2099-01-01T00%3A00%3A00Z&sp=rl&sv=2026-10-06&ss=t&srt=co&sig=uoj1VRmw/kD0o1GOnnPMPyyTDT2XLUU571ltIyWXojQ%3D";

#[test]
fn js_shared_key_lite_requests_pass() {
    let requests = [
        js(
            "POST",
            "/Tables",
            "a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
        )
        .header("Content-Type", "application/json;odata=nometadata"),
        js(
            "GET",
            "/Tables",
            "a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
        ),
        js(
            "POST",
            "/Employees",
            "f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
        ),
        js(
            "GET",
            "/Employees(PartitionKey='it''s%20100%25%20%C3%A9',RowKey='a%20b%2Fc%3Fd')",
            "zAf3Jf6Ttmr6/0HbH+wP7UzAYubXQ5lMDcceOR9h/Yw=",
        ),
        js(
            "PATCH",
            "/Employees(PartitionKey='p1',RowKey='r1')",
            "iFxhO7sDBrCEhA/Lz+aTdQC9ZszfTEJ1yA7jH/2zEDo=",
        ),
        js(
            "GET",
            "/Employees()?$filter=PartitionKey%20eq%20%27p1%27",
            "3jCSTdMUPYXTmp3E0ZLodLvfFEQniTLHEDY9pXOBor0=",
        ),
        js(
            "POST",
            "/$batch",
            "aVGp7Bg2bGYdRkhlm1ZSmXTP6SakWEU8wklFj3LYc+w=",
        ),
        js(
            "DELETE",
            "/Tables('Employees')",
            "soWDLmpQMNBkaBNBVHVQc8IXwihrM+1C7ki0bw+kXZc=",
        ),
    ];
    for request in &requests {
        assert_eq!(
            authenticate(&dev(), request, now()),
            Ok(Credential::AccountKey),
            "{} {}",
            request.method,
            request.url
        );
    }
}

#[test]
fn python_shared_key_requests_pass() {
    let nometadata = Some("application/json;odata=nometadata");
    let requests = [
        py(
            "POST",
            "/Tables",
            nometadata,
            "wKydAfnTBfGnVmXwT/qWivpm0Q3FVGhrCq1/WBP8ytE=",
        ),
        py(
            "GET",
            "/Tables",
            None,
            "x+EmAXgGhP0EE6Qg3gf0GsejyQSRNh1iB965WnVXDHM=",
        ),
        py(
            "POST",
            "/Employees",
            nometadata,
            "lHt3i0E+hugS8qI0H8eiNJHO5kAYkN29hqoX47UkzRo=",
        ),
        // Python sends `'` as %27; it signs what it sends.
        py(
            "GET",
            "/Employees(PartitionKey='it%27%27s%20100%25%20%C3%A9',RowKey='a%20b%2Fc%3Fd')",
            None,
            "pKcsoyRVOgHz4t+y2K04vopq+KxDPhzlfm7YCrEnMbc=",
        ),
        py(
            "PATCH",
            "/Employees(PartitionKey='p1',RowKey='r1')",
            Some("application/json"),
            "nieKkg33PqB1fLpoRi3CZJceP9/6o2lgBN09AbTPKTg=",
        ),
        py(
            "DELETE",
            "/Employees(PartitionKey='p1',RowKey='r1')",
            None,
            "WM2CYHHwvlLC4i/6GTYSM1oetodaF4oq3pGubOA1FPg=",
        ),
        py(
            "GET",
            "/Employees()?$filter=PartitionKey%20eq%20%27p1%27",
            None,
            "zrLXeZAaM9PVcpEFtipCn590yOpWvB/1yBc5hoEfAXo=",
        ),
    ];
    for request in &requests {
        assert_eq!(
            authenticate(&dev(), request, now()),
            Ok(Credential::AccountKey),
            "{} {}",
            request.method,
            request.url
        );
    }
}

#[test]
fn the_canonicalized_resource_repeats_the_account_in_path_style() {
    assert_eq!(
        shared_key::canonicalized_resource("devstoreaccount1", &format!("{BASE}/Tables")).unwrap(),
        "/devstoreaccount1/devstoreaccount1/Tables"
    );
    assert_eq!(
        shared_key::canonicalized_resource(
            "acct",
            "https://acct.table.core.windows.net/t()?comp=acl&x=1"
        )
        .unwrap(),
        "/acct/t()?comp=acl"
    );
    assert_eq!(
        shared_key::canonicalized_resource("acct", "https://acct.table.core.windows.net").unwrap(),
        "/acct/"
    );
}

#[test]
fn one_changed_byte_fails_shared_key_lite() {
    let good = js(
        "POST",
        "/Employees",
        "f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
    );
    assert_eq!(
        authenticate(&dev(), &good, now()),
        Ok(Credential::AccountKey)
    );
    let mutations = [
        // signature: first character
        js(
            "POST",
            "/Employees",
            "g0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
        ),
        // path: another table
        js(
            "POST",
            "/Employeez",
            "f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
        ),
        // date: one second later
        HttpRequest {
            headers: good
                .headers
                .iter()
                .map(|(n, v)| (n.clone(), v.replace("20:24:50", "20:24:51")))
                .collect(),
            ..good.clone()
        },
        // account: the same signature under another name
        HttpRequest::new("POST", &format!("{BASE}/Employees"))
            .header("x-ms-date", JS_DATE)
            .header(
                "Authorization",
                "SharedKeyLite otheraccount:f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
            ),
        // scheme: SharedKey over the same signature
        HttpRequest::new("POST", &format!("{BASE}/Employees"))
            .header("x-ms-date", JS_DATE)
            .header(
                "Authorization",
                "SharedKey devstoreaccount1:f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
            ),
    ];
    for request in &mutations {
        assert_eq!(
            code(authenticate(&dev(), request, now())),
            ErrorCode::AuthenticationFailed,
            "{request:?}"
        );
    }
}

#[test]
fn shared_key_signs_verb_and_content_type() {
    let good = py(
        "PATCH",
        "/Employees(PartitionKey='p1',RowKey='r1')",
        Some("application/json"),
        "nieKkg33PqB1fLpoRi3CZJceP9/6o2lgBN09AbTPKTg=",
    );
    assert_eq!(
        authenticate(&dev(), &good, now()),
        Ok(Credential::AccountKey)
    );
    let as_put = HttpRequest {
        method: "PUT".into(),
        ..good.clone()
    };
    let other_type = py(
        "PATCH",
        "/Employees(PartitionKey='p1',RowKey='r1')",
        Some("application/json;odata=nometadata"),
        "nieKkg33PqB1fLpoRi3CZJceP9/6o2lgBN09AbTPKTg=",
    );
    let with_md5 = good
        .clone()
        .header("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==");
    for request in [as_put, other_type, with_md5] {
        assert_eq!(
            code(authenticate(&dev(), &request, now())),
            ErrorCode::AuthenticationFailed
        );
    }
}

#[test]
fn a_request_dated_over_15_minutes_ago_fails() {
    let request = js(
        "POST",
        "/Employees",
        "f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
    );
    // Signed at 20:24:50. The service checks the age only: a clock behind the request's
    // date by any amount still passes.
    for ok in [
        "2026-11-23T20:39:50Z",
        "2026-11-23T20:09:50Z",
        "2026-11-23T20:09:49Z",
        "2026-01-01T00:00:00Z",
    ] {
        assert_eq!(
            authenticate(&dev(), &request, at(ok)),
            Ok(Credential::AccountKey),
            "{ok}"
        );
    }
    for stale in ["2026-11-23T20:39:51Z", "2026-11-24T20:24:50Z"] {
        assert_eq!(
            code(authenticate(&dev(), &request, at(stale))),
            ErrorCode::AuthenticationFailed,
            "{stale}"
        );
    }
}

#[test]
fn a_signed_date_header_is_accepted_without_x_ms_date() {
    let request = HttpRequest::new("POST", &format!("{BASE}/Employees"))
        .header("Date", JS_DATE)
        .header(
            "Authorization",
            "SharedKeyLite devstoreaccount1:f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
        );
    assert_eq!(
        authenticate(&dev(), &request, now()),
        Ok(Credential::AccountKey)
    );
    let undated = HttpRequest::new("POST", &format!("{BASE}/Employees")).header(
        "Authorization",
        "SharedKeyLite devstoreaccount1:f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
    );
    assert_eq!(
        code(authenticate(&dev(), &undated, now())),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn http_dates_parse() {
    let at_js = Some(at("2026-11-23T20:24:50Z"));
    assert_eq!(shared_key::parse_http_date(JS_DATE), at_js);
    // RFC 850, which "Representation of date/time values in headers" also accepts.
    assert_eq!(
        shared_key::parse_http_date("Monday, 23-Nov-26 20:24:50 GMT"),
        at_js
    );
    assert_eq!(
        shared_key::parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"),
        Some(at("1994-11-06T08:49:37Z"))
    );
    for bad in [
        "Mon, 23 Nov 2026 20:24:50 UTC",
        "Mon, 31 Nov 2026 20:24:50 GMT",
        // the weekday must be the date's
        "Tue, 23 Nov 2026 20:24:50 GMT",
        "Tuesday, 23-Nov-26 20:24:50 GMT",
        // two-digit fields, a four-digit year in RFC 1123
        "Mon, 23 Nov 2026 20:24:5 GMT",
        "Mon, 23 Nov 26 20:24:50 GMT",
        "Monday, 23-Nov-2026 20:24:50 GMT",
        "2026-11-23T20:24:50Z",
        "",
    ] {
        assert_eq!(shared_key::parse_http_date(bad), None, "{bad}");
    }
}

#[test]
fn no_credential_is_refused_unless_the_endpoint_allows_it() {
    let bare = HttpRequest::new("GET", &format!("{BASE}/Tables"));
    assert_eq!(
        code(authenticate(&dev(), &bare, now())),
        ErrorCode::NoAuthenticationInformation
    );
    let open = Endpoint::anonymous("devstoreaccount1");
    assert_eq!(authenticate(&open, &bare, now()), Ok(Credential::Anonymous));
    // A credential is always checked, also where anonymous callers are served.
    let forged = js(
        "GET",
        "/Tables",
        "b63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
    );
    assert_eq!(
        code(authenticate(&open, &forged, now())),
        ErrorCode::AuthenticationFailed
    );
    let bearer = bare.clone().header("Authorization", "Bearer eyJ0eXAi");
    assert_eq!(
        code(authenticate(&open, &bearer, now())),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn a_read_only_table_sas_reads_and_refuses_writes() {
    let expected = Credential::Sas(Sas {
        permissions: "r".into(),
        table: Some("employees".into()),
        resource_types: None,
        keys: KeyRange::default(),
    });
    // The JS and Python SDKs sign the same fields and order them differently in the URL.
    for sas in [JS_TABLE_R, PY_TABLE_R] {
        let request = with_sas("GET", "/Employees(PartitionKey='c',RowKey='3')", sas);
        assert_eq!(authenticate(&dev(), &request, now()), Ok(expected.clone()));
    }
    assert_eq!(
        authorize(&expected, Access::Read, Some("Employees")),
        Ok(())
    );
    assert_eq!(
        authorize_entity(&expected, Access::Read, "employees", "c", "3"),
        Ok(())
    );
    for write in [Access::Add, Access::Update, Access::Delete] {
        assert_eq!(
            authorize(&expected, write, Some("Employees"))
                .unwrap_err()
                .code,
            ErrorCode::AuthorizationPermissionMismatch
        );
    }
}

#[test]
fn a_table_sas_reaches_its_own_table_only() {
    let request = with_sas("POST", "/Employees", JS_TABLE_ALL);
    let credential = authenticate(&dev(), &request, now()).unwrap();
    for access in [Access::Read, Access::Add, Access::Update, Access::Delete] {
        assert_eq!(authorize(&credential, access, Some("Employees")), Ok(()));
        assert_eq!(
            authorize(&credential, access, Some("Other"))
                .unwrap_err()
                .code,
            ErrorCode::AuthorizationFailure
        );
    }
    for access in [Access::ListTables, Access::CreateTable, Access::DeleteTable] {
        assert_eq!(
            authorize(&credential, access, Some("Employees"))
                .unwrap_err()
                .code,
            ErrorCode::AuthorizationFailure
        );
    }
    // A SAS for table Other, used on Employees' URL, still names Other.
    let other = authenticate(
        &dev(),
        &with_sas("GET", "/Employees()", JS_TABLE_OTHER),
        now(),
    )
    .unwrap();
    assert_eq!(
        authorize(&other, Access::Read, Some("Employees"))
            .unwrap_err()
            .code,
        ErrorCode::AuthorizationFailure
    );
    assert_eq!(authorize(&other, Access::Read, Some("other")), Ok(()));
}

#[test]
fn a_changed_sas_field_fails() {
    let cases = [
        // tn: the signature covers the table
        JS_TABLE_R.replace("tn=Employees", "tn=Other"),
        // sp: more permissions than signed
        JS_TABLE_R.replace("sp=r&", "sp=ra&"),
        JS_ACCOUNT_ALL.replace("sp=rwdlau", "sp=rwdlaup"),
        // se: a later expiry
        JS_TABLE_ALL.replace("2099-01-01", "2099-01-02"),
        // sig: one byte
        JS_TABLE_R.replace("sig=wUZ9", "sig=xUZ9"),
        // srt: the order is signed as sent
        PY_ACCOUNT.replace("srt=soc", "srt=sco"),
        // spk: the key range is signed
        JS_TABLE_RANGE.replace("spk=b", "spk=a"),
        // an account SAS signed for another account
        JS_ACCOUNT_OTHER.to_string(),
    ];
    for sas in &cases {
        let request = with_sas("GET", "/Employees()", sas);
        assert_eq!(
            code(authenticate(&dev(), &request, now())),
            ErrorCode::AuthenticationFailed,
            "{sas}"
        );
    }
    // The canonical resource lower-cases tn, so its case is not signed.
    let lower = JS_TABLE_R.replace("tn=Employees", "tn=employees");
    assert!(matches!(
        authenticate(&dev(), &with_sas("GET", "/employees()", &lower), now()),
        Ok(Credential::Sas(_))
    ));
}

#[test]
fn a_malformed_sas_fails() {
    let cases = [
        JS_TABLE_R.replace("sv=2019-02-02&", ""),
        JS_TABLE_R.replace("sp=r&", ""),
        JS_TABLE_R.replace("se=2099-01-01T00%3A00%3A00Z", "se=tomorrow"),
        JS_TABLE_R.replace(
            "sig=wUZ9hhtbqfcvpWHvaSRShtuvG1aqeCGBYEvwbQKINBI%3D",
            "sig=%21%21",
        ),
        JS_TABLE_R.replace("&tn=Employees", ""),
        JS_TABLE_R.replace("sv=2019-02-02", "sv=2013-08-15"),
        format!("{JS_TABLE_R}&si=policy1"),
    ];
    for sas in &cases {
        let request = with_sas("GET", "/Employees()", sas);
        assert_eq!(
            code(authenticate(&dev(), &request, now())),
            ErrorCode::AuthenticationFailed,
            "{sas}"
        );
    }
}

#[test]
fn a_sas_is_valid_from_start_to_expiry() {
    let request = with_sas("GET", "/Employees()", JS_TABLE_EXPIRED);
    assert!(matches!(
        authenticate(&dev(), &request, at("2024-01-01T12:00:00Z")),
        Ok(Credential::Sas(_))
    ));
    assert!(matches!(
        authenticate(&dev(), &request, at("2024-01-02T00:00:00Z")),
        Ok(Credential::Sas(_))
    ));
    for outside in [
        "2024-01-02T00:00:00.0000001Z",
        "2023-12-31T23:59:59Z",
        "2026-11-23T20:25:00Z",
    ] {
        assert_eq!(
            code(authenticate(&dev(), &request, at(outside))),
            ErrorCode::AuthenticationFailed,
            "{outside}"
        );
    }
}

#[test]
fn a_key_range_sas_reaches_entities_inside_its_range() {
    let expected_keys = KeyRange {
        start_partition_key: Some("b".into()),
        start_row_key: Some("1".into()),
        end_partition_key: Some("d".into()),
        end_row_key: Some("5".into()),
    };
    for sas in [JS_TABLE_RANGE, PY_TABLE_RANGE] {
        let request = with_sas("GET", "/Employees(PartitionKey='c',RowKey='3')", sas);
        let credential = authenticate(&dev(), &request, now()).unwrap();
        assert_eq!(
            credential,
            Credential::Sas(Sas {
                permissions: "raud".into(),
                table: Some("employees".into()),
                resource_types: None,
                keys: expected_keys.clone(),
            })
        );
        for (pk, rk) in [("b", "1"), ("c", "0"), ("c", "zzz"), ("d", "5"), ("b", "9")] {
            for access in [Access::Read, Access::Add, Access::Update, Access::Delete] {
                assert_eq!(
                    authorize_entity(&credential, access, "Employees", pk, rk),
                    Ok(()),
                    "({pk}, {rk})"
                );
            }
        }
        for (pk, rk) in [("a", "3"), ("b", "0"), ("d", "6"), ("e", "0"), ("", "")] {
            assert_eq!(
                authorize_entity(&credential, Access::Read, "Employees", pk, rk)
                    .unwrap_err()
                    .code,
                ErrorCode::AuthorizationFailure,
                "({pk}, {rk})"
            );
        }
        // A query is narrowed to the range by the caller; a write must name its entity.
        assert_eq!(
            authorize(&credential, Access::Read, Some("Employees")),
            Ok(())
        );
        assert_eq!(
            authorize(&credential, Access::Add, Some("Employees"))
                .unwrap_err()
                .code,
            ErrorCode::AuthorizationFailure
        );
    }
}

#[test]
fn key_ranges_with_open_ends() {
    let from_b = KeyRange {
        start_partition_key: Some("b".into()),
        ..KeyRange::default()
    };
    assert!(from_b.admits("b", ""));
    assert!(from_b.admits("zz", "0"));
    assert!(!from_b.admits("a", "z"));
    let through_d = KeyRange {
        end_partition_key: Some("d".into()),
        ..KeyRange::default()
    };
    assert!(through_d.admits("d", "\u{10FFFF}"));
    assert!(!through_d.admits("da", ""));
    assert!(KeyRange::default().admits("", ""));
    // The service's order is by UTF-16 code unit: a supplementary character sorts below
    // U+E000..U+FFFF.
    let through_private_use = KeyRange {
        end_partition_key: Some("\u{E000}".into()),
        ..KeyRange::default()
    };
    assert!(through_private_use.admits("\u{1F600}", ""));
}

#[test]
fn account_sas_permissions_and_resource_types() {
    let default = authenticate(
        &dev(),
        &with_sas("GET", "/Tables", JS_ACCOUNT_DEFAULT),
        now(),
    )
    .unwrap();
    assert_eq!(
        default,
        Credential::Sas(Sas {
            permissions: "rl".into(),
            table: None,
            resource_types: Some("sco".into()),
            keys: KeyRange::default(),
        })
    );
    assert_eq!(authorize(&default, Access::ListTables, None), Ok(()));
    assert_eq!(authorize(&default, Access::Read, Some("Employees")), Ok(()));
    for refused in [
        Access::Add,
        Access::Update,
        Access::Delete,
        Access::CreateTable,
        Access::DeleteTable,
    ] {
        assert_eq!(
            authorize(&default, refused, Some("Employees"))
                .unwrap_err()
                .code,
            ErrorCode::AuthorizationPermissionMismatch,
            "{refused:?}"
        );
    }

    for sas in [JS_ACCOUNT_ALL, PY_ACCOUNT] {
        let all = authenticate(&dev(), &with_sas("POST", "/Tables", sas), now()).unwrap();
        for access in [
            Access::Read,
            Access::Add,
            Access::Update,
            Access::Delete,
            Access::ListTables,
            Access::CreateTable,
            Access::DeleteTable,
        ] {
            assert_eq!(
                authorize(&all, access, Some("Employees")),
                Ok(()),
                "{access:?}"
            );
            assert_eq!(
                authorize_entity(&all, access, "Employees", "a", "b"),
                Ok(())
            );
        }
    }

    // srt=o: entities but not tables.
    let objects = authenticate(
        &dev(),
        &with_sas("GET", "/Tables", JS_ACCOUNT_OBJECTS),
        now(),
    )
    .unwrap();
    assert_eq!(authorize(&objects, Access::Read, Some("Employees")), Ok(()));
    assert_eq!(
        authorize(&objects, Access::ListTables, None)
            .unwrap_err()
            .code,
        ErrorCode::AuthorizationResourceTypeMismatch
    );
}

#[test]
fn an_account_sas_without_the_table_service_is_refused() {
    let request = with_sas("GET", "/Tables", JS_ACCOUNT_BLOB);
    assert_eq!(
        code(authenticate(&dev(), &request, now())),
        ErrorCode::AuthorizationServiceMismatch
    );
}

#[test]
fn an_account_sas_from_2020_12_06_on_signs_the_encryption_scope() {
    let request = with_sas("GET", "/Tables", PY_BLOB_SDK_ACCOUNT_2026);
    let credential = authenticate(&dev(), &request, now()).unwrap();
    assert_eq!(
        credential,
        Credential::Sas(Sas {
            permissions: "rl".into(),
            table: None,
            resource_types: Some("co".into()),
            keys: KeyRange::default(),
        })
    );
    assert_eq!(authorize(&credential, Access::ListTables, None), Ok(()));
    // The same fields signed in the 2019-02-02 form are not accepted at 2026-10-06.
    let relabelled = JS_ACCOUNT_DEFAULT.replace("sv=2019-02-02", "sv=2026-10-06");
    assert_eq!(
        code(authenticate(
            &dev(),
            &with_sas("GET", "/Tables", &relabelled),
            now()
        )),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn a_sas_and_an_authorization_header_together_are_refused() {
    // Either alone passes.
    let signed = js(
        "GET",
        "/Tables",
        "a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
    );
    assert_eq!(
        authenticate(&dev(), &signed, now()),
        Ok(Credential::AccountKey)
    );
    let sas = with_sas("GET", "/Employees()", JS_TABLE_R);
    assert!(matches!(
        authenticate(&dev(), &sas, now()),
        Ok(Credential::Sas(_))
    ));
    // Together: the service refuses the ambiguity before it checks either, so both valid,
    // both forged, or the header not even SharedKey, it is 400 InvalidAuthenticationInfo.
    let both = HttpRequest {
        url: format!("{}?{JS_TABLE_R}", signed.url),
        ..signed.clone()
    };
    let forged = HttpRequest {
        url: format!("{}?{}", signed.url, JS_TABLE_R.replace("sig=w", "sig=x")),
        ..signed.clone().header("x-ms-date", "")
    };
    let bearer = sas.clone().header("Authorization", "Bearer eyJ0eXAi");
    let empty_sig = js(
        "GET",
        "/Tables?sig=",
        "a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
    );
    let anonymous_endpoint = Endpoint::anonymous("devstoreaccount1");
    for request in [&both, &forged, &bearer, &empty_sig] {
        for endpoint in [&dev(), &anonymous_endpoint] {
            assert_eq!(
                code(authenticate(endpoint, request, now())),
                ErrorCode::InvalidAuthenticationInfo,
                "{request:?}"
            );
        }
    }
    // Other query parameters are not a SAS: only `sig` makes one.
    let with_query = js(
        "GET",
        "/Tables?$top=1&sv=2019-02-02",
        "a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
    );
    assert_eq!(
        authenticate(&dev(), &with_query, now()),
        Ok(Credential::AccountKey)
    );
}

#[test]
fn a_shared_key_request_needs_a_date() {
    // SharedKeyLite and SharedKey alike: no x-ms-date and no Date is 403
    // AuthenticationFailed ("Request date header not specified"), whatever the rest.
    let lite = "SharedKeyLite devstoreaccount1:f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=";
    let full = "SharedKey devstoreaccount1:wKydAfnTBfGnVmXwT/qWivpm0Q3FVGhrCq1/WBP8ytE=";
    for header in [
        lite,
        full,
        "SharedKeyLite devstoreaccount1:!!",
        "Bearer eyJ0eXAi",
    ] {
        let undated =
            HttpRequest::new("POST", &format!("{BASE}/Employees")).header("Authorization", header);
        let empty = undated.clone().header("x-ms-date", "");
        // An empty x-ms-date is not replaced by Date: the service reads x-ms-date when the
        // header is there at all.
        let empty_beside_date = empty.clone().header("Date", JS_DATE);
        for request in [&undated, &empty, &empty_beside_date] {
            let error = authenticate(&dev(), request, now()).unwrap_err();
            assert_eq!(error.code, ErrorCode::AuthenticationFailed, "{request:?}");
            assert_eq!(error.status(), 403);
            assert_eq!(
                error.message,
                "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."
            );
        }
    }
    // A date that is not an HTTP date is refused the same way.
    let garbled = HttpRequest::new("POST", &format!("{BASE}/Employees"))
        .header("x-ms-date", "2026-11-23T20:24:50Z")
        .header("Authorization", lite);
    assert_eq!(
        code(authenticate(&dev(), &garbled, now())),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn x_ms_date_is_the_date_signed_when_both_are_sent() {
    // JS signed x-ms-date = JS_DATE. Sent beside another Date, x-ms-date is what counts.
    let beside = js(
        "POST",
        "/Employees",
        "f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
    )
    .header("Date", "Mon, 23 Nov 2026 20:25:00 GMT");
    assert_eq!(
        authenticate(&dev(), &beside, now()),
        Ok(Credential::AccountKey)
    );
    // Signed over Date while another x-ms-date is sent: the service signs x-ms-date only.
    let signed_date = HttpRequest::new("POST", &format!("{BASE}/Employees"))
        .header("Date", JS_DATE)
        .header("x-ms-date", "Mon, 23 Nov 2026 20:25:00 GMT")
        .header(
            "Authorization",
            "SharedKeyLite devstoreaccount1:f0Zjdd4A0sVuIttF7TCbr5bqls9in0ffyghV/V7YdGY=",
        );
    assert_eq!(
        code(authenticate(&dev(), &signed_date, now())),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn an_unreadable_authorization_header_is_invalid_authentication_info() {
    let dated = || HttpRequest::new("GET", &format!("{BASE}/Tables")).header("x-ms-date", JS_DATE);
    for header in [
        "SharedKeyLite",
        "SharedKeyLite ",
        "SharedKeyLite devstoreaccount1",
        "SharedKeyLite devstoreaccount1:a:b",
        "SharedKeyLite devstoreaccount1:not base64!",
    ] {
        let request = dated().header("Authorization", header);
        assert_eq!(
            code(authenticate(&dev(), &request, now())),
            ErrorCode::InvalidAuthenticationInfo,
            "{header}"
        );
    }
    // A readable header with an unknown scheme or a wrong account is a failed one.
    for header in [
        "Bearer eyJ0eXAi",
        "SharedKeyLite otheraccount:a63u+suekYF2RPUU6ZXPDuzr9ev8z4HVpHUr5ed/Mn8=",
    ] {
        let request = dated().header("Authorization", header);
        assert_eq!(
            code(authenticate(&dev(), &request, now())),
            ErrorCode::AuthenticationFailed,
            "{header}"
        );
    }
}

#[test]
fn a_sas_for_another_account_fails() {
    let other = Endpoint::with_key("otheraccount", crate::DEV_KEY).unwrap();
    let request = with_sas("GET", "/Employees()", JS_TABLE_R);
    assert_eq!(
        code(authenticate(&other, &request, now())),
        ErrorCode::AuthenticationFailed
    );
    assert!(matches!(
        authenticate(&other, &with_sas("GET", "/Tables", JS_ACCOUNT_OTHER), now()),
        Ok(Credential::Sas(_))
    ));
}

#[test]
fn account_keys_and_anonymous_may_do_anything() {
    for credential in [Credential::AccountKey, Credential::Anonymous] {
        for access in [
            Access::Read,
            Access::Add,
            Access::ListTables,
            Access::DeleteTable,
        ] {
            assert_eq!(authorize(&credential, access, None), Ok(()));
            assert_eq!(authorize_entity(&credential, access, "t", "a", "b"), Ok(()));
        }
    }
}

/// The filter a key-range SAS narrows queries with admits exactly what `admits` admits.
#[test]
fn a_key_range_narrows_queries_to_the_same_entities() {
    use tablescope_engine::filter::{self, Row};
    let range = KeyRange {
        start_partition_key: Some("b".into()),
        start_row_key: Some("2".into()),
        end_partition_key: Some("d'".into()),
        end_row_key: None,
    };
    let text = range.filter().unwrap();
    assert_eq!(
        text,
        "(PartitionKey gt 'b' or (PartitionKey eq 'b' and RowKey ge '2')) and PartitionKey le 'd'''"
    );
    let expr = filter::normalize(filter::parse(&text).unwrap());
    for pk in ["a", "b", "c", "d'", "d'x", "e", ""] {
        for rk in ["", "1", "2", "3"] {
            let row = Row {
                partition_key: pk,
                row_key: rk,
                timestamp: tablescope_engine::DateTime::MIN,
                properties: &[],
            };
            assert_eq!(
                filter::eval(&expr, &row),
                range.admits(pk, rk),
                "({pk}, {rk})"
            );
        }
    }
    assert_eq!(KeyRange::default().filter(), None);
}

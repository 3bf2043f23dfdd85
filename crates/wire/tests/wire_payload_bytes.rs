//! The exact bytes of entity bodies with every EDM type, at every metadata level, for Table
//! storage and Cosmos DB for Table: a page (all properties and `$select`) and a point read.
//! The expected bytes are in `fixtures/payload_every_type.txt`, one `== name` header per body;
//! the JSON writer must reproduce them byte for byte. `BLESS=1` rewrites the file from the
//! current writer (for a deliberate change of the bytes, reviewed in the diff).

mod golden;

use golden::{json_req, req, send, text};
use tablescope_engine::{Account, DateTime, FixedClock, Target};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/payload_every_type.txt"
);

/// Strings that take every branch of the escaper: quote, backslash, the named controls, other
/// controls, DEL, two- and three-byte UTF-8, an emoji (a surrogate pair), and plain runs
/// between them.
const STRINGS: &str = r#""Plain":"plain text, 42 / ok","Quoted":"say \"hi\" \\ back\\slash","Controls":"a\nb\rc\td\be\ff\u0000g\u001fh\u007fi","Accents":"Jos\u00e9 \u00fcber \u20ac5","Emoji":"\ud83d\ude00 and \ud83c\udf89!","Empty":"""#;

fn entities() -> Vec<String> {
    vec![
        format!(
            r#"{{"PartitionKey":"pk","RowKey":"a",{STRINGS},"I32":42,"I32Min":-2147483648,"I32Max":2147483647,"I32Zero":0,"I64@odata.type":"Edm.Int64","I64":"-9223372036854775808","I64Max@odata.type":"Edm.Int64","I64Max":"9223372036854775807","I64Small@odata.type":"Edm.Int64","I64Small":"7","Yes":true,"No":false}}"#
        ),
        r#"{"PartitionKey":"pk","RowKey":"b","D1":0.1,"D2":2.0,"D3":-0.0,"D4":1.2345678901234568e24,"D5":1e-300,"D6":5e-324,"D7":1.7976931348623157e308,"D8":123456789.125,"D9":1e16,"D10":1e17,"D11":0.0001,"D12":0.00001,"D13":-3.5,"D14":0.30000000000000004,"DNaN@odata.type":"Edm.Double","DNaN":"NaN","DInf@odata.type":"Edm.Double","DInf":"Infinity","DNegInf@odata.type":"Edm.Double","DNegInf":"-Infinity","DInt@odata.type":"Edm.Double","DInt":"12"}"#.to_string(),
        r#"{"PartitionKey":"pk","RowKey":"c","T1@odata.type":"Edm.DateTime","T1":"2008-07-10T00:00:00Z","T2@odata.type":"Edm.DateTime","T2":"2021-09-10T14:40:21.0475630Z","T3@odata.type":"Edm.DateTime","T3":"2021-09-10T14:40:59.0000001Z","T4@odata.type":"Edm.DateTime","T4":"1601-01-01T00:00:00Z","T5@odata.type":"Edm.DateTime","T5":"9999-12-31T23:59:59.9999999Z","T6@odata.type":"Edm.DateTime","T6":"2000-02-29T12:30:45.5Z","G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833","GUpper@odata.type":"Edm.Guid","GUpper":"C9DA6455-213D-42C9-9A79-3E9149A57833","B@odata.type":"Edm.Binary","B":"AAECA/7/","B1@odata.type":"Edm.Binary","B1":"YQ==","B0@odata.type":"Edm.Binary","B0":""}"#.to_string(),
        // The shape of "b" again, its non-finite and finite Doubles swapped: a page writes the
        // names of a shape once and still annotates each value by its own.
        r#"{"PartitionKey":"pk","RowKey":"b2","D1@odata.type":"Edm.Double","D1":"NaN","D2":-2.5,"D3":0.5,"D4":1e21,"D5":1e-7,"D6":7.0,"D7":-1e308,"D8":0.1,"D9":0.2,"D10":0.3,"D11":0.4,"D12":0.6,"D13":0.7,"D14":0.8,"DNaN":1.25,"DInf@odata.type":"Edm.Double","DInf":"-Infinity","DNegInf":3.5,"DInt@odata.type":"Edm.Double","DInt":"Infinity"}"#.to_string(),
        // Keys that the fullmetadata id and editLink must escape, and a JSON-escaped key.
        r#"{"PartitionKey":"it's \"q\" 50%","RowKey":"\u00e9\u20ac\ud83d\ude00~","Name":"keys"}"#.to_string(),
    ]
}

fn account(target: Target, at: &str) -> Account {
    let at = DateTime::parse(at).unwrap();
    let mut a = Account::for_target(target, Box::new(FixedClock(at)));
    let r = send(
        &mut a,
        json_req("POST", "/Tables", r#"{"TableName":"Types"}"#)
            .header("Prefer", "return-no-content"),
    );
    assert_eq!(r.status, 204, "{}", text(&r));
    for body in entities() {
        let r = send(
            &mut a,
            json_req("POST", "/Types", &body).header("Prefer", "return-no-content"),
        );
        assert_eq!(r.status, 204, "{body}\n{}", text(&r));
    }
    a
}

/// Every body, headed by its name, in a fixed order.
fn bodies() -> String {
    let accounts = [
        (
            "storage",
            Target::TableStorage,
            "2021-09-10T14:40:21.6047768Z",
        ),
        (
            "storage-whole-second",
            Target::TableStorage,
            "2021-09-10T14:40:21.9999999Z",
        ),
        (
            "cosmos",
            Target::CosmosTable,
            "2021-09-10T14:40:21.6047768Z",
        ),
    ];
    let levels = ["nometadata", "minimalmetadata", "fullmetadata"];
    let reads = [
        ("page", "/Types()".to_string()),
        (
            "select",
            "/Types()?$select=RowKey,Timestamp,Missing,I64,Quoted,DNaN,T2,G,B,PartitionKey"
                .to_string(),
        ),
        (
            "element",
            "/Types(PartitionKey='pk',RowKey='b')".to_string(),
        ),
        (
            "element-keys",
            "/Types(PartitionKey='it''s%20%22q%22%2050%25',RowKey='%C3%A9%E2%82%AC%F0%9F%98%80~')"
                .to_string(),
        ),
    ];
    let mut out = String::new();
    for (name, target, at) in accounts {
        let mut a = account(target, at);
        for level in levels {
            for (read, path) in &reads {
                let r = send(
                    &mut a,
                    req("GET", path).header("Accept", &format!("application/json;odata={level}")),
                );
                assert_eq!(r.status, 200, "{name} {level} {read}\n{}", text(&r));
                out.push_str(&format!("== {name} {level} {read}\n"));
                out.push_str(std::str::from_utf8(&r.body).expect("UTF-8 body"));
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn entity_bodies_keep_their_exact_bytes() {
    let got = bodies();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(FIXTURE, &got).unwrap();
    }
    let want = std::fs::read_to_string(FIXTURE).unwrap();
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w);
    }
    assert_eq!(got.lines().count(), want.lines().count());
    assert_eq!(got, want);
}

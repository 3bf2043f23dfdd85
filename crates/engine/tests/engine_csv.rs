#![cfg(not(target_arch = "wasm32"))]
//! Typed CSV (Azure Storage Explorer's format): exact text out, exact values back, and a bad
//! file refused with its line and column while the account stays as it was.

use tablescope_engine::csv::{self, CsvError};
use tablescope_engine::{Account, Change, DateTime, Entity, FixedClock, Guid, Value};

fn ts(text: &str) -> DateTime {
    DateTime::parse(text).unwrap()
}

/// One entity with all eight types at awkward values.
fn all_types() -> Entity {
    let mut e = Entity::new("Sales, \"EU\"", "ü'%😀")
        .with("S", Value::string("line one\r\nline \"two\", with comma"))
        .with("Empty", Value::string(""))
        .with("I32", Value::Int32(i32::MIN))
        .with("I64", Value::Int64(i64::MIN))
        .with("I64Max", Value::Int64(i64::MAX))
        .with("D", Value::Double(0.1 + 0.2))
        .with("Nan", Value::Double(f64::NAN))
        .with("B", Value::Boolean(false))
        .with("T", Value::DateTime(ts("9999-12-31T23:59:59.9999999Z")))
        .with(
            "G",
            Value::Guid(Guid::parse("c9da6455-213d-42c9-9a79-3e9149a57833").unwrap()),
        )
        .with("Bin", Value::Binary(vec![0, 255, 1, 2].into()));
    e.timestamp = Some(ts("2024-01-02T03:04:05.1234567Z"));
    e
}

#[test]
fn encode_writes_the_exact_text() {
    let mut a = Entity::new("p", "1").with("Age", Value::Int32(7));
    a.timestamp = Some(ts("2024-01-02T03:04:05Z"));
    let mut b = Entity::new("p", "2").with("Name", Value::string("a,b"));
    b.timestamp = Some(ts("2024-01-02T03:04:05.5Z"));
    assert_eq!(
        csv::encode(&[a, b]),
        "PartitionKey,RowKey,Timestamp,Age,Age@type,Name,Name@type\r\n\
         p,1,2024-01-02T03:04:05.0000000Z,7,Edm.Int32,,\r\n\
         p,2,2024-01-02T03:04:05.5000000Z,,,\"a,b\",Edm.String\r\n"
    );
}

#[test]
fn all_eight_types_round_trip_exactly() {
    let e = all_types();
    let text = csv::encode(std::slice::from_ref(&e));
    assert!(text.contains(",-9223372036854775808,Edm.Int64,9223372036854775807,Edm.Int64,"));
    assert!(text.contains(",9999-12-31T23:59:59.9999999Z,Edm.DateTime,"));
    assert!(text.contains(",0.30000000000000004,Edm.Double,NaN,Edm.Double,false,Edm.Boolean,"));
    assert!(text.contains(",AP8BAg==,Edm.Binary\r\n"));
    assert!(
        text.starts_with("PartitionKey,RowKey,Timestamp,S,S@type,Empty,Empty@type,I32,I32@type,")
    );
    let back = csv::decode(&text).unwrap();
    assert_eq!(back, vec![e]);
}

#[test]
fn doubles_are_spelled_as_the_service_json_spells_them() {
    // Storage Explorer and the service write `1E-300` and `0`-valued Doubles as `0.0`;
    // a round trip must not turn them into Rust's `1e-300`.
    let text = "PartitionKey,RowKey,Tiny,Tiny@type,Zero,Zero@type,Big,Big@type,Neg,Neg@type\r\n\
                p,1,1E-300,Edm.Double,0,Edm.Double,1.5E+24,Edm.Double,-2.5,Edm.Double\r\n";
    let back = csv::decode(text).unwrap();
    assert_eq!(
        back[0].properties[0],
        ("Tiny".into(), Value::Double(1e-300))
    );
    assert_eq!(
        csv::encode(&back),
        "PartitionKey,RowKey,Timestamp,Tiny,Tiny@type,Zero,Zero@type,Big,Big@type,Neg,Neg@type\r\n\
         p,1,,1E-300,Edm.Double,0.0,Edm.Double,1.5E+24,Edm.Double,-2.5,Edm.Double\r\n"
    );
}

#[test]
fn missing_and_empty_are_different() {
    let text = "PartitionKey,RowKey,A,A@type,B,B@type\r\np,1,,Edm.String,,\r\n";
    let back = csv::decode(text).unwrap();
    assert_eq!(
        back,
        vec![Entity::new("p", "1").with("A", Value::string(""))]
    );
}

#[test]
fn reads_what_storage_explorer_writes() {
    // Short type names, LF line ends, a BOM, no Timestamp, untyped cells as strings,
    // quoted keys and a quoted value spanning lines.
    let text =
        "\u{feff}PartitionKey,RowKey,Count,Count@type,Note\n\"a\"\"b\",r,42,int64,\"x\ny\"\n";
    let back = csv::decode(text).unwrap();
    assert_eq!(
        back,
        vec![Entity::new("a\"b", "r")
            .with("Count", Value::Int64(42))
            .with("Note", Value::string("x\ny"))]
    );
}

#[test]
fn an_empty_type_cell_takes_the_columns_first_type() {
    // Storage Explorer 1.40.0 annotated only the first entity (Storage Explorer bug 8772); its import
    // takes the first annotated entity as the schema (Storage Explorer bug 4968).
    let text =
        "PartitionKey,RowKey,N,N@type\r\np,1,2,Int64\r\np,2,3,\r\np,3,x,Edm.String\r\np,4,5,\r\n";
    let back = csv::decode(text).unwrap();
    let values: Vec<Value> = back.iter().map(|e| e.get("N").unwrap().clone()).collect();
    assert_eq!(
        values,
        [
            Value::Int64(2),
            Value::Int64(3),
            Value::string("x"),
            Value::Int64(5)
        ]
    );
    assert_eq!(
        csv::decode("PartitionKey,RowKey,N,N@type\r\np,1,2,Int32\r\np,2,y,\r\n").map_err(said),
        Err(err(3, Some("N"), "'y' is not a valid Edm.Int32"))
    );
}

/// An error as its line, column and English text.
type Said = (usize, Option<String>, String);

fn err(line: usize, column: Option<&str>, message: &str) -> Said {
    (line, column.map(str::to_string), message.to_string())
}

fn said(e: CsvError) -> Said {
    (e.line, e.column, e.problem.to_string())
}

#[test]
fn bad_files_name_the_line_and_column() {
    let cases: &[(&str, Said)] = &[
        (
            "",
            err(0, None, "the file is empty; expected a header line"),
        ),
        (
            "RowKey,A\r\nr,1\r\n",
            err(1, None, "the header has no PartitionKey column"),
        ),
        (
            "PartitionKey,RowKey,A,A@type\r\np,1,x,Edm.Int32\r\n",
            err(2, Some("A"), "'x' is not a valid Edm.Int32"),
        ),
        (
            "PartitionKey,RowKey,A,A@type\r\np,1,9223372036854775808,Edm.Int64\r\n",
            err(
                2,
                Some("A"),
                "'9223372036854775808' is not a valid Edm.Int64",
            ),
        ),
        (
            "PartitionKey,RowKey,A,A@type\r\np,1,1e400,Edm.Double\r\n",
            err(2, Some("A"), "'1e400' is not a valid Edm.Double"),
        ),
        (
            "PartitionKey,RowKey,A,A@type\r\np,1,1,Edm.Decimal\r\n",
            err(2, Some("A"), "unknown type 'Edm.Decimal'"),
        ),
        (
            "PartitionKey,RowKey,A,A@type\r\np,1,2024-13-01T00:00:00Z,Edm.DateTime\r\n",
            err(
                2,
                Some("A"),
                "'2024-13-01T00:00:00Z' is not a valid Edm.DateTime",
            ),
        ),
        (
            "PartitionKey,RowKey\r\np,1\r\np,1,extra\r\n",
            err(3, None, "3 fields, but the header has 2 columns"),
        ),
        (
            "PartitionKey,RowKey\r\np,\"open\r\n",
            err(2, None, "a quoted field is never closed"),
        ),
        (
            "PartitionKey,RowKey\r\na/b,1\r\n",
            err(2, None, "OutOfRangeInput: PartitionKey may not contain '/'"),
        ),
        (
            "PartitionKey,RowKey\r\np,1\r\np,1\r\n",
            err(
                3,
                None,
                "PartitionKey 'p' RowKey '1' appears twice in the file",
            ),
        ),
        (
            "PartitionKey,RowKey,A,A\r\np,1,x,y\r\n",
            err(1, Some("A"), "this column appears twice in the header"),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            csv::decode(text).map_err(said).as_ref(),
            Err(expected),
            "input {text:?}"
        );
    }
}

fn account() -> Account {
    let mut a = Account::new(Box::new(FixedClock(ts("2030-01-01T00:00:00Z"))));
    a.create_table("People").unwrap();
    a.insert(
        "People",
        Entity::new("p", "1").with("Name", Value::string("Ann")),
    )
    .unwrap();
    a.insert(
        "People",
        Entity::new("p", "2").with("Name", Value::string("Bob")),
    )
    .unwrap();
    a.take_changes();
    a
}

#[test]
fn import_replaces_same_keys_and_adds_the_rest() {
    let mut a = account();
    let text = "PartitionKey,RowKey,Name,Name@type\r\np,2,Bea,Edm.String\r\np,3,Cy,Edm.String\r\n";
    assert_eq!(a.import_csv("people", text), Ok(2));
    let names: Vec<String> = ["1", "2", "3"]
        .iter()
        .map(|rk| {
            a.get("People", "p", rk)
                .unwrap()
                .get("Name")
                .unwrap()
                .display_text()
        })
        .collect();
    assert_eq!(names, ["Ann", "Bea", "Cy"]);
}

#[test]
fn an_import_records_only_the_table_and_the_entities_it_wrote() {
    let mut a = account();
    let text = "PartitionKey,RowKey\r\np,2\r\nq,1\r\n";
    assert_eq!(a.import_csv("People", text), Ok(2));
    let written = |pk: &str, rk: &str, table: &str| Change::EntityWritten {
        table: table.into(),
        partition_key: pk.into(),
        row_key: rk.into(),
    };
    assert_eq!(
        a.take_changes(),
        [vec![
            written("p", "2", "People"),
            written("q", "1", "People")
        ]]
    );
    assert_eq!(a.import_csv("Fresh", text), Ok(2));
    assert_eq!(
        a.take_changes(),
        [vec![
            Change::TableCreated {
                table: "Fresh".into()
            },
            written("p", "2", "Fresh"),
            written("q", "1", "Fresh"),
        ]]
    );
}

#[test]
fn import_into_a_new_table_keeps_timestamps() {
    let mut a = account();
    let e = all_types();
    assert_eq!(a.import_csv("Typed", &csv::encode([&e])), Ok(1));
    assert_eq!(a.get("Typed", &e.partition_key, &e.row_key).unwrap(), e);
    assert_eq!(a.export_csv("Typed").unwrap(), csv::encode([&e]));
}

#[test]
fn a_bad_import_changes_nothing() {
    let mut a = account();
    let before = a.export();
    let text = "PartitionKey,RowKey,Name,Name@type\r\np,9,ok,Edm.String\r\np,8,x,Edm.Guid\r\n";
    assert_eq!(
        a.import_csv("People", text).map_err(said),
        Err(err(3, Some("Name"), "'x' is not a valid Edm.Guid"))
    );
    assert_eq!(
        a.import_csv("bad name!", "PartitionKey,RowKey\r\n")
            .map_err(|e| e.line),
        Err(0)
    );
    assert_eq!(a.export(), before);
    assert!(a.take_changes().is_empty());
}

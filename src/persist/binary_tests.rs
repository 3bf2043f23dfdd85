//! The format-2 chunk: exact round trips of every type, and damaged bytes refused.

use super::*;
use crate::engine::{Table, Value};
use wasm_bindgen_test::wasm_bindgen_test;

/// Two rows of a partition with every type, edge values included, as a table stores them.
fn sample() -> Table {
    let max = DateTime::MAX.ticks();
    let entity = |rk: &str, properties: Vec<(&str, Value)>| Entity {
        partition_key: "pk ü".into(),
        row_key: rk.into(),
        timestamp: None,
        properties: properties
            .into_iter()
            .map(|(n, v)| (PropertyName::from(n), v))
            .collect(),
    };
    let mut table = Table::new("T");
    table.put(
        entity(
            "",
            vec![
                ("S", Value::string("")),
                ("Int", Value::Int32(i32::MIN)),
                ("Long", Value::Int64(i64::MAX)),
                ("D", Value::Double(f64::NAN)),
                ("B", Value::Boolean(false)),
                ("T", Value::DateTime(DateTime::from_ticks(0).unwrap())),
                ("G", Value::Guid(Guid([0xab; 16]))),
                ("Bin", Value::Binary(Box::new([]))),
            ],
        ),
        DateTime::from_ticks(0).unwrap(),
    );
    table.put(
        entity(
            "r\u{1F600}'%/ü",
            vec![
                ("Long", Value::Int64(-1)),
                ("S", Value::string("ك é \u{1F600} \"quoted\"\n")),
                ("D", Value::Double(-0.0)),
                ("B", Value::Boolean(true)),
                ("T", Value::DateTime(DateTime::from_ticks(max - 1).unwrap())),
                ("Bin", Value::Binary((0..=255).collect())),
                ("Big", Value::string("x".repeat(70_000))),
            ],
        ),
        DateTime::from_ticks(max - 1).unwrap(),
    );
    table
}

fn rows(table: &Table) -> Vec<(&Key, &Stored)> {
    table
        .partitions()
        .iter()
        .flat_map(|(_, p)| p.rows.iter())
        .collect()
}

fn encoded() -> Vec<u8> {
    encode("pk ü", &rows(&sample()))
}

/// Every value comes back bit for bit (a NaN's payload and a negative zero included), in the
/// order it was stored, with the chunk's PartitionKey.
#[wasm_bindgen_test]
fn a_chunk_round_trips_every_type_exactly() {
    let (pk, entities) = decode(&encoded(), &mut Names::default()).unwrap();
    assert_eq!(pk, "pk ü");
    let table = sample();
    let rows = rows(&table);
    assert_eq!(entities.len(), 2);
    for (entity, (rk, stored)) in entities.iter().zip(rows) {
        assert_eq!(entity.partition_key, "pk ü");
        assert_eq!(entity.row_key, rk.as_str());
        assert_eq!(entity.timestamp, Some(stored.timestamp));
        let names: Vec<&str> = entity.properties.iter().map(|(n, _)| &**n).collect();
        let expected: Vec<&str> = stored.properties.iter().map(|(n, _)| &**n).collect();
        assert_eq!(names, expected);
        for ((_, got), (_, want)) in entity.properties.iter().zip(stored.properties.iter()) {
            let want = want.to_value();
            match (got, &want) {
                (Value::Double(a), Value::Double(b)) => assert_eq!(a.to_bits(), b.to_bits()),
                _ => assert_eq!(got, &want),
            }
        }
    }
}

/// Property names are stored once per chunk and shared across entities (and chunks).
#[wasm_bindgen_test]
fn names_are_shared() {
    let bytes = encoded();
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(text.matches("Long").count(), 1);
    let mut names = Names::default();
    let (_, a) = decode(&bytes, &mut names).unwrap();
    let (_, b) = decode(&bytes, &mut names).unwrap();
    let long = |e: &Entity| {
        e.properties
            .iter()
            .find(|(n, _)| &**n == "Long")
            .unwrap()
            .0
            .clone()
    };
    assert!(PropertyName::ptr_eq(&long(&a[0]), &long(&a[1])));
    assert!(PropertyName::ptr_eq(&long(&a[0]), &long(&b[1])));
}

/// A chunk cut short anywhere, or with a byte appended, is refused with a reason: never a
/// panic, never a partial chunk.
#[wasm_bindgen_test]
fn damaged_bytes_are_refused() {
    let bytes = encoded();
    for end in 0..bytes.len() {
        let error = decode(&bytes[..end], &mut Names::default()).unwrap_err();
        assert!(!error.is_empty(), "cut at {end}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        decode(&longer, &mut Names::default()).unwrap_err(),
        "bytes follow the last entity"
    );
    assert_eq!(
        decode(b"TSC1", &mut Names::default()).unwrap_err(),
        "not a chunk of format 2"
    );
}

/// Hand-made chunks that break one rule each.
#[wasm_bindgen_test]
fn each_rule_is_checked() {
    let chunk = |names: &[&str], props: &[u8]| {
        let mut out = MAGIC.to_vec();
        put_str(&mut out, "p");
        put_len(&mut out, names.len());
        for n in names {
            put_str(&mut out, n);
        }
        put_len(&mut out, 1);
        put_str(&mut out, "r");
        out.extend_from_slice(&0i64.to_le_bytes());
        out.extend_from_slice(props);
        out
    };
    let check = |bytes: Vec<u8>, expected: &str| {
        let error = decode(&bytes, &mut Names::default()).unwrap_err();
        assert!(error.contains(expected), "{error} lacks {expected}");
    };
    check(chunk(&["A"], &[1, 0, 9]), "an unknown type tag 9");
    check(chunk(&["A"], &[1, 0, BOOLEAN, 2]), "a Boolean stored as 2");
    check(
        chunk(&["A"], &[2, 0, BOOLEAN, 1, 0, BOOLEAN, 0]),
        "property A is stored twice",
    );
    check(
        chunk(&["A", "A"], &[2, 0, BOOLEAN, 1, 1, BOOLEAN, 0]),
        "the property name A is listed twice",
    );
    check(
        chunk(&["A"], &[1, 3, BOOLEAN, 1]),
        "property name 3 is not in the chunk",
    );
    check(chunk(&["RowKey"], &[0]), "a property is named RowKey");
    check(
        chunk(&["odata.etag"], &[0]),
        "a property is named odata.etag",
    );
    check(
        chunk(&["A"], &[1, 0, STRING, 2, 0xff, 0xfe]),
        "text that is not UTF-8",
    );
    let mut late = chunk(&["A"], &[1, 0, DATETIME]);
    late.extend_from_slice(&i64::MAX.to_le_bytes());
    check(late, "a DateTime out of range");
    // And a well-formed one is accepted, so the checks above are what refused them.
    let (_, ok) = decode(&chunk(&["A"], &[1, 0, BOOLEAN, 1]), &mut Names::default()).unwrap();
    assert_eq!(ok[0].properties[0].1, Value::Boolean(true));
}

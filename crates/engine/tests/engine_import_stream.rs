#![cfg(not(target_arch = "wasm32"))]
//! The streaming import reads an export cut into pieces anywhere exactly as the whole-text
//! import reads it (same tables, same entities, same errors), and files in UTF-8 with a byte
//! order mark or UTF-16 with one decode to the same text as plain UTF-8.

mod common;
use common::*;
use tablescope_engine::encoding::{self, Decoder, Encoding};
use tablescope_engine::snapshot::stream::Reader;
use tablescope_engine::Account;

/// An error's detail, as the UI shows it.
fn why(e: tablescope_engine::Error) -> String {
    format!(
        "{}: {}",
        e.code.as_str(),
        e.detail.map(|d| d.to_string()).unwrap_or_default()
    )
}

fn export(a: &Account) -> String {
    serde_json::to_string_pretty(&a.export()).unwrap()
}

/// An account with entities of every type, awkward keys, two tables and an access policy.
fn sample() -> Account {
    let mut a = account_with("Typed");
    for (i, json) in [
        r#"{"PartitionKey":"O'Brien%20","RowKey":"ü'%😀","S":"text, \"quoted\"\r\nnext","I":-7}"#,
        r#"{"PartitionKey":"p","RowKey":"2","Big@odata.type":"Edm.Int64","Big":"-9223372036854775808","D":0.30000000000000004,"B":true}"#,
        r#"{"PartitionKey":"p","RowKey":"3","T@odata.type":"Edm.DateTime","T":"2024-01-02T03:04:05.1234567Z","G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833","X@odata.type":"Edm.Binary","X":"AP8BAg=="}"#,
    ]
    .iter()
    .enumerate()
    {
        let r = insert(&mut a, "Typed", json);
        assert_eq!(r.status, 201, "{i}: {r:?}");
    }
    a.create_table("Other").unwrap();
    for i in 0..300 {
        let json = format!(
            r#"{{"PartitionKey":"q{}","RowKey":"{i:04}","N":{i}}}"#,
            i % 3
        );
        assert_eq!(insert(&mut a, "Other", &json).status, 201);
    }
    a
}

/// Streams `text` into a fresh account in pieces of `size` bytes of UTF-8 (cut inside
/// characters too, through the decoder).
fn stream(text: &[u8], size: usize) -> tablescope_engine::Result<Account> {
    let mut target = account_with("Old");
    let mut decoder = Decoder::new();
    let mut reader = Reader::new(&target);
    for piece in text.chunks(size) {
        let decoded = decoder.push(piece)?;
        reader.feed(&target, &decoded)?;
    }
    reader.feed(&target, &decoder.finish()?)?;
    let imported = reader.finish(&target)?;
    target.import_read(imported);
    Ok(target)
}

#[test]
fn an_export_streamed_in_any_pieces_comes_back_exactly() {
    let source = sample();
    let text = export(&source);
    for size in [1, 2, 3, 5, 64, 1000, text.len()] {
        let back = stream(text.as_bytes(), size).unwrap();
        assert_eq!(export(&back), text, "pieces of {size}");
        let typed = back.table("Typed").unwrap();
        assert_eq!(typed.entity_count(), 3);
        assert_eq!(back.table("Other").unwrap().entity_count(), 300);
        assert!(back.table("Old").is_err(), "the old table is replaced");
    }
    // Compact JSON (no blanks) as well.
    let compact = serde_json::to_string(&source.export()).unwrap();
    assert_eq!(export(&stream(compact.as_bytes(), 7).unwrap()), text);
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_text() {
    let text = export(&sample());
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(text.as_bytes());
    for size in [1, 2, 4, 4096] {
        assert_eq!(
            export(&stream(&bom, size).unwrap()),
            text,
            "pieces of {size}"
        );
    }
    // The whole-text import too.
    let mut a = Account::default();
    a.import_json_bytes(&bom).unwrap();
    assert_eq!(export(&a), text);
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut bytes = if big_endian {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for unit in text.encode_utf16() {
        let pair = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        bytes.extend_from_slice(&pair);
    }
    bytes
}

/// Decodes in pieces of `size` bytes.
fn decode_in(bytes: &[u8], size: usize) -> tablescope_engine::Result<String> {
    let mut decoder = Decoder::new();
    let mut text = String::new();
    for piece in bytes.chunks(size) {
        text.push_str(&decoder.push(piece)?);
    }
    text.push_str(&decoder.finish()?);
    Ok(text)
}

const CSV: &str = "PartitionKey,RowKey,Timestamp,Name,Name@type,Age,Age@type\r\n\
    p,1,2024-05-06T07:08:09.1234567Z,Zoë 😀,Edm.String,42,Edm.Int32\r\n\
    p,2,2024-05-06T07:08:10.0000001Z,\"Smith, Jo\",Edm.String,,\r\n";

#[test]
fn utf16_csv_with_a_byte_order_mark_imports_exactly() {
    let mut plain = Account::default();
    plain.import_csv("People", CSV).unwrap();
    let want = plain.export_csv("People").unwrap();
    for big_endian in [false, true] {
        let bytes = utf16(CSV, big_endian);
        for size in [1, 2, 3, 5, 4096] {
            let mut decoder = Decoder::new();
            let mut text = String::new();
            for piece in bytes.chunks(size) {
                text.push_str(&decoder.push(piece).unwrap());
            }
            text.push_str(&decoder.finish().unwrap());
            let expected = if big_endian {
                Encoding::Utf16Be
            } else {
                Encoding::Utf16Le
            };
            assert_eq!(decoder.encoding(), Some(expected));
            assert_eq!(text, CSV, "big endian {big_endian}, pieces of {size}");
            let mut a = Account::default();
            assert_eq!(a.import_csv("People", &text).unwrap(), 2);
            assert_eq!(a.export_csv("People").unwrap(), want);
        }
    }
    // UTF-8 with one byte order mark, and with two (the second is the CSV reader's to drop).
    for marks in [1, 2] {
        let mut bytes = [0xEF, 0xBB, 0xBF].repeat(marks);
        bytes.extend_from_slice(CSV.as_bytes());
        let text = decode_in(&bytes, 2).unwrap();
        let mut a = Account::default();
        assert_eq!(a.import_csv("People", &text).unwrap(), 2, "{marks} marks");
        assert_eq!(a.export_csv("People").unwrap(), want);
    }
}

#[test]
fn bytes_that_are_not_text_are_refused_with_their_offset() {
    let mut latin1 = b"{\"S\":\"caf".to_vec();
    latin1.push(0xE9);
    latin1.extend_from_slice(b"\"}");
    for size in [1, 3, 100] {
        let e = decode_in(&latin1, size).unwrap_err();
        assert_eq!(
            why(e),
            "InvalidInput: not UTF-8: the byte at offset 9 does not start a valid character",
            "pieces of {size}"
        );
    }
    // After a byte order mark the offset still counts from the file's start.
    let mut marked = vec![0xEF, 0xBB, 0xBF];
    marked.extend_from_slice(&latin1);
    assert!(decode_in(&marked, 4)
        .unwrap_err()
        .to_string()
        .contains("offset 12"));
    // A UTF-8 character cut off by the end of the file.
    let cut = [b'a', 0xF0, 0x9F];
    assert!(decode_in(&cut, 1)
        .unwrap_err()
        .to_string()
        .contains("offset 1"));
    // UTF-16: an unpaired surrogate, and an odd last byte.
    let mut lone = utf16("ab", false);
    lone.extend_from_slice(&0xDC00u16.to_le_bytes());
    assert_eq!(
        why(decode_in(&lone, 1).unwrap_err()),
        "InvalidInput: not UTF-16: the bytes at offset 6 are not a whole character"
    );
    let mut odd = utf16("ab", true);
    odd.push(0);
    assert!(decode_in(&odd, 2)
        .unwrap_err()
        .to_string()
        .contains("offset 6"));
    // A high surrogate cut off by the end.
    let mut high = utf16("a", false);
    high.extend_from_slice(&0xD83Du16.to_le_bytes());
    assert!(decode_in(&high, 3)
        .unwrap_err()
        .to_string()
        .contains("offset 4"));
    // Plain UTF-8 without a mark, and empty files.
    assert_eq!(decode_in("é😀".as_bytes(), 1).unwrap(), "é😀");
    assert_eq!(encoding::decode(b"").unwrap(), "");
    assert!(encoding::decode(&[0xEF, 0xBB])
        .unwrap_err()
        .to_string()
        .contains("offset 0"));
}

/// The streaming reader's refusal of `text`, whole and in pieces of 3 bytes.
fn refusal(text: &str) -> String {
    let whole = why(stream(text.as_bytes(), text.len().max(1))
        .err()
        .expect(text));
    let pieces = why(stream(text.as_bytes(), 3).err().expect(text));
    assert_eq!(whole, pieces, "{text}");
    whole
}

#[test]
fn bad_files_are_refused_as_the_whole_text_import_refuses_them() {
    let good = serde_json::to_string(&sample().export()).unwrap();
    let same_as_whole = [
        good.replace("\"q1\"", "\"a/b\""),
        good.replace(r#""N":5"#, r#""N@odata.type":"Edm.Int64","N":"five""#),
        good.replace(r#""version":1"#, r#""version":2"#),
        good.replace(r#""version":1"#, r#""version":"1""#),
        good.replace(r#""format":"tablescope-account""#, r#""format":"other""#),
        good.replace(r#""RowKey":"0007""#, r#""RowKey":"0004""#),
        good.replace(r#""name":"Other""#, r#""name":"typed""#),
        good.replace(r#""name":"Other""#, r#""name":"1bad""#),
        r#"{"format":"tablescope-account","tables":[]}"#.to_string(),
        r#"{"hello":1}"#.to_string(),
        "[1,2]".to_string(),
        r#"{"format":"tablescope-account","version":1,"tables":[]} x"#.to_string(),
        "{\"format\": \"tablescope-account\",\n \"version\": 1,\n \"tables\": [{\"name\": \"Tab\", \"entities\": [{\"PartitionKey\": \"p\",\n\"RowKey\": 1}]}]}".to_string(),
        "{\"format\": \"tablescope-account\",\n \"version\": 1,\n \"tables\": [{\"name\": \"Tab\", \"entities\": [{\"PartitionKey\": \"p\",, }]}]}".to_string(),
    ];
    for text in &same_as_whole {
        let mut a = Account::default();
        let whole = why(a.import_json(text).unwrap_err());
        assert_eq!(refusal(text), whole, "{text}");
    }
    assert_eq!(
        refusal(r#"{"format": "tablescope-account", "version": 1, "tables": ["#),
        "InvalidInput: not valid JSON: EOF while parsing a list at line 1 column 58"
    );
    assert_eq!(
        refusal("{\"format\": \"tablescope-account\",\n \"version\": 1,\n \"tables\": [{\"name\": \"Tab\", \"entities\": [{\"PartitionKey\": \"p\",, }]}]}"),
        "InvalidInput: not valid JSON: key must be a string at line 3 column 63"
    );
    assert_eq!(
        refusal("hello"),
        "InvalidInput: not valid JSON: expected value at line 1 column 1"
    );
    assert_eq!(
        refusal(r#"{"format":"tablescope-account","version":1,"tables":[],"extra":1}"#),
        "InvalidInput: malformed export: unknown field `extra`, expected one of `format`, \
         `version`, `target`, `serviceProperties`, `tables`"
    );
    assert_eq!(
        refusal(r#"{"format":"tablescope-account","version":1,"tables":[]} x"#),
        "InvalidInput: not valid JSON: trailing characters at line 1 column 57"
    );
}

#[test]
fn an_abandoned_import_leaves_the_account_as_it_was() {
    let mut a = sample();
    let before = export(&a);
    let other = export(&account_with("New"));
    let mut reader = Reader::new(&a);
    reader.feed(&a, &other[..other.len() / 2]).unwrap();
    drop(reader);
    assert_eq!(export(&a), before);
    assert!(a
        .take_changes()
        .iter()
        .flatten()
        .all(|c| !matches!(c, tablescope_engine::Change::AccountReplaced)));
}

/// A Cosmos DB for Table export streams back onto its own target, with table names that
/// differ only in case kept apart (as Cosmos keeps them) and nothing of storage's folding.
#[test]
fn a_cosmos_export_streams_back_onto_its_target() {
    use tablescope_engine::{FixedClock, Target};
    let mut a = Account::for_target(Target::CosmosTable, Box::new(FixedClock::default()));
    for name in ["Orders", "orders"] {
        let r = a.execute(&tablescope_engine::Request::CreateTable { table: name.into() });
        assert_eq!(r.status, 201, "{r:?}");
        insert(&mut a, name, r#"{"PartitionKey":"p","RowKey":"1"}"#);
    }
    let text = export(&a);
    assert!(text.contains(r#""target": "cosmosTable""#), "{text}");
    for size in [1, 7, 4096] {
        let b = stream(text.as_bytes(), size).unwrap();
        assert_eq!(b.target(), Target::CosmosTable);
        assert_eq!(export(&b), text, "pieces of {size} bytes");
    }
    let late = text
        .replacen(r#""target": "cosmosTable","#, "", 1)
        .replacen(
            r#""tables": ["#,
            r#""tables": [], "target": "cosmosTable", "x": ["#,
            1,
        );
    assert_eq!(
        why(stream(late.as_bytes(), 64).err().expect("refused")),
        "InvalidInput: malformed export: the account's `target` must come before its `tables`"
    );
}

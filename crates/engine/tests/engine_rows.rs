#![cfg(not(target_arch = "wasm32"))]
//! A run of inserts into one partition (`Account::insert_run`, the Design generator's
//! hand-over) against `Account::insert` of the same entities one by one: the same stored
//! entities, columns, change feed and refusals.

use tablescope_engine::{Account, Change, Entity, ErrorCode, Guid, Row, Value, ValueRef};

const NAMES: [&str; 4] = ["Name", "Age", "Id", "Blob"];

/// An account with table `T`, its change feed emptied.
fn account() -> Account {
    let mut a = Account::default();
    a.create_table("Tbl").unwrap();
    a.take_changes();
    a
}

/// Rows as (RowKey, [(name position, value)]).
type Spec<'a> = (&'a str, Vec<(usize, ValueRef<'a>)>);

/// Inserts `rows` into partition `pk` both ways; returns each way's results (error codes).
fn both(pk: &str, names: &[&str], rows: &[Spec]) -> (Account, Account, Vec<Option<ErrorCode>>) {
    let mut by_run = account();
    let mut one_by_one = account();
    let mut codes = Vec::new();
    {
        let mut run = by_run.insert_run("tbl", pk, names).unwrap();
        for (row_key, props) in rows {
            let positions: Vec<usize> = props.iter().map(|(n, _)| *n).collect();
            let values: Vec<ValueRef> = props.iter().map(|(_, v)| *v).collect();
            let row = Row {
                row_key,
                names: &positions,
                values: &values,
            };
            codes.push(run.insert(row).err().map(|e| e.code));
        }
        run.finish();
    }
    for (i, (row_key, props)) in rows.iter().enumerate() {
        let mut e = Entity::new(pk, *row_key);
        for (n, v) in props {
            e.properties.push((names[*n].into(), v.to_value()));
        }
        let got = one_by_one.insert("Tbl", e).err().map(|e| e.code);
        assert_eq!(got, codes[i], "row {i} ({row_key:?})");
    }
    (by_run, one_by_one, codes)
}

/// The same entities, Timestamps included (the clock stands still, so each way stamps its
/// stored rows one tick apart from the same instant, and a refused row takes none), counts
/// and columns.
fn same_data(a: &Account, b: &Account) {
    let strip = |a: &Account| {
        let t = a.table("Tbl").unwrap();
        let mut rows = Vec::new();
        for (pk, p) in t.partitions() {
            for (rk, s) in &p.rows {
                rows.push((
                    pk.as_str().to_string(),
                    rk.as_str().to_string(),
                    s.timestamp,
                    s.properties.to_vec(),
                ));
            }
        }
        (rows, t.entity_count(), t.columns().clone())
    };
    assert_eq!(strip(a), strip(b));
}

#[test]
fn a_run_stores_what_inserts_store() {
    let guid = Guid([7; 16]);
    let rows: Vec<Spec> = vec![
        (
            "r1",
            vec![
                (0, ValueRef::String("Ann")),
                (1, ValueRef::Int32(31)),
                (2, ValueRef::Guid(guid)),
            ],
        ),
        (
            "r2",
            vec![
                (0, ValueRef::String("Bo")),
                (1, ValueRef::Int32(40)),
                (2, ValueRef::Guid(guid)),
            ],
        ),
        // Another shape: Age as Int64, and a binary.
        (
            "r0",
            vec![
                (1, ValueRef::Int64(1 << 40)),
                (3, ValueRef::Binary(&[1, 2, 3])),
            ],
        ),
        ("r3", vec![]),
        (
            "r4",
            vec![(0, ValueRef::String("Çé 名前")), (1, ValueRef::Int32(-1))],
        ),
    ];
    let (run, single, codes) = both("p", &NAMES, &rows);
    assert_eq!(codes, vec![None; 5]);
    same_data(&run, &single);
    let t = run.table("Tbl").unwrap();
    assert_eq!(t.entity_count(), 5);
    assert_eq!(
        t.columns()["Age"].counts[tablescope_engine::EdmType::Int32 as usize],
        3
    );
    assert_eq!(
        t.columns()["Age"].counts[tablescope_engine::EdmType::Int64 as usize],
        1
    );
    assert_eq!(t.columns()["Blob"].total(), 1);
    let e = run.get("Tbl", "p", "r0").unwrap();
    assert_eq!(
        e.properties,
        vec![
            ("Age".into(), Value::Int64(1 << 40)),
            ("Blob".into(), Value::Binary(vec![1, 2, 3].into()))
        ]
    );
}

#[test]
fn a_run_refuses_what_insert_refuses_with_the_same_code() {
    let long = "x".repeat(32 * 1024 + 1);
    let key = "k".repeat(1025);
    let big = vec![0u8; 64 * 1024];
    let rows: Vec<Spec> = vec![
        ("ok", vec![(0, ValueRef::String("a"))]),
        ("ok", vec![(0, ValueRef::String("again"))]),
        ("bad/key", vec![]),
        (&key, vec![]),
        (
            "twice",
            vec![(0, ValueRef::String("a")), (0, ValueRef::String("b"))],
        ),
        ("long", vec![(0, ValueRef::String(&long))]),
        ("system", vec![(4, ValueRef::Int32(1))]),
        ("invalid", vec![(5, ValueRef::Int32(1))]),
        (
            // 17 binaries of 64 KiB: over the 1 MiB entity limit.
            "huge",
            std::iter::once(3)
                .chain(6..22)
                .map(|n| (n, ValueRef::Binary(&big)))
                .collect(),
        ),
        ("last", vec![(1, ValueRef::Int32(2))]),
    ];
    let names: Vec<String> = NAMES
        .iter()
        .map(|s| s.to_string())
        .chain(["Timestamp".to_string(), "1st".to_string()])
        .chain((6..22).map(|i| format!("B{i}")))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (run, single, codes) = both("p", &names, &rows);
    assert_eq!(
        codes,
        vec![
            None,
            Some(ErrorCode::EntityAlreadyExists),
            Some(ErrorCode::OutOfRangeInput),
            Some(ErrorCode::KeyValueTooLarge),
            Some(ErrorCode::DuplicatePropertiesSpecified),
            Some(ErrorCode::PropertyValueTooLarge),
            Some(ErrorCode::PropertyNameInvalid),
            Some(ErrorCode::PropertyNameInvalid),
            Some(ErrorCode::EntityTooLarge),
            None,
        ]
    );
    same_data(&run, &single);
    assert_eq!(
        run.get("Tbl", "p", "ok").unwrap().properties,
        vec![("Name".into(), Value::string("a"))]
    );
}

#[test]
fn a_bad_partition_key_refuses_every_row_as_insert_does() {
    let (_, _, codes) = both("a#b", &NAMES, &[("r", vec![])]);
    assert_eq!(codes, vec![Some(ErrorCode::OutOfRangeInput)]);
}

#[test]
fn a_run_feeds_one_change_for_its_rows_and_stamps_them_in_order() {
    let mut a = account();
    a.insert("Tbl", Entity::new("p", "before")).unwrap();
    let before = a.get("Tbl", "p", "before").unwrap().timestamp.unwrap();
    a.take_changes();
    let mut stamps = Vec::new();
    {
        let mut run = a.insert_run("Tbl", "p", &["A"]).unwrap();
        for rk in ["b", "a", "c"] {
            stamps.push(
                run.insert(Row {
                    row_key: rk,
                    names: &[0],
                    values: &[ValueRef::Int32(1)],
                })
                .unwrap(),
            );
        }
    }
    assert!(before < stamps[0] && stamps[0] < stamps[1] && stamps[1] < stamps[2]);
    let after = a.insert("Tbl", Entity::new("p", "after")).unwrap();
    assert!(stamps[2] < after);
    let changes = a.take_changes();
    let written = |rk: &str| {
        vec![Change::EntityWritten {
            table: "Tbl".into(),
            partition_key: "p".into(),
            row_key: rk.into(),
        }]
    };
    let run = vec![Change::RowsInserted {
        table: "Tbl".into(),
        partition_key: "p".into(),
        row_keys: vec!["b".into(), "a".into(), "c".into()],
    }];
    assert_eq!(changes, vec![run, written("after")]);
    for (rk, stamp) in ["b", "a", "c"].iter().zip(&stamps) {
        assert_eq!(a.get("Tbl", "p", rk).unwrap().timestamp, Some(*stamp));
    }
    // Counted once the run ended (dropped here, not finished).
    assert_eq!(a.table("Tbl").unwrap().columns()["A"].total(), 3);
}

#[test]
fn a_run_into_a_missing_table_is_table_not_found() {
    let mut a = account();
    assert_eq!(
        a.insert_run("Nope", "p", &[]).err().unwrap().code,
        ErrorCode::TableNotFound
    );
}

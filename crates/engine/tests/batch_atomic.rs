#![cfg(not(target_arch = "wasm32"))]
//! Property test: a random batch with a failing operation leaves the state exactly unchanged.

mod common;
use common::*;
use proptest::prelude::*;
use tablescope_engine::{BatchRequest, Request};

fn op(rk: u8, kind: u8) -> BatchRequest {
    let e = raw(&format!(
        r#"{{"PartitionKey":"p","RowKey":"{rk}","V":{kind}}}"#
    ));
    match kind % 6 {
        0 => BatchRequest::Insert { entity: e },
        1 => BatchRequest::UpsertReplace { entity: e },
        2 => BatchRequest::UpsertMerge { entity: e },
        3 => BatchRequest::Replace {
            entity: e,
            if_match: Some("*".into()),
        },
        4 => BatchRequest::Merge {
            entity: e,
            if_match: None,
        },
        _ => BatchRequest::Delete {
            partition_key: "p".into(),
            row_key: rk.to_string(),
            if_match: Some("*".into()),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn failed_batches_change_nothing(existing in proptest::collection::btree_set(0u8..20, 0..10),
                                     ops in proptest::collection::vec((0u8..20, 0u8..6), 1..15)) {
        let mut a = account_with("Atom");
        for rk in &existing {
            insert(&mut a, "Atom", &format!(r#"{{"PartitionKey":"p","RowKey":"{rk}","Orig":true}}"#));
        }
        let before = serde_json::to_string(&a.export()).unwrap();
        a.take_changes();
        let mut seen = std::collections::HashSet::new();
        let ops: Vec<BatchRequest> = ops.into_iter().filter(|(rk, _)| seen.insert(*rk)).map(|(rk, k)| op(rk, k)).collect();
        let r = a.execute(&Request::Batch { table: "Atom".into(), operations: ops.clone() });
        let after = serde_json::to_string(&a.export()).unwrap();
        if r.status == 202 {
            prop_assert_eq!(a.take_changes().len(), 1);
        } else {
            prop_assert_eq!(&before, &after);
            prop_assert!(a.take_changes().is_empty());
            let msg = r.error.unwrap().message;
            let index: usize = msg.split(':').next().unwrap().parse().unwrap();
            prop_assert!(index < ops.len());
        }
    }
}

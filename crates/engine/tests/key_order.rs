#![cfg(not(target_arch = "wasm32"))]
//! Property test: key order is UTF-16 code-unit order, checked against the standard
//! library's UTF-16 encoder (the query model test relies on `cmp_utf16`, so it is checked here
//! independently).

use proptest::prelude::*;
use tablescope_engine::{cmp_utf16, Key};

fn awkward_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('a'),
        Just('z'),
        Just('\u{7F}'),
        Just('é'),
        Just('\u{D7FF}'),
        Just('\u{E000}'),
        Just('\u{FFFD}'),
        Just('\u{FFFF}'),
        Just('\u{10000}'),
        Just('\u{1F600}'),
        Just('\u{10FFFF}'),
        any::<char>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(awkward_char(), 0..20).prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, .. ProptestConfig::default() })]

    #[test]
    fn matches_utf16_code_unit_order(a in text(), b in text()) {
        let want = a.encode_utf16().cmp(b.encode_utf16());
        prop_assert_eq!(cmp_utf16(&a, &b), want);
        prop_assert_eq!(Key::new(&a).cmp(&Key::new(&b)), want);
    }

    #[test]
    fn shared_prefixes_of_every_length(prefix in text(), a in text(), b in text()) {
        let (x, y) = (format!("{prefix}{a}"), format!("{prefix}{b}"));
        prop_assert_eq!(cmp_utf16(&x, &y), x.encode_utf16().cmp(y.encode_utf16()));
    }
}

//! What the design crate's test files share.
#![allow(dead_code)] // each test file uses its own subset

use tablescope_design::{self as design, Design};
use tablescope_engine::Account;

/// The design's entities, generated into a fresh account.
pub fn generated(d: &Design) -> Account {
    let mut account = Account::default();
    design::Generator::new(d)
        .unwrap()
        .run(&mut account)
        .unwrap();
    account
}

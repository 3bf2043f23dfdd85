//! The sections built as wasm modules of their own, loaded on first use: Learn (`teach`),
//! Design, Connect and a docs embed's code cell. Each also holds the small host the page's
//! own wasm mounts it with.
//!
//! A section imports from `panels` and every floor below, never from another section.

pub mod cell;
pub mod connect;
pub mod design;
pub mod teach;

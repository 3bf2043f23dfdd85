//! The table engine: a faithful model of the Azure Table service in pure Rust.
//!
//! No web crates here: the engine builds and tests natively, and for wasm32 on its own.
//! Everything callers need is re-exported at this level.

mod datetime;
mod entity;
mod error;
mod key;
mod value;

pub use datetime::{DateTime, DateTimeError};
pub use entity::{etag_for, Entity, Property, PropertyName};
pub use error::{Error, ErrorCode, Result};
pub use key::{cmp_utf16, utf16_len, Key};
pub use value::{compare_same_type, format_double, EdmType, Guid, Value};

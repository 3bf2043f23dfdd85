//! The starter gallery: the guide's own examples as designs, stored as JSON files beside
//! this one (the same format a user exports and imports).

use super::{Design, DesignError};

/// Each entry: an id, and the design's JSON text.
pub const ENTRIES: [(&str, &str); 5] = [
    (
        "employees-by-department",
        include_str!("gallery/employees-by-department.json"),
    ),
    ("email-index", include_str!("gallery/email-index.json")),
    ("log-tail", include_str!("gallery/log-tail.json")),
    (
        "date-keyed-hot-partition",
        include_str!("gallery/date-keyed-hot-partition.json"),
    ),
    (
        "date-keyed-bucketed",
        include_str!("gallery/date-keyed-bucketed.json"),
    ),
];

/// The gallery's design `id`, read and checked like any imported design.
pub fn design(id: &str) -> Result<Design, DesignError> {
    let (_, text) = ENTRIES
        .iter()
        .find(|(i, _)| *i == id)
        .ok_or_else(|| DesignError::new("", format!("no gallery design {id:?}")))?;
    Design::from_json(text)
}

//! Two designs side by side on the same targets: every projected figure and the checklist.

use super::checklist::{review, Finding};
use super::project::{project, Projection, Target};
use super::{Design, DesignError, Prices};
use serde::{Deserialize, Serialize};

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub name: String,
    pub projection: Projection,
    pub findings: Vec<Finding>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub left: Side,
    pub right: Side,
}

/// Projects both designs to the same total number of entities (each scaled from its own
/// counts) and reviews both.
pub fn compare(
    left: &Design,
    right: &Design,
    total_entities: u64,
    prices: &Prices,
) -> Result<Comparison, DesignError> {
    let side = |d: &Design| -> Result<Side, DesignError> {
        let projection = project(d, &Target::scaled(d, total_entities), prices)?;
        Ok(Side {
            name: d.name.clone(),
            findings: review(d, &projection),
            projection,
        })
    };
    Ok(Comparison {
        left: side(left)?,
        right: side(right)?,
    })
}

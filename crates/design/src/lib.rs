//! The design studio's model: a design document (tables, entity types with key templates and
//! value distributions, access patterns with rates), a deterministic data generator, an
//! evaluator that runs every pattern through the engine, a projector that computes the same
//! figures at any size without storing, a review against the guide's performance checklist,
//! and a comparison of two designs.
//!
//! ```
//! use tablescope_design as design;
//! use tablescope_engine::Account;
//! let d = design::gallery::design("employees-by-department").unwrap();
//! let mut account = Account::default();
//! design::Generator::new(&d).unwrap().run(&mut account).unwrap();
//! let measured = design::evaluate(&d, &account, &design::EvalOptions::default()).unwrap();
//! let projected = design::project(&d, &design::Target::scaled(&d, 1_000_000_000), &design::Prices::default()).unwrap();
//! assert_eq!(measured.patterns.len(), projected.patterns.len());
//! ```

#![forbid(unsafe_code)]

mod checklist;
mod compare;
mod count;
mod distribution;
mod evaluate;
mod figures;
pub mod gallery;
mod generate;
mod issue;
mod model;
mod permute;
mod price;
mod profile;
mod project;
mod query;
mod read_run;
mod sample;
mod scale;
mod simulate;
mod template;
mod two_target;
mod validate;

pub use checklist::{review, Finding, Grade, Rule, SCAN_LOAD_LIMIT};
pub use compare::{compare, Comparison, Side};
pub use evaluate::{evaluate, evaluate_pattern, Data, DataPage, Evaluation, PatternRun};
pub use figures::{EvalOptions, Figures, Kind, Spread};
pub use generate::{Generator, Progress, Sink};
pub use issue::{Issue, KEY_TEMPLATE};
pub use model::{
    Condition, ConditionOp, Design, Distribution, EntityType, Pattern, PropertyDef, PropertyType,
    ReadPattern, Scale, WriteOp, WritePattern, VERSION,
};
pub use permute::fnv1a;
pub use price::{CosmosPrices, Prices};
pub use profile::{
    agreement, profile, Difference, Profile, ProfileRun, PropertyProfile, Selectivity,
};
pub use project::{project, Cost, HotPartition, Projected, Projection, Target};
pub use scale::{can_grow, PropertyScaling};
pub use simulate::workload;
pub use template::{Raw, Template};
pub use two_target::{
    two_targets, Because, Container, CopyOnCosmos, CopyVerdict, CosmosCost, GuidePattern, Latency,
    OnBoth, OnTarget, TwoTargets,
};
pub use validate::{MAX_COUNT, MAX_UNIFORM, MAX_ZIPF};

use serde::{Deserialize, Serialize};

/// What is wrong with a design: every problem, each with the path of the element to fix
/// (`patterns[2].conditions[0]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignError {
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    pub path: String,
    pub issue: Issue,
}

impl DesignError {
    pub fn new(path: impl Into<String>, issue: impl Into<Issue>) -> Self {
        DesignError {
            problems: vec![Problem {
                path: path.into(),
                issue: issue.into(),
            }],
        }
    }
}

impl std::fmt::Display for DesignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            if p.path.is_empty() {
                write!(f, "{}", p.issue)?;
            } else {
                write!(f, "{}: {}", p.path, p.issue)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for DesignError {}

//! Scenario files, format 1 (docs/service/lessons.md): steps run in order against a fresh account, each
//! optionally carrying a learner's note and expectations.
//!
//! The same files serve the teaching scenarios, share links, docs embeds and the conformance
//! tests. The format is a contract: an unknown `op` or field is an error, never ignored.

mod expect;
mod parse;
mod run;

pub use expect::{Expect, Mismatch};
pub use parse::{parse, step_ref, translation, Scenario, Step, StepRef, Translations};
pub use run::{
    earlier_outcome, run, run_text, Outcome, Runner, StepOutcome, SWITCH_TARGET, WITHOUT_COSMOS,
};

//! Queries: plan (scan range and kind), execute one page, explain.

mod advice;
mod execute;
mod plan;

pub use advice::{advise, Advice};
pub use execute::{execute_page, Continuation, QueryOptions, QueryPage, QueryStats, MAX_PAGE};
pub use plan::{plan, KeyBounds, Plan, QueryKind};

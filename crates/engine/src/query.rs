//! Queries: plan (scan range and kind), execute one page, explain.

mod advice;
mod execute;
mod int_range;
mod plan;

pub use advice::{advise, Advice, AdviceKind, Severity};
pub use execute::{
    count_page, distinct_partitions, execute_page, page_count, Continuation, CountedPage,
    QueryOptions, QueryPage, QueryStats, MAX_PAGE, PAGE_SCAN_BUDGET,
};
pub(crate) use execute::{intern_names, Check};
pub use plan::{plan, KeyBounds, Plan, QueryKind, Summary};

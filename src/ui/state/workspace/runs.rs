//! A query run and its pages, as the query panel records them in the workspace's history and
//! the results (`widgets::results`) show them.

use crate::engine::Explain;

/// One page of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPage {
    pub scanned: u64,
    pub returned: u64,
    pub partitions: u64,
    /// The page's continuation resumes inside a partition it scanned (the next page scans
    /// that partition too).
    pub continues_partition: bool,
    /// The continuation token this page returned, as text.
    pub token: Option<String>,
    /// On a Cosmos DB for Table account: the page's request units, estimated
    /// (`engine::target::ru`); `None` on Table storage.
    pub ru: Option<f64>,
}

/// A query run: its first page and every page fetched after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub id: u64,
    pub table: String,
    pub filter: String,
    pub kind: String,
    pub explain: Option<Explain>,
    pub pages: Vec<RunPage>,
    /// From the run's request to the next painted frame, for its latest page.
    pub render_ms: Option<f64>,
}

impl Run {
    pub fn scanned(&self) -> u64 {
        self.pages.iter().map(|p| p.scanned).sum()
    }

    pub fn returned(&self) -> u64 {
        self.pages.iter().map(|p| p.returned).sum()
    }

    /// The estimated request units of every page, when the run was on a Cosmos DB for Table
    /// account (rounded to hundredths, as the model's figures are).
    pub fn ru(&self) -> Option<f64> {
        let mut pages = self.pages.iter().filter_map(|p| p.ru).peekable();
        pages.peek()?;
        Some((pages.sum::<f64>() * 100.0).round() / 100.0)
    }

    /// Distinct partitions the run's pages scanned (a partition split across two pages
    /// counts once).
    pub fn partitions(&self) -> u64 {
        crate::engine::distinct_partitions(
            self.pages
                .iter()
                .map(|p| (p.partitions, p.continues_partition)),
        )
    }

    /// Scanned far more than returned (at least 10, and 5 times as many): worth a warning.
    pub fn wasteful(&self) -> bool {
        let (s, r) = (self.scanned(), self.returned());
        s >= 10 && s >= 5 * r.max(1)
    }
}

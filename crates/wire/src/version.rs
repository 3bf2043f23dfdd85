//! The storage services' published API versions (Microsoft's "Versioning for Azure Storage"
//! and "Previous Azure Storage service versions"). The service answers any other
//! `x-ms-version` with 400 InvalidHeaderValue; a version published after this list was written
//! is refused here until it is added (docs/differences.md).

/// Every published version, oldest first.
const PUBLISHED: [&str; 46] = [
    "2009-04-14",
    "2009-07-17",
    "2009-09-19",
    "2011-08-18",
    "2012-02-12",
    "2013-08-15",
    "2014-02-14",
    "2015-02-21",
    "2015-04-05",
    "2015-07-08",
    "2015-12-11",
    "2016-05-31",
    "2017-04-17",
    "2017-07-29",
    "2017-11-09",
    "2018-03-28",
    "2018-11-09",
    "2019-02-02",
    "2019-07-07",
    "2019-10-10",
    "2019-12-12",
    "2020-02-10",
    "2020-04-08",
    "2020-06-12",
    "2020-08-04",
    "2020-10-02",
    "2020-12-06",
    "2021-02-12",
    "2021-04-10",
    "2021-06-08",
    "2021-08-06",
    "2021-10-04",
    "2021-12-02",
    "2022-11-02",
    "2023-01-03",
    "2023-05-03",
    "2023-08-03",
    "2023-11-03",
    "2024-02-04",
    "2024-05-04",
    "2024-08-04",
    "2024-11-04",
    "2025-01-05",
    "2025-05-05",
    "2025-07-05",
    "2025-11-05",
];

/// Whether `version` (an `x-ms-version` value) names a published version.
pub fn is_published(version: &str) -> bool {
    PUBLISHED.binary_search(&version.trim()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_versions_only() {
        assert!(
            PUBLISHED.windows(2).all(|w| w[0] < w[1]),
            "sorted, no repeats"
        );
        for v in ["2019-02-02", "2009-04-14", "2025-11-05", " 2020-12-06 "] {
            assert!(is_published(v), "{v}");
        }
        for v in ["2019-02-03", "2026-01-01", "1.0", "", "2019-02-02x"] {
            assert!(!is_published(v), "{v}");
        }
    }
}

//! The price table of the monthly cost: dated, editable, naming its source.

use serde::{Deserialize, Serialize};

/// Seconds in a billing month: Azure bills 730 hours a month.
pub const SECONDS_PER_MONTH: f64 = 730.0 * 3600.0;
/// Bytes in a billed GB (decimal, as the projection reports stored size).
pub const BYTES_PER_GB: f64 = 1e9;

/// Prices of Table storage: per 10,000 transactions and per GB stored per month.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Prices {
    /// When these prices were taken (ISO date).
    pub as_of: String,
    pub source: String,
    /// Which offer they are (region, redundancy).
    pub offer: String,
    pub currency: String,
    pub per_10k_transactions: f64,
    pub per_gb_month: f64,
    /// How the figures were obtained (shown beside them).
    #[serde(default)]
    pub note: String,
}

impl Default for Prices {
    /// Azure Table storage, Standard, locally redundant (LRS), first 1 TB, pay-as-you-go
    /// list prices in USD for the pricing page named in `source`. An entity group
    /// transaction is billed as one transaction (performance checklist, "Batching").
    fn default() -> Self {
        Prices {
            as_of: "2026-11-23".into(),
            source: "https://azure.microsoft.com/en-us/pricing/details/storage/tables/".into(),
            offer: "Standard LRS, first TB, US East, pay-as-you-go".into(),
            currency: "USD".into(),
            per_10k_transactions: 0.00036,
            per_gb_month: 0.045,
            note: "List prices as last known; the page could not be re-read when this table \
                   was dated. Check them there and edit."
                .into(),
        }
    }
}

impl Prices {
    pub fn cost(&self, transactions_per_month: f64, stored_bytes: f64) -> super::Cost {
        let stored_gb = stored_bytes / BYTES_PER_GB;
        let transactions = transactions_per_month / 10_000.0 * self.per_10k_transactions;
        let storage = stored_gb * self.per_gb_month;
        super::Cost {
            transactions_per_month,
            stored_gb,
            transactions,
            storage,
            total: transactions + storage,
            currency: self.currency.clone(),
        }
    }
}

/// The smallest throughput a container with its own standard (manual) provisioned throughput
/// takes: 400 RU/s ("Provision standard (manual) throughput on an Azure Cosmos DB container":
/// a container's minimum is 400 RU/s). Each table is a container.
pub const MIN_CONTAINER_RU_PER_SEC: f64 = 400.0;

/// Provisioned throughput is set, and billed, in steps of 100 RU/s ("Understand your Azure
/// Cosmos DB bill": "billed hourly for the maximum provisioned throughput … in increments of
/// 100 RU/s").
pub const RU_PER_SEC_STEP: f64 = 100.0;

/// A serverless container serves at most 5,000 RU/s while it holds up to 250 GB ("Azure
/// Cosmos DB serverless account performance").
pub const SERVERLESS_RU_PER_SEC: f64 = 5_000.0;

/// Prices of Azure Cosmos DB for Table: provisioned throughput per 100 RU/s per hour,
/// serverless request units per million, and transactional storage per GB per month.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CosmosPrices {
    pub as_of: String,
    pub source: String,
    pub offer: String,
    pub currency: String,
    pub per_100_ru_per_sec_hour: f64,
    pub per_million_ru: f64,
    pub per_gb_month: f64,
    #[serde(default)]
    pub note: String,
}

impl Default for CosmosPrices {
    /// Azure Cosmos DB, standard (manual) provisioned throughput in one region with one write
    /// region, serverless, and transactional storage, pay-as-you-go list prices in USD for
    /// the pricing page named in `source`.
    fn default() -> Self {
        CosmosPrices {
            as_of: "2026-11-28".into(),
            source:
                "https://azure.microsoft.com/en-us/pricing/details/cosmos-db/autoscale-provisioned/"
                    .into(),
            offer:
                "Standard provisioned throughput, single region, US East, pay-as-you-go; serverless"
                    .into(),
            currency: "USD".into(),
            per_100_ru_per_sec_hour: 0.008,
            per_million_ru: 0.25,
            per_gb_month: 0.25,
            note: "List prices as last known; the page could not be re-read when this table \
                   was dated. Check them there and edit. Storage counts the items, not the \
                   index the service keeps beside them."
                .into(),
        }
    }
}

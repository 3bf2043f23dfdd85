//! The services an account can stand for, named as the product names them.

use crate::engine::Target;
use crate::i18n::msg;

/// "Azure Table storage" or "Azure Cosmos DB for Table", in the reader's language.
pub fn service_name(target: Target) -> String {
    match target {
        Target::TableStorage => msg::target_table_storage(),
        Target::CosmosTable => msg::target_cosmos_table(),
    }
}

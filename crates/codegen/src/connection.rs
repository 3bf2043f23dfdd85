//! The connection string a generated program reads from [`CONNECTION_STRING_VARIABLE`], in
//! the form the account's service hands out: Table storage's, or Cosmos DB for Table's
//! (`TableEndpoint=https://<account>.table.cosmos.azure.com:443/`, the form of the "Primary
//! Table Connection String" Microsoft's Cosmos DB for Table pages show). The key is never
//! written: `<account-key>` stands for it.

use super::{show_at, Form, NotShown, CONNECTION_STRING_VARIABLE, PLAYGROUND_URL};
use tablescope_engine::{Request, Target};

/// Stands for the account key in every connection string written here.
pub const KEY_PLACEHOLDER: &str = "<account-key>";

/// The connection string of `account` on `target`, with [`KEY_PLACEHOLDER`] for its key.
pub fn connection_string(target: Target, account: &str) -> String {
    match target {
        Target::TableStorage => format!(
            "DefaultEndpointsProtocol=https;AccountName={account};AccountKey={KEY_PLACEHOLDER};\
             EndpointSuffix=core.windows.net"
        ),
        Target::CosmosTable => format!(
            "DefaultEndpointsProtocol=https;AccountName={account};AccountKey={KEY_PLACEHOLDER};\
             TableEndpoint=https://{account}.table.cosmos.azure.com:443/;"
        ),
    }
}

/// [`super::show`] for an account on `target` named `account`. On Cosmos DB for Table the SDK
/// forms start with a comment naming the connection string their variable must hold (the
/// storage forms are unchanged: the playground's own connection string serves them); the HTTP
/// form addresses the account's Cosmos endpoint.
pub fn show_for(
    request: &Request,
    form: Form,
    target: Target,
    account: &str,
) -> Result<String, NotShown> {
    match (target, form) {
        (Target::TableStorage, _) => show_at(request, form, PLAYGROUND_URL),
        (Target::CosmosTable, Form::Http) => show_at(
            request,
            form,
            &format!("https://{account}.table.cosmos.azure.com"),
        ),
        (Target::CosmosTable, _) => {
            let code = show_at(request, form, PLAYGROUND_URL)?;
            let comment = if form == Form::Python { "#" } else { "//" };
            Ok(format!(
                "{comment} {CONNECTION_STRING_VARIABLE} holds the account's Cosmos DB for Table \
                 connection string:\n{comment} {}\n{code}",
                connection_string(target, account)
            ))
        }
    }
}

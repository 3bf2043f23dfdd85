//! The Table service's HTTP protocol (docs/service/wire.md): an HTTP request in, an HTTP response out.
//!
//! `wire` translates; it does not decide. [`handle`] parses the request into the engine's
//! [`Request`], runs it through [`Account::execute`] (so statistics and the change feed work
//! as for any other caller), and writes the [`Response`] as the service's bytes. No service
//! rule is decided here twice. Pure Rust with no IO: the caller supplies the time and the
//! request id, so the same bytes in give the same bytes out.
//!
//! ```
//! use tablescope_engine::{Account, DateTime};
//! use tablescope_wire::{self as wire, Context, Endpoint, HttpRequest};
//! let mut account = Account::default();
//! let endpoint = Endpoint::anonymous("devstoreaccount1");
//! let context = Context { now: DateTime::MIN, request_id: "r1".into() };
//! let create = HttpRequest::new("POST", "/devstoreaccount1/Tables")
//!     .header("Content-Type", "application/json")
//!     .header("Prefer", "return-no-content")
//!     .body(br#"{"TableName":"Employees"}"#.to_vec());
//! let out = wire::handle(&mut account, &endpoint, &context, &create);
//! assert_eq!(out.response.status, 204);
//! ```

#![forbid(unsafe_code)]

mod auth;
mod batch;
pub mod cors;
mod dialect;
mod handle;
mod http;
mod multipart;
mod payload;
mod reply;
mod route;
mod settings;
mod token;
mod translate;
mod version;
mod xml;

pub use auth::{Access, Credential, KeyRange, Sas};
pub use dialect::Dialect;
pub use handle::{handle, MAX_BODY_BYTES};
pub use http::{HttpRequest, HttpResponse};
pub use multipart::{BatchPart, PartResponse};
pub use payload::Metadata;
pub use reply::{api_version, error_response};
pub use route::{Resource, Target};
/// The account-level operations' XML documents, for clients that write requests themselves.
pub use settings::{acl_document, properties_document, read_acl, read_properties};
/// The service's continuation token for a key (what `x-ms-continuation-NextPartitionKey`,
/// `NextRowKey` and `NextTableName` carry), for clients that write requests themselves.
pub use token::decode as continuation_key;
pub use token::encode as continuation_token;

use tablescope_engine::DateTime;
use tablescope_engine::QueryStats;
use tablescope_engine::Request;
use tablescope_engine::RuEstimate;

/// The account a wire endpoint serves, and how callers must prove who they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The storage account's name (`devstoreaccount1` for the development account).
    pub account: String,
    /// The account key, decoded from base64. Signatures (SharedKey, SharedKeyLite, SAS) are
    /// checked against it.
    pub key: Vec<u8>,
    /// Whether a request without any credential is served (the in-page transport, where
    /// the page is the only caller). A request that carries a credential is always checked.
    pub allow_anonymous: bool,
}

/// The development account's name, as Azurite and `UseDevelopmentStorage=true` use it.
pub const DEV_ACCOUNT: &str = "devstoreaccount1";

/// The development account's key (published in Microsoft's Azurite documentation).
pub const DEV_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

impl Endpoint {
    /// An endpoint for `account` that checks signatures against `key` (base64) and refuses
    /// requests without a credential, as the service does.
    pub fn with_key(account: &str, key_base64: &str) -> Option<Endpoint> {
        use base64::Engine as _;
        let key = base64::engine::general_purpose::STANDARD
            .decode(key_base64.trim())
            .ok()?;
        Some(Endpoint {
            account: account.to_string(),
            key,
            allow_anonymous: false,
        })
    }

    /// The development account with its well-known key, as Azurite serves it.
    pub fn development() -> Endpoint {
        Endpoint::with_key(DEV_ACCOUNT, DEV_KEY).unwrap_or_else(|| Endpoint::anonymous(DEV_ACCOUNT))
    }

    /// An endpoint that serves requests without a credential (signed ones are still checked
    /// against the development key).
    pub fn anonymous(account: &str) -> Endpoint {
        Endpoint {
            account: account.to_string(),
            allow_anonymous: true,
            ..Endpoint::development_key()
        }
    }

    fn development_key() -> Endpoint {
        use base64::Engine as _;
        Endpoint {
            account: DEV_ACCOUNT.to_string(),
            key: base64::engine::general_purpose::STANDARD
                .decode(DEV_KEY)
                .unwrap_or_default(),
            allow_anonymous: false,
        }
    }
}

/// What the caller knows that the engine may not read itself: the time (for `Date`, error
/// messages and SAS expiry) and the id that names this request in headers and errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    pub now: DateTime,
    pub request_id: String,
}

/// The response, with what the engine saw: the request it ran (none when the HTTP request
/// was refused before it became one) and, for queries, what the page scanned and returned.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub response: HttpResponse,
    pub request: Option<Request>,
    pub stats: Option<QueryStats>,
    /// On a Cosmos DB for Table account, the engine's request-unit estimate for the
    /// operation. The service sends no such header on the Table API, so it goes to the wire
    /// log only, labelled an estimate (docs/service/cosmos.md#on-the-wire).
    pub ru: Option<RuEstimate>,
}

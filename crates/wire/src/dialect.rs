//! How each target writes the protocol (docs/service/cosmos.md#on-the-wire): every per-target
//! choice of the wire is a method here, so the differences between Table storage and Cosmos
//! DB for Table can be read in one place.

use super::payload::Metadata;
use tablescope_engine::{ETag, Error, ErrorCode, Fraction, Rule, Target};

/// The service whose bytes the wire writes, from the account's [`Target`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    #[default]
    Storage,
    Cosmos,
}

impl Dialect {
    pub fn of(target: Target) -> Dialect {
        match target {
            Target::TableStorage => Dialect::Storage,
            Target::CosmosTable => Dialect::Cosmos,
        }
    }

    /// Whether responses carry `Cache-Control`, `x-ms-version` and `X-Content-Type-Options`
    /// (Cosmos sends none of them; a Cosmos response has no `Server` either, nor has storage's
    /// in this model).
    pub fn service_headers(self) -> bool {
        self == Dialect::Storage
    }

    /// Whether a bodiless answer says `Content-Length: 0` (Cosmos's 204 has none).
    pub fn empty_length(self) -> bool {
        self == Dialect::Storage
    }

    /// Whether an insert's or create-table's no-content answer names `DataServiceId`.
    pub fn data_service_id(self) -> bool {
        self == Dialect::Storage
    }

    /// The JSON `Content-Type` for a metadata level. Cosmos writes
    /// `application/json; odata=minimalmetadata`, without `streaming` or `charset`; for the
    /// other levels its recordings are silent and the model drops the same two parameters.
    pub fn content_type(self, level: Metadata) -> &'static str {
        match (self, level) {
            (Dialect::Storage, level) => level.content_type(),
            (Dialect::Cosmos, Metadata::None) => "application/json; odata=nometadata",
            (Dialect::Cosmos, Metadata::Minimal) => "application/json; odata=minimalmetadata",
            (Dialect::Cosmos, Metadata::Full) => "application/json; odata=fullmetadata",
        }
    }

    /// The `Content-Type` of an error answer: Cosmos answers 412, a merge's 404, and 400
    /// `PropertiesNeedValue` / `InvalidDuplicateRow` in fullmetadata.
    pub fn error_content_type(self, error: &Error, merge: bool) -> &'static str {
        let full = match error.code {
            ErrorCode::UpdateConditionNotSatisfied => true,
            ErrorCode::ResourceNotFound => merge,
            ErrorCode::PropertiesNeedValue | ErrorCode::InvalidDuplicateRow => true,
            _ => error.status() == 412,
        };
        if self == Dialect::Cosmos && full {
            self.content_type(Metadata::Full)
        } else {
            self.content_type(Metadata::Minimal)
        }
    }

    /// The `lang` of an error message.
    pub fn lang(self) -> &'static str {
        match self {
            Dialect::Storage => "en-US",
            Dialect::Cosmos => "en-us",
        }
    }

    /// An error's message as the body carries it: storage adds `RequestId` and `Time` lines,
    /// Cosmos `\nRequestID:<id>\n` (capital `ID`, no time).
    pub fn error_message(self, error: &Error, request_id: &str, time: &str) -> String {
        match self {
            Dialect::Storage => format!("{}\nRequestId:{request_id}\nTime:{time}", error.message),
            Dialect::Cosmos => {
                format!("{}\nRequestID:{request_id}\n", cosmos_text(error))
            }
        }
    }

    /// A failing `$batch` part's message (the engine's starts with the failing operation's
    /// index): on Cosmos an empty line comes before the request id.
    pub fn part_message(self, error: &Error, request_id: &str, time: &str) -> String {
        match self {
            Dialect::Storage => self.error_message(error, request_id, time),
            Dialect::Cosmos => format!("{}\n\nRequestID:{request_id}\n", error.message),
        }
    }

    /// Whether the engine's refusal is answered at the top of a `$batch` (a plain 400)
    /// rather than as its failing part.
    pub fn refused_at_top(self, error: &Error) -> bool {
        error.rule == Some(Rule::DuplicateRowRefusedAtTop)
    }

    /// How a Timestamp's or ETag's fraction is written (7 digits kept on Cosmos).
    pub fn fraction(self) -> Fraction {
        match self {
            Dialect::Storage => Fraction::Trimmed,
            Dialect::Cosmos => Fraction::Seven,
        }
    }

    /// An `ETag` header as this service writes it (7 fraction digits kept on Cosmos).
    pub fn etag(self, etag: ETag) -> String {
        match self {
            Dialect::Storage => etag.into(),
            Dialect::Cosmos => Target::CosmosTable.etag_text(etag.timestamp()),
        }
    }

    /// Whether a page's `value` comes before `odata.metadata`, and a table's `TableName`.
    pub fn value_first(self) -> bool {
        self == Dialect::Cosmos
    }

    /// Whether an entity's `Timestamp` is its last member (Cosmos) or follows the keys.
    pub fn timestamp_last(self) -> bool {
        self == Dialect::Cosmos
    }

    /// Whether a point read's metadata URL has the table segment before `$metadata`
    /// (`https://<host>/<table>/$metadata#<table>/@Element`).
    pub fn element_table_segment(self) -> bool {
        self == Dialect::Cosmos
    }

    /// Whether a `$batch` answer's boundary lines and part headers end in a bare LF.
    pub fn bare_lf_frames(self) -> bool {
        self == Dialect::Cosmos
    }

    /// Whether a `$batch` answer's parts carry `Content-ID: <n>` (their 1-based position,
    /// although requests carry none) and only `ETag`, `Preference-Applied` and `Location` of
    /// the headers storage writes (no `DataServiceId`, `DataServiceVersion`,
    /// `Cache-Control`, `X-Content-Type-Options`).
    pub fn numbered_parts(self) -> bool {
        self == Dialect::Cosmos
    }

    /// A continuation header's value for the engine's key: storage's `1!<n>!<base64>`
    /// token; on Cosmos the engine's key already is the service's token (a JSON document,
    /// or `NA`) and is sent as it is.
    pub fn continuation_header(self, key: &str) -> String {
        match self {
            Dialect::Storage => super::token::encode(key),
            Dialect::Cosmos => key.to_string(),
        }
    }

    /// The engine's key for a continuation parameter a client sent back. On Cosmos the SDKs
    /// send the header's text as it was (the query string decodes it); a storage-form token
    /// is read as well.
    pub fn continuation_key(self, token: &str) -> Option<String> {
        match self {
            Dialect::Storage => super::token::decode(token),
            Dialect::Cosmos => super::token::decode(token).or_else(|| Some(token.to_string())),
        }
    }
}

/// Cosmos's text where it differs from storage's (COSMOS.md: the table-exists text, and a
/// missing key); every other message is storage's (a model choice).
fn cosmos_text(error: &Error) -> String {
    match error.code {
        ErrorCode::TableAlreadyExists => "The specified table already exists.".into(),
        _ => error.message.clone(),
    }
}

//! The service's errors: an HTTP status, the service's error code and its message text.
//!
//! Every failure the engine reports is an [`Error`]. `code` is the service's own error code
//! (`EntityAlreadyExists`), `message` the text the service sends with it. Batches prefix the
//! message with the 0-based index of the failing operation (`"3:The specified entity ..."`).

use crate::detail::Detail;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The service's error codes that Tablescope can produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ErrorCode {
    OutOfRangeInput,
    InvalidResourceName,
    TableAlreadyExists,
    TableNotFound,
    ResourceNotFound,
    EntityAlreadyExists,
    UpdateConditionNotSatisfied,
    InvalidInput,
    PropertiesNeedValue,
    KeyValueTooLarge,
    PropertyNameTooLong,
    PropertyNameInvalid,
    TooManyProperties,
    DuplicatePropertiesSpecified,
    PropertyValueTooLarge,
    EntityTooLarge,
    CommandsInBatchActOnDifferentPartitions,
    InvalidDuplicateRow,
    RequestBodyTooLarge,
    /// The credential may not do this (a read-only SAS writing; in Tablescope, a tab that
    /// another tab's saving made read-only).
    AuthorizationPermissionMismatch,
    // Protocol errors (tablescope_wire): the request itself, before any operation runs.
    /// A wrong or missing signature, an expired or malformed SAS.
    AuthenticationFailed,
    /// Credentials the service cannot read: an `Authorization` header not of the form
    /// `<scheme> <account>:<signature>`, or a SAS and an `Authorization` header at once.
    InvalidAuthenticationInfo,
    /// The URL does not name a resource of the Table service.
    InvalidUri,
    /// A verb the resource does not take.
    UnsupportedHttpVerb,
    /// A header the service needs is absent.
    MissingRequiredHeader,
    /// A header's value is not one the service accepts.
    InvalidHeaderValue,
    /// A query parameter's value is not one the service accepts.
    InvalidQueryParameterValue,
    /// A SAS used outside its scope: another table, the table list, an entity outside its
    /// key range.
    AuthorizationFailure,
    /// An account SAS without the resource type (`srt`) the operation needs.
    AuthorizationResourceTypeMismatch,
    /// An account SAS whose services (`ss`) lack Table.
    AuthorizationServiceMismatch,
    /// No credential where one is needed (401).
    NoAuthenticationInformation,
    /// The server failed (`tablescope serve`: its data directory can no longer be written).
    InternalError,
    /// A CORS preflight the endpoint's rules do not allow.
    CorsPreflightFailure,
    /// `Accept` asks for Atom/XML, which the service no longer serves.
    AtomFormatNotSupported,
    /// The request body's media type is not JSON (or multipart for `$batch`).
    MediaTypeNotSupported,
    /// A settings document (service properties, a table's ACL) that is malformed or breaks
    /// one of the service's rules for it.
    InvalidXmlDocument,
    /// A request the endpoint cannot read as HTTP says it is (`tablescope serve`: a transfer
    /// coding other than chunked; 501).
    NotImplemented,
}

impl ErrorCode {
    /// The HTTP status the service answers with this code.
    pub fn status(self) -> u16 {
        use ErrorCode::*;
        match self {
            TableAlreadyExists | EntityAlreadyExists => 409,
            TableNotFound | ResourceNotFound => 404,
            UpdateConditionNotSatisfied => 412,
            RequestBodyTooLarge => 413,
            AuthorizationPermissionMismatch
            | AuthenticationFailed
            | AuthorizationFailure
            | AuthorizationResourceTypeMismatch
            | AuthorizationServiceMismatch => 403,
            NoAuthenticationInformation => 401,
            InternalError => 500,
            CorsPreflightFailure => 403,
            UnsupportedHttpVerb => 405,
            AtomFormatNotSupported | MediaTypeNotSupported => 415,
            NotImplemented => 501,
            _ => 400,
        }
    }

    /// The service's default message for this code.
    pub fn default_message(self) -> &'static str {
        use ErrorCode::*;
        match self {
            OutOfRangeInput => "One of the request inputs is out of range.",
            // The service's own text spells "specifed" this way.
            InvalidResourceName => "The specifed resource name contains invalid characters.",
            TableAlreadyExists => "The table specified already exists.",
            TableNotFound => "The table specified does not exist.",
            ResourceNotFound => "The specified resource does not exist.",
            EntityAlreadyExists => "The specified entity already exists.",
            UpdateConditionNotSatisfied => {
                "The update condition specified in the request was not satisfied."
            }
            InvalidInput => "One of the request inputs is not valid.",
            InvalidXmlDocument => "XML specified is not syntactically valid.",
            PropertiesNeedValue => "The values are not specified for all properties in the entity.",
            KeyValueTooLarge => "The size of the key value exceeds the maximum allowed size (1 KiB).",
            PropertyNameTooLong => "The property name exceeds the maximum allowed length (255).",
            PropertyNameInvalid => "The property name is invalid.",
            TooManyProperties => "The entity contains more properties than allowed.",
            DuplicatePropertiesSpecified => "A property is specified more than one time.",
            PropertyValueTooLarge => "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less.",
            EntityTooLarge => "The entity is larger than the maximum allowed size (1MB).",
            CommandsInBatchActOnDifferentPartitions => {
                "All commands in a batch must operate on same entity group."
            }
            InvalidDuplicateRow => "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",
            RequestBodyTooLarge => "The request body is too large and exceeds the maximum permissible limit.",
            AuthorizationPermissionMismatch => {
                "This request is not authorized to perform this operation using this permission."
            }
            AuthenticationFailed => "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.",
            InvalidAuthenticationInfo => "Authentication information is not given in the correct format. Check the value of Authorization header.",
            InvalidUri => "The requested URI does not represent any resource on the server.",
            UnsupportedHttpVerb => "The resource doesn't support specified Http Verb.",
            MissingRequiredHeader => "An HTTP header that's mandatory for this request is not specified.",
            InvalidHeaderValue => "The value for one of the HTTP headers is not in the correct format.",
            InvalidQueryParameterValue => "Value for one of the query parameters specified in the request URI is invalid.",
            AuthorizationFailure => "This request is not authorized to perform this operation.",
            AuthorizationResourceTypeMismatch => "This request is not authorized to perform this operation using this resource type.",
            AuthorizationServiceMismatch => "This request is not authorized to perform this operation using this service.",
            NoAuthenticationInformation => "Server failed to authenticate the request. Please refer to the information in the www-authenticate header.",
            InternalError => "Server encountered an internal error. Please try again after some time.",
            CorsPreflightFailure => "CORS not enabled or no matching rule found for this request.",
            AtomFormatNotSupported => "Atom format is not supported.",
            MediaTypeNotSupported => "None of the provided media types are supported",
            NotImplemented => "The requested operation is not implemented on the specified resource.",
        }
    }

    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            OutOfRangeInput => "OutOfRangeInput",
            InvalidResourceName => "InvalidResourceName",
            TableAlreadyExists => "TableAlreadyExists",
            TableNotFound => "TableNotFound",
            ResourceNotFound => "ResourceNotFound",
            EntityAlreadyExists => "EntityAlreadyExists",
            UpdateConditionNotSatisfied => "UpdateConditionNotSatisfied",
            InvalidInput => "InvalidInput",
            InvalidXmlDocument => "InvalidXmlDocument",
            PropertiesNeedValue => "PropertiesNeedValue",
            KeyValueTooLarge => "KeyValueTooLarge",
            PropertyNameTooLong => "PropertyNameTooLong",
            PropertyNameInvalid => "PropertyNameInvalid",
            TooManyProperties => "TooManyProperties",
            DuplicatePropertiesSpecified => "DuplicatePropertiesSpecified",
            PropertyValueTooLarge => "PropertyValueTooLarge",
            EntityTooLarge => "EntityTooLarge",
            CommandsInBatchActOnDifferentPartitions => "CommandsInBatchActOnDifferentPartitions",
            InvalidDuplicateRow => "InvalidDuplicateRow",
            RequestBodyTooLarge => "RequestBodyTooLarge",
            AuthorizationPermissionMismatch => "AuthorizationPermissionMismatch",
            AuthenticationFailed => "AuthenticationFailed",
            InvalidAuthenticationInfo => "InvalidAuthenticationInfo",
            InvalidUri => "InvalidUri",
            UnsupportedHttpVerb => "UnsupportedHttpVerb",
            MissingRequiredHeader => "MissingRequiredHeader",
            InvalidHeaderValue => "InvalidHeaderValue",
            InvalidQueryParameterValue => "InvalidQueryParameterValue",
            AuthorizationFailure => "AuthorizationFailure",
            AuthorizationResourceTypeMismatch => "AuthorizationResourceTypeMismatch",
            AuthorizationServiceMismatch => "AuthorizationServiceMismatch",
            NoAuthenticationInformation => "NoAuthenticationInformation",
            InternalError => "InternalError",
            CorsPreflightFailure => "CorsPreflightFailure",
            AtomFormatNotSupported => "AtomFormatNotSupported",
            MediaTypeNotSupported => "MediaTypeNotSupported",
            NotImplemented => "NotImplemented",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed operation, as the service would report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    /// Extra explanation Tablescope adds for the learner (which property, which position).
    /// Not part of the service's message; shown beside it. Boxed: an error stays as small as
    /// when it had none, and most results are not errors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<Detail>>,
    /// The Cosmos DB for Table rule that caused the refusal, on that target
    /// ([`crate::target::Rule`]): the wire answers some of them differently
    /// ([`crate::target::Rule::DuplicateRowRefusedAtTop`] is a top-level 400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<crate::target::Rule>,
    /// The operation refused with [`crate::target::Rule::UnsupportedOperations`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsupported: Option<crate::target::Unsupported>,
}

impl Error {
    pub fn new(code: ErrorCode) -> Self {
        Error {
            code,
            message: code.default_message().to_string(),
            detail: None,
            rule: None,
            unsupported: None,
        }
    }

    /// The error with Tablescope's own explanation attached.
    pub fn with_detail(code: ErrorCode, detail: impl Into<Detail>) -> Self {
        Error {
            detail: Some(Box::new(detail.into())),
            ..Error::new(code)
        }
    }

    /// The error with an explanation written as text ([`Detail::Text`]).
    pub fn with_text(code: ErrorCode, detail: impl Into<String>) -> Self {
        Error::with_detail(code, Detail::Text(detail.into()))
    }

    pub fn status(&self) -> u16 {
        self.code.status()
    }

    /// The error as reported inside a batch: the message carries the failing index.
    pub fn at_index(mut self, index: usize) -> Self {
        self.message = format!("{index}:{}", self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status(), self.code, self.message)?;
        if let Some(detail) = &self.detail {
            write!(f, " ({detail})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

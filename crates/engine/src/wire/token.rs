//! Continuation tokens in the service's format (WIRE.md "Continuation").

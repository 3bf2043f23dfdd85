//! Response bodies as the service writes them, by OData metadata level (WIRE.md "Payload").

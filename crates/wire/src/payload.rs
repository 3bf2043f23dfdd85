//! Response bodies as the service writes them, by OData metadata level (docs/service/wire.md#payload).
//!
//! - nometadata: values only, no `odata.*` members and no annotations.
//! - minimalmetadata: `odata.metadata` on the body, `odata.etag` on every entity, and
//!   `@odata.type` only where JSON cannot tell the type (Int64, DateTime, Guid, Binary,
//!   non-finite Doubles), never for Timestamp.
//! - fullmetadata: also `odata.type`, `odata.id`, `odata.editLink` and
//!   `Timestamp@odata.type`.
//!
//! Text is written as production writes it: DateTime and Timestamp fractions without
//! trailing zeros, Doubles in .NET's exponent style (`1.2345678901234568E+24`) with every digit
//! kept so the value reads back exactly, and non-ASCII characters as `\uXXXX`.

use super::route::entity_path;
use std::fmt::Write as _;
use tablescope_engine::Entity;
use tablescope_engine::Found;
use tablescope_engine::ValueRef;
use tablescope_engine::{DateTime, Fraction};

mod json_string;
mod page;

use json_string::escaped;
pub use json_string::string;
use page::Page;

/// An entity a body shows: one the request carried, or one read from the table (written
/// from its stored row, without building an [`Entity`]).
#[derive(Clone, Copy)]
pub enum Shown<'a> {
    Entity(&'a Entity),
    Found(&'a Found),
}

impl<'a> From<&'a Entity> for Shown<'a> {
    fn from(e: &'a Entity) -> Self {
        Shown::Entity(e)
    }
}

impl<'a> From<&'a Found> for Shown<'a> {
    fn from(f: &'a Found) -> Self {
        Shown::Found(f)
    }
}

impl<'a> Shown<'a> {
    fn keys(self) -> (&'a str, &'a str) {
        match self {
            Shown::Entity(e) => (&e.partition_key, &e.row_key),
            Shown::Found(f) => (f.partition_key.as_str(), f.row_key.as_str()),
        }
    }

    fn timestamp(self) -> Option<DateTime> {
        match self {
            Shown::Entity(e) => e.timestamp,
            Shown::Found(f) => Some(f.stored.timestamp),
        }
    }

    /// Each property in stored order.
    fn for_each(self, mut each: impl FnMut(&str, ValueRef)) {
        match self {
            Shown::Entity(e) => e.properties.iter().for_each(|(n, v)| each(n, v.into())),
            Shown::Found(f) => f.stored.properties.iter().for_each(|(n, v)| each(n, v)),
        }
    }

    fn get(self, name: &str) -> Option<ValueRef<'a>> {
        match self {
            Shown::Entity(e) => e
                .properties
                .iter()
                .find(|(n, _)| &**n == name)
                .map(|(_, v)| v.into()),
            Shown::Found(f) => {
                let record = &f.stored.properties;
                let i = record.shape().names().iter().position(|n| &**n == name)?;
                Some(record.value_at(i))
            }
        }
    }
}

/// How much OData metadata a JSON response carries (`Accept` or `$format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metadata {
    None,
    Minimal,
    Full,
}

impl Metadata {
    /// The `Content-Type` of a JSON response at this level, as production writes it.
    pub fn content_type(self) -> &'static str {
        match self {
            Metadata::None => "application/json; odata=nometadata; streaming=true; charset=utf-8",
            Metadata::Minimal => {
                "application/json; odata=minimalmetadata; streaming=true; charset=utf-8"
            }
            Metadata::Full => "application/json; odata=fullmetadata; streaming=true; charset=utf-8",
        }
    }
}

/// Where a body's entities live: the service root URL, the account and the table.
pub struct Place<'a> {
    pub dialect: super::Dialect,
    pub base: &'a str,
    pub account: &'a str,
    pub table: &'a str,
}

/// `{"odata.metadata":…,"value":[…]}` for a page of entities.
pub fn entity_page(
    place: &Place,
    level: Metadata,
    select: Option<&[String]>,
    entities: &[Found],
) -> String {
    let mut out = String::with_capacity(512);
    out.push('{');
    let value_first = place.dialect.value_first();
    if level != Metadata::None && !value_first {
        out.push_str("\"odata.metadata\":");
        metadata_url(&mut out, place, select, false);
        out.push(',');
    }
    out.push_str("\"value\":[");
    let mut page = Page::default();
    for (i, e) in entities.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let start = out.len();
        out.push('{');
        entity_members(&mut out, place, level, select, e.into(), Some(&mut page));
        out.push('}');
        if i == 0 {
            // The page's entities mostly share a shape: room for the rest, as big as the first
            // and an eighth more, taken once rather than by doubling (each doubling copies the
            // body so far).
            let each = out.len() - start + 1;
            out.reserve(each * (entities.len() - 1) / 8 * 9 + 256);
        }
    }
    out.push(']');
    if level != Metadata::None && value_first {
        out.push_str(",\"odata.metadata\":");
        metadata_url(&mut out, place, select, false);
    }
    out.push('}');
    out
}

/// One entity as the body of a point read or an insert (`…/@Element`).
pub fn entity_element(
    place: &Place,
    level: Metadata,
    select: Option<&[String]>,
    entity: Shown,
) -> String {
    let mut out = String::with_capacity(512);
    out.push('{');
    if level != Metadata::None {
        out.push_str("\"odata.metadata\":");
        metadata_url(&mut out, place, select, true);
        out.push(',');
    }
    entity_members(&mut out, place, level, select, entity, None);
    out.push('}');
    out
}

fn metadata_url(out: &mut String, place: &Place, select: Option<&[String]>, element: bool) {
    let mut url = String::with_capacity(place.base.len() + place.table.len() + 24);
    url.push_str(place.base);
    if element && place.dialect.element_table_segment() {
        url.push('/');
        url.push_str(place.table);
    }
    url.push_str("/$metadata#");
    url.push_str(place.table);
    if element {
        url.push_str("/@Element");
    }
    if let Some(names) = select.filter(|s| !s.is_empty()) {
        url.push_str("&$select=");
        url.push_str(&names.join(","));
    }
    string(out, &url);
}

/// Writes an object's members: `"name":` with a comma before all but the first.
struct Members<'a> {
    out: &'a mut String,
    first: bool,
}

impl Members<'_> {
    fn name(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, name);
        self.out.push(':');
        self.out
    }

    fn text(&mut self, name: &str, value: &str) {
        let out = self.name(name);
        string(out, value);
    }

    /// `"name@odata.type":"edm"`.
    fn annotation(&mut self, name: &str, edm: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        // `name` as a JSON string, its closing quote replaced by the annotation's suffix.
        string(self.out, name);
        self.out.pop();
        self.out.push_str("@odata.type\":\"");
        self.out.push_str(edm);
        self.out.push('"');
    }
}

/// The members of one entity (without braces), in production's order: the `odata.*`
/// members for the level, then the keys, Timestamp and properties in stored order; with
/// `select`, exactly the listed names (system properties only when listed, a missing one as
/// null).
fn entity_members(
    out: &mut String,
    place: &Place,
    level: Metadata,
    select: Option<&[String]>,
    entity: Shown,
    mut page: Option<&mut Page>,
) {
    let mut m = Members { out, first: true };
    let fraction = place.dialect.fraction();
    let (partition_key, row_key) = entity.keys();
    if level == Metadata::Full {
        let path = entity_path(place.table, partition_key, row_key);
        let out = m.name("odata.type");
        out.push('"');
        escaped(out, place.account);
        out.push('.');
        escaped(out, place.table);
        out.push('"');
        let out = m.name("odata.id");
        out.push('"');
        escaped(out, place.base);
        out.push('/');
        escaped(out, &path);
        out.push('"');
        if let Some(t) = entity.timestamp() {
            etag(m.name("odata.etag"), t, fraction, page.as_deref_mut());
        }
        m.text("odata.editLink", &path);
    } else if level == Metadata::Minimal {
        if let Some(t) = entity.timestamp() {
            etag(m.name("odata.etag"), t, fraction, page.as_deref_mut());
        }
    }
    let annotate = level != Metadata::None;
    let Some(select) = select else {
        m.text("PartitionKey", partition_key);
        m.text("RowKey", row_key);
        let last = place.dialect.timestamp_last();
        if let Some(t) = entity.timestamp().filter(|_| !last) {
            timestamp(&mut m, level, t, fraction, page.as_deref_mut());
        }
        match (entity, page.as_deref_mut()) {
            (Shown::Found(f), Some(names)) => {
                let record = &f.stored.properties;
                names.prepare(record);
                for i in 0..record.len() {
                    let value = record.value_at(i);
                    let annotated = annotate && needs_annotation(value);
                    if !m.first {
                        m.out.push(',');
                    }
                    m.first = false;
                    m.out.push_str(names.get(i, annotated));
                    value_text(m.out, value);
                }
            }
            _ => entity.for_each(|name, value| property(&mut m, annotate, name, value)),
        }
        if let Some(t) = entity.timestamp().filter(|_| last) {
            timestamp(&mut m, level, t, fraction, page);
        }
        return;
    };
    for name in select {
        match name.as_str() {
            "PartitionKey" => m.text(name, partition_key),
            "RowKey" => m.text(name, row_key),
            "Timestamp" => match entity.timestamp() {
                Some(t) => timestamp(&mut m, level, t, fraction, page.as_deref_mut()),
                None => m.name(name).push_str("null"),
            },
            _ => match entity.get(name) {
                Some(value) => property(&mut m, annotate, name, value),
                None => m.name(name).push_str("null"),
            },
        }
    }
}

/// The ETag as a JSON string: `"W/\"datetime'2021-…%3A…Z'\""`.
fn etag(out: &mut String, t: DateTime, fraction: Fraction, page: Option<&mut Page>) {
    match page {
        Some(page) => out.push_str(page.stamp.etag(t, fraction)),
        None => etag_text(out, t, fraction),
    }
}

fn etag_text(out: &mut String, t: DateTime, fraction: Fraction) {
    out.push_str("\"W/\\\"datetime'");
    t.write(out, "%3A", fraction);
    out.push_str("'\\\"\"");
}

fn timestamp(
    m: &mut Members,
    level: Metadata,
    t: DateTime,
    fraction: Fraction,
    page: Option<&mut Page>,
) {
    if level == Metadata::Full {
        m.annotation("Timestamp", "Edm.DateTime");
    }
    let out = m.name("Timestamp");
    match page {
        Some(page) => out.push_str(page.stamp.timestamp(t, fraction)),
        None => timestamp_text(out, t, fraction),
    }
}

fn timestamp_text(out: &mut String, t: DateTime, fraction: Fraction) {
    out.push('"');
    t.write(out, ":", fraction);
    out.push('"');
}

/// Whether a value's type needs an annotation (at levels that write them): JSON cannot tell
/// an Int64, DateTime, Guid, Binary or non-finite Double from a string.
fn needs_annotation(value: ValueRef) -> bool {
    match value {
        ValueRef::String(_) | ValueRef::Boolean(_) | ValueRef::Int32(_) => false,
        ValueRef::Double(d) => !d.is_finite(),
        _ => true,
    }
}

/// One property: its annotation where JSON cannot tell the type (at levels that write
/// annotations), then its value.
fn property(m: &mut Members, annotate: bool, name: &str, value: ValueRef) {
    if annotate && needs_annotation(value) {
        m.annotation(name, value.edm_type().odata_name());
    }
    value_text(m.name(name), value);
}

/// A property's value as JSON.
fn value_text(out: &mut String, value: ValueRef) {
    match value {
        ValueRef::String(s) => string(out, s),
        ValueRef::Boolean(b) => out.push_str(if b { "true" } else { "false" }),
        ValueRef::Int32(v) => out.push_str(itoa::Buffer::new().format(v)),
        ValueRef::Int64(v) => {
            out.push('"');
            out.push_str(itoa::Buffer::new().format(v));
            out.push('"');
        }
        ValueRef::Double(v) if v.is_finite() => tablescope_engine::write_service_double(out, v),
        ValueRef::Double(v) => string(out, &tablescope_engine::format_double(v)),
        ValueRef::DateTime(t) => {
            out.push('"');
            t.write(out, ":", Fraction::Trimmed);
            out.push('"');
        }
        ValueRef::Guid(g) => {
            out.push('"');
            g.write(out);
            out.push('"');
        }
        ValueRef::Binary(b) => {
            use base64::Engine as _;
            out.push('"');
            base64::engine::general_purpose::STANDARD.encode_string(b, out);
            out.push('"');
        }
    }
}

/// The table list: `{"odata.metadata":…/$metadata#Tables,"value":[{"TableName":…}]}`.
pub fn table_page(
    dialect: super::Dialect,
    base: &str,
    account: &str,
    level: Metadata,
    names: &[String],
) -> String {
    let mut out = String::from("{");
    let value_first = dialect.value_first();
    if level != Metadata::None && !value_first {
        out.push_str("\"odata.metadata\":");
        string(&mut out, &format!("{base}/$metadata#Tables"));
        out.push(',');
    }
    out.push_str("\"value\":[");
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        table_members(&mut out, base, account, level, name);
        out.push('}');
    }
    out.push(']');
    if level != Metadata::None && value_first {
        out.push_str(",\"odata.metadata\":");
        string(&mut out, &format!("{base}/$metadata#Tables"));
    }
    out.push('}');
    out
}

/// One table as the body of a create or a `Tables('name')` read.
pub fn table_element(
    dialect: super::Dialect,
    base: &str,
    account: &str,
    level: Metadata,
    name: &str,
) -> String {
    let mut out = String::from("{");
    let url = format!("{base}/$metadata#Tables/@Element");
    if dialect.value_first() {
        // Cosmos: `TableName` (after fullmetadata's members) before `odata.metadata`.
        table_members(&mut out, base, account, level, name);
        if level != Metadata::None {
            out.push_str(",\"odata.metadata\":");
            string(&mut out, &url);
        }
    } else {
        if level != Metadata::None {
            out.push_str("\"odata.metadata\":");
            string(&mut out, &url);
            out.push(',');
        }
        table_members(&mut out, base, account, level, name);
    }
    out.push('}');
    out
}

fn table_members(out: &mut String, base: &str, account: &str, level: Metadata, name: &str) {
    if level == Metadata::Full {
        let _ = write!(out, "\"odata.type\":\"{}.Tables\",", escape(account));
        out.push_str("\"odata.id\":");
        string(out, &format!("{base}/Tables('{}')", name));
        out.push_str(",\"odata.editLink\":");
        string(out, &format!("Tables('{name}')"));
        out.push(',');
    }
    out.push_str("\"TableName\":");
    string(out, name);
}

/// The error body: `{"odata.error":{"code":…,"message":{"lang":"en-US","value":…}}}`.
pub fn error(code: &str, lang: &str, message: &str) -> String {
    let mut out = String::from("{\"odata.error\":{\"code\":");
    string(&mut out, code);
    out.push_str(",\"message\":{\"lang\":");
    string(&mut out, lang);
    out.push_str(",\"value\":");
    string(&mut out, message);
    out.push_str("}}}");
    out
}

fn escape(text: &str) -> String {
    let mut out = String::new();
    string(&mut out, text);
    out.get(1..out.len().saturating_sub(1))
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_lose_trailing_zeros() {
        let text = |t: &str| {
            let mut out = String::new();
            DateTime::parse(t)
                .unwrap()
                .write(&mut out, ":", Fraction::Trimmed);
            out
        };
        assert_eq!(
            text("2021-09-10T14:40:21.0475630Z"),
            "2021-09-10T14:40:21.047563Z"
        );
        assert_eq!(text("2021-09-10T14:40:00.0000000Z"), "2021-09-10T14:40:00Z");
        assert_eq!(
            text("2021-09-10T14:40:59.9990000Z"),
            "2021-09-10T14:40:59.999Z"
        );
        assert_eq!(
            text("2021-09-10T14:40:59.0000001Z"),
            "2021-09-10T14:40:59.0000001Z"
        );
    }
}

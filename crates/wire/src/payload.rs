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

/// What a page writes once and copies per entity: the names of a shape and the last
/// Timestamp (a batch's entities share one).
#[derive(Default)]
struct Page {
    names: Names,
    stamp: Stamp,
}

impl Page {
    fn prepare(&mut self, record: &tablescope_engine::Record) {
        self.names.prepare(record);
    }

    fn get(&self, i: usize, annotated: bool) -> &str {
        self.names.get(i, annotated)
    }
}

/// The last Timestamp written as an ETag and as the Timestamp member, each form kept apart
/// (nometadata writes no ETag); `fraction` is the page's.
#[derive(Default)]
struct Stamp {
    etag_at: Option<DateTime>,
    etag: String,
    timestamp_at: Option<DateTime>,
    timestamp: String,
}

impl Stamp {
    fn etag(&mut self, t: DateTime, fraction: Fraction) -> &str {
        if self.etag_at != Some(t) {
            self.etag.clear();
            etag_text(&mut self.etag, t, fraction);
            self.etag_at = Some(t);
        }
        &self.etag
    }

    fn timestamp(&mut self, t: DateTime, fraction: Fraction) -> &str {
        if self.timestamp_at != Some(t) {
            self.timestamp.clear();
            timestamp_text(&mut self.timestamp, t, fraction);
            self.timestamp_at = Some(t);
        }
        &self.timestamp
    }
}

/// The names of one shape's properties as a page writes them, each rendered once:
/// `"Name@odata.type":"Edm.Int64","Name":`, whose tail from the second `"Name"` is the name
/// without its annotation. A page's entities mostly share one shape.
#[derive(Default)]
struct Names {
    shape: Option<std::sync::Arc<tablescope_engine::Shape>>,
    text: String,
    /// Per property: where its annotated form starts, where its plain form starts, its end.
    spans: Vec<[usize; 3]>,
}

impl Names {
    fn prepare(&mut self, record: &tablescope_engine::Record) {
        if self
            .shape
            .as_ref()
            .is_some_and(|s| std::sync::Arc::ptr_eq(s, record.shape()))
        {
            return;
        }
        self.shape = Some(record.shape().clone());
        self.text.clear();
        self.spans.clear();
        for (name, value) in record.iter() {
            let start = self.text.len();
            string(&mut self.text, name);
            self.text.pop();
            self.text.push_str("@odata.type\":\"");
            self.text.push_str(value.edm_type().odata_name());
            self.text.push_str("\",");
            let plain = self.text.len();
            string(&mut self.text, name);
            self.text.push(':');
            self.spans.push([start, plain, self.text.len()]);
        }
    }

    fn get(&self, i: usize, annotated: bool) -> &str {
        let [start, plain, end] = self.spans.get(i).copied().unwrap_or_default();
        let from = if annotated { start } else { plain };
        self.text.get(from..end).unwrap_or_default()
    }
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

/// A JSON string literal with every non-ASCII character as `\uXXXX` (UTF-16 units).
pub fn string(out: &mut String, text: &str) {
    out.push('"');
    escaped(out, text);
    out.push('"');
}

/// A JSON string's content: runs that need no escape (most text: keys, names, URLs) are
/// copied whole, the rest written character by character.
fn escaped(out: &mut String, mut text: &str) {
    while let Some(at) = first_escape(text.as_bytes()) {
        let (plain, rest) = text.split_at(at);
        out.push_str(plain);
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { return };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || !c.is_ascii() => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
        text = chars.as_str();
    }
    out.push_str(text);
}

/// Whether a JSON string cannot hold `b` as it is: a control character, DEL or non-ASCII
/// (written as `\uXXXX`), a quote or a backslash.
fn needs_escape(b: u8) -> bool {
    !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\'
}

/// The index of the first byte of `text` that [`needs_escape`], looking at eight bytes at a
/// time until a word holds one: names, keys and most values hold none.
fn first_escape(text: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // Non-zero exactly when some byte of `v` is below `n` (n <= 0x80; bytes of 0x80 and
    // above are caught by `HIGH` on their own).
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH;
    let mut at = 0;
    for chunk in text.chunks_exact(8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let hits = (x & HIGH)
            | below(x, 0x20)
            | below(x ^ (ONES * 0x7f), 1)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1);
        if hits != 0 {
            break;
        }
        at += 8;
    }
    let tail = text.get(at..)?;
    tail.iter().position(|&b| needs_escape(b)).map(|i| at + i)
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

    #[test]
    fn the_first_escape_is_found_at_every_position() {
        for len in 0..40 {
            for at in 0..=len {
                for b in (0u8..=0x7f).chain([0xc3]) {
                    let mut text = vec![b'a'; len];
                    if at < len {
                        text[at] = b;
                    }
                    let want = text.iter().position(|&b| needs_escape(b));
                    assert_eq!(first_escape(&text), want, "{len} {at} {b:#x}");
                }
            }
        }
    }

    #[test]
    fn strings_escape_non_ascii() {
        let mut out = String::new();
        string(&mut out, "é\"\\\u{1F600}\u{1}x");
        assert_eq!(out, r#""\u00e9\"\\\ud83d\ude00\u0001x""#);
    }
}

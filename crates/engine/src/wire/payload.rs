//! Response bodies as the service writes them, by OData metadata level (WIRE.md "Payload").
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
use crate::json::RawEntity;
use serde_json::Value as Json;
use std::fmt::Write as _;

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
    pub base: &'a str,
    pub account: &'a str,
    pub table: &'a str,
}

/// `{"odata.metadata":…,"value":[…]}` for a page of entities.
pub fn entity_page(
    place: &Place,
    level: Metadata,
    select: Option<&[String]>,
    entities: &[RawEntity],
) -> String {
    let mut out = String::from("{");
    if level != Metadata::None {
        out.push_str("\"odata.metadata\":");
        string(&mut out, &metadata_url(place, select, false));
        out.push(',');
    }
    out.push_str("\"value\":[");
    for (i, e) in entities.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        entity_members(&mut out, place, level, e);
        out.push('}');
    }
    out.push_str("]}");
    out
}

/// One entity as the body of a point read or an insert (`…/@Element`).
pub fn entity_element(
    place: &Place,
    level: Metadata,
    select: Option<&[String]>,
    entity: &RawEntity,
) -> String {
    let mut out = String::from("{");
    if level != Metadata::None {
        out.push_str("\"odata.metadata\":");
        string(&mut out, &metadata_url(place, select, true));
        out.push(',');
    }
    entity_members(&mut out, place, level, entity);
    out.push('}');
    out
}

fn metadata_url(place: &Place, select: Option<&[String]>, element: bool) -> String {
    let mut url = format!("{}/$metadata#{}", place.base, place.table);
    if element {
        url.push_str("/@Element");
    }
    if let Some(names) = select.filter(|s| !s.is_empty()) {
        url.push_str("&$select=");
        url.push_str(&names.join(","));
    }
    url
}

/// The members of one entity (without braces). `entity` is the engine's JSON form: maybe
/// `odata.etag` first, keys, Timestamp with seven digits, annotations before their values.
fn entity_members(out: &mut String, place: &Place, level: Metadata, entity: &RawEntity) {
    let mut first = true;
    let mut member = |out: &mut String, name: &str, value: &Json| {
        if !first {
            out.push(',');
        }
        first = false;
        string(out, name);
        out.push(':');
        json_value(out, value);
    };
    let etag = entity.get("odata.etag");
    let keys = match (entity.get("PartitionKey"), entity.get("RowKey")) {
        (Some(Json::String(pk)), Some(Json::String(rk))) => Some((pk, rk)),
        _ => None,
    };
    if level == Metadata::Full {
        let odata_type = format!("{}.{}", place.account, place.table);
        member(out, "odata.type", &Json::String(odata_type));
        if let Some((pk, rk)) = keys {
            let path = entity_path(place.table, pk, rk);
            member(
                out,
                "odata.id",
                &Json::String(format!("{}/{path}", place.base)),
            );
            if let Some(tag) = etag {
                member(out, "odata.etag", tag);
            }
            member(out, "odata.editLink", &Json::String(path));
        }
    } else if level == Metadata::Minimal {
        if let Some(tag) = etag {
            member(out, "odata.etag", tag);
        }
    }
    // Properties annotated Edm.DateTime (their fractions are trimmed like Timestamp's).
    let datetimes: Vec<&str> = entity
        .0
        .iter()
        .filter(|(_, v)| v.as_str() == Some("Edm.DateTime"))
        .filter_map(|(n, _)| n.strip_suffix("@odata.type"))
        .collect();
    for (name, value) in &entity.0 {
        if name.starts_with("odata.") {
            continue;
        }
        if name.ends_with("@odata.type") {
            if level != Metadata::None {
                member(out, name, value);
            }
            continue;
        }
        let is_datetime = name == "Timestamp" || datetimes.contains(&name.as_str());
        if name == "Timestamp" && level == Metadata::Full {
            member(out, "Timestamp@odata.type", &Json::from("Edm.DateTime"));
        }
        match value {
            Json::String(text) if is_datetime => {
                member(out, name, &Json::String(trim_fraction(text)));
            }
            _ => member(out, name, value),
        }
    }
}

/// `2024-01-01T00:00:00.1230000Z` → `2024-01-01T00:00:00.123Z`; a zero fraction goes whole.
pub fn trim_fraction(text: &str) -> String {
    let Some(body) = text.strip_suffix('Z') else {
        return text.to_string();
    };
    match body.split_once('.') {
        Some((secs, frac)) => {
            let frac = frac.trim_end_matches('0');
            if frac.is_empty() {
                format!("{secs}Z")
            } else {
                format!("{secs}.{frac}Z")
            }
        }
        None => text.to_string(),
    }
}

/// The table list: `{"odata.metadata":…/$metadata#Tables,"value":[{"TableName":…}]}`.
pub fn table_page(base: &str, account: &str, level: Metadata, names: &[String]) -> String {
    let mut out = String::from("{");
    if level != Metadata::None {
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
    out.push_str("]}");
    out
}

/// One table as the body of a create or a `Tables('name')` read.
pub fn table_element(base: &str, account: &str, level: Metadata, name: &str) -> String {
    let mut out = String::from("{");
    if level != Metadata::None {
        out.push_str("\"odata.metadata\":");
        string(&mut out, &format!("{base}/$metadata#Tables/@Element"));
        out.push(',');
    }
    table_members(&mut out, base, account, level, name);
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
pub fn error(code: &str, message: &str) -> String {
    let mut out = String::from("{\"odata.error\":{\"code\":");
    string(&mut out, code);
    out.push_str(",\"message\":{\"lang\":\"en-US\",\"value\":");
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
    for c in text.chars() {
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
    }
    out.push('"');
}

fn json_value(out: &mut String, value: &Json) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::String(s) => string(out, s),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if !n.is_f64() => {
                let _ = write!(out, "{i}");
            }
            (_, Some(f)) => out.push_str(&double(f)),
            _ => {
                let _ = write!(out, "{n}");
            }
        },
        // Entities hold no arrays or objects; written as JSON if one ever does.
        other => out.push_str(&other.to_string()),
    }
}

/// A finite Double as production writes it: the shortest text that reads back to the same
/// value, always with a decimal point or exponent (so JSON readers infer Double), and
/// exponents in .NET's style (`E+24`, `E-07`).
pub fn double(v: f64) -> String {
    let text = format!("{v:?}");
    match text.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mantissa}E{sign}{digits:0>2}")
        }
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_lose_trailing_zeros() {
        assert_eq!(
            trim_fraction("2021-09-10T14:40:21.0475630Z"),
            "2021-09-10T14:40:21.047563Z"
        );
        assert_eq!(
            trim_fraction("2021-09-10T14:40:00.0000000Z"),
            "2021-09-10T14:40:00Z"
        );
        assert_eq!(
            trim_fraction("2021-09-10T14:40:59.9990000Z"),
            "2021-09-10T14:40:59.999Z"
        );
        assert_eq!(
            trim_fraction("2021-09-10T14:40:59Z"),
            "2021-09-10T14:40:59Z"
        );
    }

    #[test]
    fn strings_escape_non_ascii() {
        let mut out = String::new();
        string(&mut out, "é\"\\\u{1F600}\u{1}x");
        assert_eq!(out, r#""\u00e9\"\\\ud83d\ude00\u0001x""#);
    }

    #[test]
    fn doubles_read_back_and_look_like_doubles() {
        assert_eq!(double(2.0), "2.0");
        assert_eq!(double(0.1), "0.1");
        assert_eq!(double(1.2345678901234568e24), "1.2345678901234568E+24");
        assert_eq!(double(1e-300), "1E-300");
        assert_eq!(double(-0.0), "-0.0");
        for v in [0.1 + 0.2, 1e300, 5e-324, f64::MAX] {
            let text = double(v);
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                v.to_bits(),
                "{text}"
            );
        }
    }
}

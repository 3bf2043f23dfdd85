//! Typed property values: the eight Edm types.

use super::datetime::DateTime;
use std::cmp::Ordering;
use std::fmt;

/// The service's property types.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum EdmType {
    String,
    Int32,
    Int64,
    Double,
    Boolean,
    DateTime,
    Guid,
    Binary,
}

impl EdmType {
    pub const ALL: [EdmType; 8] = [
        EdmType::String,
        EdmType::Int32,
        EdmType::Int64,
        EdmType::Double,
        EdmType::Boolean,
        EdmType::DateTime,
        EdmType::Guid,
        EdmType::Binary,
    ];

    /// The name used in `@odata.type` annotations: `Edm.Int64`.
    pub fn odata_name(self) -> &'static str {
        match self {
            EdmType::String => "Edm.String",
            EdmType::Int32 => "Edm.Int32",
            EdmType::Int64 => "Edm.Int64",
            EdmType::Double => "Edm.Double",
            EdmType::Boolean => "Edm.Boolean",
            EdmType::DateTime => "Edm.DateTime",
            EdmType::Guid => "Edm.Guid",
            EdmType::Binary => "Edm.Binary",
        }
    }

    pub fn from_odata_name(name: &str) -> Option<EdmType> {
        EdmType::ALL.into_iter().find(|t| t.odata_name() == name)
    }

    /// The short name shown in the UI: `Int64`.
    pub fn short_name(self) -> &'static str {
        &self.odata_name()[4..]
    }

    /// A bit for sets of types (see [`TypeSet`](super::table::TypeSet)).
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for EdmType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short_name())
    }
}

/// An Edm.Guid, kept as its 16 bytes in canonical text order, so byte order is text order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Guid(pub [u8; 16]);

impl Guid {
    /// Parses the hyphenated form `c9da6455-213d-42c9-9a79-3e9149a57833`, any case.
    pub fn parse(text: &str) -> Option<Guid> {
        if text.len() != 36 {
            return None;
        }
        uuid::Uuid::try_parse(text)
            .ok()
            .map(|u| Guid(*u.as_bytes()))
    }
}

impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&uuid::Uuid::from_bytes(self.0).hyphenated(), f)
    }
}

impl fmt::Debug for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Guid({self})")
    }
}

/// A property value. Null is not a value: a null property is simply absent.
///
/// Kept small (24 bytes) because a table holds millions of them.
#[derive(Debug, Clone)]
pub enum Value {
    String(Box<str>),
    Int32(i32),
    Int64(i64),
    Double(f64),
    Boolean(bool),
    DateTime(DateTime),
    Guid(Guid),
    Binary(Box<[u8]>),
}

impl Value {
    #[inline]
    pub fn edm_type(&self) -> EdmType {
        crate::ValueRef::from(self).edm_type()
    }

    pub fn string(s: impl Into<String>) -> Value {
        Value::String(s.into().into_boxed_str())
    }

    /// The value's size in the service's entity-size formula (docs/service/data-model.md).
    pub fn size(&self) -> usize {
        crate::ValueRef::from(self).size()
    }

    /// The value as the UI shows it in a cell (not the JSON form: Int64 without quotes,
    /// Binary as base64).
    pub fn display_text(&self) -> String {
        use base64::Engine as _;
        match self {
            Value::String(s) => s.to_string(),
            Value::Int32(v) => v.to_string(),
            Value::Int64(v) => v.to_string(),
            Value::Double(v) => format_double(*v),
            Value::Boolean(v) => v.to_string(),
            Value::DateTime(v) => v.to_string(),
            Value::Guid(v) => v.to_string(),
            Value::Binary(v) => base64::engine::general_purpose::STANDARD.encode(v),
        }
    }
}

/// A finite Double as production writes it: the shortest text that reads back to the same
/// value, always with a decimal point or exponent (so JSON readers infer Double), and
/// exponents in .NET's style (`E+24`, `E-07`).
pub fn service_double(v: f64) -> String {
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

/// Formats a double so it reads back to the same bits; non-finite as the service spells them.
pub fn format_double(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v == f64::INFINITY {
        "Infinity".into()
    } else if v == f64::NEG_INFINITY {
        "-Infinity".into()
    } else {
        let s = format!("{v:?}");
        s
    }
}

/// Equality as "the same stored value": doubles compare by bits, so NaN equals NaN and
/// 0.0 differs from -0.0. (Filter comparisons use [`compare_same_type`] instead.)
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Double(a), Value::Double(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Int32(a), Value::Int32(b)) => a == b,
            (Value::Int64(a), Value::Int64(b)) => a == b,
            (Value::Boolean(a), Value::Boolean(b)) => a == b,
            (Value::DateTime(a), Value::DateTime(b)) => a == b,
            (Value::Guid(a), Value::Guid(b)) => a == b,
            (Value::Binary(a), Value::Binary(b)) => a == b,
            _ => false,
        }
    }
}

/// Orders two values of the same type the way the service compares them in a filter:
/// strings ordinally by UTF-16 code unit, DateTime as an instant, Guid by canonical text,
/// Binary bytewise, Boolean false < true. `None` for different types or a NaN.
pub fn compare_same_type(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::String(a), Value::String(b)) => Some(super::key::cmp_utf16(a, b)),
        (Value::Int32(a), Value::Int32(b)) => Some(a.cmp(b)),
        (Value::Int64(a), Value::Int64(b)) => Some(a.cmp(b)),
        (Value::Double(a), Value::Double(b)) => a.partial_cmp(b),
        (Value::Boolean(a), Value::Boolean(b)) => Some(a.cmp(b)),
        (Value::DateTime(a), Value::DateTime(b)) => Some(a.cmp(b)),
        (Value::Guid(a), Value::Guid(b)) => Some(a.cmp(b)),
        (Value::Binary(a), Value::Binary(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_doubles_read_back_and_look_like_doubles() {
        assert_eq!(service_double(2.0), "2.0");
        assert_eq!(service_double(0.1), "0.1");
        assert_eq!(
            service_double(1.2345678901234568e24),
            "1.2345678901234568E+24"
        );
        assert_eq!(service_double(1e-300), "1E-300");
        assert_eq!(service_double(-0.0), "-0.0");
        for v in [0.1 + 0.2, 1e300, 5e-324, f64::MAX] {
            let text = service_double(v);
            assert_eq!(
                text.parse::<f64>().unwrap().to_bits(),
                v.to_bits(),
                "{text}"
            );
        }
    }

    #[test]
    fn value_is_small() {
        assert_eq!(std::mem::size_of::<Value>(), 24);
    }

    #[test]
    fn guid_text_round_trip_and_order() {
        let g = Guid::parse("C9DA6455-213D-42C9-9A79-3E9149A57833").unwrap();
        assert_eq!(g.to_string(), "c9da6455-213d-42c9-9a79-3e9149a57833");
        let lo = Guid::parse("00000000-0000-0000-0000-00000000000f").unwrap();
        let hi = Guid::parse("10000000-0000-0000-0000-000000000000").unwrap();
        assert!(lo < hi);
        assert_eq!(Guid::parse("c9da6455213d42c99a793e9149a57833"), None);
    }

    #[test]
    fn sizes_follow_the_formula() {
        assert_eq!(Value::string("ab").size(), 8);
        assert_eq!(Value::Binary(vec![1, 2, 3].into()).size(), 7);
        assert_eq!(Value::Boolean(true).size(), 1);
    }
}

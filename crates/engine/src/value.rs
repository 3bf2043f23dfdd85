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

    /// Appends the hyphenated lower-case form (what `Display` writes), without the
    /// formatting machinery: a response writes one per Guid value.
    pub fn write(&self, out: &mut String) {
        let mut buf = uuid::Uuid::encode_buffer();
        out.push_str(
            uuid::Uuid::from_bytes(self.0)
                .hyphenated()
                .encode_lower(&mut buf),
        );
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
    let mut out = String::with_capacity(24);
    write_service_double(&mut out, v);
    out
}

/// Appends [`service_double`]'s text for a finite Double, without the formatting machinery:
/// a response writes one per Double value. zmij and `{:?}` both give the shortest digits that
/// read back, the nearest to the value among them; they differ only where two are equally
/// near (zmij takes the even one), so there `{:?}` writes the digits. zmij also writes
/// `0.00001234` where `{:?}` (and so the service's form) has `1.234e-5`, and `e+24` where the
/// service has `E+24`. In the browser's wasm every Double takes the `{:?}` path: there the
/// page-load budget weighs more than the speed, and `{:?}` is linked in any case.
pub fn write_service_double(out: &mut String, v: f64) {
    let mut buffer = zmij::Buffer::new();
    let fallback;
    let text = match v.is_finite() && !cfg!(target_arch = "wasm32") {
        true => buffer.format_finite(v),
        false => "",
    };
    let text = if text.is_empty() || is_tie(v, text) {
        fallback = format!("{v:?}");
        fallback.as_str()
    } else {
        text
    };
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    out.push_str(sign);
    if let Some(digits) = unsigned.strip_prefix("0.0000") {
        // 1e-5 <= |v| < 1e-4: the only decimal zmij writes that `{:?}` writes with an exponent.
        if let Some((first, rest)) = digits.split_at_checked(1).filter(|(f, _)| *f != "0") {
            out.push_str(first);
            if !rest.is_empty() {
                out.push('.');
                out.push_str(rest);
            }
            out.push_str("E-05");
            return;
        }
    }
    match unsigned.split_once('e') {
        Some((mantissa, exp)) => {
            out.push_str(mantissa);
            let (exp_sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ("E-", d),
                None => ("E+", exp.trim_start_matches('+')),
            };
            out.push_str(exp_sign);
            if digits.len() < 2 {
                out.push('0');
            }
            out.push_str(digits);
        }
        None => out.push_str(unsigned),
    }
}

/// Whether the finite `v` lies exactly halfway between the shortest decimal `text` and its
/// neighbour in the last digit (`1152287843286825.25` between `…825.2` and `…825.3`): with
/// `text` as `d`·10^`q` and `v` as `m`·2^`e` (`m` odd), 2`v` = (2`d` ± 1)·10^`q` needs
/// `e` + 1 = `q` and `m` = (2`d` ± 1)·5^`q` (or `m`·5^-`q` = 2`d` ± 1), in exact integers.
fn is_tie(v: f64, text: &str) -> bool {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction_bits = bits & ((1 << 52) - 1);
    let (m, e) = match biased {
        0 => (fraction_bits, -1074),
        _ => (fraction_bits | 1 << 52, biased - 1075),
    };
    if m == 0 {
        return false;
    }
    let zeros = m.trailing_zeros();
    let q = e + zeros as i32 + 1;
    // 5^|q| times an odd number must stay under 2^62 (2d ± 1 for d of at most 17 digits,
    // or m under 2^53): most values (any with many fraction bits) end here.
    if !(-26..=26).contains(&q) {
        return false;
    }
    let (mantissa, exp) = match text.trim_start_matches('-').split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text.trim_start_matches('-'), 0),
    };
    let (mut d, mut dq, mut fraction) = (0u64, exp, false);
    for b in mantissa.bytes() {
        if b == b'.' {
            fraction = true;
        } else {
            d = d
                .wrapping_mul(10)
                .wrapping_add(u64::from(b.wrapping_sub(b'0')));
            dq -= i32::from(fraction);
        }
    }
    while d != 0 && d % 10 == 0 {
        d /= 10;
        dq += 1;
    }
    if d == 0 || dq != q {
        return false;
    }
    let odd = u128::from(m >> zeros);
    let pow5 = (0..q.unsigned_abs()).try_fold(1u128, |p, _| p.checked_mul(5));
    let twice = u128::from(d) * 2;
    match (pow5, q >= 0) {
        (Some(p), true) => [twice - 1, twice + 1]
            .into_iter()
            .any(|n| n.checked_mul(p) == Some(odd)),
        (Some(p), false) => odd
            .checked_mul(p)
            .is_some_and(|l| l == twice - 1 || l == twice + 1),
        (None, _) => false,
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

    /// [`service_double`] as `{:?}` spells it, with the exponent in .NET's style.
    fn by_debug_text(v: f64) -> String {
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

    #[test]
    fn service_doubles_match_the_debug_text_at_every_magnitude() {
        let mut values = vec![
            0.0, -0.0, 1.0, 0.1, 1e-4, 1e-5, 9.99e-5, 1.5e-5, 1e-6, 1e15, 1e16,
        ];
        values.extend([1e16 - 2.0, 1e17, 1e100, 1e-100, 5e-324, f64::MAX, f64::MIN]);
        values.extend([
            f64::MIN_POSITIVE,
            0.30000000000000004,
            123456789.125,
            1.0 / 3.0,
        ]);
        for exp in -330..=310 {
            for mantissa in [1.0, 1.5, 2.0, 9.87654321, 3.0 / 7.0] {
                values.push(mantissa * 10f64.powi(exp));
            }
        }
        // Values halfway between two shortest decimals, where zmij and `{:?}` differ.
        values.extend([
            1152287843286825.0 + 0.25,
            65537.0 / 131072.0,
            0.5 + 2f64.powi(-17),
        ]);
        for j in 1..=60 {
            for k in [
                1u64,
                3,
                5,
                65537,
                123456789,
                (1 << 53) - 1,
                9007199254740991 / 3,
            ] {
                values.push(k as f64 / 2f64.powi(j));
                values.push(k as f64 * 2f64.powi(j));
            }
        }
        for v in values {
            for v in [v, -v] {
                assert_eq!(service_double(v), by_debug_text(v), "{v:e}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        #[test]
        fn service_doubles_match_the_debug_text(bits in proptest::prelude::any::<u64>()) {
            let v = f64::from_bits(bits);
            proptest::prop_assume!(v.is_finite());
            proptest::prop_assert_eq!(service_double(v), by_debug_text(v));
        }

        /// Dyadic values with few fraction bits: where the halfway cases lie.
        #[test]
        fn dyadic_doubles_match_the_debug_text(k in 1u64..(1 << 53), j in 0i32..70) {
            let v = k as f64 / 2f64.powi(j);
            proptest::prop_assert_eq!(service_double(v), by_debug_text(v));
        }
    }

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

//! Key templates: literal text and `{…}` fields that expand to a PartitionKey or RowKey.
//!
//! ```text
//! template := (literal | "{" expr [":" format] "}")*
//! expr     := Name | "MaxTicks - " Name | "hash(" Name ")" "%" Number
//! format   := "0" Digits (zero-pad to that width) | "date" (yyyy-MM-dd) | "ticks" (19 digits)
//! ```
//! `{MaxTicks - Created}` is the inverted tick count (newest first, for log tails);
//! `{hash(UserId) % 16}` is FNV-1a of the value's text modulo 16, zero-padded to the width
//! of 15 so buckets sort as numbers.

use super::permute::fnv1a;
use super::{Issue, KEY_TEMPLATE};
use tablescope_engine::{validate, DateTime, Value};

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Segment {
    Literal(String),
    Field(Field),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub expr: Expr,
    pub format: Format,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Property(String),
    /// `MaxTicks - Name`.
    Inverted(String),
    Hash {
        property: String,
        buckets: u64,
    },
}

impl Expr {
    pub fn property(&self) -> &str {
        match self {
            Expr::Property(p) | Expr::Inverted(p) | Expr::Hash { property: p, .. } => p,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Plain,
    Pad(u8),
    Date,
    Ticks,
}

/// A property's value as a template sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    /// A number (sequential, uniform, a Zipf rank).
    Ord(i64),
    /// An instant, in ticks.
    Ticks(i64),
    /// Text (a choice, a Guid).
    Text(String),
}

const MAX_TICKS: i64 = 2_650_467_743_999_999_999;

impl Template {
    /// Parses a template; the error says what is wrong and where.
    pub fn parse(text: &str) -> Result<Template, Issue> {
        let mut segments = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            match rest.find(['{', '}']) {
                None => {
                    segments.push(Segment::Literal(literal(rest)?));
                    rest = "";
                }
                Some(at) => {
                    if rest[at..].starts_with('}') {
                        return Err(Issue::Unbalanced {
                            found: '}',
                            text: text.to_string(),
                        });
                    }
                    if at > 0 {
                        segments.push(Segment::Literal(literal(&rest[..at])?));
                    }
                    let body = &rest[at + 1..];
                    let end = body.find('}').ok_or_else(|| Issue::Unbalanced {
                        found: '{',
                        text: text.to_string(),
                    })?;
                    segments.push(Segment::Field(field(&body[..end])?));
                    rest = &body[end + 1..];
                }
            }
        }
        Ok(Template { segments })
    }

    /// The literal text before the first field.
    pub fn literal_head(&self) -> &str {
        match self.segments.first() {
            Some(Segment::Literal(s)) => s,
            _ => "",
        }
    }

    /// The template up to and including the first field on `property` and the literal text
    /// after it: what a key prefix "through `property`" expands. `None` when no field is on it.
    pub fn through(&self, property: &str) -> Option<Template> {
        let at = self
            .segments
            .iter()
            .position(|s| matches!(s, Segment::Field(f) if f.expr.property() == property))?;
        let end = match self.segments.get(at + 1) {
            Some(Segment::Literal(_)) => at + 2,
            _ => at + 1,
        };
        Some(Template {
            segments: self.segments.iter().take(end).cloned().collect(),
        })
    }

    /// The properties of the template's fields, in order, each once: the choices of a key
    /// prefix "through" a field.
    pub fn field_properties(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for f in self.fields() {
            if !out.contains(&f.expr.property()) {
                out.push(f.expr.property());
            }
        }
        out
    }

    pub fn fields(&self) -> impl Iterator<Item = &Field> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Field(f) => Some(f),
            Segment::Literal(_) => None,
        })
    }

    /// Expands the template; `value` gives a property's raw value and its typed value.
    pub fn expand<'v>(&self, value: &dyn Fn(&str) -> Option<(&'v Raw, &'v Value)>) -> String {
        self.expand_bucket(value, None)
    }

    /// Expands the template with every `hash(…) % B` field set to `bucket` (a fan-out query
    /// names each bucket in turn), or computed when `bucket` is `None`.
    pub fn expand_bucket<'v>(
        &self,
        value: &dyn Fn(&str) -> Option<(&'v Raw, &'v Value)>,
        bucket: Option<u64>,
    ) -> String {
        let mut out = String::with_capacity(32);
        for s in &self.segments {
            match s {
                Segment::Literal(l) => out.push_str(l),
                Segment::Field(f) => match (&f.expr, bucket) {
                    (Expr::Hash { buckets, .. }, Some(b)) => {
                        push_padded(&mut out, b as i64, bucket_width(*buckets, f.format))
                    }
                    _ => {
                        if let Some((raw, v)) = value(f.expr.property()) {
                            render_into(&mut out, f, raw, v);
                        }
                    }
                },
            }
        }
        out
    }

    /// The bucket count of the first `hash(…) % B` field.
    pub fn buckets(&self) -> Option<u64> {
        self.fields().find_map(|f| match f.expr {
            Expr::Hash { buckets, .. } => Some(buckets),
            _ => None,
        })
    }
}

fn literal(text: &str) -> Result<String, Issue> {
    validate::key(KEY_TEMPLATE, text).map_err(|e| match e.detail {
        Some(d) => Issue::KeyTemplate(*d),
        None => Issue::Text(e.message),
    })?;
    Ok(text.to_string())
}

fn field(body: &str) -> Result<Field, Issue> {
    let (expr, format) = match body.rsplit_once(':') {
        Some((e, f)) => (e.trim(), parse_format(f.trim())?),
        None => (body.trim(), Format::Plain),
    };
    let expr = if let Some(name) = expr.strip_prefix("MaxTicks") {
        let name = name
            .trim_start()
            .strip_prefix('-')
            .ok_or_else(|| Issue::InvertedTicks {
                body: body.to_string(),
            })?;
        Expr::Inverted(name_of(name.trim(), body)?)
    } else if let Some(call) = expr.strip_prefix("hash(") {
        let (name, modulo) = call.split_once(')').ok_or_else(|| Issue::HashParen {
            body: body.to_string(),
        })?;
        let buckets = modulo
            .trim()
            .strip_prefix('%')
            .and_then(|m| m.trim().parse::<u64>().ok())
            .filter(|b| (1..=1_000_000).contains(b))
            .ok_or_else(|| Issue::Bucket {
                body: body.to_string(),
            })?;
        Expr::Hash {
            property: name_of(name.trim(), body)?,
            buckets,
        }
    } else {
        Expr::Property(name_of(expr, body)?)
    };
    Ok(Field { expr, format })
}

fn name_of(name: &str, body: &str) -> Result<String, Issue> {
    let ok = !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if ok {
        Ok(name.to_string())
    } else {
        Err(Issue::TemplateProperty {
            body: body.to_string(),
            name: name.to_string(),
        })
    }
}

fn parse_format(f: &str) -> Result<Format, Issue> {
    match f {
        "date" => Ok(Format::Date),
        "ticks" => Ok(Format::Ticks),
        _ if f.len() >= 2 && f.starts_with('0') && f.bytes().all(|b| b.is_ascii_digit()) => f[1..]
            .parse::<u8>()
            .ok()
            .filter(|w| (1..=20).contains(w))
            .map(Format::Pad)
            .ok_or_else(|| Issue::Pad {
                format: f.to_string(),
            }),
        _ => Err(Issue::Formats {
            format: f.to_string(),
        }),
    }
}

fn bucket_width(buckets: u64, format: Format) -> usize {
    match format {
        Format::Pad(w) => w as usize,
        _ => buckets.saturating_sub(1).max(1).to_string().len(),
    }
}

#[cfg(test)]
fn pad(v: i64, width: usize) -> String {
    let mut out = String::with_capacity(width.max(20));
    push_padded(&mut out, v, width);
    out
}

/// Appends `v` in decimal, zero-padded to `width` characters (a sign counts as one), as
/// `format!("{v:0width$}")` does. Written out because key fields are rendered for every
/// generated entity and the formatting machinery costs more than the digits.
pub fn push_padded(out: &mut String, v: i64, width: usize) {
    let mut digits = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut len = 0;
    loop {
        if let Some(slot) = digits.get_mut(len) {
            *slot = b'0' + (n % 10) as u8;
        }
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let sign = usize::from(v < 0);
    if v < 0 {
        out.push('-');
    }
    for _ in (len + sign)..width {
        out.push('0');
    }
    for d in digits.iter().take(len).rev() {
        out.push(char::from(*d));
    }
}

fn ticks_of(raw: &Raw) -> Option<i64> {
    match raw {
        Raw::Ticks(t) | Raw::Ord(t) => Some(*t),
        Raw::Text(_) => None,
    }
}

/// Calls `f` with a value's text (a String's own, without copying).
pub fn with_text<R>(value: &Value, f: impl FnOnce(&str) -> R) -> R {
    match value {
        Value::String(s) => f(s),
        other => f(&other.display_text()),
    }
}

/// Appends one field's text for a value.
fn render_into(out: &mut String, field: &Field, raw: &Raw, value: &Value) {
    match (&field.expr, field.format) {
        (Expr::Hash { buckets, .. }, format) => {
            let b = with_text(value, fnv1a) % buckets;
            push_padded(out, b as i64, bucket_width(*buckets, format));
        }
        (Expr::Inverted(_), _) => push_padded(
            out,
            MAX_TICKS.saturating_sub(ticks_of(raw).unwrap_or(0)),
            19,
        ),
        (Expr::Property(_), Format::Pad(w)) => match raw {
            Raw::Ord(v) => push_padded(out, *v, w as usize),
            _ => with_text(value, |t| {
                out.push_str(&format!("{t:0>width$}", width = w as usize))
            }),
        },
        (Expr::Property(_), Format::Date) => {
            if let Some(d) = ticks_of(raw).and_then(DateTime::from_ticks) {
                out.extend(d.to_string().chars().take(10));
            }
        }
        (Expr::Property(_), Format::Ticks) => push_padded(out, ticks_of(raw).unwrap_or(0), 19),
        (Expr::Property(_), Format::Plain) => with_text(value, |t| out.push_str(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(t: &str, raw: Raw, text: &str) -> String {
        let t = Template::parse(t).unwrap();
        let value = Value::string(text);
        t.expand(&|_| Some((&raw, &value)))
    }

    #[test]
    fn fields_expand_with_padding_inversion_buckets_and_dates() {
        assert_eq!(
            expand("emp_{EmployeeId:06}", Raw::Ord(42), "42"),
            "emp_000042"
        );
        assert_eq!(expand("{X:04}", Raw::Ord(-7), "-7"), "-007");
        let t = DateTime::parse("2026-11-23T10:00:00Z").unwrap().ticks();
        assert_eq!(expand("{At:date}", Raw::Ticks(t), ""), "2026-11-23");
        assert_eq!(expand("{At:ticks}", Raw::Ticks(t), ""), format!("{t:019}"));
        assert_eq!(
            expand("{MaxTicks - At}", Raw::Ticks(t), ""),
            format!("{:019}", MAX_TICKS - t)
        );
        // fnv1a("u1") % 16, padded to two digits.
        let b = fnv1a("u1") % 16;
        assert_eq!(
            expand("{hash(User) % 16}_x", Raw::Text("u1".into()), "u1"),
            format!("{b:02}_x")
        );
    }

    #[test]
    fn padding_matches_the_formatter() {
        for v in [0i64, 7, -7, 42, -42, 123_456, i64::MAX, i64::MIN] {
            for w in [0usize, 1, 2, 6, 19, 21] {
                assert_eq!(pad(v, w), format!("{v:0w$}"), "{v} {w}");
            }
        }
    }

    #[test]
    fn bad_templates_say_why() {
        let err = |t: &str| Template::parse(t).unwrap_err().to_string();
        assert!(err("a{B").contains("without '}'"), "{}", err("a{B"));
        assert!(err("a}").contains("without '{'"));
        assert!(err("{X:7}").contains("formats"));
        assert!(err("{hash(X) % 0}").contains("bucket"));
        assert!(err("{MaxTicks X}").contains("MaxTicks - Name"));
        assert!(err("a/{X}").contains("'/'"), "{}", err("a/{X}"));
        assert!(err("{1x}").contains("not a property name"));
    }

    #[test]
    fn through_a_field_keeps_the_literal_after_it() {
        let t = Template::parse("{OrderId:08}_{Line:03}").unwrap();
        let raw = Raw::Ord(1234);
        let value = Value::Int32(1234);
        let through = t.through("OrderId").unwrap();
        assert_eq!(through.expand(&|_| Some((&raw, &value))), "00001234_");
        assert_eq!(t.through("Line").unwrap(), t);
        assert_eq!(t.through("Sku"), None);
        assert_eq!(t.field_properties(), vec!["OrderId", "Line"]);
        let head = Template::parse("line_{OrderId}").unwrap();
        assert_eq!(head.through("OrderId").unwrap(), head);
    }

    #[test]
    fn literal_head_is_the_text_before_the_first_field() {
        assert_eq!(Template::parse("emp_{Id}").unwrap().literal_head(), "emp_");
        assert_eq!(Template::parse("{Id}").unwrap().literal_head(), "");
    }
}

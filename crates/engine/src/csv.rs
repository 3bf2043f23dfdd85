//! A table as typed CSV, the form Azure Storage Explorer exports and imports.
//!
//! ```text
//! PartitionKey,RowKey,Timestamp,Age,Age@type,Name,Name@type
//! Sales,001,2024-01-02T03:04:05.1234567Z,42,Edm.Int32,"Smith, Jo",Edm.String
//! ```
//! Each property is a pair of columns, `Name` and `Name@type`; columns follow the order in which
//! properties first appear. A missing property leaves both cells empty; an empty string is an
//! empty value with `Edm.String`. Fields are quoted as RFC 4180 says (a field holding `,`, `"`,
//! CR or LF is quoted, `"` doubled), records end with CRLF.
//!
//! Values are written so they read back to the same value: Int64 in full, Double with every
//! digit (`NaN`, `Infinity`, `-Infinity` as the service spells them), DateTime with seven
//! fractional digits, Binary as base64, Guid hyphenated.
//!
//! Reading is lenient where Storage Explorer's own files vary: a type cell may say `Edm.Int32`
//! or `Int32` (any case); a value whose type cell is empty takes the type of the column's first
//! typed cell, as Storage Explorer's import does (some of its exports annotate only the first
//! entity), and is a String when the column has none; the Timestamp column is optional, and LF line ends and a UTF-8
//! BOM are accepted. Everything else is refused with the line and column at fault, and a failed
//! import changes nothing.

use super::account::Account;
use super::changes::Change;
use super::datetime::DateTime;
use super::detail::Detail;
use super::entity::Entity;
use super::error::Error;
use super::table::Table;
use super::validate;
use super::value::{format_double, EdmType, Guid, Value};
use base64::Engine as _;
use std::collections::HashSet;
use std::fmt;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;
const TYPE_SUFFIX: &str = "@type";

/// Why a CSV file cannot be imported: where (1-based line of the record, column name) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvError {
    /// The line the record starts on; 0 when the problem is not in one record.
    pub line: usize,
    /// The column at fault, when there is one.
    pub column: Option<String>,
    /// What is wrong; its `Display` is the English.
    pub problem: Problem,
}

/// What is wrong with a CSV file (or with what it would write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    QuoteUnclosed,
    QuoteDoubled,
    /// A quote in a field that does not start with one.
    QuoteUnquoted,
    /// No header line.
    Empty,
    NoPartitionKey,
    NoRowKey,
    /// A header naming a column twice.
    ColumnTwice,
    /// A type column `base@type` without its column `base`.
    TypeAlone {
        base: String,
    },
    /// A record of `fields` fields under a header of `columns` columns.
    FieldCount {
        fields: usize,
        columns: usize,
    },
    /// A Timestamp cell that is not a date and time.
    NotDateTime {
        text: String,
    },
    /// A type cell naming no EDM type.
    UnknownType {
        kind: String,
    },
    /// A cell that is not a value of its type `edm`.
    NotValid {
        text: String,
        edm: EdmType,
    },
    /// Two records with the same keys.
    KeysTwice {
        pk: String,
        rk: String,
    },
    /// The engine refuses what the file holds (a property name, an entity): its code, then
    /// its explanation (or message).
    Refused(Box<Error>),
    /// The engine refuses the table's name.
    TableName {
        table: String,
        error: Box<Error>,
    },
    /// The clock has no Timestamp for an entity, named by its keys (400 OutOfRangeInput).
    NoRoom {
        pk: String,
        rk: String,
        why: Box<Detail>,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::QuoteUnclosed => f.write_str("a quoted field is never closed"),
            Problem::QuoteDoubled => {
                f.write_str("a quote inside a quoted field must be doubled (\"\")")
            }
            Problem::QuoteUnquoted => {
                f.write_str("a quote in an unquoted field; quote the field and double the quote")
            }
            Problem::Empty => f.write_str("the file is empty; expected a header line"),
            Problem::NoPartitionKey => f.write_str("the header has no PartitionKey column"),
            Problem::NoRowKey => f.write_str("the header has no RowKey column"),
            Problem::ColumnTwice => f.write_str("this column appears twice in the header"),
            Problem::TypeAlone { base } => write!(f, "no column {base} for this type column"),
            Problem::FieldCount { fields, columns } => {
                write!(f, "{fields} fields, but the header has {columns} columns")
            }
            Problem::NotDateTime { text } => write!(f, "'{text}' is not a date and time"),
            Problem::UnknownType { kind } => write!(f, "unknown type '{kind}'"),
            Problem::NotValid { text, edm } => {
                write!(f, "'{text}' is not a valid {}", edm.odata_name())
            }
            Problem::KeysTwice { pk, rk } => {
                write!(
                    f,
                    "PartitionKey '{pk}' RowKey '{rk}' appears twice in the file"
                )
            }
            Problem::Refused(e) => refusal(f, e),
            Problem::TableName { table, error } => {
                write!(f, "table name '{table}': ")?;
                refusal(f, error)
            }
            Problem::NoRoom { pk, rk, why } => write!(
                f,
                "OutOfRangeInput: PartitionKey '{pk}' RowKey '{rk}': {why}"
            ),
        }
    }
}

/// An engine refusal as a report line: the code, then the explanation (or the message).
fn refusal(f: &mut fmt::Formatter<'_>, e: &Error) -> fmt::Result {
    match &e.detail {
        Some(d) => write!(f, "{}: {d}", e.code),
        None => write!(f, "{}: {}", e.code, e.message),
    }
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}", self.line)?;
            if let Some(c) = &self.column {
                write!(f, ", column {c}")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "{}", self.problem)
    }
}

impl std::error::Error for CsvError {}

fn fail(line: usize, column: Option<&str>, problem: Problem) -> CsvError {
    CsvError {
        line,
        column: column.map(str::to_string),
        problem,
    }
}

/// Writes entities as typed CSV (see the module docs).
pub fn encode<'a>(entities: impl IntoIterator<Item = &'a Entity> + Clone) -> String {
    let mut names: Vec<&str> = Vec::new();
    for e in entities.clone() {
        for (name, _) in &e.properties {
            if !names.contains(&&**name) {
                names.push(name);
            }
        }
    }
    let mut out = String::from("PartitionKey,RowKey,Timestamp");
    for name in &names {
        out.push(',');
        push_field(&mut out, name);
        out.push(',');
        push_field(&mut out, &format!("{name}{TYPE_SUFFIX}"));
    }
    out.push_str("\r\n");
    for e in entities {
        push_field(&mut out, &e.partition_key);
        out.push(',');
        push_field(&mut out, &e.row_key);
        out.push(',');
        if let Some(t) = e.timestamp {
            out.push_str(&t.to_string_7());
        }
        for name in &names {
            out.push(',');
            if let Some(v) = e.get(name) {
                push_field(&mut out, &value_text(v));
                out.push(',');
                out.push_str(v.edm_type().odata_name());
            } else {
                out.push(',');
            }
        }
        out.push_str("\r\n");
    }
    out
}

/// A value's text in a CSV cell.
fn value_text(v: &Value) -> String {
    match v {
        Value::DateTime(t) => t.to_string_7(),
        // As the service's JSON writes a Double (`1E-300`, not Rust's `1e-300`), so a file
        // exported here reads the same as a payload; NaN and the infinities as the JSON form's
        // annotated strings.
        Value::Double(d) if d.is_finite() => crate::service_double(*d),
        Value::Double(d) => format_double(*d),
        other => other.display_text(),
    }
}

fn push_field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// Splits RFC 4180 text into records of fields, each with the line it starts on.
pub fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let start = line;
        let mut fields = Vec::new();
        let mut field = String::new();
        loop {
            match chars.next() {
                None => {
                    fields.push(std::mem::take(&mut field));
                    break;
                }
                Some('"') if field.is_empty() => loop {
                    match chars.next() {
                        None => return Err(fail(start, None, Problem::QuoteUnclosed)),
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            field.push('"');
                        }
                        Some('"') => match chars.peek() {
                            None | Some(',' | '\r' | '\n') => break,
                            Some(_) => return Err(fail(line, None, Problem::QuoteDoubled)),
                        },
                        Some(c) => {
                            line += usize::from(c == '\n');
                            field.push(c);
                        }
                    }
                },
                Some(',') => fields.push(std::mem::take(&mut field)),
                Some('\r') if chars.peek() == Some(&'\n') => {}
                Some('\n') => {
                    line += 1;
                    fields.push(std::mem::take(&mut field));
                    break;
                }
                Some('"') => return Err(fail(line, None, Problem::QuoteUnquoted)),
                Some(c) => field.push(c),
            }
        }
        // A blank line (such as the one after the last CRLF) is not a record.
        if !(fields.len() == 1 && fields.first().is_some_and(String::is_empty)) {
            out.push((start, fields));
        }
    }
    Ok(out)
}

/// One property's pair of columns.
struct Column {
    name: String,
    value: usize,
    kind: Option<usize>,
    /// The type the first typed cell of this column gave, for values whose type cell is empty.
    first: Option<EdmType>,
}

/// Reads typed CSV into entities (Timestamp kept when the file has one), checking every key,
/// type and limit; the first problem fails the whole file.
pub fn decode(text: &str) -> Result<Vec<Entity>, CsvError> {
    let mut rows = records(text)?.into_iter();
    let (_, header) = rows.next().ok_or_else(|| fail(0, None, Problem::Empty))?;
    let find = |name: &str| header.iter().position(|h| h == name);
    let pk = find("PartitionKey").ok_or_else(|| fail(1, None, Problem::NoPartitionKey))?;
    let rk = find("RowKey").ok_or_else(|| fail(1, None, Problem::NoRowKey))?;
    let ts = find("Timestamp");
    let mut columns = Vec::new();
    for (i, h) in header.iter().enumerate() {
        if header.get(..i).is_some_and(|before| before.contains(h)) {
            return Err(fail(1, Some(h), Problem::ColumnTwice));
        }
        if Some(i) == ts || i == pk || i == rk {
            continue;
        }
        if let Some(base) = h.strip_suffix(TYPE_SUFFIX) {
            if find(base).is_none() {
                return Err(fail(
                    1,
                    Some(h),
                    Problem::TypeAlone {
                        base: base.to_string(),
                    },
                ));
            }
            continue;
        }
        validate::property_name(h).map_err(|e| fail(1, Some(h), refused(e)))?;
        columns.push(Column {
            name: h.clone(),
            value: i,
            kind: find(&format!("{h}{TYPE_SUFFIX}")),
            first: None,
        });
    }
    let mut keys = HashSet::new();
    let mut entities = Vec::new();
    for (line, fields) in rows {
        if fields.len() != header.len() {
            return Err(fail(
                line,
                None,
                Problem::FieldCount {
                    fields: fields.len(),
                    columns: header.len(),
                },
            ));
        }
        let cell = |i: usize| fields.get(i).map_or("", String::as_str);
        let mut entity = Entity::new(cell(pk), cell(rk));
        if let Some(t) = ts.filter(|&t| !cell(t).is_empty()) {
            entity.timestamp = Some(DateTime::parse(cell(t)).map_err(|_| {
                fail(
                    line,
                    Some("Timestamp"),
                    Problem::NotDateTime {
                        text: cell(t).to_string(),
                    },
                )
            })?);
        }
        for c in &mut columns {
            let text = cell(c.value);
            let kind = c.kind.map_or("", cell);
            let at = |p: Problem| fail(line, Some(&c.name), p);
            let edm = if kind.is_empty() {
                if text.is_empty() {
                    continue;
                }
                c.first.unwrap_or(EdmType::String)
            } else {
                let edm = parse_type(kind).ok_or_else(|| {
                    at(Problem::UnknownType {
                        kind: kind.to_string(),
                    })
                })?;
                c.first.get_or_insert(edm);
                edm
            };
            let value = parse_value(edm, text).ok_or_else(|| {
                at(Problem::NotValid {
                    text: text.to_string(),
                    edm,
                })
            })?;
            entity.properties.push((c.name.as_str().into(), value));
        }
        validate::entity(&entity).map_err(|e| fail(line, None, refused(e)))?;
        if !keys.insert((entity.partition_key.clone(), entity.row_key.clone())) {
            return Err(fail(
                line,
                None,
                Problem::KeysTwice {
                    pk: entity.partition_key.clone(),
                    rk: entity.row_key.clone(),
                },
            ));
        }
        entities.push(entity);
    }
    Ok(entities)
}

fn refused(e: Error) -> Problem {
    Problem::Refused(Box::new(e))
}

/// An entity the clock has no room for, named by its keys (records are not numbered here).
fn no_room(e: &Entity, why: Detail) -> CsvError {
    let why = Box::new(why);
    fail(
        0,
        None,
        Problem::NoRoom {
            pk: e.partition_key.clone(),
            rk: e.row_key.clone(),
            why,
        },
    )
}

/// `Edm.Int64` or `Int64`, any case.
fn parse_type(text: &str) -> Option<EdmType> {
    let short = match text.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("Edm.") => text.get(4..).unwrap_or(""),
        _ => text,
    };
    EdmType::ALL
        .into_iter()
        .find(|t| t.short_name().eq_ignore_ascii_case(short))
}

fn parse_value(edm: EdmType, text: &str) -> Option<Value> {
    Some(match edm {
        EdmType::String => Value::string(text),
        EdmType::Int32 => Value::Int32(text.parse().ok()?),
        EdmType::Int64 => Value::Int64(text.parse().ok()?),
        EdmType::Double => Value::Double(match text {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            _ if text
                .bytes()
                .any(|b| b.is_ascii_alphabetic() && b != b'e' && b != b'E') =>
            {
                return None
            }
            // Numeric text past the finite range is refused, as in JSON.
            _ => text.parse().ok().filter(|v: &f64| v.is_finite())?,
        }),
        // Any case: spreadsheets write TRUE and FALSE.
        EdmType::Boolean => Value::Boolean(match text.to_ascii_lowercase().as_str() {
            "true" => true,
            "false" => false,
            _ => return None,
        }),
        EdmType::DateTime => Value::DateTime(DateTime::parse(text).ok()?),
        EdmType::Guid => Value::Guid(Guid::parse(text)?),
        EdmType::Binary => Value::Binary(B64.decode(text).ok()?.into()),
    })
}

impl Account {
    /// The table as typed CSV, entities in key order.
    pub fn export_csv(&self, table: &str) -> super::error::Result<String> {
        let t = self.table(table)?;
        let entities: Vec<Entity> = t
            .partitions()
            .iter()
            .flat_map(|(pk, p)| {
                p.rows
                    .iter()
                    .map(move |(rk, s)| super::table::to_entity(pk.as_str(), rk.as_str(), s))
            })
            .collect();
        Ok(encode(&entities))
    }

    /// Imports typed CSV into `table` (created when missing): entities whose keys are already
    /// in the table are replaced, the others added, and Timestamps in the file are kept.
    /// Returns how many entities the file held. All or nothing: on any error nothing changes.
    ///
    /// Only `table` changes, recorded as one change set (the table's creation and each entity
    /// written), so persistence rewrites only the chunks the file touched.
    pub fn import_csv(&mut self, table: &str, text: &str) -> Result<usize, CsvError> {
        validate::table_name(table).map_err(|e| {
            fail(
                0,
                None,
                Problem::TableName {
                    table: table.to_string(),
                    error: Box::new(e),
                },
            )
        })?;
        // `decode` checks every entity and key; the clock is checked next; nothing after can fail.
        let entities = decode(text)?;
        let count = entities.len();
        // Timestamps are planned before anything changes: a refused file leaves the tables and
        // the clock as they were (see `Account::next_timestamp` for the end of the range).
        let mut last = self.last_timestamp();
        let mut stamped: Vec<(Entity, DateTime)> = Vec::with_capacity(count);
        for e in entities {
            let at = match e.timestamp {
                Some(t) => t,
                None => self
                    .timestamp_after(last)
                    .ok_or_else(|| no_room(&e, Detail::ClockFull))?,
            };
            last = last.max(at);
            if self.timestamp_after(last).is_none() {
                return Err(no_room(
                    &e,
                    Detail::ClockFullAfter {
                        at: at.to_string_7(),
                    },
                ));
            }
            stamped.push((e, at));
        }
        let mut changes = Vec::with_capacity(count + 1);
        let name = match self.table(table) {
            Ok(t) => t.name.clone(),
            Err(_) => {
                self.restore_table(Table::new(table));
                changes.push(Change::TableCreated {
                    table: table.to_string(),
                });
                table.to_string()
            }
        };
        self.observe_timestamp(last);
        let t = self
            .table_mut(&name)
            .map_err(|e| fail(0, None, refused(e)))?;
        for (e, at) in stamped {
            changes.push(Change::EntityWritten {
                table: name.clone(),
                partition_key: e.partition_key.clone(),
                row_key: e.row_key.clone(),
            });
            t.put(e, at);
        }
        self.record(changes);
        Ok(count)
    }
}

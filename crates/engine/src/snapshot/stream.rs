//! A workspace export read as it streams in, never held whole.
//!
//! The export's layout is known (see [`super`]): an object whose `format` and `version` come
//! before `tables`, a list of objects whose `name` comes before `entities`, as every export
//! writes them. [`Reader`] walks that layout by hand, one structural character at a time, and
//! hands each complete member value and each complete entity object to `serde_json`; the
//! entities go straight into the tables being built (checked as an import checks them).
//!
//! Invariant: between calls to [`Reader::feed`] the reader holds only the text it has not
//! consumed, which is a part of one token or of one member value (an entity, a name, a list of
//! access policies): memory grows with the tables built, not with the file. Nothing touches
//! the account until [`Account::import_read`] swaps the finished tables in, so a file refused
//! or abandoned at any point leaves it exactly as it was.

use super::build::{bad, Builder};
use super::{checked_properties, FORMAT, VERSION};
use crate::account::Account;
use crate::datetime::DateTime;
use crate::detail::Detail;
use crate::error::{Error, Result};
use crate::json::RawEntity;
use crate::json_problem::{JsonProblem, JsonProblemKind, JsonSyntax};
use crate::settings::{ServiceProperties, SignedIdentifier};
use crate::table::Table;
use crate::target::Target;
use serde_json::Value as Json;

/// Where in the layout the next character belongs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Start,
    TopKey { first: bool },
    TopAfter,
    TablesFirst,
    TablesAfter,
    TableKey { first: bool },
    TableAfter,
    EntitiesFirst,
    EntitiesAfter,
    Done,
}

/// The members of one table object seen so far.
#[derive(Default)]
struct TableSeen {
    name: bool,
    acl: Option<Vec<SignedIdentifier>>,
    entities: bool,
}

/// A streaming reader of one export.
pub struct Reader {
    /// Text not yet consumed starts at `pos`.
    buf: Vec<u8>,
    pos: usize,
    /// The line (1-based) and column (0-based, in bytes) of `buf[0]`.
    line: usize,
    column: usize,
    state: State,
    at_end: bool,
    builder: Builder,
    format: bool,
    version: Option<Json>,
    tables: bool,
    properties: Option<Option<ServiceProperties>>,
    target: Option<Target>,
    table: TableSeen,
}

/// A checked export, ready to replace the account's tables.
pub struct Imported {
    target: Target,
    tables: Vec<Table>,
    last: DateTime,
    properties: ServiceProperties,
    entities: u64,
}

impl Imported {
    /// How many tables and entities the export holds.
    pub fn counts(&self) -> (usize, u64) {
        (self.tables.len(), self.entities)
    }
}

impl Account {
    /// Replaces every table with a checked export's (one [`crate::Change::AccountReplaced`]).
    pub fn import_read(&mut self, imported: Imported) {
        let last = imported.last.max(self.last_timestamp());
        self.replace_tables(imported.target, imported.tables, last, imported.properties);
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Steps of the walk: `Ok(None)` asks for more text.
type Step<T> = Result<Option<T>>;

impl Reader {
    /// A reader whose entities without a Timestamp get the ones `account`'s clock would give.
    pub fn new(account: &Account) -> Reader {
        Reader {
            buf: Vec::new(),
            pos: 0,
            line: 1,
            column: 0,
            state: State::Start,
            at_end: false,
            builder: Builder::new(account, Target::default()),
            format: false,
            version: None,
            tables: false,
            properties: None,
            target: None,
            table: TableSeen::default(),
        }
    }

    /// Tables and entities read so far.
    pub fn counts(&self) -> (usize, u64) {
        self.builder.counts()
    }

    /// Reads the next piece of the file's text; the first problem ends the import.
    pub fn feed(&mut self, account: &Account, text: &str) -> Result<()> {
        self.buf.extend_from_slice(text.as_bytes());
        while self.step(account)? {}
        self.compact();
        Ok(())
    }

    /// Ends the file: it must have been a whole export.
    pub fn finish(mut self, account: &Account) -> Result<Imported> {
        self.at_end = true;
        while self.step(account)? {}
        if self.state != State::Done {
            let what = match self.state {
                State::TablesFirst | State::TablesAfter => JsonSyntax::EofList,
                State::EntitiesFirst | State::EntitiesAfter => JsonSyntax::EofList,
                State::Start => JsonSyntax::EofValue,
                _ => JsonSyntax::EofObject,
            };
            // Placed at the last character, as `serde_json` places it.
            let (line, column) = self.position(self.buf.len());
            return Err(bad(Detail::NotJson(JsonProblem {
                kind: JsonProblemKind::Syntax(what),
                line,
                column: column.saturating_sub(1),
            })));
        }
        self.header()?;
        if !self.tables {
            return Err(field(JsonProblemKind::MissingField {
                name: "tables".into(),
            }));
        }
        let properties = checked_properties(self.properties.flatten().as_ref())?;
        let entities = self.builder.counts().1;
        let (tables, last) = self.builder.finish();
        Ok(Imported {
            target: self.target.unwrap_or_default(),
            tables,
            last,
            properties,
            entities,
        })
    }

    /// Drops consumed text, keeping the position of what is left.
    fn compact(&mut self) {
        let done = &self.buf[..self.pos];
        match done.iter().rposition(|&b| b == b'\n') {
            Some(nl) => {
                self.line += done.iter().filter(|&&b| b == b'\n').count();
                self.column = self.pos - nl - 1;
            }
            None => self.column += self.pos,
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
    }

    /// (line, column) of `buf[i]`, both 1-based, as `serde_json` counts them.
    fn position(&self, i: usize) -> (usize, usize) {
        let before = &self.buf[..i.min(self.buf.len())];
        match before.iter().rposition(|&b| b == b'\n') {
            Some(nl) => (
                self.line + before.iter().filter(|&&b| b == b'\n').count(),
                i - nl,
            ),
            None => (self.line, self.column + i + 1),
        }
    }

    fn syntax(&self, i: usize, what: JsonSyntax) -> Error {
        let (line, column) = self.position(i);
        bad(Detail::NotJson(JsonProblem {
            kind: JsonProblemKind::Syntax(what),
            line,
            column,
        }))
    }

    /// The first non-blank byte at or after `from`, and its index.
    fn next_byte(&self, from: usize) -> Option<(usize, u8)> {
        let i = from + self.buf.get(from..)?.iter().position(|&b| !is_ws(b))?;
        Some((i, self.buf[i]))
    }

    /// The end (exclusive) of the string starting at `start` (a `"`).
    fn string_end(&self, start: usize) -> Option<usize> {
        let mut i = start + 1;
        while let Some(&b) = self.buf.get(i) {
            match b {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    }

    /// The end (exclusive) of the JSON value starting at `start`; `None` while incomplete.
    fn value_end(&self, start: usize) -> Option<usize> {
        match *self.buf.get(start)? {
            b'"' => self.string_end(start),
            b'{' | b'[' => {
                let (mut depth, mut i) = (0usize, start);
                while let Some(&b) = self.buf.get(i) {
                    match b {
                        b'"' => {
                            i = self.string_end(i)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(i + 1);
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                None
            }
            _ => {
                let rest = &self.buf[start..];
                match rest
                    .iter()
                    .position(|&b| is_ws(b) || b"{}[],:".contains(&b))
                {
                    Some(n) => Some(start + n.max(1)),
                    None if self.at_end => Some(self.buf.len()),
                    None => None,
                }
            }
        }
    }

    /// Parses the value in `buf[start..end]`, with errors placed in the whole file.
    fn parse<T: serde::de::DeserializeOwned>(&self, start: usize, end: usize) -> Result<T> {
        serde_json::from_slice(&self.buf[start..end]).map_err(|e| {
            let (line, column) = self.position(start);
            let (line, column) = if e.line() <= 1 {
                (line, column + e.column().saturating_sub(1))
            } else {
                (line + e.line() - 1, e.column())
            };
            let problem = JsonProblem {
                line,
                column,
                ..JsonProblem::from(&e)
            };
            match e.classify() {
                serde_json::error::Category::Data => bad(Detail::Malformed(problem)),
                _ => bad(Detail::NotJson(problem)),
            }
        })
    }

    /// A member's key and the index of its value's first byte.
    fn key(&self, at: usize) -> Step<(String, usize)> {
        let Some((i, b)) = self.next_byte(at) else {
            return Ok(None);
        };
        if b != b'"' {
            return Err(self.syntax(i, JsonSyntax::KeyString));
        }
        let Some(end) = self.string_end(i) else {
            return Ok(None);
        };
        let key: String = self.parse(i, end)?;
        let Some((colon, b)) = self.next_byte(end) else {
            return Ok(None);
        };
        if b != b':' {
            return Err(self.syntax(colon, JsonSyntax::ExpectedColon));
        }
        match self.next_byte(colon + 1) {
            Some((value, _)) => Ok(Some((key, value))),
            None => Ok(None),
        }
    }

    /// One step of the walk; `false` when it needs more text.
    fn step(&mut self, account: &Account) -> Result<bool> {
        let Some((i, b)) = self.next_byte(self.pos) else {
            self.pos = self.buf.len();
            return Ok(false);
        };
        let (state, pos) = match (self.state, b) {
            (State::Start, b'{') => (State::TopKey { first: true }, i + 1),
            (State::Start, b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {
                return Err(bad(Detail::NotExport))
            }
            (State::Start, _) => return Err(self.syntax(i, JsonSyntax::ExpectedValue)),
            (State::TopKey { first: true }, b'}') => (State::Done, i + 1),
            (State::TopKey { .. }, _) => match self.top_member(i)? {
                Some(next) => next,
                None => return Ok(false),
            },
            (State::TopAfter, b',') => (State::TopKey { first: false }, i + 1),
            (State::TopAfter, b'}') => (State::Done, i + 1),
            (State::TopAfter, _) => return Err(self.syntax(i, JsonSyntax::ExpectedObjectEnd)),
            (State::TablesFirst, b']') | (State::TablesAfter, b']') => (State::TopAfter, i + 1),
            (State::TablesAfter, b',') => match self.next_byte(i + 1) {
                Some((j, b'{')) => (State::TableKey { first: true }, j + 1),
                Some(_) => return Err(malformed("a table is not an object")),
                None => return Ok(false),
            },
            (State::TablesFirst, b'{') => (State::TableKey { first: true }, i + 1),
            (State::TablesFirst, _) => return Err(malformed("a table is not an object")),
            (State::TablesAfter, _) => return Err(self.syntax(i, JsonSyntax::ExpectedListEnd)),
            (State::TableKey { first: true }, b'}') => (self.end_table()?, i + 1),
            (State::TableKey { .. }, _) => match self.table_member(i)? {
                Some(next) => next,
                None => return Ok(false),
            },
            (State::TableAfter, b',') => (State::TableKey { first: false }, i + 1),
            (State::TableAfter, b'}') => (self.end_table()?, i + 1),
            (State::TableAfter, _) => return Err(self.syntax(i, JsonSyntax::ExpectedObjectEnd)),
            (State::EntitiesFirst, b']') | (State::EntitiesAfter, b']') => {
                (State::TableAfter, i + 1)
            }
            (State::EntitiesAfter, b',') => match self.next_byte(i + 1) {
                Some((j, _)) => match self.entity(account, j)? {
                    Some(end) => (State::EntitiesAfter, end),
                    None => return Ok(false),
                },
                None => return Ok(false),
            },
            (State::EntitiesFirst, _) => match self.entity(account, i)? {
                Some(end) => (State::EntitiesAfter, end),
                None => return Ok(false),
            },
            (State::EntitiesAfter, _) => return Err(self.syntax(i, JsonSyntax::ExpectedListEnd)),
            (State::Done, _) => return Err(self.syntax(i, JsonSyntax::TrailingCharacters)),
        };
        self.state = state;
        self.pos = pos;
        Ok(true)
    }

    /// A member of the export object.
    fn top_member(&mut self, at: usize) -> Step<(State, usize)> {
        let Some((key, value)) = self.key(at)? else {
            return Ok(None);
        };
        if key == "tables" {
            if std::mem::replace(&mut self.tables, true) {
                return Err(field(JsonProblemKind::DuplicateField {
                    name: "tables".into(),
                }));
            }
            self.header()?;
            if self.buf[value] != b'[' {
                return Err(malformed("`tables` is not a list"));
            }
            return Ok(Some((State::TablesFirst, value + 1)));
        }
        let Some(end) = self.value_end(value) else {
            return Ok(None);
        };
        match key.as_str() {
            "format" => {
                let format: Json = self.parse(value, end)?;
                if format.as_str() != Some(FORMAT) {
                    return Err(bad(Detail::NotExport));
                }
                if std::mem::replace(&mut self.format, true) {
                    return Err(field(JsonProblemKind::DuplicateField {
                        name: "format".into(),
                    }));
                }
            }
            "version" => {
                if self.version.is_some() {
                    return Err(field(JsonProblemKind::DuplicateField {
                        name: "version".into(),
                    }));
                }
                self.version = Some(self.parse(value, end)?);
                if self.format {
                    self.header()?;
                }
            }
            "target" => {
                if self.target.is_some() {
                    return Err(field(JsonProblemKind::DuplicateField {
                        name: "target".into(),
                    }));
                }
                if self.tables {
                    return Err(malformed(
                        "the account's `target` must come before its `tables`",
                    ));
                }
                let target: Target = self.parse(value, end)?;
                self.target = Some(target);
                self.builder.set_target(target);
            }
            "serviceProperties" => {
                if self.properties.is_some() {
                    return Err(field(JsonProblemKind::DuplicateField {
                        name: "serviceProperties".into(),
                    }));
                }
                self.properties = Some(self.parse(value, end)?);
            }
            _ if !self.format => return Err(bad(Detail::NotExport)),
            other => {
                return Err(field(JsonProblemKind::UnknownField {
                    name: other.into(),
                    expected: ["format", "version", "target", "serviceProperties", "tables"]
                        .map(String::from)
                        .to_vec(),
                }))
            }
        }
        Ok(Some((State::TopAfter, end)))
    }

    /// Checks `format` and `version` (before any table is read).
    fn header(&self) -> Result<()> {
        if !self.format {
            return Err(bad(Detail::NotExport));
        }
        match &self.version {
            Some(v) if v.as_u64() == Some(u64::from(VERSION)) => Ok(()),
            Some(v) => Err(bad(Detail::Version {
                version: v.to_string(),
            })),
            None => Err(bad(Detail::NoVersion)),
        }
    }

    /// A member of a table object.
    fn table_member(&mut self, at: usize) -> Step<(State, usize)> {
        let Some((key, value)) = self.key(at)? else {
            return Ok(None);
        };
        if key == "entities" {
            if std::mem::replace(&mut self.table.entities, true) {
                return Err(field(JsonProblemKind::DuplicateField {
                    name: "entities".into(),
                }));
            }
            if !self.table.name {
                return Err(malformed(
                    "a table's `name` must come before its `entities`",
                ));
            }
            if self.buf[value] != b'[' {
                return Err(malformed("`entities` is not a list"));
            }
            return Ok(Some((State::EntitiesFirst, value + 1)));
        }
        let Some(end) = self.value_end(value) else {
            return Ok(None);
        };
        match key.as_str() {
            "name" => {
                if std::mem::replace(&mut self.table.name, true) {
                    return Err(field(JsonProblemKind::DuplicateField {
                        name: "name".into(),
                    }));
                }
                let name: String = self.parse(value, end)?;
                self.builder.table(&name)?;
            }
            "acl" => {
                if self.table.acl.is_some() {
                    return Err(field(JsonProblemKind::DuplicateField {
                        name: "acl".into(),
                    }));
                }
                self.table.acl = Some(self.parse(value, end)?);
            }
            other => {
                return Err(field(JsonProblemKind::UnknownField {
                    name: other.into(),
                    expected: ["name", "acl", "entities"].map(String::from).to_vec(),
                }))
            }
        }
        Ok(Some((State::TableAfter, end)))
    }

    fn end_table(&mut self) -> Result<State> {
        let seen = std::mem::take(&mut self.table);
        if !seen.name {
            return Err(field(JsonProblemKind::MissingField {
                name: "name".into(),
            }));
        }
        if !seen.entities {
            return Err(field(JsonProblemKind::MissingField {
                name: "entities".into(),
            }));
        }
        self.builder.acl(seen.acl.unwrap_or_default())?;
        Ok(State::TablesAfter)
    }

    /// An entity object starting at `at`: the end of it, once it is whole.
    fn entity(&mut self, account: &Account, at: usize) -> Step<usize> {
        if self.buf[at] != b'{' {
            return Err(malformed("an entity is not an object"));
        }
        let Some(end) = self.value_end(at) else {
            return Ok(None);
        };
        let raw: RawEntity = self.parse(at, end)?;
        self.builder.entity(account, &raw)?;
        Ok(Some(end))
    }
}

fn malformed(what: &str) -> Error {
    field(JsonProblemKind::Other { text: what.into() })
}

/// A problem with the export's shape, which has no position (as serde_json gives none).
fn field(kind: JsonProblemKind) -> Error {
    bad(Detail::Malformed(JsonProblem {
        kind,
        line: 0,
        column: 0,
    }))
}

//! A stored entity's user properties in a compact form: a shared [`Shape`] (the property names
//! and types, in the order they were written) plus one byte buffer holding the values.
//!
//! A table holds millions of entities that mostly have the same few properties, so the names
//! and types are kept once per distinct shape, and each entity keeps only its values: fixed
//! width ones inline (Int32 4 bytes, Int64/Double/DateTime 8, Boolean 1, Guid 16), strings and
//! binaries as a 4-byte offset and 4-byte length into the buffer's tail. A scan reads a value
//! at an offset the shape gives, with no search and no pointer but the buffer's.
//!
//! Invariants:
//! - `data[..shape.fixed_len]` holds each value at `shape.offsets[i]`, little-endian;
//! - a String's bytes (at the offset and length its slot names) are valid UTF-8, written from
//!   a `&str`;
//! - a Double is kept as its bits, so a value reads back exactly (NaN payloads, -0.0);
//! - a DateTime is kept as its ticks, always within the service's range.

use crate::datetime::DateTime;
use crate::entity::{Property, PropertyName};
use crate::value::{EdmType, Guid, Value};
use std::sync::Arc;

/// The names and types of an entity's properties, in order, shared by every entity that has
/// exactly those (a table interns shapes).
#[derive(Debug, PartialEq, Eq)]
pub struct Shape {
    names: Box<[PropertyName]>,
    types: Box<[EdmType]>,
    offsets: Box<[u32]>,
    fixed_len: u32,
    /// [`shape_key`] of the names and types.
    key: u64,
}

impl Shape {
    /// The shape of these properties (names and types, in order). One loop and no
    /// iterator adapters: each adapter chain would be its own code in the wasm.
    pub fn of(properties: &[Property]) -> Shape {
        let mut names = Vec::with_capacity(properties.len());
        let mut types = Vec::with_capacity(properties.len());
        for (name, value) in properties {
            names.push(name.clone());
            types.push(value.edm_type());
        }
        Shape::of_parts(names, types)
    }

    /// The shape of these (interned) names with these types, in order.
    pub fn of_parts(names: Vec<PropertyName>, types: Vec<EdmType>) -> Shape {
        let mut offsets = Vec::with_capacity(types.len());
        let mut at = 0u32;
        for t in &types {
            offsets.push(at);
            at += width(*t);
        }
        Shape {
            key: shape_key_of_parts(&names, &types),
            names: names.into(),
            types: types.into(),
            offsets: offsets.into(),
            fixed_len: at,
        }
    }

    /// A hash of the names (by address) and types: equal for equal shapes of one table.
    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn names(&self) -> &[PropertyName] {
        &self.names
    }

    pub fn types(&self) -> &[EdmType] {
        &self.types
    }

    /// The byte offset of property `i`'s value in a record's fixed part.
    pub fn offset(&self, i: usize) -> usize {
        self.offsets.get(i).map_or(0, |o| *o as usize)
    }

    /// The position of a property, by an interned name (pointer) or by text.
    #[inline]
    pub fn position(&self, name: &Arc<str>) -> Option<usize> {
        self.names
            .iter()
            .position(|n| Arc::ptr_eq(n, name))
            .or_else(|| self.names.iter().position(|n| **n == **name))
    }

    /// Whether the names (by pointer) and types are exactly these.
    pub fn is(&self, properties: &[Property]) -> bool {
        self.names.len() == properties.len()
            && self
                .names
                .iter()
                .zip(&self.types)
                .zip(properties)
                .all(|((n, t), (pn, v))| Arc::ptr_eq(n, pn) && *t == v.edm_type())
    }

    /// [`Shape::is`] for names (by pointer) and types given apart.
    pub fn is_parts(&self, names: &[PropertyName], types: &[EdmType]) -> bool {
        *self.types == *types
            && self.names.len() == names.len()
            && self.names.iter().zip(names).all(|(a, b)| Arc::ptr_eq(a, b))
    }
}

/// A hash of a shape's interned names (by address: a shape holds its names, so an address is
/// not reused while the shape lives) and types.
pub fn shape_key(properties: &[Property]) -> u64 {
    let mut h = SHAPE_KEY_SEED;
    for (n, v) in properties {
        h = mix(h, n, v.edm_type());
    }
    h
}

/// [`shape_key`] of names and types given apart.
pub fn shape_key_of_parts(names: &[PropertyName], types: &[EdmType]) -> u64 {
    let mut h = SHAPE_KEY_SEED;
    for (n, t) in names.iter().zip(types) {
        h = mix(h, n, *t);
    }
    h
}

const SHAPE_KEY_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// One property's step of [`shape_key`].
#[inline]
fn mix(h: u64, name: &PropertyName, t: EdmType) -> u64 {
    let word = (Arc::as_ptr(name) as *const u8 as usize as u64) ^ ((t as u64) << 56);
    (h ^ word).wrapping_mul(0x0100_0000_01b3).rotate_left(29)
}

/// Bytes a value of type `t` takes in the fixed part.
fn width(t: EdmType) -> u32 {
    match t {
        EdmType::Boolean => 1,
        EdmType::Int32 => 4,
        EdmType::Int64 | EdmType::Double | EdmType::DateTime => 8,
        EdmType::String | EdmType::Binary => 8,
        EdmType::Guid => 16,
    }
}

/// A borrowed property value: what a filter compares without building a [`Value`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    String(&'a str),
    Int32(i32),
    Int64(i64),
    Double(f64),
    Boolean(bool),
    DateTime(DateTime),
    Guid(Guid),
    Binary(&'a [u8]),
}

impl<'a> From<&'a Value> for ValueRef<'a> {
    #[inline]
    fn from(v: &'a Value) -> ValueRef<'a> {
        match v {
            Value::String(s) => ValueRef::String(s),
            Value::Int32(v) => ValueRef::Int32(*v),
            Value::Int64(v) => ValueRef::Int64(*v),
            Value::Double(v) => ValueRef::Double(*v),
            Value::Boolean(v) => ValueRef::Boolean(*v),
            Value::DateTime(v) => ValueRef::DateTime(*v),
            Value::Guid(v) => ValueRef::Guid(*v),
            Value::Binary(v) => ValueRef::Binary(v),
        }
    }
}

impl ValueRef<'_> {
    /// The value's size in the service's entity-size formula (docs/service/data-model.md).
    pub fn size(self) -> usize {
        match self {
            ValueRef::String(s) => 4 + 2 * crate::key::utf16_len(s),
            ValueRef::Binary(b) => 4 + b.len(),
            ValueRef::DateTime(_) | ValueRef::Double(_) | ValueRef::Int64(_) => 8,
            ValueRef::Guid(_) => 16,
            ValueRef::Int32(_) => 4,
            ValueRef::Boolean(_) => 1,
        }
    }

    pub fn edm_type(self) -> EdmType {
        match self {
            ValueRef::String(_) => EdmType::String,
            ValueRef::Int32(_) => EdmType::Int32,
            ValueRef::Int64(_) => EdmType::Int64,
            ValueRef::Double(_) => EdmType::Double,
            ValueRef::Boolean(_) => EdmType::Boolean,
            ValueRef::DateTime(_) => EdmType::DateTime,
            ValueRef::Guid(_) => EdmType::Guid,
            ValueRef::Binary(_) => EdmType::Binary,
        }
    }

    pub fn to_value(self) -> Value {
        match self {
            ValueRef::String(s) => Value::String(s.into()),
            ValueRef::Int32(v) => Value::Int32(v),
            ValueRef::Int64(v) => Value::Int64(v),
            ValueRef::Double(v) => Value::Double(v),
            ValueRef::Boolean(v) => Value::Boolean(v),
            ValueRef::DateTime(v) => Value::DateTime(v),
            ValueRef::Guid(v) => Value::Guid(v),
            ValueRef::Binary(v) => Value::Binary(v.into()),
        }
    }
}

/// An entity's user properties: its shape and its values' bytes.
#[derive(Clone)]
pub struct Record {
    shape: Arc<Shape>,
    data: Data,
}

/// Records of at most this many bytes keep them inline: in a table, inside the B-tree node
/// that holds the row, so a scan reads them in order without following a pointer (a
/// pointer per entity costs a scan a cache miss per entity once the records lie scattered in
/// the heap). 54 makes [`Data`] 56 bytes on 64-bit targets, the size of a record's heap
/// chunk it replaces plus its box; longer records take 40 more bytes than a box alone would.
const INLINE: usize = 54;

/// A record's bytes: inline when short, else boxed at their exact size.
#[derive(Clone)]
enum Data {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<[u8]>),
}

impl Data {
    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        match self {
            Data::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or(&[]),
            Data::Heap(bytes) => bytes,
        }
    }
}

impl Record {
    /// Encodes the values of `properties` (whose shape `shape` is: the same names and types
    /// in the same order). Short records are kept inline ([`INLINE`]); longer ones take one
    /// allocation of the exact size: no growth, no shrinking (which would leave the allocator
    /// small free fragments between a table's records).
    pub fn encode(shape: Arc<Shape>, properties: &[Property]) -> Record {
        let mut tail = 0;
        for (_, v) in properties {
            tail += tail_len(ValueRef::from(v));
        }
        Record::build(shape, tail, |shape, data| {
            let mut end = shape.fixed_len as usize;
            for ((_, v), at) in properties.iter().zip(shape.offsets.iter()) {
                end = write(data, *at as usize, end, ValueRef::from(v));
            }
        })
    }

    /// [`Record::encode`] from borrowed values, in the shape's order.
    pub fn encode_refs(shape: Arc<Shape>, values: &[ValueRef]) -> Record {
        let mut tail = 0;
        for v in values {
            tail += tail_len(*v);
        }
        Record::build(shape, tail, |shape, data| {
            let mut end = shape.fixed_len as usize;
            for (v, at) in values.iter().zip(shape.offsets.iter()) {
                end = write(data, *at as usize, end, *v);
            }
        })
    }

    /// A record of `shape` with `tail` variable-length bytes, its buffer filled by `fill`.
    fn build(shape: Arc<Shape>, tail: usize, fill: impl FnOnce(&Shape, &mut [u8])) -> Record {
        let len = shape.fixed_len as usize + tail;
        let data = if len <= INLINE {
            let mut bytes = [0; INLINE];
            fill(&shape, &mut bytes);
            Data::Inline {
                len: len as u8,
                bytes,
            }
        } else {
            let mut bytes = vec![0; len].into_boxed_slice();
            fill(&shape, &mut bytes);
            Data::Heap(bytes)
        };
        Record { shape, data }
    }

    /// The value bytes: the fixed part, then the strings' and binaries' bytes.
    #[inline(always)]
    fn data(&self) -> &[u8] {
        self.data.as_slice()
    }

    pub fn shape(&self) -> &Arc<Shape> {
        &self.shape
    }

    pub fn len(&self) -> usize {
        self.shape.names.len()
    }

    /// The bytes the values take here: at least half of their sizes in the service's
    /// entity-size formula ([`ValueRef::size`]), since no value's size is more than twice
    /// the bytes it takes (its slot, and a string's or binary's bytes in the tail).
    pub fn data_len(&self) -> usize {
        self.data().len()
    }

    pub fn is_empty(&self) -> bool {
        self.shape.names.is_empty()
    }

    /// The value at position `i` of the shape.
    #[inline]
    pub fn value_at(&self, i: usize) -> ValueRef<'_> {
        match (self.shape.types.get(i), self.shape.offsets.get(i)) {
            (Some(t), Some(at)) => self.decode(*t, *at as usize),
            _ => ValueRef::Boolean(false),
        }
    }

    /// The value of type `t` at byte offset `at` of the fixed part.
    #[inline]
    fn decode(&self, t: EdmType, at: usize) -> ValueRef<'_> {
        // The bytes once: each access through `Data` would be a branch (and wasm code) more.
        let data = self.data();
        match t {
            EdmType::Int32 => ValueRef::Int32(i32::from_le_bytes(fixed(data, at))),
            EdmType::Int64 => ValueRef::Int64(i64::from_le_bytes(fixed(data, at))),
            EdmType::Double => ValueRef::Double(f64::from_le_bytes(fixed(data, at))),
            EdmType::Boolean => ValueRef::Boolean(data.get(at).is_some_and(|b| *b != 0)),
            EdmType::DateTime => ValueRef::DateTime(
                DateTime::from_ticks(i64::from_le_bytes(fixed(data, at))).unwrap_or(DateTime::MIN),
            ),
            EdmType::Guid => ValueRef::Guid(Guid(fixed(data, at))),
            EdmType::String => ValueRef::String(std::str::from_utf8(tail(data, at)).unwrap_or("")),
            EdmType::Binary => ValueRef::Binary(tail(data, at)),
        }
    }

    /// The Int32 at byte offset `at` of the fixed part (the caller knows the shape).
    #[inline(always)]
    pub fn int32_at(&self, at: usize) -> i32 {
        i32::from_le_bytes(fixed(self.data(), at))
    }

    /// A user property's value, by an interned name (pointer) or by text.
    #[inline]
    pub fn find(&self, name: &Arc<str>) -> Option<ValueRef<'_>> {
        self.shape.position(name).map(|i| self.value_at(i))
    }

    /// A user property's value, by name.
    pub fn get(&self, name: &str) -> Option<Value> {
        let i = self.shape.names.iter().position(|n| &**n == name)?;
        Some(self.value_at(i).to_value())
    }

    /// The properties in order, borrowed.
    pub fn iter(&self) -> impl Iterator<Item = (&PropertyName, ValueRef<'_>)> {
        let names = self.shape.names.iter().enumerate();
        names.map(move |(i, name)| (name, self.value_at(i)))
    }

    /// The first property, owned.
    pub fn first(&self) -> Option<Property> {
        self.iter().next().map(|(n, v)| (n.clone(), v.to_value()))
    }

    /// The properties as owned values, in order.
    pub fn to_vec(&self) -> Vec<Property> {
        let names = self.shape.names();
        let mut out = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            out.push((name.clone(), self.value_at(i).to_value()));
        }
        out
    }
}

/// The `N` bytes at `at` (zeros if out of range, which a record's own offsets never are).
#[inline(always)]
fn fixed<const N: usize>(data: &[u8], at: usize) -> [u8; N] {
    data.get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .unwrap_or([0; N])
}

/// The bytes a String or Binary slot at `at` points to.
fn tail(data: &[u8], at: usize) -> &[u8] {
    let start = u32::from_le_bytes(fixed(data, at)) as usize;
    let len = u32::from_le_bytes(fixed(data, at + 4)) as usize;
    data.get(start..start + len).unwrap_or(&[])
}

/// Writes fixed-width bytes at `at`.
fn put(data: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(slot) = data.get_mut(at..at + bytes.len()) {
        slot.copy_from_slice(bytes);
    }
}

/// The variable-length bytes a value takes after a record's fixed part.
fn tail_len(v: ValueRef) -> usize {
    match v {
        ValueRef::String(s) => s.len(),
        ValueRef::Binary(b) => b.len(),
        _ => 0,
    }
}

/// Writes a value into `data` (at least the shape's fixed part plus the strings' and
/// binaries' bytes long): at its slot `at`, variable-length bytes at `end`; returns where
/// the next variable-length bytes go.
fn write(data: &mut [u8], at: usize, end: usize, v: ValueRef) -> usize {
    match v {
        ValueRef::Int32(v) => put(data, at, &v.to_le_bytes()),
        ValueRef::Int64(v) => put(data, at, &v.to_le_bytes()),
        ValueRef::Double(v) => put(data, at, &v.to_bits().to_le_bytes()),
        ValueRef::Boolean(v) => put(data, at, &[u8::from(v)]),
        ValueRef::DateTime(v) => put(data, at, &v.ticks().to_le_bytes()),
        ValueRef::Guid(v) => put(data, at, &v.0),
        ValueRef::String(s) => return append(data, at, end, s.as_bytes()),
        ValueRef::Binary(b) => return append(data, at, end, b),
    }
    end
}

/// Writes variable-length bytes at `end` and their (offset, length) into the slot at `at`;
/// returns where the next ones go.
fn append(data: &mut [u8], at: usize, end: usize, bytes: &[u8]) -> usize {
    put(data, at, &(end as u32).to_le_bytes());
    put(data, at + 4, &(bytes.len() as u32).to_le_bytes());
    put(data, end, bytes);
    end + bytes.len()
}

/// Equal when the properties are: the same names (by text) and types in the same order, and
/// the same value bytes (the encoding is deterministic, Doubles by bits as [`Value`]'s `==`).
impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        (Arc::ptr_eq(&self.shape, &other.shape) || *self.shape == *other.shape)
            && self.data() == other.data()
    }
}

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(properties: &[Property]) -> Arc<Shape> {
        Arc::new(Shape::of(properties))
    }

    #[test]
    fn every_type_reads_back_exactly() {
        let guid = Guid::parse("c9da6455-213d-42c9-9a79-3e9149a57833").unwrap();
        let properties: Vec<Property> = vec![
            ("S".into(), Value::string("Grüße, 世界")),
            ("E".into(), Value::string("")),
            ("I".into(), Value::Int32(i32::MIN)),
            ("L".into(), Value::Int64(-42)),
            (
                "N".into(),
                Value::Double(f64::from_bits(0x7ff8_0000_0000_0001)),
            ),
            ("Z".into(), Value::Double(-0.0)),
            ("B".into(), Value::Boolean(true)),
            ("D".into(), Value::DateTime(DateTime::MAX)),
            ("G".into(), Value::Guid(guid)),
            ("X".into(), Value::Binary(vec![0, 255, 7].into())),
            ("Y".into(), Value::Binary(Vec::new().into())),
        ];
        let record = Record::encode(shape_of(&properties), &properties);
        // `Value`'s == compares Doubles by bits: the NaN payload and -0.0 survive.
        assert_eq!(record.to_vec(), properties);
        assert_eq!(record.first(), Some(properties[0].clone()));
        assert_eq!(record.get("L"), Some(Value::Int64(-42)));
        assert_eq!(record.get("missing"), None);
        assert_eq!(
            record.find(&"X".into()),
            Some(ValueRef::Binary(&[0, 255, 7]))
        );
        // Fixed part: 2 strings + 2 binaries (8 each), Int32 4, Int64 8, 2 Doubles 8,
        // Boolean 1, DateTime 8, Guid 16; then the text's bytes.
        assert_eq!(record.shape().fixed_len, 32 + 4 + 8 + 16 + 1 + 8 + 16);
        assert_eq!(record.data().len(), 85 + "Grüße, 世界".len() + 3);
        assert!(matches!(record.data, Data::Heap(_)));
    }

    /// A record of at most [`INLINE`] bytes is kept inline, one byte more is boxed, and both
    /// read back exactly; the inline form is no bigger than a box plus its heap chunk.
    #[test]
    fn short_records_are_inline() {
        // Fixed part: Int32 4 + Int64 8 + String slot 8 = 20; text 34 bytes: 54 in all.
        let text = "x".repeat(INLINE - 20);
        let properties = |text: &str| -> Vec<Property> {
            vec![
                ("I".into(), Value::Int32(-7)),
                ("L".into(), Value::Int64(i64::MIN)),
                ("S".into(), Value::string(text)),
            ]
        };
        let short = properties(&text);
        let record = Record::encode(shape_of(&short), &short);
        assert!(matches!(record.data, Data::Inline { len: 54, .. }));
        assert_eq!(record.to_vec(), short);
        let long = properties(&format!("{text}y"));
        let record = Record::encode(shape_of(&long), &long);
        assert!(matches!(&record.data, Data::Heap(b) if b.len() == 55));
        assert_eq!(record.to_vec(), long);
        if cfg!(target_pointer_width = "64") {
            assert_eq!(std::mem::size_of::<Data>(), 56);
        }
    }

    #[test]
    fn equality_is_by_content() {
        let a: Vec<Property> = vec![("A".into(), Value::Int32(1))];
        let b: Vec<Property> = vec![("A".into(), Value::Int32(2))];
        let c: Vec<Property> = vec![("A".into(), Value::Int64(1))];
        let enc = |p: &[Property]| Record::encode(shape_of(p), p);
        assert_eq!(enc(&a), enc(&a));
        assert_ne!(enc(&a), enc(&b));
        assert_ne!(enc(&a), enc(&c));
    }
}

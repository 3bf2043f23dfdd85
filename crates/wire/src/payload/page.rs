//! What a page of entities writes once and copies per entity.

use super::{etag_text, string, timestamp_text};
use tablescope_engine::{DateTime, Fraction};

/// What a page writes once and copies per entity: the names of a shape and the last
/// Timestamp (a batch's entities share one).
#[derive(Default)]
pub(super) struct Page {
    names: Names,
    pub(super) stamp: Stamp,
}

impl Page {
    pub(super) fn prepare(&mut self, record: &tablescope_engine::Record) {
        self.names.prepare(record);
    }

    pub(super) fn get(&self, i: usize, annotated: bool) -> &str {
        self.names.get(i, annotated)
    }
}

/// The last Timestamp written as an ETag and as the Timestamp member, each form kept apart
/// (nometadata writes no ETag); `fraction` is the page's.
#[derive(Default)]
pub(super) struct Stamp {
    etag_at: Option<DateTime>,
    etag: String,
    timestamp_at: Option<DateTime>,
    timestamp: String,
}

impl Stamp {
    pub(super) fn etag(&mut self, t: DateTime, fraction: Fraction) -> &str {
        if self.etag_at != Some(t) {
            self.etag.clear();
            etag_text(&mut self.etag, t, fraction);
            self.etag_at = Some(t);
        }
        &self.etag
    }

    pub(super) fn timestamp(&mut self, t: DateTime, fraction: Fraction) -> &str {
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
    pub(super) fn prepare(&mut self, record: &tablescope_engine::Record) {
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

    pub(super) fn get(&self, i: usize, annotated: bool) -> &str {
        let [start, plain, end] = self.spans.get(i).copied().unwrap_or_default();
        let from = if annotated { start } else { plain };
        self.text.get(from..end).unwrap_or_default()
    }
}

//! What the learner is working on, shared by the panels: the selected table, the entity in
//! the editor, the staged batch, and the query editor's text and options. One `Copy` value in
//! context. [`saved`] keeps it across reloads.

pub mod layouts;
pub mod runs;
pub mod saved;

use super::model::{BinaryEncoding, PropertyDraft};
use crate::engine::query::PAGE_SCAN_BUDGET;
use crate::engine::{BatchRequest, EdmType, RawEntity};
use layouts::ColumnLayouts;
use leptos::prelude::*;
use runs::Run;

/// The write the editor sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WriteOp {
    #[default]
    Insert,
    Replace,
    Merge,
    UpsertReplace,
    UpsertMerge,
    Delete,
}

impl WriteOp {
    pub const ALL: [WriteOp; 6] = [
        WriteOp::Insert,
        WriteOp::Replace,
        WriteOp::Merge,
        WriteOp::UpsertReplace,
        WriteOp::UpsertMerge,
        WriteOp::Delete,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WriteOp::Insert => "insert",
            WriteOp::Replace => "replace",
            WriteOp::Merge => "merge",
            WriteOp::UpsertReplace => "upsert-replace",
            WriteOp::UpsertMerge => "upsert-merge",
            WriteOp::Delete => "delete",
        }
    }

    /// Replace, merge and delete send If-Match.
    pub fn uses_etag(self) -> bool {
        matches!(self, WriteOp::Replace | WriteOp::Merge | WriteOp::Delete)
    }

    /// The write named `name`, as [`WriteOp::name`] spells it.
    pub fn from_name(name: &str) -> Option<WriteOp> {
        WriteOp::ALL.into_iter().find(|op| op.name() == name)
    }

    /// This write as a batch operation. A delete names only `keys`; every other write sends
    /// the entity `entity` makes (not called for a delete). `if_match` is sent where the
    /// write takes one ([`WriteOp::uses_etag`]).
    pub fn batch_request<E>(
        self,
        keys: (String, String),
        entity: impl FnOnce() -> Result<RawEntity, E>,
        if_match: Option<String>,
    ) -> Result<BatchRequest, E> {
        if self == WriteOp::Delete {
            return Ok(BatchRequest::Delete {
                partition_key: keys.0,
                row_key: keys.1,
                if_match,
            });
        }
        let entity = entity()?;
        Ok(match self {
            WriteOp::Insert => BatchRequest::Insert { entity },
            WriteOp::UpsertReplace => BatchRequest::UpsertReplace { entity },
            WriteOp::UpsertMerge => BatchRequest::UpsertMerge { entity },
            WriteOp::Replace => BatchRequest::Replace { entity, if_match },
            WriteOp::Merge | WriteOp::Delete => BatchRequest::Merge { entity, if_match },
        })
    }
}

/// The entity being edited.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub partition_key: String,
    pub row_key: String,
    pub properties: Vec<PropertyDraft>,
    pub op: WriteOp,
    /// The ETag sent as If-Match (replace, merge, delete).
    pub etag: String,
    /// Send `*` instead of the ETag.
    pub any_etag: bool,
    /// Set when duplicating: the keys the copy must not keep.
    pub duplicate_of: Option<(String, String)>,
}

/// A staged batch operation with a stable id for keyed lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Staged {
    pub id: u64,
    pub op: BatchRequest,
}

/// The query panel's options and its runs, kept here (not in the panel) so they are saved
/// with the workspace.
#[derive(Clone, Copy)]
pub struct QueryOptions {
    /// `$select`, as typed (comma-separated names).
    pub select: RwSignal<String>,
    /// `$top`, as typed.
    pub top: RwSignal<String>,
    /// The page budget, as typed.
    pub budget: RwSignal<String>,
    /// Every run, oldest first.
    pub history: RwSignal<Vec<Run>>,
}

/// The shared working state.
#[derive(Clone, Copy)]
pub struct Workspace {
    pub table: RwSignal<Option<String>>,
    pub draft: RwSignal<Draft>,
    pub batch: RwSignal<Vec<Staged>>,
    /// Bumped when an entity is loaded into the editor from outside it (the editor then
    /// clears its last result).
    pub loaded: RwSignal<u64>,
    /// The raw `$filter` in the query editor (advice rewrites load into it).
    pub filter: RwSignal<String>,
    /// The query panel's `$select`, `$top`, page budget and run history.
    pub query: QueryOptions,
    /// Per table (by name): the grid's columns as arranged with the column chooser. A table
    /// without an entry shows the default arrangement (`crate::ui::widgets::columns::arrange`).
    pub columns: ColumnLayouts,
    /// Ids for drafts, conditions and staged operations.
    next_id: StoredValue<u64>,
}

impl Workspace {
    pub fn new() -> Self {
        let workspace = Workspace {
            table: RwSignal::new(None),
            draft: RwSignal::new(Draft::default()),
            batch: RwSignal::new(Vec::new()),
            loaded: RwSignal::new(0),
            filter: RwSignal::new(String::new()),
            query: QueryOptions {
                select: RwSignal::new(String::new()),
                top: RwSignal::new(String::new()),
                budget: RwSignal::new(PAGE_SCAN_BUDGET.to_string()),
                history: RwSignal::new(Vec::new()),
            },
            columns: ColumnLayouts::new(),
            next_id: StoredValue::new(0),
        };
        // A draft is written for the table it was started on: selecting another table starts
        // a blank one, so no write meant for one table is sent to the next. (Reselecting the
        // same table keeps it.)
        let (table, draft) = (workspace.table, workspace.draft);
        Effect::new(move |shown: Option<Option<String>>| {
            let now = table.get();
            if let Some(before) = shown {
                if before != now {
                    draft.set(Draft::default());
                }
            }
            now
        });
        workspace
    }

    pub fn expect() -> Self {
        expect_context::<Workspace>()
    }

    pub fn next_id(&self) -> u64 {
        let mut id = 0;
        self.next_id.update_value(|n| {
            *n += 1;
            id = *n;
        });
        id
    }

    /// Runs `f` with the id counter (for the model's functions that take `&mut u64`).
    pub fn with_ids<T>(&self, f: impl FnOnce(&mut u64) -> T) -> T {
        let mut n = self.next_id.get_value();
        let out = f(&mut n);
        self.next_id.set_value(n);
        out
    }

    /// A blank property row for the editor.
    pub fn blank_property(&self) -> PropertyDraft {
        PropertyDraft {
            id: self.next_id(),
            name: String::new(),
            edm: EdmType::String,
            text: String::new(),
            binary: BinaryEncoding::Base64,
        }
    }

    pub fn stage(&self, op: BatchRequest) {
        let id = self.next_id();
        self.batch.update(|b| b.push(Staged { id, op }));
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Self::new()
    }
}

//! The data generator: writes a design's entities into an account, in chunks, so a caller
//! (the browser) can show progress and stop between chunks. Same design and seed, same
//! entities, in the same order.

use super::model::Design;
use super::sample::TypeModel;
use super::DesignError;
use serde::{Deserialize, Serialize};
use tablescope_engine::{Account, Entity};

/// Entities written so far, of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
}

impl Progress {
    pub fn is_complete(&self) -> bool {
        self.done >= self.total
    }
}

/// Where the generator writes: an [`Account`] (natively), or the browser's bridge to the
/// playground's account (the Design section's own wasm).
pub trait Sink {
    /// The entities `table` holds, or `None` when there is no such table.
    fn entities_in(&self, table: &str) -> Option<u64>;
    fn create_table(&mut self, table: &str) -> Result<(), String>;
    /// Inserts one entity; a refusal (duplicate keys) is the service's message.
    fn insert(&mut self, table: &str, entity: Entity) -> Result<(), String>;
}

impl Sink for Account {
    fn entities_in(&self, table: &str) -> Option<u64> {
        self.table(table).ok().map(|t| t.entity_count() as u64)
    }

    fn create_table(&mut self, table: &str) -> Result<(), String> {
        Account::create_table(self, table)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn insert(&mut self, table: &str, entity: Entity) -> Result<(), String> {
        Account::insert(self, table, entity)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// A cursor over a design's entities: call [`Generator::step`] until it reports completion;
/// dropping it between steps cancels (what was written stays, as ordinary entities).
pub struct Generator<'d> {
    design: &'d Design,
    models: Vec<TypeModel<'d>>,
    /// The type being written and the next index in it.
    current: usize,
    next: u64,
    done: u64,
    total: u64,
    started: bool,
}

impl<'d> Generator<'d> {
    /// Checks the design and prepares every entity type at its count.
    pub fn new(design: &'d Design) -> Result<Self, DesignError> {
        super::validate::design(design)?;
        let models = design
            .entity_types
            .iter()
            .enumerate()
            .map(|(i, ty)| {
                TypeModel::new(design, ty, ty.count)
                    .map_err(|e| DesignError::new(format!("entityTypes[{i}]"), e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let total = design.entity_types.iter().map(|t| t.count).sum();
        Ok(Generator {
            design,
            models,
            current: 0,
            next: 0,
            done: 0,
            total,
            started: false,
        })
    }

    pub fn progress(&self) -> Progress {
        Progress {
            done: self.done,
            total: self.total,
        }
    }

    /// Writes up to `max` more entities. The first step creates the design's tables, and
    /// refuses a table that already holds entities (generated data is never mixed in).
    /// An insert the service refuses (duplicate keys) stops generation with its error.
    pub fn step<S: Sink + ?Sized>(
        &mut self,
        account: &mut S,
        max: u64,
    ) -> Result<Progress, DesignError> {
        if !self.started {
            self.prepare(account)?;
            self.started = true;
        }
        let mut left = max;
        while left > 0 {
            let Some(model) = self.models.get(self.current) else {
                break;
            };
            if self.next >= model.n {
                self.current += 1;
                self.next = 0;
                continue;
            }
            let end = model.n.min(self.next + left);
            for i in self.next..end {
                let entity = model.entity(i).into_entity();
                if let Err(e) = account.insert(&model.ty.table, entity) {
                    let drawn = model.entity(i);
                    return Err(DesignError::new(
                        format!("entityTypes[{}]", self.current),
                        format!(
                            "entity {i} ({:?}, {:?}) was refused: {e}; keys must be unique, so let a key include a sequential or random property",
                            drawn.partition_key, drawn.row_key
                        ),
                    ));
                }
            }
            left -= end - self.next;
            self.done += end - self.next;
            self.next = end;
        }
        Ok(self.progress())
    }

    /// Writes everything; returns the number of entities.
    pub fn run<S: Sink + ?Sized>(mut self, account: &mut S) -> Result<u64, DesignError> {
        while !self.step(account, 65_536)?.is_complete() {}
        Ok(self.done)
    }

    fn prepare<S: Sink + ?Sized>(&self, account: &mut S) -> Result<(), DesignError> {
        for (i, table) in self.design.tables.iter().enumerate() {
            match account.entities_in(table) {
                Some(n) if n > 0 => {
                    return Err(DesignError::new(
                        format!("tables[{i}]"),
                        format!("table {table:?} already holds {n} entities: empty it or choose another name"),
                    ))
                }
                Some(_) => {}
                None => {
                    account
                        .create_table(table)
                        .map_err(|e| DesignError::new(format!("tables[{i}]"), e))?;
                }
            }
        }
        Ok(())
    }
}

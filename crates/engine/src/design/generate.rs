//! The data generator: writes a design's entities into an account, in chunks, so a caller
//! (the browser) can show progress and stop between chunks. Same design and seed, same
//! entities, in the same order.

use super::model::Design;
use super::sample::TypeModel;
use super::DesignError;
use crate::Account;
use serde::{Deserialize, Serialize};

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
    pub fn step(&mut self, account: &mut Account, max: u64) -> Result<Progress, DesignError> {
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
    pub fn run(mut self, account: &mut Account) -> Result<u64, DesignError> {
        while !self.step(account, 65_536)?.is_complete() {}
        Ok(self.done)
    }

    fn prepare(&self, account: &mut Account) -> Result<(), DesignError> {
        for (i, table) in self.design.tables.iter().enumerate() {
            match account.table(table) {
                Ok(t) if t.entity_count() > 0 => {
                    return Err(DesignError::new(
                        format!("tables[{i}]"),
                        format!("table {table:?} already holds {} entities: empty it or choose another name", t.entity_count()),
                    ))
                }
                Ok(_) => {}
                Err(_) => {
                    account
                        .create_table(table)
                        .map_err(|e| DesignError::new(format!("tables[{i}]"), e.to_string()))?;
                }
            }
        }
        Ok(())
    }
}

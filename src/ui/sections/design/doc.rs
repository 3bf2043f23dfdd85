//! The section's state, shared by its panels through context, and how it is kept: the
//! design, the two price tables and the target size are written (as one JSON text) to
//! `localStorage` under [`SAVED_KEY`] on every change, beside the workspace
//! (`tablescope.workspace`), as the Code section keeps its code. The section keeps it itself
//! (it is its own wasm): the playground's start then reads and writes nothing for a section
//! that may never be opened, and its first download carries none of it.
//!
//! Invariant: what is saved is what the editor shows, valid or not; a design is read back
//! by its structure only (the editor lists what is wrong with it), so half-finished work is
//! never lost to validation.

use crate::design::{
    project, review, CosmosPrices, Design, DesignError, Evaluation, Finding, Prices, Profile,
    Projection, Target, VERSION,
};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The `localStorage` key of the section's document.
pub const SAVED_KEY: &str = "tablescope.design";

/// The projection's default size: 10⁹ entities.
pub const DEFAULT_TARGET: &str = "1000000000";

#[derive(Clone, Copy)]
pub struct Ctx {
    pub design: RwSignal<Design>,
    pub prices: RwSignal<Prices>,
    /// The price table of the Cosmos DB for Table column.
    pub cosmos_prices: RwSignal<CosmosPrices>,
    /// The projection's total entities, as typed.
    pub target: RwSignal<String>,
    /// The last evaluation on the generated data, with the design it ran on.
    pub evaluation: RwSignal<Option<(Design, Evaluation)>>,
    /// The generated data's values, counted in the tables after a generation or an
    /// evaluation, with the design they were counted against.
    pub profile: RwSignal<Option<(Design, Profile)>>,
    /// The design at the target size, or what is wrong with the design.
    pub projection: Memo<Result<Projection, DesignError>>,
    /// The checklist on the projection (empty while the design has problems).
    pub findings: Memo<Vec<Finding>>,
    /// The last file or link message (imported, refused, opened).
    pub notice: RwSignal<Option<String>>,
}

/// The saved form (the text under [`SAVED_KEY`]).
#[derive(Serialize, Deserialize)]
struct Saved {
    design: Design,
    prices: Prices,
    #[serde(default, rename = "cosmosPrices")]
    cosmos_prices: CosmosPrices,
    target: String,
}

impl Ctx {
    /// Restores the saved design (or starts an empty one), provides the context, and keeps
    /// the saved copy up to date.
    pub fn install() -> Ctx {
        let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
        let text = storage
            .as_ref()
            .and_then(|s| s.get_item(SAVED_KEY).ok().flatten());
        let saved = text
            .as_deref()
            .and_then(|t| serde_json::from_str::<Saved>(t).ok());
        // The text last stored, so an unchanged design is not written again.
        let kept = StoredValue::new(text.unwrap_or_default());
        let (design, prices, cosmos_prices, target) = match saved {
            Some(s) => (s.design, s.prices, s.cosmos_prices, s.target),
            None => (
                empty(),
                Prices::default(),
                CosmosPrices::default(),
                DEFAULT_TARGET.to_string(),
            ),
        };
        let design = RwSignal::new(design);
        let prices = RwSignal::new(prices);
        let cosmos_prices = RwSignal::new(cosmos_prices);
        let target = RwSignal::new(target);
        let projection = Memo::new(move |_| {
            let d = design.get();
            let total = parse_count(&target.get()).unwrap_or(1);
            prices.with(|p| project(&d, &Target::scaled(&d, total), p))
        });
        let findings = Memo::new(move |_| {
            projection.with(|p| match p {
                Ok(p) => design.with(|d| review(d, p)),
                Err(_) => Vec::new(),
            })
        });
        let ctx = Ctx {
            design,
            prices,
            cosmos_prices,
            target,
            evaluation: RwSignal::new(None),
            profile: RwSignal::new(None),
            projection,
            findings,
            notice: RwSignal::new(None),
        };
        Effect::new(move |_| {
            let saved = Saved {
                design: design.get(),
                prices: prices.get(),
                cosmos_prices: cosmos_prices.get(),
                target: target.get(),
            };
            if let (Ok(text), Some(storage)) = (serde_json::to_string(&saved), &storage) {
                if kept.with_value(|k| *k != text) {
                    // A full or refused storage only means the design is not kept.
                    let _ = storage.set_item(SAVED_KEY, &text);
                    kept.set_value(text);
                }
            }
        });
        provide_context(ctx);
        ctx
    }

    pub fn expect() -> Ctx {
        expect_context::<Ctx>()
    }

    /// Replaces the design being edited (gallery, import, link); the old evaluation no
    /// longer applies.
    pub fn open(&self, d: Design) {
        self.evaluation.set(None);
        self.profile.set(None);
        self.design.set(d);
    }

    /// The target size as typed, when it is a count.
    pub fn target_total(&self) -> Option<u64> {
        parse_count(&self.target.get())
    }
}

/// A new, empty design.
pub fn empty() -> Design {
    Design {
        version: VERSION,
        name: crate::i18n::msg::design_new_name(),
        seed: 1,
        tables: Vec::new(),
        entity_types: Vec::new(),
        patterns: Vec::new(),
    }
}

/// A count as a person types it: `1000000000`, `1,000,000,000`, `1e9` or `10^9`.
pub fn parse_count(text: &str) -> Option<u64> {
    let t: String = text
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' ' | '.' | '\u{a0}' | '\u{202f}'))
        .collect();
    if let Some((base, exp)) = t.split_once('^') {
        let (b, e) = (base.parse::<u64>().ok()?, exp.parse::<u32>().ok()?);
        return b.checked_pow(e);
    }
    if let Some((m, e)) = t.split_once(['e', 'E']) {
        let (m, e) = (m.parse::<u64>().ok()?, e.parse::<u32>().ok()?);
        return m.checked_mul(10u64.checked_pow(e)?);
    }
    t.parse().ok()
}

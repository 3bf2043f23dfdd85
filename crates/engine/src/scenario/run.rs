//! Running a scenario: each step against one fresh account on a deterministic clock.

use super::expect::Mismatch;
use super::parse::{parse, step_ref, Scenario, Step};
use crate::account::Account;
use crate::api::{Request, Response};
use crate::target::{CopyReport, Target};
use serde_json::{Map, Value as Json};

/// What one step did.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome {
    pub index: usize,
    /// The request as run, references resolved.
    pub request: Option<Request>,
    pub response: Response,
    pub failures: Vec<Mismatch>,
    /// A `switchTarget` step: what moved to the other service.
    pub switched: Option<CopyReport>,
}

/// A whole run: every step's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub steps: Vec<StepOutcome>,
}

impl Outcome {
    /// One line per failing field: `step 3 (query): scanned: expected 1, got 4`.
    pub fn failures(&self) -> Vec<String> {
        self.steps
            .iter()
            .flat_map(|s| {
                s.failures.iter().map(move |m| {
                    format!(
                        "step {}: {}: expected {}, got {}",
                        s.index, m.field, m.expected, m.actual
                    )
                })
            })
            .collect()
    }
}

/// Steps a scenario one step at a time (the teaching UI shows each step as it runs).
pub struct Runner {
    pub scenario: Scenario,
    pub account: Account,
    pub outcomes: Vec<StepOutcome>,
}

impl Runner {
    pub fn new(scenario: Scenario) -> Self {
        Runner {
            scenario,
            account: Account::default(),
            outcomes: Vec::new(),
        }
    }

    pub fn is_done(&self) -> bool {
        self.outcomes.len() >= self.scenario.steps.len()
    }

    /// Runs the next step; `None` when all have run.
    pub fn step(&mut self) -> Option<&StepOutcome> {
        self.step_with(|step, earlier| {
            let mut request = resolve(&step.request, earlier)?;
            restore_duplicates(&mut request, step);
            Ok(request)
        })
    }

    /// Runs the next step with the request `build` makes from the step and the earlier
    /// outcomes (for a caller that builds requests its own way); `None` when all have run.
    /// A build error becomes the step's `step` mismatch, as in [`Runner::step`].
    pub fn step_with(
        &mut self,
        build: impl FnOnce(&Step, &[StepOutcome]) -> Result<Request, String>,
    ) -> Option<&StepOutcome> {
        let index = self.outcomes.len();
        let step = self.scenario.steps.get(index)?;
        let outcome = if step.op == SWITCH_TARGET {
            match switch_target(&mut self.account, step) {
                Ok(report) => {
                    let response = Response {
                        status: 200,
                        ..Response::default()
                    };
                    StepOutcome {
                        index,
                        request: None,
                        failures: checked(step, &response),
                        response,
                        switched: Some(report),
                    }
                }
                Err(message) => unrunnable(index, message),
            }
        } else {
            match build(step, &self.outcomes) {
                Ok(request) => {
                    let response = self.account.execute(&request);
                    StepOutcome {
                        index,
                        request: Some(request),
                        failures: checked(step, &response),
                        response,
                        switched: None,
                    }
                }
                Err(message) => unrunnable(index, message),
            }
        };
        self.outcomes.push(outcome);
        self.outcomes.last()
    }
}

/// What of the step's expectation the response does not meet.
fn checked(step: &Step, response: &Response) -> Vec<Mismatch> {
    step.expect
        .as_ref()
        .map(|e| e.check(response))
        .unwrap_or_default()
}

/// A step that could not run: its `step` mismatch says why.
fn unrunnable(index: usize, message: String) -> StepOutcome {
    StepOutcome {
        index,
        request: None,
        response: Response::default(),
        failures: vec![Mismatch {
            field: "step",
            expected: "a runnable step".into(),
            actual: message,
        }],
        switched: None,
    }
}

/// The op that moves the account to the other service, keeping its data
/// (`{"op": "switchTarget", "target": "cosmosTable"}`): not a request of the service, so it
/// is run here, the same for every caller of [`Runner::step_with`].
pub const SWITCH_TARGET: &str = "switchTarget";

/// Why a switch to Cosmos DB for Table cannot run in an engine built without it (the docs
/// embeds'); a reader can compare a step's failure with it to say it in their language.
pub const WITHOUT_COSMOS: &str =
    "this build leaves Cosmos DB for Table out (a docs embed): open the lesson in the playground";

/// Runs a `switchTarget` step, or says why it cannot run.
fn switch_target(account: &mut Account, step: &Step) -> Result<CopyReport, String> {
    if let Some(key) = step.request.keys().find(|k| *k != "op" && *k != "target") {
        return Err(format!("unknown field '{key}' (switchTarget takes target)"));
    }
    let target = step
        .request
        .get("target")
        .cloned()
        .map(serde_json::from_value::<Target>)
        .and_then(Result::ok)
        .ok_or("switchTarget needs \"target\": \"tableStorage\" or \"cosmosTable\"")?;
    // An engine without Cosmos keeps every account on storage: the step cannot run there,
    // whichever way it switches (and the copy's code stays out of that build).
    if cfg!(feature = "without-cosmos") {
        return Err(WITHOUT_COSMOS.into());
    }
    Ok(account.switch_target(target))
}

/// Replaces `{"step": N}` references to `earlier` outcomes and builds the request.
fn resolve(fields: &Map<String, Json>, earlier: &[StepOutcome]) -> Result<Request, String> {
    let mut fields = fields.clone();
    resolve_refs(&mut fields, earlier)?;
    if let Some(Json::Array(ops)) = fields.get_mut("operations") {
        for op in ops.iter_mut() {
            if let Json::Object(m) = op {
                resolve_refs(m, earlier)?;
            }
        }
    }
    serde_json::from_value(Json::Object(fields)).map_err(|e| e.to_string())
}

fn resolve_refs(fields: &mut Map<String, Json>, earlier: &[StepOutcome]) -> Result<(), String> {
    if let Some(r) = fields.get("ifMatch").and_then(step_ref) {
        let n = r?;
        let etag = earlier_outcome(earlier, n)?
            .response
            .etag
            .ok_or_else(|| format!("step {n} returned no ETag"))?;
        fields.insert("ifMatch".into(), Json::String(etag.into()));
    }
    if let Some(r) = fields.get("continuation").and_then(step_ref) {
        let n = r?;
        let c = earlier_outcome(earlier, n)?
            .response
            .continuation
            .clone()
            .ok_or_else(|| format!("step {n} returned no continuation"))?;
        fields.insert(
            "continuation".into(),
            serde_json::to_value(c).map_err(|e| e.to_string())?,
        );
    }
    Ok(())
}

/// Outcome `n` of `earlier`, or why a `{"step": n}` reference cannot name it.
pub fn earlier_outcome(earlier: &[StepOutcome], n: usize) -> Result<&StepOutcome, String> {
    earlier
        .get(n)
        .ok_or_else(|| format!("step reference {n} is not an earlier step"))
}

/// Runs every step.
pub fn run(scenario: Scenario) -> Outcome {
    let mut runner = Runner::new(scenario);
    while runner.step().is_some() {}
    Outcome {
        steps: runner.outcomes,
    }
}

/// Parses and runs scenario text.
pub fn run_text(text: &str) -> Result<Outcome, String> {
    parse(text).map(run)
}

/// Puts back the entities as written (with any duplicate members) into the built request.
fn restore_duplicates(request: &mut Request, step: &Step) {
    use crate::api::BatchRequest as B;
    use Request as R;
    match request {
        R::Insert { entity, .. }
        | R::UpsertReplace { entity, .. }
        | R::UpsertMerge { entity, .. }
        | R::Replace { entity, .. }
        | R::Merge { entity, .. } => {
            if let Some(raw) = &step.entity {
                *entity = raw.clone();
            }
        }
        R::Batch { operations, .. } => {
            for (op, raw) in operations.iter_mut().zip(&step.operation_entities) {
                let (B::Insert { entity }
                | B::UpsertReplace { entity }
                | B::UpsertMerge { entity }
                | B::Replace { entity, .. }
                | B::Merge { entity, .. }) = op
                else {
                    continue;
                };
                if let Some(raw) = raw {
                    *entity = raw.clone();
                }
            }
        }
        _ => {}
    }
}

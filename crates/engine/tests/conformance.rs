#![cfg(not(target_arch = "wasm32"))]
//! Replays every scenario file under tests/conformance/ (recursively) through the scenario
//! runner. The expectations were recorded from Azurite and corrected to the service where
//! docs/differences.md#where-azurite-differs-from-the-service lists a deviation (see scripts/conformance/README.md).

use std::path::{Path, PathBuf};
use tablescope_engine::scenario;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

#[test]
fn every_conformance_scenario_holds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths.sort();
    let mut failures = Vec::new();
    let mut steps = 0;
    let mut expects = 0;
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap();
        let name = p.strip_prefix(&root).unwrap().display().to_string();
        match scenario::parse(&text) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(s) => {
                steps += s.steps.len();
                expects += s.steps.iter().filter(|st| st.expect.is_some()).count();
                let outcome = scenario::run(s);
                failures.extend(
                    outcome
                        .failures()
                        .into_iter()
                        .map(|f| format!("{name}: {f}")),
                );
            }
        }
    }
    eprintln!(
        "conformance: {} files, {steps} steps, {expects} with expectations",
        paths.len()
    );
    assert!(
        failures.is_empty(),
        "{} failing fields:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

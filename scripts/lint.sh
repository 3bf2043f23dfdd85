#!/usr/bin/env bash
# The lints CI holds the code to ([workspace.lints] in Cargo.toml says which and why): the
# libraries and binaries with every lint denied, the tests and benches the same except that
# they may unwrap (a test's unwrap is its assertion). The app is linted as it ships, for wasm32.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo fmt --all -- --check
cargo clippy --locked --workspace -- -D warnings
cargo clippy --locked --workspace --all-targets -- -D warnings -A clippy::unwrap_used -A clippy::expect_used
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins -- -D warnings
cargo clippy --locked --target wasm32-unknown-unknown --lib --test 'web_*' -- -D warnings -A clippy::unwrap_used -A clippy::expect_used

#!/usr/bin/env bash
# Installs what is missing, then runs every test: native tests, the official SDKs (Node and
# Python) against tablescope-serve, wasm tests in headless Chromium, the release build
# (scripts/dist.sh, run with no browser to be had) and its size budget, and the end-to-end
# tests against dist/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

ensure_build_tools
ensure_browser
# crates/serve/tests/code_sdk.rs runs generated code with the real SDKs during the native tests.
ensure_node_packages
ensure_python_sdk
# tests/e2e/graduate.test.mjs runs Azurite (scripts/bench's own package) beside tablescope serve.
[ -d scripts/bench/node_modules/azurite ] || npm ci --prefix scripts/bench --no-audit --no-fund
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

step "lints: cargo fmt --check and cargo clippy -D warnings, natively and for wasm32 (scripts/lint.sh)"
scripts/lint.sh

step "cargo test (native: engine, wire, conformance, tablescope-serve with its kill -9 test, show-as-code with the SDKs, doc tests)"
cargo test --locked --no-fail-fast --workspace

step "SDK conformance: @azure/data-tables and azure-data-tables against tablescope-serve --target storage and --target cosmos (tests/sdk/run.sh)"
tests/sdk/run.sh

step "cargo test --target wasm32-unknown-unknown (lib wasm tests, tests/web_*.rs in headless Chromium)"
# Only the lib's wasm tests (persistence planner and decoder) and tests/web_*.rs are wasm
# tests; every other test file is native-only.
cargo test --locked --no-fail-fast --target wasm32-unknown-unknown --lib --test 'web_*'

step "the build's own checks (node --test tests/build/: the wasm-bindgen the split's glue patches were written for)"
node --test tests/build/

step "the release build with no browser to be had: scripts/dist.sh (build, split, check, size gate) through scripts/without-browser.sh"
scripts/without-browser.sh scripts/dist.sh

step "end-to-end tests (node --test tests/e2e/)"
node --test tests/e2e/

step "all tests passed"

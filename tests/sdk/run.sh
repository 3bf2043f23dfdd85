#!/usr/bin/env bash
# The SDK conformance suites: the official @azure/data-tables (Node, tests/sdk/js) and
# azure-data-tables (Python, tests/sdk/python) against `tablescope-serve`, each suite with a
# server of its own (tests/sdk/serve.sh), both at once. Their outputs are printed one after the
# other once both are done; the run fails if either suite fails or runs no test.
#
# Installs what is missing first (npm packages, .venv-sdk), then builds the server once, as a
# debug build: scripts/test.sh has just built it for the serve tests, so this costs nothing
# there, and the suites' few thousand requests take seconds either way.
#   cargo build -p tablescope-serve
# scripts/test.sh runs this; it also runs alone.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"

ensure_node_packages
ensure_python_sdk

step "cargo build -p tablescope-serve"
cargo build --locked -p tablescope-serve
export TABLESCOPE_SERVE_BIN="$ROOT/target/debug/tablescope-serve"

step "SDK suites against tablescope-serve: node --test tests/sdk/js/ and pytest tests/sdk/python (in parallel)"
out="$(mktemp -d "${TMPDIR:-/tmp}/tablescope-sdk.XXXXXX")"
started=$SECONDS
# Together they take seconds; the timeout keeps a hung suite from holding CI.
TABLESCOPE_SERVE_LOG="$out/js-server.log" timeout -k 10 300 tests/sdk/serve.sh \
  node --test tests/sdk/js/ >"$out/js.out" 2>&1 &
js=$!
TABLESCOPE_SERVE_LOG="$out/python-server.log" timeout -k 10 300 tests/sdk/serve.sh \
  "$SDK_VENV/bin/python" -m pytest -q tests/sdk/python >"$out/python.out" 2>&1 &
python=$!
js_status=0
python_status=0
wait "$js" || js_status=$?
wait "$python" || python_status=$?

printf '\n--- @azure/data-tables (node --test tests/sdk/js/), exit %s\n' "$js_status"
cat "$out/js.out"
printf '\n--- azure-data-tables (pytest tests/sdk/python), exit %s\n' "$python_status"
cat "$out/python.out"
# A suite that tests nothing is a failure here: pytest exits 5 when it collected no test;
# node --test exits 0, so its count is read.
[ "$python_status" -ne 5 ] || echo "pytest collected no tests in tests/sdk/python" >&2
if [ "$js_status" -eq 0 ] && ! grep -Eq '^# pass [1-9]' "$out/js.out"; then
  echo "node --test ran no test in tests/sdk/js" >&2
  js_status=1
fi
printf '\nSDK suites: %s s (server logs in %s)\n' "$((SECONDS - started))" "$out"
if [ "$js_status" -ne 0 ] || [ "$python_status" -ne 0 ]; then
  echo "SDK suites failed: node exit $js_status, pytest exit $python_status" >&2
  exit 1
fi

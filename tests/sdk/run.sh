#!/usr/bin/env bash
# The SDK conformance suites: the official @azure/data-tables (Node, tests/sdk/js) and
# azure-data-tables (Python, tests/sdk/python) against `tablescope-serve`, each suite once on
# each target (`--target storage`, `--target cosmos`: the suites expect the served service's
# answers), each run with a server of its own (tests/sdk/serve.sh), all four at once. Their
# outputs are printed one after the other once all are done; the run fails if any suite fails
# or runs no test.
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

step "SDK suites against tablescope-serve --target storage and --target cosmos: node --test tests/sdk/js/ and pytest tests/sdk/python (all four in parallel)"
out="$(mktemp -d "${TMPDIR:-/tmp}/tablescope-sdk.XXXXXX")"
started=$SECONDS
# Together they take seconds; the timeout keeps a hung suite from holding CI. Each suite has a
# server of its own, on the target TABLESCOPE_TARGET names (tests/sdk/serve.sh).
declare -A pids
for target in storage cosmos; do
  TABLESCOPE_TARGET=$target TABLESCOPE_SERVE_LOG="$out/js-$target-server.log" timeout -k 10 300 \
    tests/sdk/serve.sh node --test tests/sdk/js/ >"$out/js-$target.out" 2>&1 &
  pids[js-$target]=$!
  TABLESCOPE_TARGET=$target TABLESCOPE_SERVE_LOG="$out/python-$target-server.log" timeout -k 10 300 \
    tests/sdk/serve.sh "$SDK_VENV/bin/python" -m pytest -q tests/sdk/python >"$out/python-$target.out" 2>&1 &
  pids[python-$target]=$!
done

failed=()
for target in storage cosmos; do
  js_status=0
  python_status=0
  wait "${pids[js-$target]}" || js_status=$?
  wait "${pids[python-$target]}" || python_status=$?
  printf '\n--- @azure/data-tables (node --test tests/sdk/js/) against --target %s, exit %s\n' "$target" "$js_status"
  cat "$out/js-$target.out"
  printf '\n--- azure-data-tables (pytest tests/sdk/python) against --target %s, exit %s\n' "$target" "$python_status"
  cat "$out/python-$target.out"
  # A suite that tests nothing is a failure here: pytest exits 5 when it collected no test;
  # node --test exits 0, so its count is read.
  [ "$python_status" -ne 5 ] || echo "pytest collected no tests in tests/sdk/python" >&2
  if [ "$js_status" -eq 0 ] && ! grep -Eq '^# pass [1-9]' "$out/js-$target.out"; then
    echo "node --test ran no test in tests/sdk/js" >&2
    js_status=1
  fi
  [ "$js_status" -eq 0 ] || failed+=("node on $target: exit $js_status")
  [ "$python_status" -eq 0 ] || failed+=("pytest on $target: exit $python_status")
done
printf '\nSDK suites: %s s (server logs in %s)\n' "$((SECONDS - started))" "$out"
if [ "${#failed[@]}" -ne 0 ]; then
  echo "SDK suites failed: ${failed[*]}" >&2
  exit 1
fi

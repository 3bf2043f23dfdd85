#!/usr/bin/env bash
# Runs a command against a fresh `tablescope-serve` (the SDK conformance suites' launcher).
#
#   tests/sdk/serve.sh COMMAND [ARGS...]
#
# Builds the server (`cargo build -p tablescope-serve`, debug) unless
# TABLESCOPE_SERVE_BIN names a binary, starts it in memory on a free loopback port (--port 0:
# the server picks one and names it on stderr, so no other program can take it in between),
# with its default account and key (devstoreaccount1 and the development key, as Azurite),
# runs COMMAND with TABLESCOPE_TABLE_ENDPOINT=http://127.0.0.1:PORT/devstoreaccount1, stops
# the server and exits with COMMAND's status. The server's request log (one line per request)
# is kept in TABLESCOPE_SERVE_LOG (a temporary file by default, removed after a success); its
# last lines are printed when COMMAND fails, so a failing SDK call can be matched with the
# request the server saw.
#
# If this is wrong, the SDK suites in scripts/test.sh fail before a single test runs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ $# -gt 0 ] || { echo "usage: tests/sdk/serve.sh COMMAND [ARGS...]" >&2; exit 2; }

bin="${TABLESCOPE_SERVE_BIN:-}"
if [ -z "$bin" ]; then
  (cd "$ROOT" && cargo build --locked -p tablescope-serve)
  bin="$ROOT/target/debug/tablescope-serve"
fi
[ -x "$bin" ] || { echo "serve.sh: $bin is not an executable" >&2; exit 1; }

log="${TABLESCOPE_SERVE_LOG:-}"
own_log=false
if [ -z "$log" ]; then
  log="$(mktemp "${TMPDIR:-/tmp}/tablescope-serve.XXXXXX")"
  own_log=true
fi
: >"$log"
# TABLESCOPE_TARGET: the service the account models, `storage` (the default) or `cosmos`; the
# suites read it to expect that service's answers.
target="${TABLESCOPE_TARGET:-storage}"
case "$target" in
  storage | cosmos) ;;
  *) echo "serve.sh: TABLESCOPE_TARGET=$target: not storage or cosmos" >&2; exit 2 ;;
esac
export TABLESCOPE_TARGET="$target"
"$bin" --host 127.0.0.1 --port 0 --in-memory --target "$target" >>"$log" 2>&1 &
server=$!
stop_server() {
  if kill -0 "$server" 2>/dev/null; then
    # Braced so that bash's "Terminated" job notice goes to /dev/null too.
    { kill "$server" && wait "$server"; } 2>/dev/null || true
  fi
}
trap stop_server EXIT
trap 'exit 143' TERM INT

# The server writes `tablescope-serve: listening on http://127.0.0.1:PORT/ACCOUNT` once bound.
endpoint=""
for _ in $(seq 1 300); do
  endpoint="$(sed -n 's|^tablescope-serve: listening on \(http://[^ ]*\)$|\1|p' "$log" | head -n 1)"
  [ -n "$endpoint" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "serve.sh: $bin exited before listening:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$endpoint" ]; then
  echo "serve.sh: $bin named no address after 30 s:" >&2
  cat "$log" >&2
  exit 1
fi

status=0
TABLESCOPE_TABLE_ENDPOINT="$endpoint" "$@" || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "serve.sh: the server died during the run; its log ($log) ends:" >&2
  tail -n 40 "$log" >&2
  status=1
elif [ "$status" -ne 0 ]; then
  echo "serve.sh: $* exited with $status; the server's log ($log) ends:" >&2
  tail -n 40 "$log" >&2
elif $own_log; then
  rm -f "$log"
fi
exit "$status"

#!/usr/bin/env bash
# How fast a durable tablescope-serve store holding N entities starts, and how much memory it
# then holds: fills a --location directory with the workload (1,000 partitions) straight
# through the server's own store code, then starts the server on it R times and prints the
# time from spawn to the first answered point get, VmRSS/VmHWM from /proc, the files' sizes
# and the engine's own resident memory holding the same entities. Two directories: all in a
# snapshot, then half of the entities written after it (so the start replays a large log).
#
#   scripts/bench/startup.sh [--entities N] [--runs R] [--in-log M]
#
# With --in-log, only that one directory is measured. docs/benchmarks.md has the figures.
set -euo pipefail
# cwd = repo root; gives step and apt_install.
source "$(dirname "${BASH_SOURCE[0]}")/../setup.sh"

entities=1000000
runs=3
in_log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --entities) entities="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --in-log) in_log="$2"; shift 2 ;;
    *) echo "unknown flag $1" >&2; exit 2 ;;
  esac
done

# The serve profile: release at opt-level 3, as the README builds the server.
step "cargo build --profile serve -p tablescope-serve --bin tablescope-serve --example startup"
cargo build --locked --profile serve -p tablescope-serve --bin tablescope-serve --example startup

for m in ${in_log:-0 $((entities / 2))}; do
  step "startup --entities $entities --in-log $m --runs $runs"
  target/serve/examples/startup --bin target/serve/tablescope-serve \
    --entities "$entities" --in-log "$m" --runs "$runs"
done

#!/usr/bin/env bash
# One command for the lean-client benchmark: Azurite (in memory) and tablescope serve (in
# memory and durable) on loopback ports, loaded with the workload, each driven by autocannon at
# 1 and 16 connections with an account SAS in the URL, alternated over rounds; prints requests/s,
# mean and p99 latency, the server's CPU per request (from /proc), ratios with min–max and the
# machine's load, and writes the raw figures to target/bench/lean-*.json.
#
#   scripts/bench/lean.sh [--quick] [--rounds N] [--seconds S] [--connections 1,16]
#                         [--only azurite,serve-memory,serve-durable]
#                         [--lines pointGet,partitionQuery,insert,scan]
#
# Installs only what is missing: the repo's npm packages (the SDK loads the workload and signs
# the SAS), scripts/bench's (Azurite) and scripts/bench/lean's (autocannon), each pinned by its
# package-lock.json.
set -euo pipefail
# cwd = repo root; gives step and apt_install.
source "$(dirname "${BASH_SOURCE[0]}")/../setup.sh"

command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
for dir in . scripts/bench scripts/bench/lean; do
  if ! npm_packages_current "$dir"; then
    step "npm ci --prefix $dir"
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
done

# The serve profile: release at opt-level 3, as the README builds the server.
step "cargo build --profile serve -p tablescope-serve"
cargo build --locked --profile serve -p tablescope-serve

step "node scripts/bench/serve-vs-azurite.mjs --serve-bin target/serve/tablescope-serve $*"
exec node scripts/bench/serve-vs-azurite.mjs --serve-bin target/serve/tablescope-serve "$@"

#!/usr/bin/env bash
# Installs what is missing, then serves Tablescope at http://127.0.0.1:8080/:
#
#   scripts/run.sh              a debug build, rebuilt on save (trunk serve)
#   scripts/run.sh --release    the shippable site: scripts/dist.sh builds dist/, which is then
#                               served as a static host would (tests/e2e/serve.mjs)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

case "${1:-}" in
  --release)
    scripts/dist.sh
    step "serve dist/"
    echo "Tablescope: open http://127.0.0.1:8080/ (Ctrl-C stops)"
    exec node tests/e2e/serve.mjs dist 8080
    ;;
  "") ;;
  *) echo "usage: scripts/run.sh [--release]" >&2; exit 2 ;;
esac

ensure_build_tools

step "trunk serve"
echo "Tablescope: open http://127.0.0.1:8080/ (Ctrl-C stops)"
exec trunk serve index.html --address 127.0.0.1 --port 8080

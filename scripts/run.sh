#!/usr/bin/env bash
# Installs what is missing, then serves Tablescope at http://127.0.0.1:8080/ (rebuilds on save).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

ensure_build_tools

step "trunk serve"
echo "Tablescope: open http://127.0.0.1:8080/ (Ctrl-C stops)"
exec trunk serve index.html --address 127.0.0.1 --port 8080

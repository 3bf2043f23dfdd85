#!/usr/bin/env bash
# One command for the side-by-side benchmark (issues #11 and #16): the official JS SDK runs the
# same workload against Azurite and against tablescope serve (in memory and durable), and the
# engine runs it in-process, natively and as wasm in headless Chromium, each through the typed
# API and through Account::execute; lines alternated over three rounds; prints Markdown tables
# (ratios with min, median and max, the machine's load) and writes the raw JSON to target/bench/.
#
#   scripts/bench/run.sh [--quick] [--rounds N] [--only azurite,serve-memory,serve-durable,
#                        engine-native-typed,engine-native,engine-wasm-typed,engine-wasm]
#
# Installs only what is missing: the repo's npm packages (the SDK), scripts/bench's own (Azurite,
# pinned in scripts/bench/package-lock.json). Builds tablescope serve when this checkout has it;
# without it, Azurite's line runs alone and the script says so.
set -euo pipefail
# cwd = repo root; gives step and apt_install.
source "$(dirname "${BASH_SOURCE[0]}")/../setup.sh"

command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
if ! npm_packages_current .; then
  step "npm ci (the repo's packages: @azure/data-tables)"
  npm ci --no-audit --no-fund
fi
if ! npm_packages_current scripts/bench; then
  step "npm ci --prefix scripts/bench (Azurite)"
  npm ci --prefix scripts/bench --no-audit --no-fund
fi

# True when the root package declares the tablescope-serve binary and its source is there.
has_serve_bin() {
  cargo metadata --no-deps --format-version 1 2>/dev/null | node -e '
    let text = "";
    process.stdin.on("data", (c) => (text += c)).on("end", () => {
      const root = JSON.parse(text).packages.find((p) => p.name === "tablescope");
      const bin = root?.targets.find(
        (t) => t.name === "tablescope-serve" && t.kind.includes("bin"));
      process.exit(bin && require("fs").existsSync(bin.src_path) ? 0 : 1);
    });'
}

serve_args=()
if ! command -v cargo >/dev/null; then
  echo "cargo is missing: tablescope serve cannot be built, so only Azurite's line runs" >&2
elif has_serve_bin; then
  # The serve profile: release at opt-level 3 (release itself is opt-level z, for the wasm).
  step "cargo build --profile serve -p tablescope-serve"
  cargo build --locked --profile serve -p tablescope-serve
  serve_args=(--serve-bin target/serve/tablescope-serve)
else
  echo "tablescope serve is not in this checkout yet (no tablescope-serve bin):" \
    "only Azurite's line runs" >&2
fi

# The engine's lines (crates/bench): natively with the serve profile (opt-level 3, as the
# server ships the engine), in Chromium as wasm with the release profile (as the playground
# ships it: opt-level z, the engine crate too).
engine_args=()
if command -v cargo >/dev/null && [ -f crates/bench/Cargo.toml ]; then
  step "cargo build --profile serve -p tablescope-bench (the engine natively)"
  cargo build --locked --profile serve -p tablescope-bench
  engine_args+=(--engine-bin target/serve/engine-bench)
  # From setup.sh: the wasm32 target (rustup), Debian's Chromium (playwright-core drives it).
  ensure_rust
  ensure_browser
  step "cargo build --release --target wasm32-unknown-unknown -p tablescope-bench (the engine as wasm)"
  cargo build --locked --release --target wasm32-unknown-unknown -p tablescope-bench
  engine_args+=(--engine-wasm target/wasm32-unknown-unknown/release/engine-bench.wasm)
fi

step "node scripts/bench/sdk-vs-azurite.mjs ${serve_args[*]} ${engine_args[*]} $*"
exec node scripts/bench/sdk-vs-azurite.mjs "${serve_args[@]}" "${engine_args[@]}" "$@"

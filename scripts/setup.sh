# Sourced by scripts/run.sh, scripts/test.sh and scripts/dist.sh: installs whatever is missing,
# checking versions rather than presence, so a second run installs nothing. Everything comes
# from crates.io, npm or Debian; nothing else is reachable on these machines.
#
# After sourcing: cwd is the repo root, and PATH has cargo's bin dir and node_modules/.bin
# (binaryen's wasm-opt 132, which Trunk.toml pins) in front.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

TRUNK_VERSION=0.21.14

step() { printf '\n==> %s\n' "$*"; }

# Runs a command as root (apt-get): directly when we are root, through sudo otherwise.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
  step "apt-get install $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

# The exact wasm-bindgen version in Cargo.lock: the CLI must equal the crate.
wasm_bindgen_locked_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_rust() {
  command -v cargo >/dev/null || { echo "cargo is missing: install Rust with rustup first" >&2; exit 1; }
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    step "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    step "cargo install trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
    cargo install --locked trunk --version "$TRUNK_VERSION" --no-default-features --force
  fi
}

ensure_wasm_bindgen() {
  local version
  version="$(wasm_bindgen_locked_version)"
  [ -n "$version" ] || { echo "wasm-bindgen is not in Cargo.lock" >&2; exit 1; }
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ] ||
     [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" != "wasm-bindgen-test-runner $version" ]; then
    step "cargo install wasm-bindgen-cli $version (about 3 minutes)"
    # Not --locked: this version's lockfile wants a webpki-roots newer than crates.io serves.
    cargo install wasm-bindgen-cli --version "$version" --force
  fi
}

# True when DIR/node_modules (DIR defaults to the repo root) holds exactly the versions
# DIR/package-lock.json names.
npm_packages_current() {
  (cd "${1:-.}" && node -e '
    const lock = require("./package-lock.json");
    for (const [path, meta] of Object.entries(lock.packages)) {
      if (!path || meta.link) continue;
      let installed;
      // Optional packages for other platforms (esbuild'"'"'s @esbuild/*) are never installed here.
      try { installed = require("./" + path + "/package.json").version; } catch { if (meta.optional) continue; process.exit(1); }
      if (installed !== meta.version) process.exit(1);
    }' 2>/dev/null)
}

ensure_node_packages() {
  command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
  if ! npm_packages_current; then
    step "npm ci (binaryen for wasm-opt, playwright-core for the end-to-end tests)"
    npm ci --no-audit --no-fund
  fi
  local found
  found="$(wasm-opt --version 2>/dev/null || true)"
  case "$found" in
    *"(version_132)"*) ;;
    *) echo "wasm-opt on PATH is not binaryen 132 (found: ${found:-none})" >&2; exit 1 ;;
  esac
}

# Trunk runs cargo --offline (Trunk.toml), so the crates must be in cargo's cache first.
fetch_crates() {
  step "cargo fetch --locked"
  cargo fetch --locked
}

ensure_build_tools() {
  ensure_rust
  ensure_trunk
  ensure_wasm_bindgen
  ensure_node_packages
  fetch_crates
}

# binaryen's wasm-split, which splits the release wasm (scripts/split.mjs, run by
# scripts/dist.sh). Debian's binaryen (108) has it; the npm package (whose wasm-opt 132 Trunk
# uses) does not. Installing it also puts Debian's wasm-opt in /usr/bin, behind
# node_modules/.bin on PATH.
ensure_wasm_split() {
  command -v wasm-split >/dev/null || apt_install binaryen
}

ensure_browser() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    apt_install chromium chromium-driver
  fi
}

# The official Python SDK for the SDK conformance suite (tests/sdk/python), in a virtual
# environment of its own: .venv-sdk/ at the repo root, every package pinned in
# tests/sdk/python/requirements.txt. Debian ships python3 without venv/ensurepip; then
# python3-venv is installed and the environment made again.
SDK_VENV="$ROOT/.venv-sdk"
SDK_REQUIREMENTS="$ROOT/tests/sdk/python/requirements.txt"

# True when .venv-sdk holds exactly the versions requirements.txt pins.
python_sdk_current() {
  [ -x "$SDK_VENV/bin/python" ] || return 1
  "$SDK_VENV/bin/python" - "$SDK_REQUIREMENTS" <<'PY' 2>/dev/null
import sys
from importlib.metadata import PackageNotFoundError, version
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, _, pinned = line.partition("==")
    try:
        if version(name) != pinned:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}

ensure_python_sdk() {
  command -v python3 >/dev/null || apt_install python3
  if [ ! -x "$SDK_VENV/bin/pip" ]; then
    step "python3 -m venv .venv-sdk"
    rm -rf "$SDK_VENV"
    if ! python3 -m venv "$SDK_VENV"; then
      rm -rf "$SDK_VENV"
      apt_install python3-venv
      python3 -m venv "$SDK_VENV"
    fi
  fi
  if ! python_sdk_current; then
    step "pip install -r tests/sdk/python/requirements.txt (into .venv-sdk)"
    "$SDK_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$SDK_REQUIREMENTS"
  fi
}

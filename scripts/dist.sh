#!/usr/bin/env bash
# Makes the shippable site in dist/, with no browser: build, bundle, split, check, size gate.
#
#   scripts/dist.sh              the release build (scripts/test.sh, CI and run.sh --release)
#   scripts/dist.sh --profile    the same, but first regenerates the split's list of start-up
#                                functions (scripts/split/primary.txt) by playing the start-up
#                                flows in headless Chromium: run it when those flows change,
#                                and commit the list
#
# 1. trunk build --release: six wasm modules, the post-build hooks (the SDK and Code bundles,
#    the one-language lessons, minification), the start script (www/start.js) inlined. The
#    playground's wasm keeps its functions' names (rustc's symbols, wasm-opt --debuginfo) for
#    the split;
# 2. the split (scripts/split.mjs): the primary wasm keeps the functions primary.txt names,
#    the deferred wasm gets the rest; neither ships names;
# 3. the check of what was built (scripts/check-dist.mjs);
# 4. the size report (scripts/size-report.sh), which fails when a page load is over budget.
#
# docs/build.md takes each step in turn.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

profile=false
for arg in "$@"; do
  case "$arg" in
    --profile) profile=true ;;
    *) echo "usage: scripts/dist.sh [--profile]" >&2; exit 2 ;;
  esac
done

ensure_build_tools
ensure_wasm_split
if $profile; then ensure_browser; fi

step "trunk build index.html --release (function names kept for the split)"
# strip = true (Cargo.toml) would drop the symbols the split chooses functions by; debuginfo
# is all a release wasm has to strip besides. Only this build's wasm sees it (the variable is
# this process's), and wasm-split writes no names, so nothing shipped carries them.
CARGO_PROFILE_RELEASE_STRIP=debuginfo trunk build index.html --release

if $profile; then
  step "the split's start-up functions, played in headless Chromium (scripts/split/profile.mjs)"
  node scripts/split/profile.mjs dist
fi

step "split the playground's wasm (scripts/split.mjs, by scripts/split/primary.txt)"
node scripts/split.mjs dist

step "check dist/ (scripts/check-dist.mjs)"
node scripts/check-dist.mjs dist

step "size report (scripts/size-report.sh)"
scripts/size-report.sh dist

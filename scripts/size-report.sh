#!/usr/bin/env bash
# Raw and gzip (-9) sizes of what dist/ ships, per page load:
#
# - playground: what the app's page downloads before it works: the page, its icon, the primary
#   of the playground's split wasm (scripts/split.mjs), its JS and the CSS; and the service
#   worker, although the start script registers it only once the app is usable and idle;
# - deferred: the rest of the playground's code, which the page fetches once the app has
#   started (reported; it is not part of the page load);
# - embed (`?embed=1`): everything a docs embed downloads, foreground and background: the page,
#   its icon, the start guard (start-guard.js, a classic script every visit runs first), the
#   lessons module (learn.js, learn_bg.wasm), the CSS but playground.css, and its lesson in its
#   language (the largest one-language scenario file counts). An embed registers no service worker, so nothing follows
#   in the background (tests/e2e/first-visit.test.mjs counts it in a real browser);
# - code cell embed (`?embed=1&snippet=…` or `&code=…`, issue #12 item 3): everything a code cell
#   downloads with a run: the page, its icon, the start guard, the cell module (cell.js,
#   cell_bg.wasm), the runner with the cell's CSS (code/tablescope-cell-<hash>.js), the sandbox
#   worker and the SDK (a run loads both), the CSS but playground.css and teach.css, the largest
#   lesson in one language and the largest snippet (tests/e2e/first-visit.test.mjs counts it in
#   a real browser);
# - lessons on first use: what opening the Learn section adds to the playground.
# - SDK on first use: the official @azure/data-tables SDK with the in-page transport
#   (sdk/tablescope-sdk-<hash>.js, scripts/bundle-sdk.mjs), imported when SDK code first runs;
#   it lives in sdk/, so the playground's tablescope-*.js pattern never counts it.
# - Code section on first use: the editor (CodeMirror 6) with the runner, and the sandbox
#   worker (code/tablescope-code[-worker]-<hash>.js, scripts/bundle-code.mjs); with the SDK,
#   what opening the Code section and running code adds.
#
# - Design section on first use: the section's own wasm (design.js, design_bg.wasm,
#   src/bin/design.rs), imported when the section is first shown (src/ui/design_host.rs).
#
# - show as code on first use: the code generators' own wasm (codegen.js, codegen_bg.wasm,
#   src/bin/codegen.rs), imported when a show-as-code panel first opens.
# - Connect section on first use: its own wasm (connect.js, connect_bg.wasm, src/bin/connect.rs),
#   imported when the section first shows.
#
# BUDGET_KB is the product's budget for a page load (issues #2 and #4: under 300 KB gzip). The
# playground and the embed must both stay within it. A dist that was not split fails: its
# playground wasm is the whole app.
set -euo pipefail

DIST="${1:-dist}"
BUDGET_KB=300
BUDGET=$((BUDGET_KB * 1024))

shopt -s nullglob
css=("$DIST"/*.css)
# The CSS by who loads it: style-<hash>.css every page; playground.css the playground's start
# guard; teach.css an embed at start and the playground only when Learn or a partition map
# first shows (so it is not in the playground's load).
playground_css=()
embed_css=()
for f in "${css[@]}"; do
  case "$(basename "$f")" in
    playground.css) playground_css+=("$f") ;;
    teach.css) embed_css+=("$f") ;;
    *) playground_css+=("$f"); embed_css+=("$f") ;;
  esac
done
page=("$DIST"/index.html "$DIST"/favicon*.svg)
playground=("${page[@]}" "$DIST"/tablescope-*_bg.wasm "$DIST"/tablescope-*.js "$DIST"/start-guard.js "$DIST"/sw.js "${playground_css[@]}")
# The largest lesson stands for the one an embed shows: an embed downloads the lesson in its
# own language, scenarios/<lang>/<file> (scripts/lessons.mjs), so the largest of any language.
lesson=$(ls -S "$DIST"/scenarios/*/*.json | grep -v '/index\.json$' | head -n 1)
deferred=("$DIST"/tablescope-deferred-*.wasm)
lessons=("$DIST"/learn_bg.wasm "$DIST"/learn.js)
sdk=("$DIST"/sdk/tablescope-sdk-*.js)
code=("$DIST"/code/tablescope-code-*.js)
cell=("$DIST"/cell_bg.wasm "$DIST"/cell.js "$DIST"/code/tablescope-cell-*.js "$DIST"/code/tablescope-code-worker-*.js)
snippet=$(ls -S "$DIST"/snippets/*.js | head -n 1)
codegen=("$DIST"/codegen_bg.wasm "$DIST"/codegen.js)
connect=("$DIST"/connect_bg.wasm "$DIST"/connect.js)
design=()
for f in "$DIST"/design_bg.wasm "$DIST"/design.js; do
  if [ -f "$f" ]; then design+=("$f"); fi
done
if [ "${#playground[@]}" -lt 3 ] || [ "${#lessons[@]}" -ne 2 ]; then
  echo "size-report: $DIST lacks the playground or the lessons module (run trunk build index.html --release)" >&2
  exit 1
fi
if [ "${#sdk[@]}" -ne 1 ]; then
  echo "size-report: $DIST lacks the SDK bundle sdk/tablescope-sdk-<hash>.js (Trunk's post_build hook runs scripts/bundle-sdk.mjs)" >&2
  exit 1
fi
if [ "${#code[@]}" -ne 3 ]; then
  echo "size-report: $DIST lacks the Code section's bundles code/tablescope-code[-worker|-acorn]-<hash>.js (Trunk's post_build hook runs scripts/bundle-code.mjs)" >&2
  exit 1
fi
if [ "${#cell[@]}" -ne 4 ]; then
  echo "size-report: $DIST lacks the code cell's module (cell.js, cell_bg.wasm) or its runner code/tablescope-cell-<hash>.js" >&2
  exit 1
fi
if [ "${#deferred[@]}" -ne 1 ]; then
  echo "size-report: $DIST is not split (run node scripts/split.mjs $DIST after trunk build)" >&2
  exit 1
fi

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
gz() { gzip -9 -c "$1" | wc -c; }

# Prints one table of files and sets TOTAL to their gzip total.
table() {
  local title=$1
  shift
  local raw_total=0 gz_total=0 raw z f
  printf '\n%s\n%-44s %12s %12s\n' "$title" file raw gzip
  for f in "$@"; do
    raw=$(wc -c < "$f")
    z=$(gz "$f")
    raw_total=$((raw_total + raw))
    gz_total=$((gz_total + z))
    printf '%-44s %12s %12s\n' "$(basename "$f")" "$(kb "$raw")" "$(kb "$z")"
  done
  printf '%-44s %12s %12s\n' total "$(kb "$raw_total")" "$(kb "$gz_total")"
  TOTAL=$gz_total
}

table "playground: the app's page load" "${playground[@]}"
app=$TOTAL
table "deferred: fetched once the playground has started" "${deferred[@]}"
table "embed (?embed=1): everything the docs embed downloads" "${page[@]}" "$DIST"/start-guard.js "${lessons[@]}" "${embed_css[@]}" "$lesson"
embed=$TOTAL
cell_css=()
for f in "${embed_css[@]}"; do
  [ "$(basename "$f")" = teach.css ] || cell_css+=("$f")
done
table "code cell embed (?embed=1&snippet=…): everything it downloads, a run included" "${page[@]}" "$DIST"/start-guard.js "${cell[@]}" "${sdk[@]}" "${cell_css[@]}" "$lesson" "$snippet"
cell_embed=$TOTAL
table "lessons: what opening Learn adds to the playground" "${lessons[@]}"
table "SDK: what running SDK code adds to the playground (on first use)" "${sdk[@]}"
table "Code section: the editor, the sandbox worker and acorn (a syntax error's line; on first use, with the SDK above)" "${code[@]}"
if [ "${#design[@]}" -eq 2 ]; then
  table "Design section on first use: its own wasm" "${design[@]}"
fi
if [ "${#codegen[@]}" -eq 2 ]; then
  table "show as code: the code generators' wasm (on first use)" "${codegen[@]}"
fi
if [ "${#connect[@]}" -eq 2 ]; then
  table "Connect section: its own wasm (on first use)" "${connect[@]}"
fi
echo

status=0
if [ "$embed" -gt "$BUDGET" ]; then
  echo "size-report: the embed's load $(kb "$embed") is over the budget of $BUDGET_KB KB" >&2
  status=1
else
  echo "size-report: the embed's load $(kb "$embed") is within the budget of $BUDGET_KB KB"
fi
if [ "$cell_embed" -gt "$BUDGET" ]; then
  echo "size-report: the code cell embed's load $(kb "$cell_embed") is over the budget of $BUDGET_KB KB" >&2
  status=1
else
  echo "size-report: the code cell embed's load $(kb "$cell_embed") is within the budget of $BUDGET_KB KB"
fi
if [ "$app" -gt "$BUDGET" ]; then
  echo "size-report: the playground's load $(kb "$app") is over the budget of $BUDGET_KB KB" >&2
  status=1
else
  echo "size-report: the playground's load $(kb "$app") is within the budget of $BUDGET_KB KB"
fi
exit "$status"

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
#   lesson module (`lesson` in www/modules.json), the CSS but playground.css, and its lesson in
#   its language (the largest one-language scenario file counts). An embed registers no
#   service worker, so nothing follows in the background;
# - code cell embed (`?embed=1&snippet=…` or `&code=…`): everything a code cell downloads with
#   a run: the page, its icon, the start guard, the cell module (`cell` in www/modules.json),
#   the runner with the cell's CSS (code/tablescope-cell-<hash>.js), the sandbox worker and the
#   SDK (a run loads both), the CSS but playground.css and teach.css, the largest lesson in one
#   language and the largest snippet;
# - in another language than English, each page load also downloads a catalogue of that
#   language (scripts/locales.mjs): the playground the page's (locales/<lang>.json), an embed
#   its module's (locales/lesson/<lang>.json, locales/cell/<lang>.json); the largest language's
#   counts;
# - on first use: what each other module of www/modules.json adds, and the SDK
#   (sdk/tablescope-sdk-<hash>.js, scripts/bundle-sdk.mjs) and the Code section's editor and
#   sandbox worker (code/tablescope-code[-worker]-<hash>.js, scripts/bundle-code.mjs).
#
# These are file sums; tests/e2e/first-visit.test.mjs counts what a browser really downloads,
# in each language (docs/size.md).
#
# BUDGET_KB is the product's budget for a page load (docs/size.md: at most 300 KB gzip). The
# playground and the embeds, in English and with the largest catalogue, must all stay within
# it; this fails the build otherwise. A dist that was not split fails: its playground wasm is the whole app.
set -euo pipefail

DIST="${1:-dist}"
BUDGET_KB=300
BUDGET=$((BUDGET_KB * 1024))
MODULES="$(dirname "${BASH_SOURCE[0]}")/../www/modules.json"

# The files of the module named $1 in www/modules.json, one a line, in $DIST.
module_files() {
  node -e '
    const [list, name, dist] = process.argv.slice(1);
    const m = JSON.parse(require("fs").readFileSync(list, "utf8")).modules.find((m) => m.name === name);
    if (!m) { console.error(`size-report: www/modules.json has no module ${name}`); process.exit(1); }
    for (const f of m.files) console.log(`${dist}/${f}`);' "$MODULES" "$1" "$DIST"
}
# The names of the modules in www/modules.json, and when each loads.
module_names() {
  node -e 'for (const m of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).modules) console.log(`${m.name}\t${m.loads}`)' "$MODULES"
}

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
largest() { ls -S "$@" | head -n 1; }
catalogue=$(largest "$DIST"/locales/*.json)
lesson_catalogue=$(largest "$DIST"/locales/lesson/*.json)
cell_catalogue=$(largest "$DIST"/locales/cell/*.json)
deferred=("$DIST"/tablescope-deferred-*.wasm)
mapfile -t lessons < <(module_files learn)
mapfile -t lesson_module < <(module_files lesson)
mapfile -t cell_module < <(module_files cell)
sdk=("$DIST"/sdk/tablescope-sdk-*.js)
code=("$DIST"/code/tablescope-code-*.js)
cell=("${cell_module[@]}" "$DIST"/code/tablescope-cell-*.js "$DIST"/code/tablescope-code-worker-*.js)
snippet=$(ls -S "$DIST"/snippets/*.js | head -n 1)
for f in "${lessons[@]}" "${lesson_module[@]}" "${cell_module[@]}"; do
  [ -f "$f" ] || { echo "size-report: $f is missing (run scripts/dist.sh)" >&2; exit 1; }
done
if [ "${#playground[@]}" -lt 3 ]; then
  echo "size-report: $DIST lacks the playground (run scripts/dist.sh)" >&2
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
  echo "size-report: $DIST lacks the code cell's runner code/tablescope-cell-<hash>.js or the sandbox worker" >&2
  exit 1
fi
if [ "${#deferred[@]}" -ne 1 ]; then
  echo "size-report: $DIST is not split (run scripts/dist.sh)" >&2
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
table "embed (?embed=1): everything the docs embed downloads" "${page[@]}" "$DIST"/start-guard.js "${lesson_module[@]}" "${embed_css[@]}" "$lesson"
embed=$TOTAL
cell_css=()
for f in "${embed_css[@]}"; do
  [ "$(basename "$f")" = teach.css ] || cell_css+=("$f")
done
table "code cell embed (?embed=1&snippet=…): everything it downloads, a run included" "${page[@]}" "$DIST"/start-guard.js "${cell[@]}" "${sdk[@]}" "${cell_css[@]}" "$lesson" "$snippet"
cell_embed=$TOTAL
table "another language: the playground's catalogue (the largest)" "$catalogue"
language=$TOTAL
table "another language: the lesson embed's catalogue (the largest)" "$lesson_catalogue"
lesson_language=$TOTAL
table "another language: the code cell's catalogue (the largest)" "$cell_catalogue"
cell_language=$TOTAL
while IFS=$'\t' read -r name loads; do
  case "$name" in learn | lesson | cell) ;; *)
    mapfile -t files < <(module_files "$name")
    table "$loads (module $name)" "${files[@]}" ;;
  esac
done < <(module_names)
table "lessons: what opening Learn adds to the playground" "${lessons[@]}"
table "SDK: what running SDK code adds to the playground (on first use)" "${sdk[@]}"
table "Code section: the editor, the sandbox worker and acorn (a syntax error's line; on first use, with the SDK above)" "${code[@]}"
echo

status=0
check() {
  local what=$1 total=$2
  if [ "$total" -gt "$BUDGET" ]; then
    echo "size-report: $what $(kb "$total") is over the budget of $BUDGET_KB KB" >&2
    status=1
  else
    echo "size-report: $what $(kb "$total") is within the budget of $BUDGET_KB KB"
  fi
}
check "the embed's load" "$embed"
check "the code cell embed's load" "$cell_embed"
check "the playground's load" "$app"
# Another language adds its catalogue to each load; the browser's count
# (tests/e2e/first-visit.test.mjs) holds each language to the budget too, as docs/size.md says.
check "the embed's load in $(basename "$lesson_catalogue" .json)" $((embed + lesson_language))
check "the code cell embed's load in $(basename "$cell_catalogue" .json)" $((cell_embed + cell_language))
check "the playground's load in $(basename "$catalogue" .json)" $((app + language))
exit "$status"

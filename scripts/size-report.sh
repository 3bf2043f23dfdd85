#!/usr/bin/env bash
# Raw and gzip (-9) sizes of what dist/ ships, per page load:
#
# - playground: what the app's page downloads before it works: the playground's hashed wasm
#   and JS, the CSS and the service worker;
# - embed (`?embed=1`): the lessons module (learn.js, learn_bg.wasm) and the CSS;
# - lessons on first use: what opening the Learn section adds to the playground.
#
# BUDGET_KB is the product's budget for a page load (issue #2/#4: under 300 KB gzip). The
# embed must stay within it. The playground is over it (see README "Size"); until the size work
# brings it back, CEILING_KB is a ratchet: the run fails if the playground's load grows past
# it, and says how far over the budget it is. Lower CEILING_KB whenever the playground shrinks;
# once it is within budget, set it back to BUDGET_KB.
set -euo pipefail

DIST="${1:-dist}"
BUDGET_KB=300
BUDGET=$((BUDGET_KB * 1024))
CEILING_KB=400
CEILING=$((CEILING_KB * 1024))

shopt -s nullglob
css=("$DIST"/*.css)
playground=("$DIST"/tablescope-*.wasm "$DIST"/tablescope-*.js "$DIST"/sw.js "${css[@]}")
lessons=("$DIST"/learn_bg.wasm "$DIST"/learn.js)
if [ "${#playground[@]}" -lt 3 ] || [ "${#lessons[@]}" -ne 2 ]; then
  echo "size-report: $DIST lacks the playground or the lessons module (run trunk build index.html --release)" >&2
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
table "embed (?embed=1): the docs embed's page load" "${lessons[@]}" "${css[@]}"
embed=$TOTAL
table "lessons: what opening Learn adds to the playground" "${lessons[@]}"
echo

status=0
if [ "$embed" -gt "$BUDGET" ]; then
  echo "size-report: the embed's load $(kb "$embed") is over the budget of $BUDGET_KB KB" >&2
  status=1
else
  echo "size-report: the embed's load $(kb "$embed") is within the budget of $BUDGET_KB KB"
fi
if [ "$app" -gt "$CEILING" ]; then
  echo "size-report: the playground's load $(kb "$app") has grown past the ratchet of $CEILING_KB KB (budget: $BUDGET_KB KB)" >&2
  status=1
elif [ "$app" -gt "$BUDGET" ]; then
  echo "size-report: OVER BUDGET: the playground's load $(kb "$app") is $(kb $((app - BUDGET))) over the budget of $BUDGET_KB KB (ratchet: $CEILING_KB KB)"
else
  echo "size-report: the playground's load $(kb "$app") is within the budget of $BUDGET_KB KB"
fi
exit "$status"

#!/usr/bin/env bash
# Raw and gzip (-9) sizes of what dist/ ships (wasm, JS, CSS); fails past the gzip budget.
set -euo pipefail

DIST="${1:-dist}"
BUDGET_KB=300
BUDGET=$((BUDGET_KB * 1024))

shopt -s nullglob
files=("$DIST"/*.wasm "$DIST"/*.js "$DIST"/*.css)
if [ "${#files[@]}" -eq 0 ]; then
  echo "size-report: nothing to measure in $DIST (run trunk build index.html --release)" >&2
  exit 1
fi

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }

raw_total=0
gz_total=0
printf '%-44s %12s %12s\n' file raw gzip
for f in "${files[@]}"; do
  raw=$(wc -c < "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  raw_total=$((raw_total + raw))
  gz_total=$((gz_total + gz))
  printf '%-44s %12s %12s\n' "$(basename "$f")" "$(kb "$raw")" "$(kb "$gz")"
done
printf '%-44s %12s %12s\n' total "$(kb "$raw_total")" "$(kb "$gz_total")"

if [ "$gz_total" -gt "$BUDGET" ]; then
  echo "size-report: gzip total $(kb "$gz_total") is over the budget of $BUDGET_KB KB" >&2
  exit 1
fi
echo "size-report: gzip total $(kb "$gz_total") is within the budget of $BUDGET_KB KB"

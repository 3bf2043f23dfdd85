#!/usr/bin/env bash
# Runs a command with no browser to be had: scripts/test.sh runs the release build
# (scripts/dist.sh) this way, so a build that came to need a browser fails in CI.
#
#   scripts/without-browser.sh scripts/dist.sh
#
# - chromium, chromedriver and their usual other names, first on PATH, and $CHROMIUM and
#   $CHROMEDRIVER (the paths the scripts and tests launch) are stand-ins that refuse to run;
# - Node refuses to load playwright-core, which drives the browser, and says who asked.
# It fails when the command does, and when anything tried a stand-in, even if the command
# went on regardless.
set -euo pipefail

shims="$(mktemp -d)"
trap 'rm -rf "$shims"' EXIT
calls="$shims/calls"
: > "$calls"
for name in chromium chromium-browser google-chrome google-chrome-stable chrome chrome-headless-shell headless_shell chromedriver; do
  cat > "$shims/$name" <<SHIM
#!/bin/sh
echo "$name \$*" >> "$calls"
echo "without-browser: $name was run, but this command must not need a browser" >&2
exit 1
SHIM
  chmod +x "$shims/$name"
done
cat > "$shims/no-playwright.mjs" <<'HOOK'
export async function resolve(specifier, context, next) {
  if (specifier === 'playwright-core' || specifier.startsWith('playwright-core/') || specifier === 'playwright') {
    throw new Error(`without-browser: ${context.parentURL ?? 'a script'} imports ${specifier}, but this command must not need a browser`);
  }
  return next(specifier, context);
}
HOOK
cat > "$shims/register.mjs" <<HOOK
import { register } from 'node:module';
register('file://$shims/no-playwright.mjs');
HOOK

status=0
PATH="$shims:$PATH" CHROMIUM="$shims/chromium" CHROMEDRIVER="$shims/chromedriver" \
  NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--import=file://$shims/register.mjs" "$@" || status=$?
if [ -s "$calls" ]; then
  echo "without-browser: $* ran a browser:" >&2
  sed 's/^/  /' "$calls" >&2
  exit 1
fi
exit "$status"

// Trunk's one post_build hook: the five build steps below, one after another, after every
// build (`trunk build` and `trunk serve` alike), each in its own Node process with Trunk's
// environment (TRUNK_STAGING_DIR, TRUNK_PROFILE).
//
// One hook, not five: Trunk starts all of its hooks at once, and three of these steps read
// index.html, change it and write it back (bundle-sdk and bundle-code add their <meta>,
// minify rewrites the inlined start script). Side by side, one could read the file while
// another was writing it, or write over another's change. One after another, each step reads
// index.html as the steps before it left it.
//
//   node scripts/post-build.mjs [dir]      dir defaults to $TRUNK_STAGING_DIR, then dist
//
// Each step's own header says what it writes; docs/build.md lists them.

import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const STEPS = ['bundle-sdk.mjs', 'bundle-code.mjs', 'lessons.mjs', 'locales.mjs', 'minify.mjs'];

for (const step of STEPS) {
  execFileSync(process.execPath, [join(here, step), ...process.argv.slice(2)], { stdio: 'inherit' });
}

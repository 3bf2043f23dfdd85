// Minifies what a release build ships that Trunk copies as it is: the glue of the modules
// loaded lazily (www/modules.json), the service worker (sw.js), the start guard and its rescue
// (start-guard.js, start-rescue.js), the lessons (scenarios/*.json), the start script Trunk
// inlines into index.html (www/start.js), and the stylesheets Trunk copies rather than processes (playground.css, which embeds never load, and
// teach.css, loaded on first use).
// Trunk's own `minify = "on_release"` (Trunk.toml) covers the HTML and the CSS it processes;
// the playground's glue is minified by scripts/split.mjs once it has patched it. Every byte
// here is in a page load's budget.
//
// A post-build step (scripts/post-build.mjs, the last): it runs for release builds only (TRUNK_PROFILE=release), so a
// debug build stays readable.
//
//   node scripts/minify.mjs [dir]      dir defaults to $TRUNK_STAGING_DIR, then dist

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(await readFile(join(repo, 'www', 'modules.json'), 'utf8'));

/** The files minified here: none is named by an integrity attribute (Trunk's SRI). */
export const FILES = [
  ...manifest.modules.flatMap((m) => m.files.filter((f) => f.endsWith('.js'))),
  'sw.js', 'start-guard.js', 'start-guard-text.js', 'start-rescue.js', 'playground.css', 'teach.css',
];

/**
 * Minifies one JavaScript (or, by its extension, CSS) file in place. Whitespace and local names only: no syntax is
 * lowered (the browsers Tablescope supports run the source as it is), and exports keep their
 * names, so modules, workers and classic scripts alike behave as before.
 */
export async function minifyFile(path) {
  const source = await readFile(path, 'utf8');
  const loader = path.endsWith('.css') ? 'css' : 'js';
  const { code } = await transform(source, { loader, minify: true, legalComments: 'none' });
  await writeFile(path, code);
}

const main = resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
if (main && (process.argv[2] || process.env.TRUNK_PROFILE === 'release')) {
  const dir = resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? 'dist');
  for (const name of FILES) await minifyFile(join(dir, name));
  // The start script Trunk inlines into index.html (www/start.js): every page load reads it.
  const page = join(dir, 'index.html');
  const html = await readFile(page, 'utf8');
  const start = html.match(/(<script\b[^>]*\bid=["']?tablescope-start\b[^>]*>)([\s\S]*?)(<\/script>)/);
  if (!start) throw new Error(`minify: ${page} has no start script (www/start.js)`);
  const { code } = await transform(start[2], { loader: 'js', format: 'esm', minify: true, legalComments: 'none' });
  await writeFile(page, html.replace(start[0], () => start[1] + code.trim() + start[3]));
  // The lessons (an embed downloads one), so their indentation counts too. Whitespace between
  // tokens only: JSON.parse reads the same value, members in the same order. (The catalogues
  // are written without whitespace by scripts/locales.mjs.)
  for (const sub of ['scenarios']) {
    for (const name of await readdir(join(dir, sub))) {
      if (!name.endsWith('.json')) continue;
      const path = join(dir, sub, name);
      await writeFile(path, JSON.stringify(JSON.parse(await readFile(path, 'utf8'))));
    }
  }
}

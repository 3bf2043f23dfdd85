// Checks what the build of scripts/dist.sh wrote before anything measures or serves it:
//
// - the start script (www/start.js) is inlined into index.html, whole: Trunk's `@path`
//   pattern parameter leaves `{start}` in place when it cannot read the file, and would
//   substitute any of its own patterns that the file happened to contain;
// - every file of every lazily loaded module (www/modules.json) is there, and every wasm at
//   the top of dist/ is the playground's or one of those: a module added to index.html but
//   not to the list would be neither minified, precached nor counted;
// - every module file the start script names (`'learn.js'`, `'cell_bg.wasm'`) is a file of
//   the list (the Rust code names them through constants build.rs makes from the list);
// - every file index.html names is relative to the page (Trunk.toml's `public_url`): an
//   absolute path (`/x.js`) would miss when the site is served under a sub-path;
// - each language's catalogues are there (scripts/locales.mjs): the page's, and each docs
//   embed module's (`embed` in the list).
//
//   node scripts/check-dist.mjs [dist]

import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.argv[2] ?? join(repo, 'dist'));
const problems = [];

const start = await readFile(join(repo, 'www', 'start.js'), 'utf8');
const pattern = start.match(/\{(?:base|js|wasm|crossorigin|start|initializer|import|nonce)\}/);
if (pattern) problems.push(`www/start.js contains ${pattern[0]}, which Trunk's pattern_script would substitute`);
const html = await readFile(join(dist, 'index.html'), 'utf8');
if (/\{(?:start|base|js|wasm)\}/.test(html)) problems.push('index.html has an unsubstituted Trunk pattern: was www/start.js readable from the directory Trunk ran in?');
if (!/id="?tablescope-start/.test(html) || !html.includes('tablescope-ready')) problems.push('index.html lacks the start script (www/start.js)');

for (const [, attr, value] of html.matchAll(/\s([a-z-]+)=["']?(\/[^"' >]*)/g)) {
  problems.push(`index.html names ${value} (${attr}) by an absolute path: the site would work only at a host's root (public_url in Trunk.toml, scripts/split.mjs)`);
}

const manifest = JSON.parse(await readFile(join(repo, 'www', 'modules.json'), 'utf8'));
const listed = new Set();
for (const m of manifest.modules) {
  for (const file of m.files) {
    listed.add(file);
    if (!(await readFile(join(dist, file)).then(() => true, () => false))) problems.push(`${file} (module ${m.name} in www/modules.json) is not in ${dist}`);
  }
}
for (const [, file] of start.matchAll(/base \+ '([a-z_]+\.(?:js|wasm))'/g)) {
  if (file !== 'sw.js' && !listed.has(file)) problems.push(`www/start.js loads ${file}, which is not a file of www/modules.json`);
}
for (const lang of ['de', 'nl', 'ar']) {
  const dirs = ['', ...manifest.modules.filter((m) => m.embed).map((m) => `${m.name}/`)];
  for (const dir of dirs) {
    const file = join(dist, 'locales', `${dir}${lang}.json`);
    if (!(await readFile(file).then(() => true, () => false))) problems.push(`locales/${dir}${lang}.json (scripts/locales.mjs) is not in ${dist}`);
  }
}
for (const file of await readdir(dist)) {
  if (!file.endsWith('.wasm') || /^tablescope-(?:deferred-)?[0-9a-f]+(?:_bg)?\.wasm$/.test(file)) continue;
  if (!listed.has(file)) problems.push(`${file} is built but www/modules.json does not list it`);
}

if (problems.length > 0) {
  console.error(`check-dist: ${dist}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-dist: ${dist}: the start script is inlined, the ${manifest.modules.length} lazily loaded modules of www/modules.json and their catalogues are all there`);

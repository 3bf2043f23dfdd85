// Splits the playground's release wasm in two, so the page loads only what the app needs to
// start and run its common flows (issue #4: the page load stays under 300 KB gzip):
//
// 1. instrument a copy of the wasm (binaryen's wasm-split --instrument) and play the common
//    flows (scripts/split/flows.mjs) on it in headless Chromium: the profile says which
//    functions ran;
// 2. split the shipped wasm with that profile: the primary keeps the functions that ran, the
//    deferred wasm gets the rest, and the primary imports a placeholder for each;
// 3. patch wasm-bindgen's glue to supply the placeholders, prefetch the deferred wasm once the
//    app has started, and instantiate it on the first call into it (scripts/split/glue.mjs);
// 4. minify the glue, and name the deferred wasm in index.html, so the service worker caches
//    it for offline use.
//
//   node scripts/split.mjs [dist]      after `trunk build index.html --release`
//
// Correctness never depends on the profile: a function the flows missed still works, it just
// loads the deferred wasm first. Runs in about half a minute.

import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../tests/e2e/serve.mjs';
import { visits } from './split/flows.mjs';
import { minifyFile } from './minify.mjs';
import { patchGlue } from './split/glue.mjs';
import { fixTableExports } from './split/wasm.mjs';

// The features the wasm uses (the same list as index.html gives wasm-opt).
const FEATURES = [
  '--enable-bulk-memory',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-reference-types',
  '--enable-multivalue',
];
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const dist = resolve(process.argv[2] ?? 'dist');
const files = await readdir(dist);
const wasmName = files.find((f) => /^tablescope-[0-9a-f]+_bg\.wasm$/.test(f));
if (!wasmName) throw new Error(`split: no tablescope-<hash>_bg.wasm in ${dist}`);
const hash = wasmName.match(/^tablescope-([0-9a-f]+)_bg/)[1];
const jsName = `tablescope-${hash}.js`;
const deferredName = `tablescope-deferred-${hash}.wasm`;
const glue = await readFile(join(dist, jsName), 'utf8');
if (glue.includes(deferredName)) throw new Error(`split: ${dist} is already split`);
const bgName = glue.match(/"\.\/([^"]+_bg\.js)": import0,/)?.[1];
if (!bgName) throw new Error('split: cannot find the glue\'s import module name');

const work = await mkdtemp(join(tmpdir(), 'tablescope-split-'));
const wasmSplit = (...args) => execFileSync('wasm-split', [...FEATURES, ...args], { stdio: 'inherit' });

try {
  const original = await readFile(join(dist, wasmName));

  // 1. The profile of the common flows.
  const instrumented = join(work, 'instrumented');
  await cp(dist, instrumented, { recursive: true });
  wasmSplit('--instrument', join(dist, wasmName), '-o', join(work, 'instrumented.wasm'));
  const inst = await readFile(join(work, 'instrumented.wasm'));
  fixTableExports(original, inst);
  await writeFile(join(instrumented, wasmName), inst);
  const profiles = [];
  for (const [i, bytes] of (await profile(instrumented, jsName)).entries()) {
    profiles.push(join(work, `profile-${i}`));
    await writeFile(profiles.at(-1), bytes);
  }
  wasmSplit('--merge-profiles', ...profiles, '-o', join(work, 'profile'));

  // 2. The split.
  const primaryPath = join(work, 'primary.wasm');
  const deferredPath = join(work, 'deferred.wasm');
  wasmSplit('--split', `--profile=${join(work, 'profile')}`, join(dist, wasmName),
    '-o1', primaryPath, '-o2', deferredPath);
  const primary = await readFile(primaryPath);
  fixTableExports(original, primary);

  // 3 and 4.
  await writeFile(join(dist, wasmName), primary);
  await cp(deferredPath, join(dist, deferredName));
  await writeFile(join(dist, jsName), patchGlue(glue, bgName, deferredName));
  // Minified once patched: the patches anchor on the glue's exact text (scripts/minify.mjs).
  await minifyFile(join(dist, jsName));
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const meta = `<meta name="tablescope-deferred" content="/${deferredName}" />`;
  if (!html.includes('</head>')) throw new Error('split: index.html has no </head>');
  await writeFile(join(dist, 'index.html'), html.replace('</head>', `${meta}</head>`));

  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`split: ${wasmName} ${kb(original.length)} → primary ${kb(primary.length)} + ${deferredName} ${kb((await readFile(deferredPath)).length)} (raw)`);
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Plays the visits on the instrumented build in `dir`; resolves to the profiled visits' profiles. */
async function profile(dir, js) {
  const server = await serve(dir, 0);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const context = await browser.newContext();
    // The split glue defines this (scripts/split/glue.mjs) and the start path awaits it when
    // saved tables load: defined here too, so that path's code is profiled into the primary.
    await context.addInitScript(() => {
      globalThis.__tablescope_deferred_ready = () => Promise.resolve();
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const out = [];
    for (const [i, visit] of visits.entries()) {
      await (i === 0 ? page.goto(server.url) : page.reload());
      await visit.play(page);
      if (errors.length) throw new Error(`split: ${visit.name}: the app failed: ${errors.join('; ')}`);
      if (visit.profiled) out.push(await readProfile(page, js));
    }
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The instrumented module writes its profile into memory the app allocates for it. */
async function readProfile(page, js) {
  const bytes = await page.evaluate(async (glueUrl) => {
    const exports = await (await import(glueUrl)).default();
    const size = 1 << 20;
    const at = exports.__wbindgen_export(size, 1) >>> 0;
    const written = exports.__write_profile(at, size);
    return Array.from(new Uint8Array(exports.memory.buffer, at, written));
  }, `/${js}`);
  return Buffer.from(bytes);
}

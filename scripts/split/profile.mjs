// Regenerates the split's list of start-up functions, scripts/split/primary.txt, by playing
// the start-up flows (scripts/split/flows.mjs) in headless Chromium. The one step of the
// release build that needs a browser, so it is not part of it: run it when the start-up flows
// change (a new panel at start, a new language), and commit the list it writes.
//
//   scripts/dist.sh --profile      builds dist/, runs this, then splits with the new list
//   node scripts/split/profile.mjs [dist]      on a dist/ built but not yet split
//
// 1. instrument a copy of the playground's wasm (binaryen's wasm-split --instrument) and play
//    the flows on it: the first visit in every language the UI speaks, each opened by a browser
//    set to it, twice over, and a return visit in English; the instrumented module records
//    which functions ran;
// 2. ask wasm-split which functions that profile keeps (a trial split with --symbolmap), and
//    write their names, one a line, sorted.
//
// A profile is tied to the exact module it was taken on; a list of names is not: the split
// (scripts/split.mjs) keeps in the primary every listed function the build still has, by name,
// and sends the rest to the deferred wasm. A function added since the list was written is
// deferred until the list is regenerated: correct, and a first visit that needs it waits for
// the deferred wasm (tests/e2e/first-visit.test.mjs then fails on the page load's weight).

import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../tests/e2e/serve.mjs';
import { LANGUAGES, visits } from './flows.mjs';
import { FEATURES, LIST } from './split-list.mjs';
import { definedFunctionNames, fixTableExports, lowerTableFill, unescapeName } from './wasm.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const dist = resolve(process.argv[2] ?? join(repo, 'dist'));
const files = await readdir(dist);
const wasmName = files.find((f) => /^tablescope-[0-9a-f]+_bg\.wasm$/.test(f));
if (!wasmName) throw new Error(`split profile: no tablescope-<hash>_bg.wasm in ${dist}`);
const jsName = wasmName.replace('_bg.wasm', '.js');
if (files.some((f) => f.startsWith('tablescope-deferred-'))) throw new Error(`split profile: ${dist} is already split; build it anew`);

const work = await mkdtemp(join(tmpdir(), 'tablescope-profile-'));
const wasmSplit = (...args) => execFileSync('wasm-split', [...FEATURES, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });

try {
  const original = await readFile(join(dist, wasmName));
  const defined = new Set(definedFunctionNames(original));
  if (defined.size === 0) throw new Error(`split profile: ${wasmName} has no function names: build it with scripts/dist.sh`);

  // What scripts/split.mjs splits: the wasm with its table.fills written out for wasm-split.
  const input = join(work, 'input.wasm');
  await writeFile(input, lowerTableFill(original).bytes);
  const instrumented = join(work, 'instrumented');
  await cp(dist, instrumented, { recursive: true });
  wasmSplit('--instrument', input, '-o', join(work, 'instrumented.wasm'));
  const inst = await readFile(join(work, 'instrumented.wasm'));
  fixTableExports(original, inst);
  await writeFile(join(instrumented, wasmName), inst);
  const profiles = [];
  for (const [i, bytes] of (await profile(instrumented, jsName)).entries()) {
    profiles.push(join(work, `profile-${i}`));
    await writeFile(profiles.at(-1), bytes);
  }
  wasmSplit('--merge-profiles', ...profiles, '-o', join(work, 'profile'));
  // The trial split's symbol map names every function of its primary, one `index:name` a line.
  wasmSplit('--split', `--profile=${join(work, 'profile')}`, '--symbolmap', input,
    '-o1', join(work, 'primary.wasm'), '-o2', join(work, 'deferred.wasm'));
  const symbols = await readFile(join(work, 'primary.wasm.symbols'), 'utf8');
  const kept = [...new Set(symbols.split('\n').map((line) => unescapeName(line.slice(line.indexOf(':') + 1))).filter((n) => defined.has(n)))].sort();
  const header = [
    '# The playground\'s start-up functions: the primary wasm keeps these, by name, and the',
    '# deferred wasm gets every other function (scripts/split.mjs). Written by',
    '# `scripts/dist.sh --profile` (scripts/split/profile.mjs) from the start-up flows of',
    '# scripts/split/flows.mjs in every language; regenerate it when those flows change.',
  ];
  await writeFile(LIST, [...header, ...kept, ''].join('\n'));
  console.log(`split profile: ${kept.length} of ${defined.size} functions ran in the start-up flows; written to ${LIST}`);
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Plays the visits on the instrumented build in `dir`, in each language; resolves to the
 * profiled visits' profiles. */
async function profile(dir, js) {
  const server = await serve(dir, 0);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const out = [];
    // Twice over: what a start runs depends a little on timing (which browser callback comes
    // first), and a function missed here costs a first visit the whole deferred wasm.
    for (const round of [1, 2]) for (const language of LANGUAGES) {
      // A browser set to this language: the app picks it from navigator.languages.
      const context = await browser.newContext({ locale: language.locale });
      // The split glue defines this (scripts/split/glue.mjs), and a start with saved tables
      // awaits it before it decodes them (src/split.rs): here it never resolves, so a return
      // visit's profile holds only what runs before that wait (flows.mjs).
      await context.addInitScript(() => {
        globalThis.__tablescope_deferred_ready = () => {
          globalThis.__tablescopeDeferredAsked = true;
          return new Promise(() => {});
        };
      });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      for (const [i, visit] of visits.entries()) {
        if (!visit.everyLanguage && (language.code !== 'en' || round > 1)) continue;
        await (i === 0 ? page.goto(server.url) : page.reload());
        await visit.play(page, language);
        if (errors.length) throw new Error(`split profile: ${language.locale} (round ${round}): ${visit.name}: the app failed: ${errors.join('; ')}`);
        if (visit.profiled) out.push(await readProfile(page, js));
      }
      await context.close();
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
    // The allocator export: `__wbindgen_malloc` when the wasm has names, as this one does.
    const at = (exports.__wbindgen_malloc ?? exports.__wbindgen_export)(size, 1) >>> 0;
    const written = exports.__write_profile(at, size);
    return Array.from(new Uint8Array(exports.memory.buffer, at, written));
  }, `/${js}`);
  return Buffer.from(bytes);
}

// Splits the playground's release wasm in two, so the page loads only what the app needs to
// start (the page load stays within its budget, docs/size.md), without a browser:
//
// 1. split the wasm by name (binaryen's wasm-split --keep-funcs): the primary keeps the
//    start-up functions that scripts/split/primary.txt lists, the deferred wasm gets the rest,
//    and the primary imports a placeholder for each deferred function. The list is committed,
//    and regenerated only by `scripts/dist.sh --profile` (scripts/split/profile.mjs), which
//    plays the start-up flows in Chromium: the same sources and the same list split the same
//    way, on any machine;
// 2. patch wasm-bindgen's glue to supply the placeholders, prefetch the deferred wasm once the
//    app has started, and instantiate it on the first call into it (scripts/split/glue.mjs,
//    which refuses any wasm-bindgen but the one its patches were written for);
// 3. minify the glue, and name the deferred wasm in index.html, so the service worker caches
//    it for offline use.
//
//   node scripts/split.mjs [dist]      after the build step of scripts/dist.sh
//
// The wasm must carry its functions' names (scripts/dist.sh builds it so); the split's output
// carries none. Correctness never depends on the list: a function it misses still works, it
// just loads the deferred wasm first.

import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { minifyFile } from './minify.mjs';
import { checkWasmBindgen, patchGlue } from './split/glue.mjs';
import { FEATURES, LIST, readList } from './split/split-list.mjs';
import { definedFunctionNames, fixTableExports, lowerTableFill, primaryFunctions } from './split/wasm.mjs';

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
checkWasmBindgen();

const work = await mkdtemp(join(tmpdir(), 'tablescope-split-'));

try {
  const original = await readFile(join(dist, wasmName));
  const defined = new Set(definedFunctionNames(original));
  if (defined.size === 0) {
    throw new Error(`split: ${wasmName} has no function names, so the list cannot be applied: build with scripts/dist.sh (rustc keeps symbols, wasm-opt --debuginfo keeps them)`);
  }
  const listed = await readList();
  const { keep, named, unnamed } = primaryFunctions(original, listed);
  const missing = listed.length - named;
  if (named === 0) throw new Error(`split: none of the functions ${LIST} lists is in this build: run scripts/dist.sh --profile`);
  if (missing > listed.length / 2) {
    throw new Error(`split: ${missing} of the ${listed.length} functions ${LIST} lists are not in this build (a new compiler or new dependencies rename them): run scripts/dist.sh --profile, and commit the list`);
  }
  await writeFile(join(work, 'keep'), keep.join('\n') + '\n');
  const input = join(work, 'input.wasm');
  await writeFile(input, lowerTableFill(original).bytes);

  const primaryPath = join(work, 'primary.wasm');
  const deferredPath = join(work, 'deferred.wasm');
  execFileSync('wasm-split', [...FEATURES, '--split', `--keep-funcs=@${join(work, 'keep')}`, input,
    '-o1', primaryPath, '-o2', deferredPath], { stdio: 'inherit' });
  const primary = await readFile(primaryPath);
  const deferred = await readFile(deferredPath);
  for (const [what, bytes] of [['primary', primary], ['deferred', deferred]]) {
    if (definedFunctionNames(bytes).length > 0) throw new Error(`split: the ${what} wasm still has function names`);
  }
  fixTableExports(original, primary);
  await writeFile(join(dist, wasmName), primary);
  await writeFile(join(dist, deferredName), deferred);
  await writeFile(join(dist, jsName), patchGlue(glue, bgName, deferredName));
  // Minified once patched: the patches anchor on the glue's exact text (scripts/minify.mjs).
  await minifyFile(join(dist, jsName));
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  // Relative, as every file the page names (public_url in Trunk.toml): the site may live at
  // any path.
  const meta = `<meta name="tablescope-deferred" content="${deferredName}" />`;
  if (!html.includes('</head>')) throw new Error('split: index.html has no </head>');
  await writeFile(join(dist, 'index.html'), html.replace('</head>', `${meta}</head>`));

  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`split: ${wasmName} ${kb(original.length)} (with names) → primary ${kb(primary.length)} + ${deferredName} ${kb(deferred.length)} (raw)`);
  console.log(`split: the primary keeps ${named} of the ${defined.size} named functions and ${unnamed} without a name; ${missing} listed in ${LIST} are not in this build (scripts/dist.sh --profile lists them anew)`);
} finally {
  await rm(work, { recursive: true, force: true });
}

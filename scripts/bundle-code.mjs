// Bundles the Code section's JavaScript into two minified ES modules in
// dist/code/, and names their common hash in index.html as
// <meta name="tablescope-code" content="<hash>">:
//
//   code/tablescope-code-<hash>.js         the page side: the CodeMirror 6 editor and the
//                                          runner (www/code/code.js)
//   code/tablescope-code-worker-<hash>.js  the sandbox worker (www/code/worker.js)
//   code/tablescope-code-acorn-<hash>.js   acorn, which the worker imports only when V8 refuses
//                                          the code, for the syntax error's line
//   code/tablescope-cell-<hash>.js         a docs embed's code cell: the same runner
//                                          (www/code/runner.js) without the editor, and the
//                                          cell's CSS (www/code/cell.js); an embed's budget
//                                          has no room for CodeMirror
//
// Why: CodeMirror and acorn are npm packages of many ES modules; the browser needs files it
// can import() the first time the Code section opens. They load on first use only, so the
// playground's page load stays under its 300 KB gzip budget (docs/size.md). The worker needs
// a file of its own (a Worker starts from a URL); the page side finds it next to itself. The
// SDK the worker runs is the separate bundle of scripts/bundle-sdk.mjs, loaded by URL. As for
// the SDK, the meta names only the hash, so the service worker (www/sw.js) keeps these files
// once used but does not precache them.
//
// A post-build step (scripts/post-build.mjs, Trunk's hook), after every build:
//
//   node scripts/bundle-code.mjs [dir]      dir defaults to $TRUNK_STAGING_DIR, then dist
//
// If it is wrong: the Code section cannot load its editor or start its sandbox
// (tests/e2e/code-runtime.test.mjs), or every visit downloads the editor.

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? join(repo, 'dist'));

async function bundle(entry, define = {}) {
  const result = await build({
    entryPoints: [join(repo, 'www', 'code', entry)],
    absWorkingDir: repo,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    target: 'es2020',
    legalComments: 'eof',
    define,
    // www/code/code.css comes in as text: the page side adds it when it loads.
    loader: { '.css': 'text' },
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].contents;
}

const acorn = await bundle('acorn.js');
// The worker and the page side are built twice: their text names the files whose names hold
// the hash of all. A first build with placeholders gives the hash; the second writes the names.
const workerPlaceholder = await bundle('worker.js', { __TABLESCOPE_CODE_ACORN__: '"./acorn.js"' });
const placeholder = await bundle('code.js', { __TABLESCOPE_CODE_WORKER__: '"./worker.js"' });
const cellPlaceholder = await bundle('cell.js', { __TABLESCOPE_CODE_WORKER__: '"./worker.js"' });
// 16 hex digits, the shape of Trunk's own hashes (www/sw.js recognises hashed files by it).
const hash = createHash('sha256')
  .update(acorn)
  .update(workerPlaceholder)
  .update(placeholder)
  .update(cellPlaceholder)
  .digest('hex')
  .slice(0, 16);
const acornName = `tablescope-code-acorn-${hash}.js`;
const worker = await bundle('worker.js', { __TABLESCOPE_CODE_ACORN__: JSON.stringify(`./${acornName}`) });
const workerName = `tablescope-code-worker-${hash}.js`;
const workerDefine = { __TABLESCOPE_CODE_WORKER__: JSON.stringify(`./${workerName}`) };
const page = await bundle('code.js', workerDefine);
const pageName = `tablescope-code-${hash}.js`;
const cell = await bundle('cell.js', workerDefine);
const cellName = `tablescope-cell-${hash}.js`;

await rm(join(dir, 'code'), { recursive: true, force: true });
await mkdir(join(dir, 'code'), { recursive: true });
await writeFile(join(dir, 'code', workerName), worker);
await writeFile(join(dir, 'code', acornName), acorn);
await writeFile(join(dir, 'code', pageName), page);
await writeFile(join(dir, 'code', cellName), cell);

const htmlPath = join(dir, 'index.html');
const html = await readFile(htmlPath, 'utf8');
if (!html.includes('</head>')) throw new Error(`bundle-code: ${htmlPath} has no </head>`);
const meta = `<meta name="tablescope-code" content="${hash}" />`;
const stripped = html.replace(/<meta name="tablescope-code" content="[0-9a-f]*" \/>/g, '');
await writeFile(htmlPath, stripped.replace('</head>', `${meta}</head>`));

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (b) => gzipSync(b, { level: 9 }).length;
console.log(
  `bundle-code: code/${pageName} ${kb(page.length)} (${kb(gz(page))} gzip), ` +
    `code/${workerName} ${kb(worker.length)} (${kb(gz(worker))} gzip), ` +
    `code/${acornName} ${kb(acorn.length)} (${kb(gz(acorn))} gzip), ` +
    `code/${cellName} ${kb(cell.length)} (${kb(gz(cell))} gzip)`,
);

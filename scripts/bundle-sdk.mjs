// Bundles the official @azure/data-tables SDK with the in-page transport (www/sdk/transport.js)
// into one minified ES module, dist/sdk/tablescope-sdk-<hash>.js, and names its hash in
// index.html as <meta name="tablescope-sdk" content="<hash>">.
//
// Why: the SDK is an npm package of many ES modules; the browser needs one file it can
// import() the first time SDK code runs. It is a separate file, loaded only on use, so the playground's page load stays
// under its 300 KB gzip budget (docs/size.md). The name carries a hash of the content, so a
// browser never runs a bundle of another build; the meta names only the hash, not the file,
// so the service worker (www/sw.js), which precaches every .js file index.html names, does
// not download the SDK for every visitor.
//
// A post-build step (scripts/post-build.mjs, Trunk's hook) after every build, for
// `trunk build` and `trunk serve` alike, with TRUNK_STAGING_DIR set to the build's output:
//
//   node scripts/bundle-sdk.mjs [dir]      dir defaults to $TRUNK_STAGING_DIR, then dist
//
// The SDK's XML module is replaced by www/sdk/no-xml.js, so the bundle also loads in a Web
// Worker (where the Code section runs user code and reaches the page's engine by message).
//
// If it is wrong: SDK code in the page (the Code section, tests/e2e/sdk-transport.test.mjs)
// cannot load, or loads a bundle that does not match the page; if it were named in a way the
// service worker recognises, every visit would download the SDK.

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? join(repo, 'dist'));

const result = await build({
  entryPoints: [join(repo, 'www', 'sdk', 'transport.js')],
  absWorkingDir: repo,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  minify: true,
  // The browsers the app supports already run wasm with reference types: ES2020 at least.
  target: 'es2020',
  legalComments: 'eof',
  // @azure/core-xml needs the DOM as soon as it loads, which a Web Worker lacks; the engine has
  // none of the XML operations it serves (www/sdk/no-xml.js says so when one is called).
  alias: { '@azure/core-xml': './www/sdk/no-xml.js' },
  write: false,
  logLevel: 'warning',
});
const code = result.outputFiles[0].contents;
// 16 hex digits, the shape of Trunk's own hashes (www/sw.js recognises hashed files by it).
const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
const name = `tablescope-sdk-${hash}.js`;

await rm(join(dir, 'sdk'), { recursive: true, force: true });
await mkdir(join(dir, 'sdk'), { recursive: true });
await writeFile(join(dir, 'sdk', name), code);

const htmlPath = join(dir, 'index.html');
const html = await readFile(htmlPath, 'utf8');
if (!html.includes('</head>')) throw new Error(`bundle-sdk: ${htmlPath} has no </head>`);
const meta = `<meta name="tablescope-sdk" content="${hash}" />`;
const stripped = html.replace(/<meta name="tablescope-sdk" content="[0-9a-f]*" \/>/g, '');
await writeFile(htmlPath, stripped.replace('</head>', `${meta}</head>`));

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`bundle-sdk: sdk/${name} ${kb(code.length)} (${kb(gzipSync(code, { level: 9 }).length)} gzip)`);

// A tiny static file server for dist/ (no dependencies). Serves .wasm as application/wasm so
// the browser can stream-compile it, and index.html for "/" (or for `prefix`, when the site is
// served under a sub-path, as a GitHub Pages project site is: nothing outside it exists).
//
//   node tests/e2e/serve.mjs [dir=dist] [port=8081] [prefix=/]     # standalone
//   import { serve } from './serve.mjs'                   # from a test: await serve('dist', 0)

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Starts serving `dir` on 127.0.0.1:`port` (0 = any free port). Resolves to
 * { url, close, served }.
 *
 * Served as a static host should serve Tablescope: cacheable with revalidation (`no-cache` and
 * an ETag, so the service worker's precache takes what the page already downloaded from the
 * HTTP cache), and readable from any origin (`cors`, on by default: a docs embed in a sandboxed
 * iframe has an opaque origin, so its module and wasm fetches are CORS requests).
 *
 * `served` records every request the server answered, in order: { path, status, bytes,
 * gzipBytes, at } (`at`: Date.now() when the request arrived) with the body's size as sent and gzip -9'd (0 for a 304), so tests can count
 * what a browser really downloaded, foreground and background, as a gzip host would send it.
 */
export async function serve(dir = 'dist', port = 0, { cors = true, prefix = '/' } = {}) {
  const root = resolve(dir);
  const served = [];
  const gzipped = new Map();
  const gzipSize = (file, body) => {
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(body, { level: 9 }).length);
    return gzipped.get(file);
  };
  const server = createServer(async (req, res) => {
    const at = Date.now();
    const path = (() => {
      try {
        return decodeURIComponent(new URL(req.url, 'http://x').pathname);
      } catch {
        return null;
      }
    })();
    try {
      if (path === null || !path.startsWith(prefix)) throw new Error('not here');
      let file = normalize(join(root, path.slice(prefix.length - 1)));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        served.push({ path, status: 403, bytes: 0, gzipBytes: 0, at });
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      const headers = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        etag,
      };
      if (cors) headers['access-control-allow-origin'] = '*';
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
        served.push({ path, status: 304, bytes: 0, gzipBytes: 0, at });
        return;
      }
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      const sent = req.method === 'HEAD' ? 0 : body.length;
      served.push({ path, status: 200, bytes: sent, gzipBytes: sent && gzipSize(file, body), at });
    } catch {
      // Readable from any origin too (as a static host's error pages are), so a page can tell
      // a missing file from a refused one.
      res.writeHead(404, { 'content-type': 'text/plain', ...(cors ? { 'access-control-allow-origin': '*' } : {}) }).end('not found');
      served.push({ path, status: 404, bytes: 0, gzipBytes: 0, at });
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const url = `http://127.0.0.1:${server.address().port}${prefix}`;
  return {
    url,
    served,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections?.();
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir = 'dist', port = '8081', prefix = '/'] = process.argv.slice(2);
  const { url } = await serve(dir, Number(port), { prefix });
  console.log(`serving ${resolve(dir)} at ${url}`);
}

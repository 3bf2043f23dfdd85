// Share links are bounded, on the release build in dist/: a "deflate bomb"
// in `#share=` of 100 MB or 1 GB is refused in under a second with the tab's memory under
// 300 MB, the message names the cap, and a link over the cap offers its data as a file.
//
// Each bomb gets its own browser, so the renderer's peak memory (VmHWM, Linux) is the page's.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { createDeflateRaw } from 'node:zlib';
import { openPage, start } from './lib.mjs';

const MiB = 1024 * 1024;
const CAP_TEXT = 'This share link holds more than 8 MiB of data once decompressed, the most a link may hold, so it was not opened. Download its data as a file to look at it.';

let env;
after(async () => {
  await env?.close();
});

/** Raw deflate of `prefix` followed by spaces up to `size` bytes, streamed (little memory). */
async function deflated(prefix, size) {
  const deflate = createDeflateRaw({ level: 9 });
  const parts = [];
  deflate.on('data', (d) => parts.push(d));
  const done = new Promise((ok, fail) => {
    deflate.on('end', ok);
    deflate.on('error', fail);
  });
  deflate.write(Buffer.from(prefix));
  const block = Buffer.alloc(MiB, ' ');
  for (let left = size - prefix.length; left > 0; left -= MiB) {
    const piece = left >= MiB ? block : block.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((ok) => deflate.once('drain', ok));
  }
  deflate.end();
  await done;
  return Buffer.concat(parts);
}

const b64url = (bytes) => bytes.toString('base64url');

/** Peak resident memory (VmHWM, bytes) of each renderer process of the browser `env` runs. */
async function rendererPeaks(browserMarker) {
  const procs = new Map();
  for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
    try {
      // Chromium's child processes rewrite their command line as one string.
      const cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      procs.set(Number(pid), { cmd, ppid });
    } catch {
      // The process ended meanwhile.
    }
  }
  const underBrowser = (pid) => {
    for (let p = procs.get(pid); p; p = procs.get(p.ppid)) {
      if (p.cmd.includes(` ${browserMarker} `)) return true;
    }
    return false;
  };
  const peaks = [];
  for (const [pid, p] of procs) {
    if (!p.cmd.includes(' --type=renderer ') || !underBrowser(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? NaN);
    if (Number.isFinite(kb)) peaks.push(kb * 1024);
  }
  return peaks;
}

for (const [label, size] of [['100 MB', 100 * 1000 * 1000], ['1 GB', 1000 * 1000 * 1000]]) {
  test(`a share link that inflates to ${label} is refused in under 1 s, the tab under 300 MB`, async () => {
    const packed = await deflated('{"format":"tablescope-account","version":1,"tables":[', size);
    await env?.close();
    const marker = `--tablescope-bomb-${process.pid}-${size}`;
    env = await start({ extraArgs: [marker] });
    const page = await openPage(env.browser, `${env.url}#share=w.${b64url(packed)}`);
    await page.locator('h1').waitFor({ timeout: 15_000 });
    const status = page.locator('.share-status');
    await status.filter({ hasText: 'more than 8 MiB' }).waitFor({ timeout: 30_000 });
    assert.equal((await status.textContent()).trim(), CAP_TEXT);

    const peaks = await rendererPeaks(marker);
    assert.ok(peaks.length >= 1, 'found the renderer');
    const peak = Math.max(...peaks);
    console.log(`${label} bomb (${packed.length} bytes deflated): renderer peak ${(peak / MiB).toFixed(0)} MiB`);
    assert.ok(peak < 300 * MiB, `renderer peak ${(peak / MiB).toFixed(0)} MiB`);

    const took = await page.evaluate(() =>
      performance.getEntriesByName('tablescope-share-decode').map((m) => m.duration),
    );
    console.log(`${label} bomb: refused after ${took.map((t) => t.toFixed(1)).join(', ')} ms`);
    assert.ok(took.length >= 1 && took.every((t) => t < 1000), `decode took ${took} ms`);

    // Nothing loaded: the page still has no tables, and the link's data is offered as a file.
    assert.equal(await page.locator('[data-table]').count(), 0);
    assert.equal(await page.locator('.share-oversized').count(), 1);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a link over the cap offers its whole data as a file', async () => {
  // A real workspace of about 9 MiB: 600 entities with a 15,000-character property.
  const entities = Array.from({ length: 600 }, (_, i) => ({
    PartitionKey: 'p',
    RowKey: String(i).padStart(4, '0'),
    Timestamp: '2024-05-06T07:08:09.0000000Z',
    Text: 'ab'.repeat(7_500),
  }));
  const json = JSON.stringify({ format: 'tablescope-account', version: 1, tables: [{ name: 'Big', entities }] });
  assert.ok(json.length > 8 * MiB && json.length < 10 * MiB);
  const packed = await deflated(json, json.length);
  await env?.close();
  env = await start();
  const page = await openPage(env.browser, `${env.url}#share=w.${b64url(packed)}`);
  await page.locator('.share-status').filter({ hasText: 'more than 8 MiB' }).waitFor({ timeout: 15_000 });
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator('.share-oversized').click()]);
  assert.equal(file.suggestedFilename(), 'tablescope-shared.json');
  assert.equal(await readFile(await file.path(), 'utf8'), json);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

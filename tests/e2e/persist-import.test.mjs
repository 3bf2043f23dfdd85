// Every export comes back: an import streams the chosen file (never one string), so a
// workspace's own export of a million entities imports whole, with progress and cancel (which
// changes nothing); files with a UTF-8 byte order mark, and UTF-16LE/BE CSV with one, import
// exactly, through the real file input.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { assertClean, openPage, savesSettled, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const PANEL = '.storage-panel';

async function mounted(page) {
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.locator(PANEL).waitFor();
}

/** Clicks an export button; returns the download. */
async function download(page, button) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 600_000 }),
    page.locator(PANEL).getByRole('button', { name: button }).click(),
  ]);
  return file;
}

const exportText = async (page, button) => readFile(await (await download(page, button)).path(), 'utf8');

function utf16(text, bigEndian) {
  const le = Buffer.from(text, 'utf16le');
  if (!bigEndian) return Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
  const be = Buffer.alloc(le.length);
  for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1], le[i]];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
}

const CSV =
  'PartitionKey,RowKey,Timestamp,Name,Name@type,Age,Age@type\r\n' +
  'p,1,2024-05-06T07:08:09.1234567Z,Zoë 😀 ع,Edm.String,42,Edm.Int32\r\n' +
  'p,2,2024-05-06T07:08:10.0000001Z,"Smith, Jo",Edm.String,,\r\n';

const SNAPSHOT = {
  format: 'tablescope-account',
  version: 1,
  tables: [
    {
      name: 'Marked',
      entities: [{ PartitionKey: 'p', RowKey: 'é😀', Timestamp: '2024-05-06T07:08:09.1234567Z', S: 'Zoë' }],
    },
  ],
};

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

async function choose(page, name, buffer) {
  await page.locator(`${PANEL} input[type=file]`).setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  await page.locator(`${PANEL} .storage-confirm, ${PANEL} .storage-error`).first().waitFor({ timeout: 60_000 });
}

test('UTF-8 with a byte order mark and UTF-16LE/BE CSV with one import exactly', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await choose(page, 'marked.json', Buffer.concat([BOM, Buffer.from(JSON.stringify(SNAPSHOT))]));
  await page.getByRole('button', { name: 'Replace everything' }).click();
  await page.locator('[data-table="Marked"]').waitFor();
  const exported = JSON.parse(await exportText(page, 'Export all (JSON)'));
  const { 'odata.etag': _etag, ...entity } = exported.tables[0].entities[0];
  assert.deepEqual(entity, SNAPSHOT.tables[0].entities[0]);
  assert.equal(exported.tables[0].entities[0].RowKey, 'é😀');
  assert.equal(exported.tables[0].entities[0].S, 'Zoë');

  const files = [
    ['People.csv', Buffer.concat([BOM, Buffer.from(CSV)])],
    ['People.csv', Buffer.concat([BOM, BOM, Buffer.from(CSV)])],
    ['People.csv', utf16(CSV, false)],
    ['People.csv', utf16(CSV, true)],
  ];
  let first = null;
  for (const [name, bytes] of files) {
    await choose(page, name, bytes);
    assert.equal(await page.locator(`${PANEL} .storage-error`).count(), 0, name);
    await page.getByLabel('Table to import into').fill('People');
    await page.locator(`${PANEL} .storage-confirm button`).first().click();
    await page.locator(`${PANEL} .status`, { hasText: 'People' }).waitFor();
    await page.locator('[data-table="People"]').click();
    const csv = await exportText(page, 'Export table (CSV)');
    assert.match(csv, /^PartitionKey,RowKey,Timestamp,Name,Name@type,Age,Age@type\r\np,1,2024-05-06T07:08:09\.1234567Z,Zoë 😀 ع,Edm\.String,42,Edm\.Int32\r\np,2,2024-05-06T07:08:10\.0000001Z,"Smith, Jo",Edm\.String,,\r\n$/, name);
    first ??= csv;
    assert.equal(csv, first);
  }
  // A lone surrogate in UTF-16 is refused, naming where.
  const broken = Buffer.concat([utf16('PartitionKey,RowKey\r\np,', false), Buffer.from([0x00, 0xdc])]);
  await choose(page, 'broken.csv', broken);
  assert.equal(
    await page.locator(`${PANEL} .storage-error`).textContent(),
    'broken.csv was not imported: InvalidInput: not UTF-16: the bytes at offset 48 are not a whole character',
  );
  assertClean(page);
  await page.context().close();
});

test("a million entities' own export imports whole, with progress; cancel changes nothing", async () => {
  const started = Date.now();
  const page = await openPage(env.browser, `${env.url}?perf=1`);
  await mounted(page);
  await page.getByLabel('New table').fill('Million');
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator('[data-table="Million"]').waitFor();
  assert.equal(await page.evaluate(() => window.__tablescopeFill('Million', 1000, 1000)), 1_000_000);
  await savesSettled(page, 300_000);
  const file = await download(page, 'Export all (JSON)');
  const path = await file.path();
  const bytes = (await stat(path)).size;
  const filled = Date.now();

  // Replace it with a small workspace, then bring the export back.
  await choose(page, 'small.json', Buffer.from(JSON.stringify(SNAPSHOT)));
  await page.getByRole('button', { name: 'Replace everything' }).click();
  await page.locator('[data-table="Marked"]').waitFor();
  await savesSettled(page, 60_000);

  // Cancelled while reading: nothing changes.
  await page.locator(`${PANEL} input[type=file]`).setInputFiles(path);
  await page.locator(`${PANEL} .storage-reading progress`).waitFor();
  await screenshot(page, 'persist-import-reading');
  await page.locator(`${PANEL} .cancel-import`).click();
  await page.locator(`${PANEL} .storage-error`).waitFor({ timeout: 60_000 });
  assert.match(await page.locator(`${PANEL} .storage-error`).textContent(), /was not imported: the import was cancelled; nothing changed\.$/);
  assert.deepEqual(await page.locator('[data-table]').evaluateAll((r) => r.map((e) => e.dataset.table)), ['Marked']);

  // Read whole this time, with progress that rises.
  const t0 = Date.now();
  await page.evaluate(() => {
    window.__readTexts = [];
    new MutationObserver(() => {
      const text = document.querySelector('.storage-reading .status')?.textContent;
      if (text && window.__readTexts.at(-1) !== text) window.__readTexts.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.locator(`${PANEL} input[type=file]`).setInputFiles(path);
  await page.locator(`${PANEL} .storage-confirm`).waitFor({ timeout: 600_000 });
  const read = Date.now() - t0;
  const percents = (await page.evaluate(() => window.__readTexts)).map((t) => Number(/(\d+)\s*%/.exec(t)?.[1]));
  assert.ok(percents.length >= 3, `progress shown ${percents.length} times`);
  assert.deepEqual(percents, [...percents].sort((a, b) => a - b), 'progress only rises');
  await page.getByRole('button', { name: 'Replace everything' }).click();
  const counts = page.locator('[data-table="Million"] .table-counts');
  await counts.waitFor({ timeout: 120_000 });
  assert.equal((await counts.textContent()).trim(), '1,000,000 entities · 1,000 partitions');
  assert.equal(await page.locator('[data-table="Marked"]').count(), 0);
  await savesSettled(page, 300_000);
  const imported = Date.now();

  // Spot checks, after a reload from disk.
  await page.reload();
  await counts.waitFor({ timeout: 180_000 });
  assert.equal((await counts.textContent()).trim(), '1,000,000 entities · 1,000 partitions');
  for (const [pk, rk, n] of [['p0000', 'r000000', 0], ['p0500', 'r000777', 777], ['p0999', 'r000999', 999]]) {
    const entity = await page.evaluate(([pk, rk]) => {
      const r = window.tablescope.wire({
        method: 'GET',
        url: `http://127.0.0.1:10002/devstoreaccount1/Million(PartitionKey='${pk}',RowKey='${rk}')`,
        headers: [['Accept', 'application/json;odata=nometadata'], ['x-ms-version', '2019-02-02']],
      });
      return { status: r.status, body: r.status === 200 ? JSON.parse(new TextDecoder().decode(r.body)) : null };
    }, [pk, rk]);
    assert.equal(entity.status, 200, `${pk}/${rk}`);
    assert.equal(entity.body.Number, n);
    assert.equal(entity.body.Label, `entity ${n} of ${pk}`);
  }
  console.log(
    `million round trip: export ${Math.round(bytes / 2 ** 20)} MB; fill+export ${(filled - started) / 1000} s, ` +
      `read+check ${read / 1000} s, import+save ${(imported - t0) / 1000} s, total ${(Date.now() - started) / 1000} s`,
  );
  assertClean(page);
  await page.context().close();
});

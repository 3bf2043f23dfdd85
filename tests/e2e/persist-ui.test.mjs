// The "Your data" panel and the storage banner, end to end on the release build: export and
// import (JSON snapshot and typed CSV), reset, every kind of bad import, a full disk, no
// IndexedDB at all, and damaged stored data. Data is compared through the app's own exports.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { assertClean, openPage, PHONE, savesSettled, screenshot, start } from './lib.mjs';

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

/** The snapshot the tests import: every type, extremes, awkward keys and text. */
const SNAPSHOT = {
  format: 'tablescope-account',
  version: 1,
  tables: [
    {
      name: 'Typed',
      entities: [
        {
          PartitionKey: "O'Brien%20",
          RowKey: "ü'%😀",
          Timestamp: '2024-05-06T07:08:09.1234567Z',
          S: 'text, "quoted"\r\nnext line <b>not bold</b>',
          Empty: '',
          I32: -2147483648,
          'I64@odata.type': 'Edm.Int64',
          I64: '-9223372036854775808',
          'I64Max@odata.type': 'Edm.Int64',
          I64Max: '9223372036854775807',
          D: 0.30000000000000004,
          B: true,
          'T@odata.type': 'Edm.DateTime',
          T: '2024-01-02T03:04:05.1234567Z',
          'G@odata.type': 'Edm.Guid',
          G: 'c9da6455-213d-42c9-9a79-3e9149a57833',
          'Bin@odata.type': 'Edm.Binary',
          Bin: 'AP8BAg==',
        },
        { PartitionKey: 'p', RowKey: '2', Timestamp: '2024-05-06T07:08:10.0000001Z', N: 1 },
      ],
    },
    { name: 'Other', entities: [] },
  ],
};

/** Chooses a file in the panel's file input and waits for the question (or an error). */
async function chooseFile(page, name, text, mimeType = 'text/plain') {
  await page
    .locator(`${PANEL} input[type=file]`)
    .setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8') });
  await page.locator(`${PANEL} .storage-confirm, ${PANEL} .storage-error`).first().waitFor();
}

async function importFile(page, name, text, table) {
  await chooseFile(page, name, text);
  // A JSON file is read and checked before the confirmation: a bad one gets none.
  if (await page.locator(`${PANEL} .storage-error`).count()) return;
  if (table !== undefined) await page.getByLabel('Table to import into').fill(table);
  await page.locator(`${PANEL} .storage-confirm button`).first().click();
}

/** Clicks an export button and returns the downloaded file's name and text. */
async function exported(page, button) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(PANEL).getByRole('button', { name: button }).click(),
  ]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

const exportJson = async (page) => (await exported(page, 'Export all (JSON)')).text;

async function status(page) {
  return (await page.locator(`${PANEL} .status`).textContent()).trim();
}

async function reset(page) {
  await page.locator(PANEL).getByRole('button', { name: 'Reset…' }).click();
  await page.getByRole('button', { name: 'Delete everything' }).click();
  await page.locator('.empty').waitFor();
}

/** Waits until the last save has reached IndexedDB (the disk holds `tables`). */
async function savedTables(page, tables) {
  await page.waitForFunction(async (want) => {
    const db = await new Promise((ok, fail) => {
      const r = indexedDB.open('tablescope-sandbox');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    try {
      const meta = await new Promise((ok) => {
        const r = db.transaction('meta').objectStore('meta').get('account');
        r.onsuccess = () => ok(r.result);
      });
      return JSON.stringify([...(meta?.tables ?? [])].sort()) === JSON.stringify(want);
    } finally {
      db.close();
    }
  }, [...tables].sort());
}

test('the page says it is loading the saved tables, and offers no controls until it has', async () => {
  const context = await env.browser.newContext();
  // Hold the load back: the writer lock is taken at the end of it.
  await context.addInitScript(() => {
    const request = LockManager.prototype.request;
    LockManager.prototype.request = function (...args) {
      return new Promise((ok) => setTimeout(ok, 1500)).then(() => request.apply(this, args));
    };
  });
  const page = await context.newPage();
  await page.goto(env.url);
  const loading = page.locator('#app-loading');
  await loading.waitFor();
  assert.equal(await loading.textContent(), 'Loading your saved tables…');
  assert.equal(await loading.getAttribute('role'), 'status');
  assert.equal(await page.getByLabel('New table').count(), 0, 'nothing can be edited yet');
  await mounted(page);
  assert.equal(await page.locator('#app-loading').count(), 0, 'the message goes once loaded');
  await context.close();
});

test('export JSON, reset, import: every value comes back identical, and survives a reload', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await importFile(page, 'start.json', JSON.stringify(SNAPSHOT));
  assert.equal(await status(page), 'Replaced every table with those in start.json.');
  await page.locator('[data-table="Typed"]').waitFor();

  const first = await exported(page, 'Export all (JSON)');
  assert.equal(first.name, 'tablescope-workspace.json');
  const snapshot = JSON.parse(first.text);
  const typed = snapshot.tables.find((t) => t.name === 'Typed').entities;
  const e = typed.find((x) => x.RowKey === "ü'%😀");
  assert.equal(e.PartitionKey, "O'Brien%20");
  assert.equal(e.I64, '-9223372036854775808');
  assert.equal(e.I64Max, '9223372036854775807');
  assert.equal(e.I32, -2147483648);
  assert.equal(e.D, 0.30000000000000004);
  assert.equal(e.B, true);
  assert.equal(e.T, '2024-01-02T03:04:05.1234567Z');
  assert.equal(e.Timestamp, '2024-05-06T07:08:09.1234567Z');
  assert.equal(e.G, 'c9da6455-213d-42c9-9a79-3e9149a57833');
  assert.equal(e.Bin, 'AP8BAg==');
  assert.equal(e.S, 'text, "quoted"\r\nnext line <b>not bold</b>');
  assert.equal(e.Empty, '');

  await reset(page);
  assert.equal(await status(page), 'Every table was deleted.');
  assert.deepEqual(JSON.parse(await exportJson(page)).tables, []);

  await importFile(page, first.name, first.text);
  await page.locator('[data-table="Typed"]').waitFor();
  assert.equal(await exportJson(page), first.text, 'the re-imported workspace exports identically');

  await savedTables(page, ['Other', 'Typed']);
  await page.reload();
  await mounted(page);
  await page.locator('[data-table="Typed"]').waitFor();
  assert.equal(await exportJson(page), first.text, 'and so does it after a reload');
  assert.equal(await page.locator('b').count(), 0, 'user text is never rendered as HTML');
  assertClean(page);
  await page.context().close();
});

const CSV =
  'PartitionKey,RowKey,Timestamp,S,S@type,I32,I32@type,I64,I64@type,D,D@type,B,B@type,T,T@type,G,G@type,Bin,Bin@type\r\n' +
  '"Sales, EU",ü\'%,2024-05-06T07:08:09.1234567Z,"a ""quoted"", text\r\nline two",Edm.String,-2147483648,Edm.Int32,-9223372036854775808,Edm.Int64,NaN,Edm.Double,false,Edm.Boolean,9999-12-31T23:59:59.9999999Z,Edm.DateTime,c9da6455-213d-42c9-9a79-3e9149a57833,Edm.Guid,AP8BAg==,Edm.Binary\r\n' +
  'p,2,2024-05-06T07:08:09.0000000Z,,Edm.String,,,9223372036854775807,Edm.Int64,1.5,Edm.Double,,,,,,,,\r\n';

test('CSV export and import round-trip a table of all eight types', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await chooseFile(page, 'Typed.typed.csv', CSV);
  assert.equal(await page.getByLabel('Table to import into').inputValue(), 'Typed');
  await page.getByLabel('Table to import into').fill('Typed');
  await page.locator(PANEL).getByRole('button', { name: 'Import', exact: true }).click();
  assert.equal(await status(page), 'Imported 2 entities from Typed.typed.csv into Typed.');
  await page.locator('[data-table="Typed"]').click();

  const out = await exported(page, 'Export table (CSV)');
  assert.equal(out.name, 'Typed.typed.csv');
  assert.equal(out.text, CSV, 'the export is the imported file, byte for byte');

  // Into a second table: same entities, same export.
  await importFile(page, out.name, out.text, 'Copy');
  await page.locator('[data-table="Copy"]').click();
  assert.equal((await exported(page, 'Export table (CSV)')).text, CSV);
  assertClean(page);
  await page.context().close();
});

test('each bad import names its problem and changes nothing', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await importFile(page, 'start.json', JSON.stringify(SNAPSHOT));
  await page.locator('[data-table="Typed"]').waitFor();
  const before = await exportJson(page);

  const withVersion = { ...SNAPSHOT, version: 2 };
  const badKey = structuredClone(SNAPSHOT);
  badKey.tables[0].entities[1].PartitionKey = 'a/b';
  const badType = structuredClone(SNAPSHOT);
  badType.tables[0].entities[1]['N@odata.type'] = 'Edm.Int64';
  badType.tables[0].entities[1].N = 'twelve';
  const cases = [
    ['broken.json', '{"format": "tablescope-account", "version": 1, "tables": [', /broken\.json was not imported: .*not valid JSON: EOF while parsing a list at line 1/],
    ['v2.json', JSON.stringify(withVersion), /v2\.json was not imported: .*unsupported export version 2; this Tablescope reads version 1/],
    ['key.json', JSON.stringify(badKey), /key\.json was not imported: .*table 'Typed', entity 1 \(PartitionKey 'a\/b', RowKey '2'\): PartitionKey may not contain '\/'/],
    ['type.json', JSON.stringify(badType), /type\.json was not imported: .*table 'Typed', entity 1/],
    ['Typed.csv', 'PartitionKey,RowKey,N,N@type\r\np,9,ok,Edm.String\r\np,10,x,Edm.Int32\r\n', /^Typed\.csv was not imported: line 3, column N: 'x' is not a valid Edm\.Int32$/],
    ['Typed.csv', 'PartitionKey,RowKey,N,N@type\r\np,9,ok,Edm.Decimal\r\n', /^Typed\.csv was not imported: line 2, column N: unknown type 'Edm\.Decimal'$/],
    ['Typed.csv', 'PartitionKey,RowKey\r\np,"never closed\r\n', /^Typed\.csv was not imported: line 2: a quoted field is never closed$/],
    ['Typed.csv', 'PartitionKey,RowKey\r\na#b,1\r\n', /^Typed\.csv was not imported: line 2: OutOfRangeInput: PartitionKey may not contain '#'$/],
    ['Typed.csv', 'RowKey,N\r\n1,2\r\n', /^Typed\.csv was not imported: line 1: the header has no PartitionKey column$/],
  ];
  // Bytes that are not UTF-8 are refused as the file is read, before any confirmation
  // (they used to become U+FFFD and import silently).
  for (const name of ['latin1.json', 'latin1.csv']) {
    const bytes = Buffer.concat([
      Buffer.from('{"format":"tablescope-account","version":1,"tables":[{"name":"Latin","entities":[{"PartitionKey":"p","RowKey":"r","S":"caf'),
      Buffer.from([0xe9]), // é in Latin-1
      Buffer.from('"}]}]}'),
    ]);
    await chooseFile(page, name, bytes);
    const error = page.locator(`${PANEL} .storage-error`, { hasText: name });
    await error.waitFor();
    assert.equal(
      await error.textContent(),
      `${name} was not imported: InvalidInput: not UTF-8: the byte at offset 122 does not start a valid character`,
    );
    assert.equal(await page.locator(`${PANEL} .storage-confirm`).count(), 0, `${name}: no confirmation`);
    assert.equal(await exportJson(page), before, `${name} left the data as it was`);
  }
  for (const [name, text, expected] of cases) {
    await importFile(page, name, text);
    const error = page.locator(`${PANEL} .storage-error`);
    await error.waitFor();
    assert.match(await error.textContent(), expected, name);
    assert.equal(await error.getAttribute('role'), 'alert');
    // A CSV import stays open (the table name may be the thing to fix); JSON closes.
    const open = page.locator(`${PANEL} .storage-confirm`);
    assert.equal(await open.count(), name.endsWith('.csv') ? 1 : 0, `${name}: confirmation`);
    if (name.endsWith('.csv')) await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await exportJson(page), before, `${name} left the data as it was`);
  }

  // No size limit of its own: 21 MB is read whole (streamed), and blanks are no export.
  await chooseFile(page, 'huge.json', ' '.repeat(21 * 1024 * 1024));
  assert.match(
    await page.locator(`${PANEL} .storage-error`).textContent(),
    /^huge\.json was not imported: InvalidInput: not valid JSON: EOF while parsing a value at line 1 column \d+$/,
  );
  assert.equal(await page.locator(`${PANEL} .storage-confirm`).count(), 0);
  assert.equal(await exportJson(page), before);
  await screenshot(page, 'persist-ui-bad-import-desktop');
  assertClean(page);
  await page.context().close();
});

test('reset asks first: cancel keeps everything, confirm empties it for good', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await importFile(page, 'start.json', JSON.stringify(SNAPSHOT));
  await page.locator('[data-table="Typed"]').waitFor();
  const before = await exportJson(page);

  await page.locator(PANEL).getByRole('button', { name: 'Reset…' }).click();
  assert.match(await page.locator(`${PANEL} .storage-confirm p`).textContent(), /cannot be undone/);
  await screenshot(page, 'persist-ui-reset-desktop');
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.locator(`${PANEL} .storage-confirm`).count(), 0);
  assert.equal(await exportJson(page), before, 'cancel keeps the data');
  // From the keyboard: Escape in the confirmation cancels too.
  await page.locator(PANEL).getByRole('button', { name: 'Reset…' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Delete everything' }).focus();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator(`${PANEL} .storage-confirm`).count(), 0);
  assert.equal(await exportJson(page), before, 'Escape keeps the data');

  await reset(page);
  await savedTables(page, []);
  await page.reload();
  await mounted(page);
  assert.match(await page.locator('.empty').textContent(), /No tables yet/);
  assert.deepEqual(JSON.parse(await exportJson(page)).tables, []);
  assertClean(page);
  await page.context().close();
});

test('storage use is shown and persistent storage can be asked for', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await page.locator(`${PANEL} .storage-usage`).filter({ hasText: /^Using / }).waitFor();
  assert.equal(
    await page.locator(`${PANEL} .storage-where`).textContent(),
    'Saved in this browser (IndexedDB).',
  );
  await page.locator(PANEL).getByRole('button', { name: 'Keep data persistent' }).click();
  await page.locator(`${PANEL} .status`).filter({ hasText: /granted/i }).waitFor();
  assert.match(await status(page), /^(Granted|Not granted): /);
  assertClean(page);
  await page.context().close();
});

test('the storage figure follows the saves: it grows once 20,000 written entities are on disk', async () => {
  const page = await openPage(env.browser, `${env.url}?perf=1`);
  await mounted(page);
  const usage = page.locator(`${PANEL} .storage-usage`);
  await usage.filter({ hasText: /^Using / }).waitFor();
  /** The bytes the figure says are used (its first size, in B, KB or MB). */
  const used = async () => {
    const [, n, unit] = (await usage.textContent()).match(/^Using ([\d.,]+) (B|KB|MB) of /);
    return Number(n.replaceAll(',', '')) * { B: 1, KB: 1024, MB: 1024 ** 2 }[unit];
  };
  const before = await used();
  await page.getByLabel('New table').fill('Grow');
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator('[data-table="Grow"]').waitFor();
  assert.equal(await page.evaluate(() => window.__tablescopeFill('Grow', 20, 1000)), 20_000);
  await savesSettled(page, 60_000);
  // No other action on the page: the figure is read again because the saves ended.
  await page.waitForFunction(
    ([sel, was]) => {
      const m = document.querySelector(sel)?.textContent.match(/^Using ([\d.,]+) (B|KB|MB) of /);
      return m && Number(m[1].replaceAll(',', '')) * { B: 1, KB: 1024, MB: 1024 ** 2 }[m[2]] > was + 500_000;
    },
    [`${PANEL} .storage-usage`, before],
    { timeout: 20_000 },
  );
  assert.ok((await used()) > before + 500_000, `${before} B before, ${await used()} B after`);
  assertClean(page);
  await page.context().close();
});

test('a full disk is shown in the banner, and what was saved before is kept', async () => {
  const context = await env.browser.newContext();
  await context.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (...args) {
      if (localStorage.getItem('quota-fault')) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return put.apply(this, args);
    };
  });
  const page = await context.newPage();
  await page.goto(env.url);
  await mounted(page);
  await importFile(page, 'start.json', JSON.stringify(SNAPSHOT));
  await savedTables(page, ['Other', 'Typed']);
  const acknowledged = await exportJson(page);

  await page.evaluate(() => localStorage.setItem('quota-fault', '1'));
  await page.getByLabel('New table').fill('NotSaved');
  await page.getByRole('button', { name: 'Create table' }).click();
  const banner = page.locator('.storage-banner');
  await banner.waitFor();
  assert.match(await banner.textContent(), /storage for this site is full, so the last change was not saved/);
  assert.equal(await banner.getAttribute('role'), 'alert');
  await screenshot(page, 'persist-ui-quota-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'persist-ui-quota-phone');
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await page.locator('.storage-banner').count(), 0);

  await page.evaluate(() => localStorage.removeItem('quota-fault'));
  await page.reload();
  await mounted(page);
  await page.locator('[data-table="Typed"]').waitFor();
  assert.equal(await exportJson(page), acknowledged, 'every acknowledged entity is still there');
  await context.close();
});

test('without IndexedDB the banner says so and the app works in memory', async () => {
  const context = await env.browser.newContext({ colorScheme: 'dark' });
  await context.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('IndexedDB is blocked here.', 'SecurityError');
    };
  });
  const page = await context.newPage();
  await page.goto(env.url);
  await mounted(page);
  const banner = page.locator('.storage-banner');
  await banner.waitFor();
  assert.match(await banner.textContent(), /does not let Tablescope store data .*blocked here/);
  assert.equal(
    await page.locator(`${PANEL} .storage-where`).textContent(),
    'Not saved: this tab keeps your tables in memory only.',
  );
  await page.getByLabel('New table').fill('InMemory');
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator('[data-table="InMemory"]').waitFor();
  await screenshot(page, 'persist-ui-unavailable-dark-desktop');
  await page.setViewportSize(PHONE);
  await screenshot(page, 'persist-ui-unavailable-dark-phone');
  await context.close();
});

test('damaged stored data: the banner offers to go on with what can be read', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await importFile(page, 'start.json', JSON.stringify(SNAPSHOT));
  await savedTables(page, ['Other', 'Typed']);
  // Damage one chunk record behind the app's back.
  await page.evaluate(async () => {
    const db = await new Promise((ok) => {
      const r = indexedDB.open('tablescope-sandbox');
      r.onsuccess = () => ok(r.result);
    });
    const store = db.transaction('chunks', 'readwrite').objectStore('chunks');
    const keys = await new Promise((ok) => {
      const r = store.getAllKeys();
      r.onsuccess = () => ok(r.result);
    });
    const damaged = keys.find((k) => k.startsWith('Typed/p/'));
    await new Promise((ok) => {
      store.put('{not json', damaged).onsuccess = ok;
    });
    db.close();
  });
  await page.reload();
  await page.locator('h1').waitFor({ timeout: 15_000 });
  const banner = page.locator('.storage-banner');
  await banner.waitFor();
  assert.match(await banner.textContent(), /Stored data is damaged and cannot be loaded \(record "Typed\/p\//);
  await screenshot(page, 'persist-ui-corrupt-desktop');
  await banner.getByRole('button', { name: 'Continue with what can be read' }).click();
  await page.locator('[data-table="Typed"]').waitFor();
  await page.locator('.storage-banner', { hasText: 'Skipped the damaged record' }).waitFor();
  const typed = JSON.parse(await exportJson(page)).tables.find((t) => t.name === 'Typed');
  assert.deepEqual(
    typed.entities.map((e) => e.RowKey),
    ["ü'%😀"],
    'the undamaged partition is back; the damaged one is gone',
  );
  await page.context().close();
});

test('the panel at 360 px, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await openPage(env.browser, env.url, { viewport: PHONE, colorScheme });
    await mounted(page);
    await importFile(page, 'start.json', JSON.stringify(SNAPSHOT));
    await page.locator('[data-table="Typed"]').click();
    await chooseFile(page, 'Typed.typed.csv', CSV);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `no horizontal scroll at 360 px (${overflow} px)`);
    await page.locator(PANEL).scrollIntoViewIfNeeded();
    await screenshot(page, `persist-ui-panel-${colorScheme}-phone`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, `persist-ui-panel-${colorScheme}-desktop`);
    assertClean(page);
    await page.context().close();
  }
});

// The Code section through its UI, in headless Chromium on the
// release build: nothing of it loads at start; SDK CRUD, paging and a transaction typed into
// the editor and run with Ctrl+Enter, with the console and the wire log's exact entries; the
// other sections show the writes at once; a wire log query opens in the Query section; errors
// with their line; an endless loop stopped at the limit the user set, and Stop; code reaching
// for the page's DOM, storage or network gets nothing; snippets; the text kept across reloads.
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/code-section.test.mjs   (default dist: dist/)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { openPage, start } from './lib.mjs';
import {
  BASE,
  consoleLines,
  deleteAllTables,
  editorText,
  openCode,
  runEditor,
  setCode,
  wireLog,
} from './code-lib.mjs';

const SHOTS = '/tmp/shots-code-ui';
let env;
let page;
before(async () => {
  await mkdir(SHOTS, { recursive: true });
  env = await start();
  page = await openPage(env.browser, env.url);
  page.requested = [];
  page.on('request', (r) => page.requested.push(r.url()));
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
});
after(async () => {
  await env?.close();
});

test('the Code tab is there, and its editor loads on first use only', async () => {
  await page.waitForTimeout(500);
  const early = page.requested.filter((u) => /\/(code|sdk)\//.test(new URL(u).pathname));
  assert.deepEqual(early, [], 'nothing of the Code section loads with the page');
  assert.equal(await page.locator('#nav-code').textContent(), 'Code');
  assert.equal(await page.locator('#section-code .code-panel').count(), 0, 'the panel is not built at start');
  await openCode(page);
  const loaded = page.requested.filter((u) => /\/code\//.test(new URL(u).pathname)).map((u) => new URL(u).pathname);
  assert.equal(loaded.length, 1, loaded.join(', '));
  assert.match(loaded[0], /\/code\/tablescope-code-[0-9a-f]{16}\.js$/);
  // Line numbers and JavaScript highlighting.
  assert.ok((await page.locator('.code-editor .cm-lineNumbers .cm-gutterElement').count()) > 1);
  assert.equal(await page.locator('#code-limit').inputValue(), '5');
});

test('CRUD, paging and a transaction from the editor: console, exact wire log, and the other sections', async () => {
  await deleteAllTables(page);
  await setCode(
    page,
    `await serviceClient.createTable("People");
const t = tableClient("People");
await t.createEntity({ partitionKey: "p", rowKey: "1", Name: "Ada" });
await t.upsertEntity({ partitionKey: "p", rowKey: "2", Name: "Bo" }, "Replace");
await t.updateEntity({ partitionKey: "p", rowKey: "1", Age: 36 }, "Merge");
await t.submitTransaction([
  ["create", { partitionKey: "p", rowKey: "3" }],
  ["create", { partitionKey: "p", rowKey: "4" }],
]);
const e = await t.getEntity("p", "1");
console.log(e.Name, e.Age);
const pages = t.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${"p"}\` } }).byPage({ maxPageSize: 3 });
for await (const page of pages) console.log(page.map((x) => x.rowKey));
await t.deleteEntity("p", "4");
console.log({ done: true, list: [1, 2] });`,
  );
  const outcome = await runEditor(page, { keyboard: true });
  assert.equal(outcome.kind, 'done', outcome.text);
  assert.match(outcome.text, /^Done in [\d,]+ ms\.$/);
  assert.deepEqual(await consoleLines(page), [
    ['Ada', '36'],
    ['["1", "2", "3"]'],
    ['["4"]'],
    ['{done: true, list: [1, 2]}'],
  ]);
  const scan = (scanned, returned) => ({ kind: 'Partition scan', scanned, returned });
  assert.deepEqual(await wireLog(page), [
    ['POST', `${BASE}/Tables`, 201],
    ['POST', `${BASE}/People`, 204],
    ['PUT', `${BASE}/People(PartitionKey='p',RowKey='2')`, 204],
    ['PATCH', `${BASE}/People(PartitionKey='p',RowKey='1')`, 204],
    ['POST', `${BASE}/$batch`, 202],
    ['GET', `${BASE}/People(PartitionKey='p',RowKey='1')`, 200],
    ['GET', `${BASE}/People()?$top=3&$filter=PartitionKey eq 'p'`, 200, scan(3, 3)],
    ['GET', `${BASE}/People()?$top=3&$filter=PartitionKey eq 'p'&NextPartitionKey=1!4!cA--&NextRowKey=1!4!NA--`, 200, scan(1, 1)],
    ['DELETE', `${BASE}/People(PartitionKey='p',RowKey='4')`, 204],
  ]);
  // An entry opens with its headers and bodies.
  const insert = page.locator('.wire-entry').nth(1);
  await insert.locator('summary').click();
  const request = await insert.locator('.wire-request').textContent();
  assert.match(request, /^POST http:\/\/127\.0\.0\.1:10002\/devstoreaccount1\/People\n/);
  assert.match(request, /\n\n\{"partitionKey"|\n\n\{"PartitionKey":"p","RowKey":"1","Name":"Ada"\}$/);
  const response = await insert.locator('.wire-response').textContent();
  assert.match(response, /^204\n/);
  assert.match(response, /\nETag: W\/"datetime'/i);
  await page.screenshot({ path: `${SHOTS}/code-crud.png`, fullPage: true });

  // The tables list and the entities grid show the writes at once.
  const row = page.locator('[data-table="People"]');
  assert.equal(await row.locator('.table-counts').textContent(), '3 entities · 1 partition');
  await row.locator('.table-facts').click();
  await page.locator('#nav-data').click();
  await page.locator('#section-data .grid-row').first().waitFor();
  assert.deepEqual(await page.locator('#section-data .grid-row td.pin-2').allTextContents(), ['1', '2', '3']);
});

test('a query in the wire log opens in the Query section with its table, filter and options', async () => {
  await page.locator('#nav-code').click();
  await page.locator('.wire-entry').nth(6).locator('.wire-open-query').click();
  await page.locator('#section-query:not([hidden])').waitFor();
  assert.equal(await page.locator('#raw-filter').inputValue(), "PartitionKey eq 'p'");
  assert.equal(await page.locator('#q-top').inputValue(), '3');
  assert.equal(await page.locator('#q-select').inputValue(), '');
  assert.equal(await page.locator('#query-heading').textContent(), 'Query People');
  await page.locator('.run-query').click();
  await page.locator('.results .grid-row').first().waitFor();
  assert.deepEqual(await page.locator('.results .grid-row td.pin-2').allTextContents(), ['1', '2', '3']);
});

test('a second query opened from the wire log rebuilds the built Query panel\'s builder', async () => {
  // The Query panel exists now (the test before opened it): its builder must follow.
  await page.locator('#nav-code').click();
  await setCode(
    page,
    `const t = tableClient("People");
for await (const e of t.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${"p"} and RowKey ge \${"2"}\`, select: ["Name"] } })) console.log(e.Name ?? "(no Name)");`,
  );
  const outcome = await runEditor(page);
  assert.equal(outcome.kind, 'done', outcome.text);
  assert.deepEqual(await consoleLines(page), [['Bo'], ['(no Name)']]);
  await page.locator('.wire-entry').last().locator('.wire-open-query').click();
  await page.locator('#section-query:not([hidden])').waitFor();
  assert.equal(await page.locator('#raw-filter').inputValue(), "PartitionKey eq 'p' and RowKey ge '2'");
  assert.equal(await page.locator('#q-select').inputValue(), 'Name');
  assert.equal(await page.locator('#q-top').inputValue(), '');
  const root = page.locator('#section-query .cond-group.root-group');
  assert.equal(await page.locator('#q-pk').inputValue(), 'p');
  const rows = root.locator('.condition-row');
  assert.deepEqual(await rows.locator('.cond-property').evaluateAll((e) => e.map((i) => i.value)), ['RowKey']);
  assert.deepEqual(await rows.locator('.cond-op').evaluateAll((e) => e.map((i) => i.value)), ['ge']);
  assert.deepEqual(await rows.locator('.cond-value').evaluateAll((e) => e.map((i) => i.value)), ['2']);
  await page.locator('.run-query').click();
  await page.locator('.results .results-count', { hasText: 'Page 1: 2 entities' }).waitFor();
  // `$select=Name`: the service returns only Name (no keys).
  const cells = await page.locator('#section-query .results .grid-row').evaluateAll((r) => r.map((row) => row.textContent));
  assert.equal(cells.length, 2);
  assert.match(cells[0], /Bo/);
});

test('errors show their message with the line', async () => {
  await openCode(page);
  await setCode(page, 'const a = 1;\nconst b = ;\n');
  let o = await runEditor(page);
  assert.deepEqual([o.kind, o.line, o.text], ['error', '2', 'Line 2: SyntaxError: Unexpected token']);
  await setCode(page, 'console.log("before");\n\nnull.x;\n');
  o = await runEditor(page);
  assert.deepEqual([o.kind, o.line], ['error', '3']);
  assert.match(o.text, /^Line 3: TypeError: Cannot read properties of null/);
  assert.deepEqual(await consoleLines(page), [['before']]);
  await setCode(page, 'const t = tableClient("NoSuchTable");\nawait t.getEntity("a", "b");\n');
  o = await runEditor(page);
  assert.deepEqual([o.kind, o.line], ['error', '2']);
  assert.match(o.text, /^Line 2: RestError: .*\(404 TableNotFound\)$/s);
  assert.deepEqual(await wireLog(page), [['GET', `${BASE}/NoSuchTable(PartitionKey='a',RowKey='b')`, 404]]);
  await page.screenshot({ path: `${SHOTS}/code-error.png`, fullPage: true });
});

test('an endless loop is stopped at the time limit the user set; Stop ends a run', async () => {
  await page.locator('#code-limit').fill('1');
  await setCode(page, 'console.log("spinning");\nwhile (true) {}\n');
  const started = Date.now();
  const o = await runEditor(page);
  const took = Date.now() - started;
  assert.equal(o.kind, 'timeout');
  assert.equal(o.text, 'Stopped at the time limit (1 s).');
  assert.ok(took >= 1000 && took < 6000, `stopped after ${took} ms`);
  assert.deepEqual(await consoleLines(page), [['spinning']]);
  await page.locator('#code-limit').fill('30');
  await setCode(page, 'await new Promise(() => {});');
  const before = Number(await page.locator('.code-outcome').getAttribute('data-run'));
  await page.locator('.run-code').click();
  await page.locator('.stop-code:not([disabled])').click();
  await page.locator(`.code-outcome[data-run="${before + 1}"] .code-stopped`).waitFor({ timeout: 5000 });
  assert.equal(await page.locator('.code-stopped').textContent(), 'Stopped.');
  // The page still works: the next run is served.
  await page.locator('#code-limit').fill('5');
  await setCode(page, 'console.log(1 + 1);');
  assert.equal((await runEditor(page)).kind, 'done');
  assert.deepEqual(await consoleLines(page), [['2']]);
});

test('code reaching for the page, its storage or other origins gets nothing', async () => {
  await page.evaluate(() => localStorage.setItem('tablescope.marker', 'kept'));
  const before = page.requested.length;
  await setCode(
    page,
    `const reach = {};
for (const name of ["document", "window", "localStorage", "indexedDB", "fetch", "XMLHttpRequest"]) reach[name] = typeof globalThis[name];
try { await fetch("http://example.com"); reach.fetched = true; } catch (e) { reach.fetch = e.name; }
try { await indexedDB.open("tablescope"); } catch (e) { reach.idb = e.name; }
try { document.body.textContent = "gone"; } catch (e) { reach.dom = e.name; }
try { localStorage.clear(); } catch (e) { reach.storage = e.name; }
console.log(JSON.stringify(reach));`,
  );
  assert.equal((await runEditor(page)).kind, 'done');
  const [[logged]] = await consoleLines(page);
  assert.deepEqual(JSON.parse(logged), {
    document: 'undefined',
    window: 'undefined',
    localStorage: 'undefined',
    indexedDB: 'undefined',
    fetch: 'TypeError',
    XMLHttpRequest: 'undefined',
    idb: 'TypeError',
    dom: 'ReferenceError',
    storage: 'ReferenceError',
  });
  assert.deepEqual(await wireLog(page), []);
  assert.deepEqual(page.requested.slice(before).filter((u) => u.includes('example.com')), []);
  assert.equal(await page.evaluate(() => localStorage.getItem('tablescope.marker')), 'kept');
  assert.ok((await page.locator('h1').textContent()).includes('Tablescope'));
});

test('a starter snippet loads into the editor and runs; the text is kept across a reload', async () => {
  const options = await page.locator('#code-snippet option').allTextContents();
  assert.equal(options.length, 5);
  await page.locator('#code-snippet').selectOption('paging-with-continuation.js');
  await page.waitForFunction(() => document.querySelector('.code-editor .cm-content').textContent.includes('Paging with continuation'));
  assert.equal((await runEditor(page)).kind, 'done');
  assert.deepEqual(await consoleLines(page), [
    ['page 1: 10 orders, 0001 to 0010'],
    ['page 2: 10 orders, 0011 to 0020'],
    ['page 3: 5 orders, 0021 to 0025'],
  ]);
  const text = await editorText(page);
  await page.reload();
  await page.locator('h1').waitFor();
  await openCode(page);
  assert.equal(await editorText(page), text);
});

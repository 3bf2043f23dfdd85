// The Connect section against two real endpoints started here on
// loopback ports: `tablescope serve` (in memory) and Azurite (npm `azurite`, in memory). On each:
// list the tables, query one, compare the same query on the sandbox and the connection (exact
// entities and exact differences), copy a sample in and a sandbox table out (exact entities both
// ways, in batches per partition), a read-only SAS refusing the write with the service's
// AuthorizationPermissionMismatch; and against Azurite before any CORS rule, the guidance.
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/graduate.test.mjs   (default dist: dist/)
//
// Needs target/debug/tablescope-serve (the test command's `cargo test --workspace` builds
// it; else it is built here) and scripts/bench/node_modules/azurite (`npm ci --prefix
// scripts/bench`; the test command installs it).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AzureNamedKeyCredential,
  TableClient,
  TableServiceClient,
  generateAccountSas,
  generateTableSas,
} from '@azure/data-tables';
import { REPO, start } from './lib.mjs';
import { ACCOUNT, launch, serveBinary } from './endpoint.mjs';
import { freePort } from '../../scripts/bench/lib/servers.mjs';

const SHOTS = '/tmp/shots-graduate';
/** The development account's key (Microsoft's Azurite documentation publishes it). */
const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const credential = new AzureNamedKeyCredential(ACCOUNT, DEV_KEY);
const ALL = { query: true, write: true, delete: true, list: true, add: true, update: true };

let env;
let serve;
let azurite;
let azuriteDir;
before(async () => {
  await mkdir(SHOTS, { recursive: true });
  env = await start();
  const servePort = await freePort();
  // The page is served from a port of its own, not the playground's 8080 that serve's default
  // CORS rule admits: name its origin, as a user serving the playground elsewhere would.
  const pageOrigin = new URL(env.url).origin;
  serve = await launch(
    serveBinary(),
    ['--host', '127.0.0.1', '--port', String(servePort), '--in-memory', '--silent', '--cors-origin', pageOrigin],
    servePort,
  );
  const azuritePort = await freePort();
  azuriteDir = await mkdtemp(join(tmpdir(), 'graduate-azurite-'));
  const main = join(REPO, 'scripts', 'bench', 'node_modules', 'azurite', 'dist', 'src', 'table', 'main.js');
  azurite = await launch(
    process.execPath,
    [main, '--tableHost', '127.0.0.1', '--tablePort', String(azuritePort), '--inMemoryPersistence', '--skipApiVersionCheck', '--loose', '--silent', '--disableTelemetry'],
    azuritePort,
    azuriteDir,
  );
});
after(async () => {
  await env?.close();
  await serve?.stop();
  await azurite?.stop();
  if (azuriteDir) await rm(azuriteDir, { recursive: true, force: true });
});

const sas = (permissions) =>
  generateAccountSas(credential, { expiresOn: new Date(Date.now() + 3600_000), permissions, resourceTypes: 'sco' });
const options = { allowInsecureConnection: true };
const tableClient = (endpoint, table) => new TableClient(endpoint, table, credential, options);

/** The remote tables both endpoints start with. */
const EMPLOYEES = [
  { partitionKey: 'Sales', rowKey: '001', Name: 'Ada', Age: 36, Id: { value: '9007199254740993', type: 'Int64' } },
  { partitionKey: 'Sales', rowKey: '002', Name: 'Robert', Age: 41, Id: { value: '2', type: 'Int64' } },
  { partitionKey: 'Sales', rowKey: "o'k", Name: 'Quote', Age: 29, Id: { value: '3', type: 'Int64' } },
  { partitionKey: 'Support', rowKey: '001', Name: 'Grace', Age: 52, Id: { value: '4', type: 'Int64' } },
  { partitionKey: 'Support', rowKey: '002', Name: 'Linus', Age: 33, Id: { value: '5', type: 'Int64' } },
];
const ORDERS = [
  { partitionKey: 'A', rowKey: '1', Total: 10.5 },
  { partitionKey: 'A', rowKey: '2', Total: 20.25 },
  { partitionKey: 'B', rowKey: '1', Total: 30.5 },
  { partitionKey: 'B', rowKey: '2', Total: 40.75 },
];

async function seedRemote(endpoint) {
  for (const [table, rows] of [['Employees', EMPLOYEES], ['Orders', ORDERS]]) {
    const c = tableClient(endpoint, table);
    await c.createTable();
    for (const e of rows) await c.createEntity(e);
  }
}

/** One request to the page's own engine (window.tablescope.wire), JSON without metadata back. */
async function sandbox(page, method, path, body) {
  return page.evaluate(
    ([method, path, body]) => {
      const r = window.tablescope.wire({
        method,
        url: `http://127.0.0.1:10002/devstoreaccount1${path}`,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json;odata=nometadata', 'If-Match': '*' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = new TextDecoder().decode(r.body);
      return { status: r.status, json: text ? JSON.parse(text) : null };
    },
    [method, path, body],
  );
}

/** The sandbox table's entities: keys and the listed properties. */
async function sandboxRows(page, table, props) {
  const r = await sandbox(page, 'GET', `/${table}()`);
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.value.map((e) => [e.PartitionKey, e.RowKey, ...props.map((p) => e[p])]);
}

/** axe-core's serious and critical violations in the page as it is now. */
async function axeViolations(page) {
  await page.evaluate(await readFile(join(REPO, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  return page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  );
}

/** 150 entities in p1 (batches of 100 and 50) and 3 in p2. */
function numbered() {
  const rows = [];
  for (let i = 0; i < 150; i++) rows.push({ PartitionKey: 'p1', RowKey: String(i).padStart(3, '0'), N: i });
  for (let i = 0; i < 3; i++) rows.push({ PartitionKey: 'p2', RowKey: `r${i}`, N: 1000 + i });
  return rows;
}

/** Creates the sandbox table `table` with `rows`. */
async function seedSandbox(page, table, rows) {
  assert.equal((await sandbox(page, 'POST', '/Tables', { TableName: table })).status, 201);
  await page.evaluate(([table, rows]) => {
    for (const e of rows) {
      const r = window.tablescope.wire({ method: 'POST', url: `http://127.0.0.1:10002/devstoreaccount1/${table}`, headers: { 'Content-Type': 'application/json', Prefer: 'return-no-content' }, body: JSON.stringify(e) });
      if (r.status !== 204) throw new Error(`insert: ${r.status}`);
    }
  }, [table, rows]);
}

/** Records every text the copy's progress line shows, in `window.progressSeen`. */
async function watchProgress(page) {
  await page.evaluate(() => {
    window.progressSeen = [];
    const line = document.querySelector('.connect-progress');
    new MutationObserver(() => {
      const t = line.textContent;
      if (t && window.progressSeen.at(-1) !== t) window.progressSeen.push(t);
    }).observe(line, { childList: true, subtree: true, characterData: true });
  });
}

async function openConnect() {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(String(e)));
  await page.goto(env.url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
  await page.locator('#nav-connect').click();
  await page.locator('#connect-url').waitFor();
  return page;
}

async function connect(page, url) {
  await page.locator('#connect-url').fill(url);
  await page.locator('.connect-add').click();
}

const texts = (locator) => locator.allInnerTexts();
/** The rows of the typed grid `<id>-grid`, each as its cells' text. */
const gridRows = async (page, id) =>
  page.locator(`#${id}-grid tr.grid-row`).evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));

async function compare(page) {
  await page.locator('.connect-compare').click();
  await page.locator('.connect-same, .connect-diff, .connect-result .connect-error').first().waitFor();
}

test('graduate: the Connect section is a module of its own, downloaded the first time it shows', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const wasm = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('.wasm') || path.endsWith('connect.js')) wasm.push(path.split('/').pop());
  });
  await page.goto(env.url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
  await page.waitForTimeout(500);
  assert.ok(!wasm.some((f) => f.startsWith('connect')), `at start: ${wasm.join(', ')}`);
  await page.locator('#nav-connect').click();
  await page.locator('#connect-url').waitFor({ timeout: 15_000 });
  assert.deepEqual(wasm.filter((f) => f.startsWith('connect')), ['connect.js', 'connect_bg.wasm']);
  // Mounted once: one form, however often the section is shown again.
  await page.locator('#nav-data').click();
  await page.locator('#nav-connect').click();
  assert.equal(await page.locator('#connect-url').count(), 1);
  // The module follows the playground's language switcher.
  assert.equal(await page.locator('#connect-heading').textContent(), 'Connect to a real account');
  await page.locator('#lang-select').selectOption('de');
  await page.locator('#connect-heading', { hasText: 'Mit einem echten Konto verbinden' }).waitFor();
  await context.close();
});

/** Where the two endpoints legitimately differ from the sandbox, per endpoint (filled in below). */
const TARGETS = [
  { name: 'tablescope serve', server: () => serve },
  { name: 'Azurite', server: () => azurite },
];

for (const target of TARGETS) {
  test(`graduate against ${target.name}: list, query, compare, copy in and out, a read-only SAS`, async () => {
    const { endpoint } = target.server();
    const slug = target.name.replace(/\W+/g, '-');
    await seedRemote(endpoint);
    if (target.name === 'Azurite') {
      await new TableServiceClient(endpoint, credential, options).setProperties({
        cors: [{ allowedOrigins: '*', allowedMethods: 'DELETE,GET,HEAD,MERGE,OPTIONS,POST,PUT', allowedHeaders: '*', exposedHeaders: '*', maxAgeInSeconds: 60 }],
      });
    }
    const page = await openConnect();
    await connect(page, `${endpoint}?${sas(ALL)}`);
    await page.locator('.connect-current').waitFor();
    assert.match(await page.locator('.connect-current').innerText(), new RegExp(`Connected to ${endpoint}\\. The SAS is in this tab's memory only\\.`));
    // Not kept: the endpoint alone is in localStorage (and that it had a SAS).
    assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('tablescope.connection'))), { endpoint, sasNotKept: true });

    // List.
    await page.locator('.connect-tables [data-remote-table]').first().waitFor();
    assert.deepEqual(await texts(page.locator('.connect-tables [data-remote-table]')), ['Employees', 'Orders']);

    // Query with the Query section's own editor: a table query of two condition rows, two
    // entities a page. The connection receives exactly the builder's $filter, then the
    // continuation it returned; the typed grid shows each page's entities in the service's
    // order, with each column's Edm types.
    const origin = new URL(endpoint).origin;
    const sent = [];
    const continued = [];
    const paramsOf = (u) => Object.fromEntries([...u.searchParams].filter(([k]) => k.startsWith('$') || k.startsWith('Next')));
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin === origin && u.pathname.endsWith('/Employees()')) sent.push(paramsOf(u));
    });
    page.on('response', (r) => {
      const u = new URL(r.url());
      if (u.origin !== origin || !u.pathname.endsWith('/Employees()') || r.request().method() !== 'GET') return;
      const h = r.headers();
      continued.push([h['x-ms-continuation-nextpartitionkey'], h['x-ms-continuation-nextrowkey']]);
    });
    await page.locator('.connect-tables [data-remote-table="Employees"]').click();
    const browse = page.locator('.connect-browse');
    await browse.locator('input[name="connect-query-kind"][value="Table"]').check();
    await browse.locator('.conditions .add-condition').click();
    await browse.locator('.root-group > .group-actions .add-condition').click();
    const conditions = browse.locator('.condition-row');
    await conditions.nth(0).locator('.cond-property').fill('Age');
    await conditions.nth(0).locator('.cond-op').selectOption('gt');
    await conditions.nth(0).locator('.cond-type').selectOption('Int32');
    await conditions.nth(0).locator('.cond-value').fill('30');
    await conditions.nth(1).locator('.cond-property').fill('Name');
    await conditions.nth(1).locator('.cond-op').selectOption('ne');
    await conditions.nth(1).locator('.cond-value').fill('Linus');
    const filter = "Age gt 30 and Name ne 'Linus'";
    assert.equal(await page.locator('#connect-filter').inputValue(), filter);
    await page.locator('#connect-top').fill('2');
    await page.locator('.connect-query').click();
    const grid = page.locator('#connect-remote-entities-grid');
    await page.locator('.connect-browse .results-count', { hasText: 'Page 1: 2 entities' }).waitFor();
    assert.deepEqual(sent, [{ $filter: filter, $top: '2' }]);
    const headers = () =>
      grid.locator('thead th').evaluateAll((ths) => ths.map((th) => [th.querySelector('.col-name').textContent, th.querySelector('.col-types').textContent]));
    const rows = () => grid.locator('tr.grid-row').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(await headers(), [['PartitionKey', 'String'], ['RowKey', 'String'], ['Age', 'Int32'], ['Id', 'Int64'], ['Name', 'String']]);
    assert.deepEqual(await rows(), [
      ['Sales', '001', '36', '9007199254740993', 'Ada'],
      ['Sales', '002', '41', '2', 'Robert'],
    ]);
    await page.screenshot({ path: `${SHOTS}/${slug}-query-page-1.png`, fullPage: true });
    if (target.name === 'tablescope serve') {
      // The same panels in Arabic, at desktop width and at 360 px.
      await page.locator('#lang-select').selectOption('ar');
      await page.locator('html[dir="rtl"]').waitFor();
      await page.locator('.connect-browse .builder legend', { hasText: 'المُنشئ' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/query-ar.png`, fullPage: true });
      await page.setViewportSize({ width: 360, height: 740 });
      await page.screenshot({ path: `${SHOTS}/query-ar-360.png`, fullPage: true });
      await page.locator('.connect-browse').screenshot({ path: `${SHOTS}/query-ar-360-panel.png` });
      await page.locator('#lang-select').selectOption('en');
      await page.locator('html[dir="ltr"]').waitFor();
      await page.screenshot({ path: `${SHOTS}/query-360.png`, fullPage: true });
      await page.locator('.connect-browse').screenshot({ path: `${SHOTS}/query-360-panel.png` });
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // Page 2: the continuation the service returned, with the first page's options.
    const [nextPk, nextRk] = continued[0];
    assert.ok(nextPk && nextRk, `a continuation after page 1: ${continued[0]}`);
    assert.deepEqual(await texts(page.locator('.connect-remote-entities-pages li')), [`Page 1: 2 entities, continuation: NextPartitionKey=${nextPk}; NextRowKey=${nextRk}`]);
    await page.locator('#connect-filter').fill('');
    await page.locator('#connect-top').fill('');
    await page.locator('.connect-next-page').click();
    await page.locator('.connect-browse .results-count', { hasText: 'Page 2: 1 entity' }).waitFor();
    assert.deepEqual(sent, [
      { $filter: filter, $top: '2' },
      { $filter: filter, $top: '2', NextPartitionKey: nextPk, NextRowKey: nextRk },
    ]);
    assert.deepEqual(await headers(), [['PartitionKey', 'String'], ['RowKey', 'String'], ['Age', 'Int32'], ['Id', 'Int64'], ['Name', 'String']]);
    assert.deepEqual(await rows(), [['Support', '001', '52', '4', 'Grace']]);
    assert.deepEqual(await texts(page.locator('.connect-remote-entities-pages li')), [
      `Page 1: 2 entities, continuation: NextPartitionKey=${nextPk}; NextRowKey=${nextRk}`,
      'Page 2: 1 entity, continuation: none',
    ]);
    assert.equal(await page.locator('.connect-next-page').isHidden(), true);
    // Opening a row shows its JSON as the service sent it, annotations included.
    await grid.locator('tr.grid-row').first().click();
    assert.match(await page.locator('.connect-entity-json').innerText(), /"Id@odata\.type": "Edm\.Int64"/);
    await page.screenshot({ path: `${SHOTS}/${slug}-query-page-2.png`, fullPage: true });
    // The whole table again, two a page, for the copy and the comparison below.
    await page.locator('#connect-top').fill('2');

    // Copy the first 100 (all five) into the sandbox: the same entities, Int64 kept.
    await page.locator('.connect-copy-in').click();
    await page.locator('.connect-copied').waitFor();
    assert.equal(await page.locator('.connect-copied').innerText(), 'Copied 5 entities into the sandbox table Employees.');
    const employees = await sandbox(page, 'GET', '/Employees()');
    assert.deepEqual(
      employees.json.value.map((e) => [e.PartitionKey, e.RowKey, e.Name, e.Age, e.Id]),
      EMPLOYEES.map((e) => [e.partitionKey, e.rowKey, e.Name, e.Age, e.Id.value]),
    );
    const typed = await page.evaluate(() => {
      const r = window.tablescope.wire({ method: 'GET', url: "http://127.0.0.1:10002/devstoreaccount1/Employees(PartitionKey='Sales',RowKey='001')", headers: {} });
      return JSON.parse(new TextDecoder().decode(r.body))['Id@odata.type'];
    });
    assert.equal(typed, 'Edm.Int64');

    // Compare: the same answers, page for page.
    await compare(page);
    await page.screenshot({ path: `${SHOTS}/${slug}-compare-same.png`, fullPage: true });
    const same = await page.locator('.connect-same').count();
    const first = same ? [await page.locator('.connect-same').innerText()] : await texts(page.locator('.connect-differences li'));
    assert.deepEqual(first, target.sameAnswers);

    // One changed value and one missing entity in the sandbox: exactly those differences.
    assert.equal((await sandbox(page, 'PUT', "/Employees(PartitionKey='Sales',RowKey='002')", { Name: 'Bob', Age: 41, Id: '2', 'Id@odata.type': 'Edm.Int64' })).status, 204);
    assert.equal((await sandbox(page, 'DELETE', "/Employees(PartitionKey='Support',RowKey='002')")).status, 204);
    await compare(page);
    await page.screenshot({ path: `${SHOTS}/${slug}-compare-differ.png`, fullPage: true });
    assert.deepEqual(await texts(page.locator('.connect-differences li')), target.differences);
    assert.deepEqual(await axeViolations(page), []);
    // The Query section's editor and grid in the same page as these: every id once.
    await page.locator('#nav-query').click();
    await page.locator('#raw-filter').waitFor();
    await page.locator('#nav-connect').click();
    const duplicates = await page.evaluate(() => {
      const seen = new Map();
      for (const e of document.querySelectorAll('[id]')) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
      return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    });
    assert.deepEqual(duplicates, []);
    // Each side in the typed grid: the sandbox's four, the connection's five.
    assert.deepEqual(await gridRows(page, 'connect-sandbox-entities'), [
      ['Sales', '001', '36', '9007199254740993', 'Ada'],
      ['Sales', '002', '41', '2', 'Bob'],
      ['Sales', "o'k", '29', '3', 'Quote'],
      ['Support', '001', '52', '4', 'Grace'],
    ]);
    assert.deepEqual(await gridRows(page, 'connect-remote-entities'), [
      ['Sales', '001', '36', '9007199254740993', 'Ada'],
      ['Sales', '002', '41', '2', 'Robert'],
      ['Sales', "o'k", '29', '3', 'Quote'],
      ['Support', '001', '52', '4', 'Grace'],
      ['Support', '002', '33', '5', 'Linus'],
    ]);

    // Copy one partition of Orders in.
    await page.locator('.connect-tables [data-remote-table="Orders"]').click();
    await page.locator('#connect-partition').fill('B');
    await page.locator('.connect-copy-in').click();
    await page.locator('.connect-copied').waitFor();
    assert.equal(await page.locator('.connect-copied').innerText(), 'Copied 2 entities into the sandbox table Orders.');
    assert.deepEqual(await sandboxRows(page, 'Orders', ['Total']), [['B', '1', 30.5], ['B', '2', 40.75]]);
    // The copy in the sandbox's own grid.
    await page.locator('.connect-open-copy').click();
    await page.locator('#section-data .grid-row').first().waitFor();
    assert.equal(await page.locator('#section-data .grid-row').count(), 2);
    await page.locator('#nav-connect').click();

    // Copy out: 150 entities in p1 (batches of 100 and 50) and 3 in p2, after a confirmation.
    const projects = numbered();
    await seedSandbox(page, 'Projects', projects);
    await page.locator('#connect-out-table').selectOption('Projects');
    await page.locator('.connect-copy-out').click();
    assert.equal(
      await page.locator('.connect-confirm .confirm-question').innerText(),
      `Write 153 entities of the sandbox table Projects to the table Projects at ${endpoint}? Entities with the same keys there are replaced.`,
    );
    await watchProgress(page);
    await page.locator('.connect-copy-out-yes').click();
    await page.locator('.connect-copied').waitFor();
    assert.deepEqual(await page.evaluate(() => window.progressSeen), [
      'Written 0 of 153 entities…',
      'Written 100 of 153 entities…',
      'Written 150 of 153 entities…',
    ]); // then the outcome replaces the progress line

    assert.equal(await page.locator('.connect-copied').innerText(), `Wrote 153 entities to the table Projects at ${endpoint}.`);
    const written = [];
    for await (const e of tableClient(endpoint, 'Projects').listEntities()) written.push({ PartitionKey: e.partitionKey, RowKey: e.rowKey, N: e.N });
    assert.deepEqual(written, projects);

    // A read-only SAS: listing works, the write is refused as the service says, nothing written.
    // The target table is not on the connection yet, so the copy's first write that the service
    // checks differs: tablescope serve refuses the batch itself; Azurite 3.37 does not check a
    // SAS's permissions inside a $batch (it answers TableNotFound), so it is the table's
    // creation that it refuses. Both with 403 AuthorizationPermissionMismatch.
    await seedSandbox(page, 'Drafts', [{ PartitionKey: 'd', RowKey: '1', N: 1 }, { PartitionKey: 'd', RowKey: '2', N: 2 }]);
    await connect(page, `${endpoint}?${sas({ query: true, list: true })}`);
    await page.locator('.connect-tables [data-remote-table="Projects"]').waitFor();
    await page.locator('#connect-out-table').selectOption('Drafts');
    await page.locator('.connect-copy-out').click();
    await page.locator('.connect-copy-out-yes').click();
    const stopped = page.locator('.connect-stopped');
    await stopped.waitFor();
    await page.screenshot({ path: `${SHOTS}/${slug}-read-only.png`, fullPage: true });
    assert.equal(await stopped.locator('.connect-error').getAttribute('data-code'), 'AuthorizationPermissionMismatch');
    assert.equal(await stopped.locator('.connect-error').getAttribute('data-status'), '403');
    const lines = (await stopped.innerText()).split('\n').filter(Boolean);
    assert.deepEqual([lines[0], lines.at(-1)], [target.readOnlyStop, 'Nothing was written before it.']);
    assert.match(lines[1], /^The service answered 403 AuthorizationPermissionMismatch: (0:)?This request is not authorized to perform this operation using this permission\./);
    const tables = [];
    for await (const t of new TableServiceClient(endpoint, credential, options).listTables()) tables.push(t.name);
    assert.deepEqual(tables, ['Employees', 'Orders', 'Projects']);

    // A table SAS for the p1 partition only, on an existing table: the two p1 batches are
    // written, the p2 batch is refused, and the copy says exactly that. (Not on Azurite 3.37,
    // which does not check a SAS inside a $batch: see above.)
    if (!target.outOfRange) {
      assert.deepEqual(page.problems, []);
      await page.context().close();
      return;
    }
    await tableClient(endpoint, 'Tasks').createTable();
    await seedSandbox(page, 'Tasks', numbered());
    const tableSas = generateTableSas('Tasks', credential, {
      expiresOn: new Date(Date.now() + 3600_000),
      permissions: { query: true, add: true, update: true },
      startPartitionKey: 'p1',
      endPartitionKey: 'p1',
    });
    await connect(page, `${endpoint}?${tableSas}`);
    await page.locator('.connect-browse .connect-error').waitFor();
    await page.locator('#connect-out-table').selectOption('Tasks');
    await page.locator('.connect-copy-out').click();
    await page.locator('.connect-copy-out-yes').click();
    await stopped.waitFor();
    await page.screenshot({ path: `${SHOTS}/${slug}-stopped-mid-copy.png`, fullPage: true });
    assert.deepEqual(
      (await stopped.innerText()).split('\n').filter((l) => l && !l.startsWith('The service answered')),
      [
        'Stopped at batch 3 of 3 (partition p2, RowKey r0 to r2); that batch wrote nothing:',
        'Written before it: 150 entities in 2 batches:',
        'p1: 100',
        'p1: 50',
      ],
    );
    assert.equal(await stopped.locator('.connect-error').getAttribute('data-code'), target.outOfRange);
    const tasks = [];
    for await (const e of tableClient(endpoint, 'Tasks').listEntities()) tasks.push({ PartitionKey: e.partitionKey, RowKey: e.rowKey, N: e.N });
    assert.deepEqual(tasks, numbered().slice(0, 150));

    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('graduate: the SAS is kept only when asked, and a reload says what it needs', async () => {
  const { endpoint } = serve;
  const page = await openConnect();
  const token = sas(ALL);
  const kept = () => page.evaluate(() => JSON.parse(localStorage.getItem('tablescope.connection')));
  const reload = async () => {
    await page.reload();
    await page.locator('h1').waitFor({ timeout: 15_000 });
    await page.locator('#nav-connect').click();
    await page.locator('#connect-url').waitFor();
  };
  // Ticked: endpoint and SAS are in localStorage, and a reload connects again.
  await page.locator('#connect-keep').check();
  await connect(page, `${endpoint}?${token}`);
  await page.locator('.connect-tables [data-remote-table]').first().waitFor();
  assert.deepEqual(await kept(), { endpoint, sas: token });
  await reload();
  await page.locator('.connect-tables [data-remote-table]').first().waitFor();
  assert.equal(await page.locator('.connect-current').innerText(), `Connected to ${endpoint}. The SAS is kept in this browser.`);
  // Unticked: the SAS leaves localStorage; after a reload the form has the endpoint and asks for the SAS.
  await page.locator('#connect-keep').uncheck();
  await connect(page, `${endpoint}?${token}`);
  await page.locator('.connect-current', { hasText: "The SAS is in this tab's memory only." }).waitFor();
  assert.deepEqual(await kept(), { endpoint, sasNotKept: true });
  await reload();
  await page.locator('.connect-sas-again').waitFor();
  assert.equal(await page.locator('.connect-sas-again').innerText(), 'The SAS of this endpoint was not kept: paste its SAS URL again to connect.');
  assert.equal(await page.locator('#connect-url').inputValue(), endpoint);
  assert.equal(await page.locator('.connect-current').count(), 0);
  // Forget: nothing is kept.
  await connect(page, `${endpoint}?${token}`);
  await page.locator('.connect-forget').click();
  assert.equal(await page.evaluate(() => localStorage.getItem('tablescope.connection')), null);
  await page.context().close();
});

test("graduate: a connection's query shows as code for that connection, and opens in the Code section", async () => {
  // Nothing is sent: the code is written from the editor's fields, so the table need not exist.
  const { endpoint } = serve;
  const page = await openConnect();
  await connect(page, `${endpoint}?${sas(ALL)}`);
  await page.locator('.connect-current').waitFor();
  await page.locator('#connect-table').fill('Employees');
  const browse = page.locator('.connect-browse');
  await browse.locator('input[name="connect-query-kind"][value="Table"]').check();
  const filter = "Age gt 30 and Name ne 'Linus'";
  await page.locator('#connect-filter').fill(filter);
  await page.locator('#connect-select').fill('Name, Age');
  await page.locator('#connect-top').fill('5');
  const root = page.locator('.show-code[data-what="connect-query"]');
  await root.locator('.show-code-toggle').click();
  const form = async (id) => {
    await root.locator(`.code-form-tab[data-form="${id}"]`).click();
    return root.locator(`.code-form[data-form="${id}"]`).textContent();
  };
  // The HTTP form is the request to the connection's endpoint, with the options as typed and
  // no credential: the SAS never appears in code.
  const http = await form('http');
  const [method, url, version] = http.split('\n')[0].split(' ');
  assert.deepEqual([method, version], ['GET', 'HTTP/1.1']);
  const u = new URL(url);
  assert.equal(`${u.origin}${u.pathname}`, `${endpoint}/Employees()`);
  assert.deepEqual(Object.fromEntries(u.searchParams), { $filter: filter, $select: 'Name,Age', $top: '5' });
  assert.ok(!http.includes('sig='), http);
  assert.ok(!http.includes('Authorization'), http);
  // The SDK forms read a connection string; the JavaScript form uses the Code section's clients.
  assert.match(await form('python'), /AZURE_TABLES_CONNECTION_STRING/);
  const js = await form('js');
  assert.equal(
    js.trimEnd(),
    [
      'const client = tableClient("Employees");',
      'const entities = client.listEntities({',
      `  queryOptions: { filter: "${filter}", select: ["Name", "Age"] },`,
      '});',
      '// One page, as one request returns it.',
      'const { value: page = [] } = await entities.byPage({ maxPageSize: 5 }).next();',
      'for (const entity of page) console.log(entity);',
      'console.log("continuationToken:", page.continuationToken);',
    ].join('\n'),
  );
  // A bad $top says what is wrong instead of writing code.
  await page.locator('#connect-top').fill('five');
  await root.locator('.code-form-tab[data-form="http"]').click();
  await root.locator('.code-form-none').waitFor();
  assert.match(await root.locator('.code-form-none').textContent(), /\$top/);
  await page.locator('#connect-top').fill('5');
  await root.locator('.code-form-tab[data-form="js"]').click();
  await root.locator('.code-form[data-form="js"]').waitFor();
  await page.locator('.connect-browse').screenshot({ path: `${SHOTS}/connect-show-code.png` });
  // "Open in the Code section" goes through the bridge to the playground's Code section.
  await root.locator('.open-in-code').click();
  await page.locator('.code-editor .cm-line').first().waitFor({ timeout: 15_000 });
  assert.equal((await page.locator('.code-editor .cm-line').allTextContents()).join('\n').trimEnd(), js.trimEnd());
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('graduate: the runs on a connection are listed with what they read, and one is used again', async () => {
  const { endpoint } = serve;
  const table = tableClient(endpoint, 'Runs');
  await table.createTable();
  for (let i = 1; i <= 5; i++) await table.createEntity({ partitionKey: i <= 3 ? 'a' : 'b', rowKey: String(i), N: i });
  const page = await openConnect();
  await connect(page, `${endpoint}?${sas(ALL)}`);
  await page.locator('.connect-current').waitFor();
  await page.locator('#connect-table').fill('Runs');
  const runsDone = (n) => page.locator('.connect-runs tr.connect-run').nth(n - 1).waitFor();
  const history = () =>
    page.locator('.connect-runs tr.connect-run').evaluateAll((rows) =>
      rows.map((r) => [...r.cells].slice(0, 6).map((c) => c.textContent)),
    );
  assert.equal(await page.locator('.connect-history').isHidden(), true);
  // 1: a query of two entities a page, then its next page.
  await page.locator('#connect-filter').fill('N ge 2');
  await page.locator('#connect-top').fill('2');
  await page.locator('.connect-query').click();
  await runsDone(1);
  await page.locator('.connect-next-page').click();
  await page.locator('.connect-run[data-run="1"] td:nth-child(4)', { hasText: '2' }).waitFor();
  // 2: the same query compared with the sandbox, which has no such table.
  await page.locator('#connect-filter').fill("PartitionKey eq 'a'");
  await page.locator('#connect-top').fill('');
  await compare(page);
  await runsDone(2);
  // 3: a table the connection does not have.
  await page.locator('#connect-table').fill('Missing');
  await page.locator('.connect-query').click();
  await runsDone(3);
  // Newest first: table, $filter, pages, entities (or what stopped the run), differences.
  assert.deepEqual(await history(), [
    ['3', 'Missing', "PartitionKey eq 'a'", '', '404 TableNotFound', ''],
    ['2', 'Runs', "PartitionKey eq 'a'", '1', '3', ''],
    ['1', 'Runs', 'N ge 2', '2', '4', ''],
  ]);
  // Every run says how long it waited, in whole milliseconds.
  const times = await page.locator('.connect-runs tr.connect-run td:nth-child(7)').allTextContents();
  assert.equal(times.length, 3);
  for (const ms of times) assert.match(ms, /^\d[\d,]*$/);
  // "Use again" puts run 1's table and options back in the editor.
  await page.locator('.connect-run[data-run="1"] .connect-run-use').click();
  assert.equal(await page.locator('#connect-table').inputValue(), 'Runs');
  assert.equal(await page.locator('#connect-filter').inputValue(), 'N ge 2');
  assert.equal(await page.locator('#connect-top').inputValue(), '2');
  assert.equal(
    await page.locator('.connect-run[data-run="1"] .connect-run-use').getAttribute('aria-label'),
    'Use again: run 1',
  );
  await page.locator('.connect-history').screenshot({ path: `${SHOTS}/connect-history.png` });
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await table.deleteTable();
});

test('graduate: a local endpoint without a SAS is called without credentials', async () => {
  // tablescope serve answers those only with --allow-anonymous; without it, as the service
  // sends it: 401 NoAuthenticationInformation.
  const port = await freePort();
  const open = await launch(
    serveBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--in-memory', '--silent', '--allow-anonymous', '--cors-origin', new URL(env.url).origin],
    port,
  );
  try {
    await tableClient(open.endpoint, 'Anonymous').createTable();
    const page = await openConnect();
    await connect(page, open.endpoint);
    await page.locator('.connect-tables [data-remote-table]').first().waitFor();
    assert.deepEqual(await texts(page.locator('.connect-tables [data-remote-table]')), ['Anonymous']);
    assert.equal(await page.locator('.connect-current').innerText(), `Connected to ${open.endpoint}. No SAS: requests carry no credentials.`);
    await connect(page, serve.endpoint);
    const error = page.locator('.connect-browse .connect-error');
    await error.waitFor();
    assert.equal(await error.getAttribute('data-code'), 'NoAuthenticationInformation');
    assert.match(await error.innerText(), /^The service answered 401 NoAuthenticationInformation: /);
    await page.context().close();
  } finally {
    await open.stop();
  }
});

test('graduate: an endpoint without a CORS rule for this origin gives the guidance', async () => {
  const { endpoint } = azurite;
  // A fresh Azurite has no rule; this test runs after the rule above was set, so clear it.
  await new TableServiceClient(endpoint, credential, options).setProperties({ cors: [] });
  const page = await openConnect();
  const origin = new URL(env.url).origin;
  await connect(page, `${endpoint}?${sas(ALL)}`);
  const help = page.locator('.connect-cors');
  await help.waitFor();
  await page.screenshot({ path: `${SHOTS}/cors-guidance.png`, fullPage: true });
  const text = await help.innerText();
  assert.match(text, new RegExp(`^No answer from ${new URL(endpoint).origin} could be read \\(Failed to fetch\\)\\. Most often this means the endpoint's CORS rules do not allow this page's origin, ${origin};`));
  assert.equal(
    await help.locator('.connect-cors-cli').innerText(),
    `az storage cors add --account-name devstoreaccount1 --services t --methods DELETE GET HEAD MERGE OPTIONS POST PUT --origins ${origin} --allowed-headers '*' --exposed-headers '*' --max-age 3600`,
  );
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: `${SHOTS}/cors-guidance-360.png`, fullPage: true });
  assert.match(text, new RegExp(`Resource sharing \\(CORS\\), the Table service tab\\. Add a rule with Allowed origins ${origin}, Allowed methods DELETE, GET, HEAD, MERGE, OPTIONS, POST, PUT,`));
  await page.context().close();
});

// What each endpoint answers in the comparisons (checked by hand against the service's rules).
TARGETS[0].outOfRange = 'AuthorizationFailure';
TARGETS[1].outOfRange = null;
TARGETS[0].readOnlyStop = 'Stopped at batch 1 of 1 (partition d, RowKey 1 to 2); that batch wrote nothing:';
TARGETS[1].readOnlyStop = 'Creating the table Drafts failed, so nothing was written:';
TARGETS[0].sameAnswers = ['The same answers: 5 entities in the same order. 3 pages, with the same continuation tokens.'];
TARGETS[0].differences = [
  'Pages: 2 in the sandbox, 3 at the connection.',
  // The sandbox's second page is its last (4 entities); the connection has a fifth after it.
  'Page 2: continuation none in the sandbox, NextPartitionKey=1!12!U3VwcG9ydA--; NextRowKey=1!4!MDAy at the connection.',
  'Entity 2 (Sales / 002): Name is "Bob" in the sandbox, "Robert" at the connection.',
  'Entity 5: none in the sandbox, Support / 002 at the connection.',
];
// Azurite writes its continuation tokens as plain base64 of the key; the service (and the
// sandbox) write `1!<length>!<base64 with - for =>`: the same pages, different tokens.
TARGETS[1].sameAnswers = [
  "Page 1: continuation NextPartitionKey=1!8!U2FsZXM-; NextRowKey=1!4!bydr in the sandbox, NextPartitionKey=U2FsZXM=; NextRowKey=bydr at the connection.",
  'Page 2: continuation NextPartitionKey=1!12!U3VwcG9ydA--; NextRowKey=1!4!MDAy in the sandbox, NextPartitionKey=U3VwcG9ydA==; NextRowKey=MDAy at the connection.',
];
TARGETS[1].differences = [
  'Pages: 2 in the sandbox, 3 at the connection.',
  "Page 1: continuation NextPartitionKey=1!8!U2FsZXM-; NextRowKey=1!4!bydr in the sandbox, NextPartitionKey=U2FsZXM=; NextRowKey=bydr at the connection.",
  'Page 2: continuation none in the sandbox, NextPartitionKey=U3VwcG9ydA==; NextRowKey=MDAy at the connection.',
  'Entity 2 (Sales / 002): Name is "Bob" in the sandbox, "Robert" at the connection.',
  'Entity 5: none in the sandbox, Support / 002 at the connection.',
];

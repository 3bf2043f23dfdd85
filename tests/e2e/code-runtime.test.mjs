// The Code section's runtime: user code runs in a sandbox Web Worker with
// the official @azure/data-tables in scope, reaching the page's engine only through the
// in-page transport, by message (www/code/worker.js, www/code/code.js, bundled by
// scripts/bundle-code.mjs). Checks: nothing of it loads at start; SDK CRUD, queries and
// transactions with console output and the exact wire log; the other sections show the
// change; errors with their line (syntax, runtime, the service's); runaway code stopped at
// the limit; code reaching for document, indexedDB, fetch and the page's other ways out gets
// nothing; and every "show as code" JavaScript form (crates/codegen/tests/code/golden) runs unchanged and
// gives the engine's answer.
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/code-runtime.test.mjs   (default dist: dist/)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO, start } from './lib.mjs';

let env;
let page;
before(async () => {
  env = await start();
  const context = await env.browser.newContext();
  page = await context.newPage();
  page.problems = [];
  page.requested = [];
  page.on('console', (m) => m.type() === 'error' && page.problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => page.problems.push(`uncaught exception: ${e.stack ?? e}`));
  page.on('request', (r) => page.requested.push(r.url()));
  page.on('requestfailed', (r) => page.problems.push(`request failed: ${r.url()}`));
  await page.goto(env.url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
});
after(async () => {
  await env?.close();
});

/** Imports the Code bundle the page names and defines `window.runIt(code, options)`. */
async function loadCode() {
  return page.evaluate(async () => {
    if (window.runIt) return null;
    const hash = document.querySelector('meta[name="tablescope-code"]').content;
    const url = new URL(`code/tablescope-code-${hash}.js`, document.baseURI).href;
    const code = await import(url);
    window.runIt = async (text, options = {}) => {
      const logs = [];
      const exchanges = [];
      const run = code.runCode({
        code: text,
        onLog: (l) => logs.push(l),
        onExchange: (x) => exchanges.push(x),
        ...options,
      });
      const outcome = await run.settled;
      return { outcome, logs, exchanges };
    };
    return url;
  });
}

/** Runs `text` in the sandbox; `{ outcome, logs, exchanges }`. */
async function run(text, options = {}) {
  await loadCode();
  return page.evaluate(([t, o]) => window.runIt(t, o), [text, options]);
}

/** Deletes every table of the page's account, through its wire. */
async function deleteAllTables() {
  await page.evaluate(() => {
    const base = 'http://127.0.0.1:10002/devstoreaccount1';
    const accept = [['Accept', 'application/json;odata=nometadata']];
    const listed = window.tablescope.wire({ method: 'GET', url: `${base}/Tables`, headers: accept });
    const names = JSON.parse(new TextDecoder().decode(listed.body)).value.map((t) => t.TableName);
    for (const name of names) {
      window.tablescope.wire({ method: 'DELETE', url: `${base}/Tables('${name}')`, headers: accept });
    }
  });
}

test('nothing of the Code section, the editor or the SDK loads at start', async () => {
  const loaded = page.requested.filter((u) => /\/(code|sdk)\//.test(new URL(u).pathname));
  assert.deepEqual(loaded, []);
  const hash = await page.evaluate(() => document.querySelector('meta[name="tablescope-code"]')?.content);
  assert.match(hash, /^[0-9a-f]{16}$/);
});

test('SDK code runs in the sandbox: CRUD, a query, a transaction, console output and the exact wire log', async () => {
  await deleteAllTables();
  const { outcome, logs, exchanges } = await run(`
await serviceClient.createTable("Employees");
const t = tableClient("Employees");
await t.createEntity({ partitionKey: "Sales", rowKey: "001", Name: "Ada", Big: 5n });
await t.submitTransaction([
  ["create", { partitionKey: "Sales", rowKey: "002", Name: "Bo" }],
  ["upsert", { partitionKey: "Sales", rowKey: "003", Name: "Cy" }, "Replace"],
]);
const e = await t.getEntity("Sales", "001");
console.log(e.Name, e.Big);
for await (const x of t.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${"Sales"} and RowKey ge \${"002"}\`, select: ["Name"] } })) {
  console.log(x.Name);
}
console.log({ nested: { list: [1, 2n], when: new Date(0) } });
`);
  assert.equal(outcome.status, 'done', JSON.stringify(outcome));
  assert.deepEqual(logs, [
    { level: 'log', values: [{ text: 'Ada' }, { json: '5n' }] },
    { level: 'log', values: [{ text: 'Bo' }] },
    { level: 'log', values: [{ text: 'Cy' }] },
    { level: 'log', values: [{ json: { nested: { list: [1, '2n'], when: '1970-01-01T00:00:00.000Z' } } }] },
  ]);
  const base = 'http://127.0.0.1:10002/devstoreaccount1';
  assert.deepEqual(
    exchanges.map((x) => [x.request.method, decodeURIComponent(x.request.url), x.response.status]),
    [
      // The SDK asks for the created table back (no Prefer) and the insert without it.
      ['POST', `${base}/Tables`, 201],
      ['POST', `${base}/Employees`, 204],
      ['POST', `${base}/$batch`, 202],
      ['GET', `${base}/Employees(PartitionKey='Sales',RowKey='001')`, 200],
      ['GET', `${base}/Employees()?$select=Name&$filter=PartitionKey eq 'Sales' and RowKey ge '002'`, 200],
    ],
  );
  const insert = exchanges[1];
  assert.deepEqual(JSON.parse(insert.request.body), {
    PartitionKey: 'Sales',
    RowKey: '001',
    Name: 'Ada',
    Big: '5',
    'Big@odata.type': 'Edm.Int64',
  });
  const header = (pairs, name) => pairs.find(([n]) => n.toLowerCase() === name)?.[1];
  assert.match(header(insert.response.headers, 'etag'), /^W\/"datetime'/);
  assert.equal(exchanges[3].stats, undefined, 'a point read is not a query');
  const query = exchanges[4];
  assert.deepEqual(
    { scanned: query.stats.scanned, returned: query.stats.returned },
    { scanned: 2, returned: 2 },
  );
  assert.equal(typeof query.stats.kind, 'string');
  assert.deepEqual(
    JSON.parse(query.response.body).value.map((v) => v.Name),
    ['Bo', 'Cy'],
  );
  // The other sections show the change at once.
  await page.locator('[data-table="Employees"]').waitFor();
  assert.equal(
    await page.locator('[data-table="Employees"] .table-counts').textContent(),
    '3 entities · 1 partition',
  );
});

test('errors come back with their line: syntax, runtime, and the service\'s own', async () => {
  const syntax = await run('const a = 1;\nconst b = ;\n');
  assert.deepEqual(syntax.outcome.status, 'error');
  assert.deepEqual(
    { name: syntax.outcome.error.name, line: syntax.outcome.error.line, column: syntax.outcome.error.column },
    { name: 'SyntaxError', line: 2, column: 11 },
  );
  assert.equal(syntax.outcome.error.message, 'Unexpected token');

  const runtime = await run('console.log("before");\n\nnull.x;\n');
  assert.equal(runtime.outcome.error.name, 'TypeError');
  assert.equal(runtime.outcome.error.line, 3);
  assert.deepEqual(runtime.logs, [{ level: 'log', values: [{ text: 'before' }] }]);

  const service = await run('const t = tableClient("NoSuchTable");\n\nawait t.getEntity("a", "b");\n');
  assert.equal(service.outcome.status, 'error');
  assert.deepEqual(
    { status: service.outcome.error.status, code: service.outcome.error.code, line: service.outcome.error.line },
    { status: 404, code: 'TableNotFound', line: 3 },
  );
});

test('runaway code is stopped at the limit, and the next run works', async () => {
  const loop = await run('while (true) {}', { limitMs: 600 });
  assert.equal(loop.outcome.status, 'timeout');
  assert.equal(loop.outcome.limitMs, 600);
  assert.ok(loop.outcome.ms >= 600 && loop.outcome.ms < 3000, `stopped after ${loop.outcome.ms} ms`);
  const never = await run('console.log("waiting");\nawait new Promise(() => {});', { limitMs: 400 });
  assert.equal(never.outcome.status, 'timeout');
  assert.deepEqual(never.logs, [{ level: 'log', values: [{ text: 'waiting' }] }]);
  // The page stayed responsive and a new run gets a new worker.
  const again = await run('console.log(1 + 1);');
  assert.equal(again.outcome.status, 'done');
  assert.deepEqual(again.logs, [{ level: 'log', values: [{ json: 2 }] }]);
});

test('code reaching for the page, its storage or the network gets nothing', async () => {
  const before = page.requested.length;
  const { outcome, logs } = await run(`
const reach = {};
for (const name of ["document", "window", "localStorage", "indexedDB", "caches", "fetch", "XMLHttpRequest",
  "WebSocket", "EventSource", "Worker", "SharedWorker", "BroadcastChannel", "importScripts"]) {
  reach[name] = typeof globalThis[name];
}
reach.locks = typeof navigator.locks;
reach.storage = typeof navigator.storage;
reach.idbOnPrototype = "indexedDB" in Object.getPrototypeOf(globalThis);
try { await fetch("https://example.com/"); reach.fetched = true; } catch (e) { reach.fetchError = e.name; }
try { document.title = "x"; } catch (e) { reach.documentError = e.name; }
console.log(reach);
`);
  assert.equal(outcome.status, 'done', JSON.stringify(outcome));
  const undefinedAll = Object.fromEntries(
    ['document', 'window', 'localStorage', 'indexedDB', 'caches', 'fetch', 'XMLHttpRequest', 'WebSocket',
      'EventSource', 'Worker', 'SharedWorker', 'BroadcastChannel', 'importScripts'].map((n) => [n, 'undefined']),
  );
  assert.deepEqual(logs[0].values[0].json, {
    ...undefinedAll,
    locks: 'undefined',
    storage: 'undefined',
    idbOnPrototype: false,
    fetchError: 'TypeError',
    documentError: 'ReferenceError',
  });
  const foreign = page.requested.slice(before).filter((u) => new URL(u).origin !== new URL(env.url).origin);
  assert.deepEqual(foreign, []);
  assert.equal(await page.title(), 'Tablescope');
});

test('every "show as code" JavaScript form runs unchanged in the sandbox and gives the engine\'s answer', async () => {
  const dir = join(REPO, 'crates', 'codegen', 'tests', 'code', 'golden');
  const names = (await readdir(dir)).filter((f) => f.endsWith('.check.json')).map((f) => f.slice(0, -11));
  assert.ok(names.length >= 19, `${names.length} cases`);
  for (const name of names.sort()) {
    const check = JSON.parse(await readFile(join(dir, `${name}.check.json`), 'utf8'));
    const code = await readFile(join(dir, `${name}.js`), 'utf8');
    await deleteAllTables();
    const setup = await run(check.setup);
    assert.equal(setup.outcome.status, 'done', `${name} setup: ${JSON.stringify(setup.outcome)}`);
    const got = await run(code);
    assert.ok(['done', 'error'].includes(got.outcome.status), `${name}: ${JSON.stringify(got.outcome)}`);
    assert.deepEqual(summary(got), check.expected, `${name}: ${JSON.stringify(got.outcome)}`);
    assert.deepEqual(await tableRows(), check.table, `${name}: the table afterwards`);
  }
});

/** What crates/codegen/tests/code/run.mjs prints for a run, from the sandbox's logs and outcome. */
function summary({ outcome, logs }) {
  const entities = [];
  const lines = [];
  for (const { values } of logs) {
    if (values.length !== 1) continue;
    const [v] = values;
    if (v.json && typeof v.json === 'object' && !Array.isArray(v.json) && 'etag' in v.json) {
      const keys = Object.keys(v.json).filter(
        (k) => !['partitionKey', 'rowKey', 'etag', 'timestamp'].includes(k) && !k.startsWith('odata.'),
      );
      entities.push([v.json.partitionKey ?? null, v.json.rowKey ?? null, keys.sort()]);
    } else if ('text' in v) {
      lines.push(v.text);
    }
  }
  const error = outcome.status === 'error' ? { code: outcome.error.code ?? outcome.error.message } : null;
  return { error, entities, lines };
}

/** The Showcode table as the page's engine serves it, without Timestamp and odata.etag; null if absent. */
async function tableRows() {
  return page.evaluate(() => {
    const answer = window.tablescope.wire({
      method: 'GET',
      url: 'http://127.0.0.1:10002/devstoreaccount1/Showcode()',
      headers: [['Accept', 'application/json;odata=minimalmetadata']],
    });
    if (answer.status === 404) return null;
    const rows = JSON.parse(new TextDecoder().decode(answer.body)).value;
    for (const row of rows) {
      delete row.Timestamp;
      delete row['odata.etag'];
    }
    return rows;
  });
}

test('the starter snippets (www/snippets) run in the sandbox, twice, with the same output', async () => {
  const index = await page.evaluate(async () => (await fetch('snippets/index.json')).json());
  assert.deepEqual(
    index.snippets.map((s) => s.file),
    [
      'employee-and-index.js',
      'paging-with-continuation.js',
      'upsert-instead-of-read-then-write.js',
      'projection-with-select.js',
    ],
  );
  for (const s of index.snippets) assert.ok(s.name && s.summary, JSON.stringify(s));
  const t = (text) => ({ text });
  const j = (json) => ({ json });
  const expected = {
    'employee-and-index.js': [
      [t('transaction:'), j(202)],
      [t('email_ada@contoso.com'), t('Ada'), t('Lovelace')],
    ],
    'paging-with-continuation.js': [
      [t('page 1: 10 orders, 0001 to 0010')],
      [t('page 2: 10 orders, 0011 to 0020')],
      [t('page 3: 5 orders, 0021 to 0025')],
    ],
    'upsert-instead-of-read-then-write.js': [[t('dark'), t('app')]],
    'projection-with-select.js': [
      [t('Hammer'), j(10), j(null)],
      [t('Saw'), j(11), j(null)],
      [t('Drill'), j(12), j(null)],
    ],
  };
  await deleteAllTables();
  for (const { file } of index.snippets) {
    const code = await page.evaluate(async (f) => (await fetch(`snippets/${f}`)).text(), file);
    for (const round of [1, 2]) {
      const { outcome, logs, exchanges } = await run(code);
      assert.equal(outcome.status, 'done', `${file} run ${round}: ${JSON.stringify(outcome)}`);
      assert.deepEqual(logs.map((l) => l.values), expected[file], `${file} run ${round}`);
      if (file === 'projection-with-select.js') {
        const query = exchanges.find((x) => x.request.method === 'GET');
        const rows = JSON.parse(query.response.body).value;
        assert.deepEqual(rows.map((r) => Object.keys(r).sort()), [0, 1, 2].map(() => ['Name', 'Price', 'odata.etag']));
      }
      if (file === 'upsert-instead-of-read-then-write.js') {
        // Two upserts (PATCH without If-Match) and the read: no read before a write.
        assert.deepEqual(
          exchanges.map((x) => x.request.method).slice(-3),
          ['PATCH', 'PATCH', 'GET'],
        );
      }
    }
  }
});

test('the editor: JavaScript highlighting, line numbers, Ctrl+Enter runs', async () => {
  await loadCode();
  await page.evaluate(async () => {
    const hash = document.querySelector('meta[name="tablescope-code"]').content;
    const code = await import(new URL(`code/tablescope-code-${hash}.js`, document.baseURI).href);
    const host = document.createElement('div');
    host.id = 'editor-test';
    host.style.cssText = 'position:fixed;top:0;left:0;width:720px;height:160px;background:#fff;z-index:1000';
    document.body.append(host);
    window.runs = 0;
    window.editor = code.createEditor(host, {
      doc: 'const t = tableClient("Employees");\n// a comment\nawait t.createEntity({ partitionKey: "p", rowKey: "1" });',
      onRun: () => window.runs++,
    });
  });
  // The gutter's numbers that show (CodeMirror sizes it with a hidden spacer element).
  const gutter = await page.evaluate(() =>
    [...document.querySelectorAll('#editor-test .cm-lineNumbers .cm-gutterElement')]
      .filter((el) => getComputedStyle(el).visibility !== 'hidden')
      .map((el) => el.textContent),
  );
  assert.deepEqual(gutter, ['1', '2', '3']);
  // Keywords, strings and comments are styled apart (the bundle's highlight style).
  const colors = await page.evaluate(() => {
    const spans = [...document.querySelectorAll('#editor-test .cm-line span')];
    const color = (text) => getComputedStyle(spans.find((s) => s.textContent === text)).color;
    return { keyword: color('const'), string: color('"Employees"'), comment: color('// a comment') };
  });
  assert.equal(new Set(Object.values(colors)).size, 3, JSON.stringify(colors));
  assert.equal(await page.getAttribute('#editor-test .cm-content', 'aria-label'), 'Code');
  await page.locator('#editor-test .cm-content').click();
  await page.keyboard.press('Control+Enter');
  assert.equal(await page.evaluate(() => window.runs), 1);
  await page.keyboard.type('x');
  assert.match(await page.evaluate(() => window.editor.text()), /x/);
  await page.screenshot({ path: join(REPO, 'tests', 'e2e', 'screenshots', 'code-editor.png'), clip: { x: 0, y: 0, width: 720, height: 160 } });
  await page.evaluate(() => {
    window.editor.destroy();
    document.getElementById('editor-test').remove();
  });
});

test('the page reported no problems', () => {
  assert.deepEqual(page.problems, []);
});

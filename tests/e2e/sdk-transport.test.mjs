// The official @azure/data-tables SDK, unmodified, in the page:
// the bundle scripts/bundle-sdk.mjs builds (www/sdk/transport.js + the SDK) is imported on
// demand, and real SDK calls go through the in-page transport to window.tablescope.wire
// (src/ui/state/wire_bridge.rs), which answers them with engine::wire on the user's own tables.
// Checks: the bundle is neither loaded nor precached at start; CRUD with every type and awkward
// keys, ETags, queries with filter/select, paging by continuation, transactions, table
// deletion, errors as the SDK reports them; the UI shows what the SDK wrote, at once and after
// a reload (persisted); a read-only tab refuses SDK writes as the UI does; the bundle also runs
// in a Web Worker whose transport reaches the page's engine by message.
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/sdk-transport.test.mjs   (default dist: dist/)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AzureNamedKeyCredential, generateTableSas } from '@azure/data-tables';
import { assertClean, start } from './lib.mjs';

/** The development account's key (Microsoft's Azurite documentation publishes it). */
const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

let env;
let context;
let page;
before(async () => {
  env = await start();
  context = await env.browser.newContext();
});
after(async () => {
  await context?.close();
  await env?.close();
});

/** A page of `context` that records its problems (as lib.mjs's openPage does) and its requests. */
async function open(ctx) {
  const p = await ctx.newPage();
  p.problems = [];
  p.requested = [];
  p.on('console', (m) => m.type() === 'error' && p.problems.push(`console error: ${m.text()}`));
  p.on('pageerror', (e) => p.problems.push(`uncaught exception: ${e.stack ?? e}`));
  p.on('request', (r) => p.requested.push(r.url()));
  p.on('requestfailed', (r) => p.problems.push(`request failed: ${r.url()}`));
  await p.goto(env.url);
  await p.locator('h1').waitFor({ timeout: 15_000 });
  await p.waitForFunction(() => typeof window.tablescope?.wire === 'function');
  return p;
}

/** Imports the SDK bundle the page names; `window.sdk` is the module, `window.wireLog` its exchanges. */
async function loadSdk(p) {
  return p.evaluate(async () => {
    const hash = document.querySelector('meta[name="tablescope-sdk"]').content;
    const url = new URL(`sdk/tablescope-sdk-${hash}.js`, document.baseURI).href;
    window.sdk = await import(url);
    window.wireLog = [];
    window.sdk.observe((x) => window.wireLog.push(x));
    return url;
  });
}

/**
 * Runs `fn(sdk, arg)` in the page; a thrown error comes back as { error: {…} }. In the page,
 * `reported(e)` is a RestError as the SDK reports it. For a single operation @azure/data-tables
 * 13.3.2 leaves `RestError.code` undefined (core-client looks for `error.code`, the service writes
 * `odata.error.code`) and hands the body over as `response.parsedBody.odataError`; for a
 * transaction its own parser sets `code`. `header` is `x-ms-error-code`, which production (and so the
 * engine) leaves out of JSON errors: the code is in the body only.
 */
function run(p, fn, arg) {
  return p.evaluate(
    async ([source, a]) => {
      const f = new Function('reported', `return (${source})`)((e) => ({
        name: e.name,
        statusCode: e.statusCode,
        code: e.code,
        odataCode: e.response?.parsedBody?.odataError?.code,
        header: e.response?.headers?.get('x-ms-error-code'),
      }));
      try {
        return await f(window.sdk, a);
      } catch (e) {
        return { error: { name: e.name, statusCode: e.statusCode, code: e.code, message: e.message, stack: e.stack } };
      }
    },
    [fn.toString(), arg],
  );
}

/** A single operation's error as the SDK reports it (see `run`). */
const single = (statusCode, code) => ({ name: 'RestError', statusCode, code: undefined, odataCode: code, header: undefined });

/**
 * Waits until a stored chunk of the sandbox database under `prefix` holds `text`. Polls with
 * evaluate: page.waitForFunction does not await an async predicate (a Promise is truthy).
 */
async function saved(p, prefix, text) {
  const holds = () =>
    p.evaluate(
      async ([want, has]) => {
        const done = (r) => new Promise((ok, fail) => ((r.onsuccess = () => ok(r.result)), (r.onerror = () => fail(r.error))));
        const db = await done(indexedDB.open('tablescope-sandbox'));
        try {
          const store = db.transaction('chunks').objectStore('chunks');
          const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
          const { chunkEntities } = await import(new URL('start-rescue.js', location.href));
          return keys.some((k, i) => String(k).startsWith(want) && JSON.stringify(chunkEntities(values[i])).includes(has));
        } finally {
          db.close();
        }
      },
      [prefix, text],
    );
  for (const end = Date.now() + 5_000; !(await holds()); ) {
    assert.ok(Date.now() < end, `no stored chunk under ${prefix} holds ${text}`);
    await p.waitForTimeout(50);
  }
}

const PK = "O'Brien 100%";
const RK = "it's 50%";

test('the bundle is not loaded or precached at start, and imports on demand', async () => {
  page = await open(context);
  // The service worker has precached the app shell once it is active.
  const cached = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const cache = await caches.open('tablescope-v1');
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  assert.ok(cached.includes('/'), `the shell is precached: ${cached}`);
  assert.deepEqual(cached.filter((p) => p.includes('sdk')), [], 'the SDK is not precached');
  assert.deepEqual(page.requested.filter((u) => u.includes('/sdk/')), [], 'the SDK is not loaded at start');

  const url = await loadSdk(page);
  assert.match(new URL(url).pathname, /^\/sdk\/tablescope-sdk-[0-9a-f]{16}\.js$/);
  assert.deepEqual(page.requested.filter((u) => u.includes('/sdk/')), [url]);
  const exported = await page.evaluate(() => Object.keys(window.sdk).sort());
  for (const name of ['TableClient', 'TableServiceClient', 'TableTransaction', 'odata', 'serviceClient', 'tableClient', 'observe', 'createTransport']) {
    assert.ok(exported.includes(name), `the bundle exports ${name}`);
  }
});

test('createTable and createEntity with every type and awkward keys; getEntity gives them back exactly', async () => {
  const out = await run(page, async (sdk, [pk, rk]) => {
    await sdk.serviceClient().createTable('SdkTypes');
    const t = sdk.tableClient('SdkTypes');
    const created = await t.createEntity({
      partitionKey: pk,
      rowKey: rk,
      Count: { value: '9007199254740993', type: 'Int64' },
      When: { value: '2026-11-23T10:20:30.1234567Z', type: 'DateTime' },
      Id: { value: 'c9da6455-213d-42c9-9a79-3e9149a57833', type: 'Guid' },
      Bytes: new Uint8Array([0, 1, 250, 255]),
      Ratio: 0.1,
      Whole: { value: '2', type: 'Double' },
      Name: 'Zoë',
    });
    const e = await t.getEntity(pk, rk);
    const raw = await t.getEntity(pk, rk, { disableTypeConversion: true });
    return {
      created: created.etag,
      etag: e.etag,
      timestamp: e.timestamp,
      keys: [e.partitionKey, e.rowKey],
      count: [typeof e.Count, String(e.Count)],
      when: e.When instanceof Date ? e.When.toISOString() : 'not a Date',
      id: e.Id,
      bytes: e.Bytes instanceof Uint8Array ? [...e.Bytes] : 'not bytes',
      ratio: e.Ratio,
      whole: e.Whole,
      name: e.Name,
      raw: { Count: raw.Count, When: raw.When, Id: raw.Id, Bytes: raw.Bytes, Ratio: raw.Ratio },
      log: window.wireLog.slice(-3),
    };
  }, [PK, RK]);
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  assert.deepEqual(out.keys, [PK, RK]);
  assert.deepEqual(out.count, ['bigint', '9007199254740993']);
  assert.equal(out.when, '2026-11-23T10:20:30.123Z');
  assert.deepEqual(out.id, { value: 'c9da6455-213d-42c9-9a79-3e9149a57833', type: 'Guid' });
  assert.deepEqual(out.bytes, [0, 1, 250, 255]);
  assert.equal(out.ratio, 0.1);
  assert.equal(out.whole, 2);
  assert.equal(out.name, 'Zoë');
  assert.deepEqual(out.raw, {
    Count: { value: '9007199254740993', type: 'Int64' },
    When: { value: '2026-11-23T10:20:30.1234567Z', type: 'DateTime' },
    Id: { value: 'c9da6455-213d-42c9-9a79-3e9149a57833', type: 'Guid' },
    Bytes: { value: 'AAH6/w==', type: 'Binary' },
    Ratio: { value: '0.1', type: 'Double' },
  });
  // The ETag the insert answered is the one the read answers, and it encodes the Timestamp
  // with the Timestamp's own digits (up to seven, trailing zeros dropped, as production).
  assert.equal(out.etag, out.created);
  const m = out.etag.match(/^W\/"datetime'(\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(?:\.\d{0,6}[1-9])?Z)'"$/);
  assert.ok(m, `an ETag in the service's form: ${out.etag}`);
  assert.equal(new Date(decodeURIComponent(m[1])).getTime(), new Date(out.timestamp).getTime());

  // The wire log: exactly what the SDK sent and what the engine answered.
  const [insert, get] = out.log;
  assert.equal(insert.request.method, 'POST');
  assert.equal(insert.request.url, 'http://127.0.0.1:10002/devstoreaccount1/SdkTypes');
  assert.deepEqual(JSON.parse(insert.request.body), {
    PartitionKey: PK,
    RowKey: RK,
    Count: '9007199254740993',
    'Count@odata.type': 'Edm.Int64',
    When: '2026-11-23T10:20:30.1234567Z',
    'When@odata.type': 'Edm.DateTime',
    Id: 'c9da6455-213d-42c9-9a79-3e9149a57833',
    'Id@odata.type': 'Edm.Guid',
    Bytes: 'AAH6/w==',
    'Bytes@odata.type': 'Edm.Binary',
    Ratio: 0.1,
    Whole: '2',
    'Whole@odata.type': 'Edm.Double',
    Name: 'Zoë',
  });
  assert.equal(insert.response.status, 204);
  assert.equal(insert.response.body, '');
  const header = (x, name) => x.response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  assert.equal(header(insert, 'ETag'), out.etag);
  assert.equal(header(insert, 'Preference-Applied'), 'return-no-content');
  const location = "http://127.0.0.1:10002/devstoreaccount1/SdkTypes(PartitionKey='O''Brien%20100%25',RowKey='it''s%2050%25')";
  assert.equal(header(insert, 'Location'), location);
  assert.equal(get.request.method, 'GET');
  assert.equal(get.request.url, location);
  assert.equal(get.response.status, 200);
  assert.equal(header(get, 'x-ms-request-id').length, 36, 'a UUID request id');
  assert.equal(get.stats, undefined, 'a point read has no query statistics');
  const body = JSON.parse(get.response.body);
  assert.equal(body.PartitionKey, PK);
  assert.equal(body['Count@odata.type'], 'Edm.Int64');
  assert.equal(body.When, '2026-11-23T10:20:30.1234567Z');
});

test('a write with a stale ETag fails with 412 UpdateConditionNotSatisfied and changes nothing', async () => {
  const out = await run(page, async (sdk, [pk, rk]) => {
    const t = sdk.tableClient('SdkTypes');
    const before = await t.getEntity(pk, rk);
    const merged = await t.updateEntity({ partitionKey: pk, rowKey: rk, Name: 'Ada' }, 'Merge', { etag: before.etag });
    let stale;
    try {
      await t.updateEntity({ partitionKey: pk, rowKey: rk, Name: 'Lost' }, 'Replace', { etag: before.etag });
    } catch (e) {
      stale = reported(e);
    }
    const now = await t.getEntity(pk, rk);
    return { changed: merged.etag !== before.etag, stale, name: now.Name, etag: now.etag === merged.etag, count: String(now.Count) };
  }, [PK, RK]);
  assert.deepEqual(out, {
    changed: true,
    stale: single(412, 'UpdateConditionNotSatisfied'),
    name: 'Ada',
    etag: true,
    count: '9007199254740993',
  });
});

test('listEntities with an odata filter and select; paging with byPage and continuation tokens', async () => {
  const out = await run(page, async (sdk) => {
    const t = sdk.tableClient('SdkTypes');
    for (let i = 0; i < 7; i++) {
      await t.createEntity({ partitionKey: 'pg', rowKey: `r0${i}`, Number: i, Label: `row ${i}` });
    }
    const selected = [];
    const query = { filter: sdk.odata`PartitionKey eq ${'pg'} and Number ge ${4}`, select: ['Number'] };
    for await (const e of t.listEntities({ queryOptions: query })) {
      const { etag, ...rest } = e;
      selected.push(rest);
    }
    const quoted = [];
    for await (const e of t.listEntities({ queryOptions: { filter: sdk.odata`RowKey eq ${"it's 50%"}` } })) {
      quoted.push([e.partitionKey, e.rowKey]);
    }
    window.wireLog.length = 0;
    const decode = (token) => (token === undefined ? null : JSON.parse(atob(token)));
    const pages = [];
    const partition = { queryOptions: { filter: sdk.odata`PartitionKey eq ${'pg'}` } };
    for await (const page of t.listEntities(partition).byPage({ maxPageSize: 3 })) {
      pages.push({ rows: page.map((e) => e.rowKey), token: decode(page.continuationToken), raw: page.continuationToken });
    }
    const resumed = [];
    for await (const page of t.listEntities(partition).byPage({ maxPageSize: 3, continuationToken: pages[0].raw })) {
      resumed.push(page.map((e) => e.rowKey));
      break;
    }
    const wire = window.wireLog.map((x) => {
      const u = new URL(x.request.url);
      return {
        query: [...u.searchParams].filter(([n]) => n !== '$format'),
        status: x.response.status,
        next: x.response.headers.filter(([n]) => n.startsWith('x-ms-continuation')),
        stats: x.stats,
      };
    });
    return { selected, quoted, pages: pages.map(({ rows, token }) => ({ rows, token })), resumed, wire };
  });
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  assert.deepEqual(out.selected, [{ Number: 4 }, { Number: 5 }, { Number: 6 }]);
  assert.deepEqual(out.quoted, [[PK, RK]]);
  assert.deepEqual(out.pages, [
    { rows: ['r00', 'r01', 'r02'], token: { nextPartitionKey: '1!4!cGc-', nextRowKey: '1!4!cjAz' } },
    { rows: ['r03', 'r04', 'r05'], token: { nextPartitionKey: '1!4!cGc-', nextRowKey: '1!4!cjA2' } },
    { rows: ['r06'], token: null },
  ]);
  assert.deepEqual(out.resumed, [['r03', 'r04', 'r05']]);
  // As the SDK sends them: $top, $filter, then the continuation.
  const top = ['$top', '3'];
  const filter = ['$filter', "PartitionKey eq 'pg'"];
  const next = (rk) => [
    ['x-ms-continuation-NextPartitionKey', '1!4!cGc-'],
    ['x-ms-continuation-NextRowKey', rk],
  ];
  const stats = (returned) => ({ kind: 'Partition scan', scanned: returned, returned, partitions: 1 });
  assert.deepEqual(out.wire, [
    { query: [top, filter], status: 200, next: next('1!4!cjAz'), stats: stats(3) },
    {
      query: [top, filter, ['NextPartitionKey', '1!4!cGc-'], ['NextRowKey', '1!4!cjAz']],
      status: 200,
      next: next('1!4!cjA2'),
      stats: stats(3),
    },
    {
      query: [top, filter, ['NextPartitionKey', '1!4!cGc-'], ['NextRowKey', '1!4!cjA2']],
      status: 200,
      next: [],
      stats: stats(1),
    },
    {
      query: [top, filter, ['NextPartitionKey', '1!4!cGc-'], ['NextRowKey', '1!4!cjAz']],
      status: 200,
      next: next('1!4!cjA2'),
      stats: stats(3),
    },
  ]);
});

test('submitTransaction: all or nothing, and the failing index as the SDK reports it', async () => {
  const out = await run(page, async (sdk) => {
    const t = sdk.tableClient('SdkTypes');
    const ok = await t.submitTransaction([
      ['create', { partitionKey: 'tx', rowKey: '1', N: 1 }],
      ['create', { partitionKey: 'tx', rowKey: '2', N: 2 }],
      ['upsert', { partitionKey: 'tx', rowKey: '3', N: 3 }],
    ]);
    let failed;
    try {
      await t.submitTransaction([
        ['create', { partitionKey: 'tx', rowKey: '4', N: 4 }],
        ['create', { partitionKey: 'tx', rowKey: '2', N: 22 }],
      ]);
    } catch (e) {
      failed = { name: e.name, statusCode: e.statusCode, code: e.code, message: e.message.split('\n')[0] };
    }
    const rows = [];
    for await (const e of t.listEntities({ queryOptions: { filter: sdk.odata`PartitionKey eq ${'tx'}` } })) {
      rows.push([e.rowKey, e.N]);
    }
    return {
      status: ok.status,
      parts: ok.subResponses.map((r) => [r.status, /^W\/"datetime'/.test(r.headers?.etag ?? r.etag ?? '')]),
      failed,
      rows,
    };
  });
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  assert.equal(out.status, 202);
  assert.deepEqual(out.parts, [[204, true], [204, true], [204, true]]);
  assert.deepEqual(out.failed, {
    name: 'RestError',
    statusCode: 409,
    code: 'EntityAlreadyExists',
    message: '1:The specified entity already exists.',
  });
  assert.deepEqual(out.rows, [['1', 1], ['2', 2], ['3', 3]], 'the failed transaction wrote nothing');
});

test('the UI shows what the SDK wrote at once, and it survives a reload', async () => {
  const made = await run(page, async (sdk) => {
    await sdk.serviceClient().createTable('SdkShown');
    await sdk.tableClient('SdkShown').createEntity({ partitionKey: 'p1', rowKey: 'r1', Label: 'from the SDK', Count: { value: '42', type: 'Int64' } });
    return null;
  });
  assert.equal(made, null);
  const row = page.locator('[data-table="SdkShown"]');
  await row.waitFor();
  assert.equal(await row.locator('.table-counts').textContent(), '1 entity · 1 partition');
  await row.locator('.table-facts').click();
  const cells = () => page.locator('.data-panel .grid-row').first().locator('td').allTextContents();
  await page.locator('.data-panel .grid-row').first().waitFor();
  assert.deepEqual(await cells(), ['p1', 'r1', '42', 'from the SDK']);

  // An SDK write to the shown table shows in the grid without any click.
  await run(page, (sdk) => sdk.tableClient('SdkShown').updateEntity({ partitionKey: 'p1', rowKey: 'r1', Label: 'changed' }, 'Merge'));
  await page.locator('.data-panel .grid-row td', { hasText: 'changed' }).waitFor();
  assert.deepEqual(await cells(), ['p1', 'r1', '42', 'changed']);

  // Saved like a UI write: once the change reaches IndexedDB, a reload shows it.
  await saved(page, 'SdkShown/', 'changed');
  await page.reload();
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
  await page.locator('[data-table="SdkShown"]').waitFor();
  assert.deepEqual(await page.locator('.table-name').allTextContents(), ['SdkShown', 'SdkTypes']);
  await loadSdk(page);
  const back = await run(page, async (sdk, [pk, rk]) => {
    const e = await sdk.tableClient('SdkTypes').getEntity(pk, rk, { disableTypeConversion: true });
    const s = await sdk.tableClient('SdkShown').getEntity('p1', 'r1');
    return { count: e.Count, when: e.When, name: e.Name, label: s.Label };
  }, [PK, RK]);
  assert.deepEqual(back, {
    count: { value: '9007199254740993', type: 'Int64' },
    when: { value: '2026-11-23T10:20:30.1234567Z', type: 'DateTime' },
    name: { value: 'Ada', type: 'String' },
    label: 'changed',
  });
});

test('a read-only tab answers SDK reads and refuses SDK writes with 403 AuthorizationPermissionMismatch', async () => {
  const second = await open(context);
  await second.locator('.storage-banner', { hasText: 'read-only' }).waitFor();
  await loadSdk(second);
  const out = await run(second, async (sdk) => {
    const read = (await sdk.tableClient('SdkShown').getEntity('p1', 'r1')).Label;
    const refusal = async (f) => {
      try {
        await f();
        return 'written';
      } catch (e) {
        const message = e.response?.parsedBody?.odataError?.message?.value ?? e.message;
        return { ...reported(e), readOnly: /This tab is read-only/.test(message) };
      }
    };
    return {
      read,
      insert: await refusal(() => sdk.tableClient('SdkShown').createEntity({ partitionKey: 'p1', rowKey: 'r2' })),
      table: await refusal(() => sdk.serviceClient().createTable('NotMade')),
      batch: await refusal(() => sdk.tableClient('SdkShown').submitTransaction([['delete', { partitionKey: 'p1', rowKey: 'r1' }]])),
    };
  });
  const refused = { ...single(403, 'AuthorizationPermissionMismatch'), readOnly: true };
  // A transaction's refusal: the SDK's own parser reports the code (see `run`).
  const batch = { ...refused, code: 'AuthorizationPermissionMismatch', odataCode: undefined };
  assert.deepEqual(out, { read: 'changed', insert: refused, table: refused, batch });
  assert.deepEqual(await second.locator('.table-name').allTextContents(), ['SdkShown', 'SdkTypes']);
  assertClean(second);
  await second.close();
});

test('the bundle runs in a Web Worker that reaches the page engine by message (the Code section sandbox)', async () => {
  const out = await page.evaluate(async () => {
    const hash = document.querySelector('meta[name="tablescope-sdk"]').content;
    const url = new URL(`sdk/tablescope-sdk-${hash}.js`, document.baseURI).href;
    // The worker has no window.tablescope: its transport asks the page, which answers with
    // tablescope.wire; the request and response are plain data, so they cross as messages.
    const source = `
      const sdk = await import(${JSON.stringify(url)});
      let next = 0;
      const waiting = new Map();
      self.onmessage = (e) => { waiting.get(e.data.id)(e.data.response); waiting.delete(e.data.id); };
      const wire = (request) => new Promise((ok) => { const id = next++; waiting.set(id, ok); self.postMessage({ id, request }); });
      const httpClient = sdk.createTransport({ wire });
      await sdk.serviceClient({ httpClient }).createTable('FromWorker');
      const t = sdk.tableClient('FromWorker', { httpClient });
      await t.createEntity({ partitionKey: 'w', rowKey: '1', Big: { value: '-9223372036854775808', type: 'Int64' } });
      const e = await t.getEntity('w', '1', { disableTypeConversion: true });
      let xml;
      try { await t.setAccessPolicy([{ id: 'readers' }]); } catch (err) { xml = err.message; }
      self.postMessage({ done: { big: e.Big, xml, inWorker: typeof window === 'undefined' && typeof document === 'undefined' } });
    `;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
    const requests = [];
    const done = await new Promise((ok, fail) => {
      worker.onerror = (e) => fail(new Error(e.message));
      worker.onmessage = (e) => {
        if (e.data.done) return ok(e.data.done);
        requests.push(`${e.data.request.method} ${new URL(e.data.request.url).pathname}`);
        worker.postMessage({ id: e.data.id, response: window.tablescope.wire(e.data.request) });
      };
    });
    worker.terminate();
    return { ...done, requests };
  });
  assert.deepEqual(out, {
    big: { value: '-9223372036854775808', type: 'Int64' },
    // The SDK's XML operations stop before sending, with the reason (www/sdk/no-xml.js).
    xml:
      'Error "XML is not available in Tablescope\'s playground: the Table service\'s XML operations ' +
      '(access policies, service properties and statistics) are not part of it." occurred in ' +
      'serializing the payload - "tableAcl".',
    inWorker: true,
    requests: [
      'POST /devstoreaccount1/Tables',
      'POST /devstoreaccount1/FromWorker',
      "GET /devstoreaccount1/FromWorker(PartitionKey='w',RowKey='1')",
    ],
  });
  await page.locator('[data-table="FromWorker"]').waitFor();
  assert.equal(await page.locator('[data-table="FromWorker"] .table-counts').textContent(), '1 entity · 1 partition');
});

test('a credential is checked: a SAS for the development account works as its permissions say, a forged one is refused', async () => {
  // The browser SDK signs no SharedKey; a SAS made here (Node's SDK, the development key) is
  // what a learner would paste.
  const key = new AzureNamedKeyCredential('devstoreaccount1', DEV_KEY);
  const expiresOn = new Date(Date.now() + 3_600_000);
  const readOnly = generateTableSas('SdkShown', key, { permissions: { query: true }, expiresOn });
  const forged = readOnly.replace(/sig=[^&]+/, `sig=${encodeURIComponent(Buffer.alloc(32).toString('base64'))}`);
  assert.notEqual(forged, readOnly);
  const out = await run(page, async (sdk, [sas, bad]) => {
    const client = (token) => new sdk.TableClient(sdk.PLAYGROUND_URL, 'SdkShown', new sdk.AzureSASCredential(token), sdk.clientOptions());
    const attempt = async (f) => {
      try {
        return await f();
      } catch (e) {
        return reported(e);
      }
    };
    return {
      read: await attempt(async () => (await client(sas).getEntity('p1', 'r1')).Label),
      write: await attempt(() => client(sas).createEntity({ partitionKey: 'p1', rowKey: 'sas' })),
      forged: await attempt(() => client(bad).getEntity('p1', 'r1')),
      sent: new URL(window.wireLog.at(-1).request.url).searchParams.get('sp'),
    };
  }, [readOnly, forged]);
  assert.deepEqual(out, {
    read: 'changed',
    write: single(403, 'AuthorizationPermissionMismatch'),
    forged: single(403, 'AuthenticationFailed'),
    sent: 'r',
  });
});

test('deleteTable removes the table; reads of it then fail as the service answers', async () => {
  const out = await run(page, async (sdk) => {
    await sdk.serviceClient().deleteTable('SdkTypes');
    const names = [];
    for await (const t of sdk.serviceClient().listTables()) names.push(t.name);
    let read;
    try {
      await sdk.tableClient('SdkTypes').getEntity('pg', 'r00');
    } catch (e) {
      read = reported(e);
    }
    return { names, read };
  });
  assert.deepEqual(out, { names: ['FromWorker', 'SdkShown'], read: single(404, 'TableNotFound') });
  await page.locator('[data-table="SdkTypes"]').waitFor({ state: 'detached' });
  assertClean(page);
});

test('the SDK, once used, still loads offline after a later online visit', async () => {
  const ctx = await env.browser.newContext();
  const p = await open(ctx);
  await p.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await p.reload();
  await p.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  const url = await loadSdk(p);
  const cached = async () =>
    p.evaluate(async (u) => (await (await caches.open('tablescope-v1')).match(u)) !== undefined, url);
  for (const end = Date.now() + 5_000; !(await cached()); ) {
    assert.ok(Date.now() < end, 'the SDK is cached once used');
    await p.waitForTimeout(50);
  }
  // A later online visit adopts the fresh shell and deletes other builds' hashed files: a
  // marker of an older build shows when that has run.
  const stale = `${env.url}tablescope-0123456789abcdef_bg.wasm`;
  await p.evaluate(async (u) => (await caches.open('tablescope-v1')).put(u, new Response('old build')), stale);
  await p.reload();
  await p.waitForFunction(
    async (u) => (await (await caches.open('tablescope-v1')).match(u)) === undefined,
    stale,
    { timeout: 15_000, polling: 200 },
  );
  assert.ok(await cached(), 'the SDK bundle of this build survives the shell adoption');

  await ctx.setOffline(true);
  await p.reload();
  await p.locator('h1').waitFor({ timeout: 15_000 });
  await p.waitForFunction(() => typeof window.tablescope?.wire === 'function');
  await loadSdk(p);
  const names = await p.evaluate(async () => {
    await window.sdk.serviceClient().createTable('OfflineSdk');
    const out = [];
    for await (const t of window.sdk.serviceClient().listTables()) out.push(t.name);
    return out;
  });
  assert.ok(names.includes('OfflineSdk'), `tables: ${names}`);
  await ctx.setOffline(false);
  await ctx.close();
});

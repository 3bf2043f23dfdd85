// CORS by the account's rules, from a real browser: a page served from one loopback port calls
// `tablescope serve` on another, so headless Chromium sends a real preflight (the page's
// request carries x-ms-version, which is not a CORS-safelisted header). Without a rule for
// the page's origin the preflight is refused (403 CorsPreflightFailure) and the page cannot
// read the answer; after the SDK sets a rule for it, the preflight passes and the page reads
// the body and the exposed headers; after the rules are removed, it is refused again.
//
//   node --test tests/e2e/cors.test.mjs
//
// Needs target/debug/tablescope-serve (built here if missing) and Chromium (CHROMIUM, default
// /usr/bin/chromium). It does not need dist/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import {
  AzureNamedKeyCredential,
  TableServiceClient,
  generateAccountSas,
} from '@azure/data-tables';
import { CHROMIUM } from './lib.mjs';
import { ACCOUNT, launch, serveBinary } from './endpoint.mjs';
import { freePort } from '../../scripts/bench/lib/servers.mjs';

/** The development account's key (Microsoft's Azurite documentation publishes it). */
const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const credential = new AzureNamedKeyCredential(ACCOUNT, DEV_KEY);

let server; // tablescope serve: { endpoint, log(), stop() }
let page; // { origin, close() }
let browser;

/** Starts tablescope serve in memory on a free port; its request log is kept. */
async function startServe() {
  const port = await freePort();
  const started = await launch(serveBinary(), ['--host', '127.0.0.1', '--port', String(port), '--in-memory'], port);
  return { ...started, log: started.output };
}

/** A tiny page on a port of its own: another origin than the endpoint's. */
async function startPage() {
  const http = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>another origin</title><p>a page on another origin</p>');
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${http.address().port}`,
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}

before(async () => {
  server = await startServe();
  page = await startPage();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  await page?.close();
  await server?.stop();
});

/** What the page gets when it lists the tables with `sas` and an x-ms-version header. */
async function listFromPage(tab, sas) {
  return tab.evaluate(
    async ({ url }) => {
      try {
        const r = await fetch(url, {
          headers: { 'x-ms-version': '2019-02-02', Accept: 'application/json;odata=nometadata' },
        });
        return { status: r.status, requestId: r.headers.get('x-ms-request-id'), body: await r.json() };
      } catch (e) {
        return { failed: String(e) };
      }
    },
    { url: `${server.endpoint}/Tables?${sas}` },
  );
}

/** The statuses serve logged for preflights since `from` (its log: one line per request). */
function preflights(from) {
  return server
    .log()
    .slice(from)
    .split('\n')
    .filter((l) => l.startsWith('OPTIONS '))
    .map((l) => Number(l.trim().split(' ').pop()));
}

test('a browser page on another origin is refused without a rule and admitted by one', async () => {
  const service = new TableServiceClient(server.endpoint, credential, { allowInsecureConnection: true });
  await service.createTable('Visible');
  const sas = generateAccountSas(credential, {
    expiresOn: new Date(Date.now() + 3600_000),
    permissions: { query: true, list: true },
    resourceTypes: 'sco',
  });
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${page.origin}/`);
  assert.equal(await tab.evaluate(() => location.origin), page.origin);

  // serve's default rule admits the playground's origins only: this page is refused.
  let mark = server.log().length;
  const refused = await listFromPage(tab, sas);
  assert.ok(refused.failed, JSON.stringify(refused));
  assert.deepEqual(preflights(mark), [403]);

  // A rule for the page's origin, set through the SDK: the preflight passes, the page reads
  // the answer and the headers the rule exposes.
  await service.setProperties({
    cors: [
      {
        allowedOrigins: page.origin,
        allowedMethods: 'GET,PUT,POST',
        allowedHeaders: 'x-ms-*,accept',
        exposedHeaders: 'x-ms-request-id',
        maxAgeInSeconds: 0,
      },
    ],
  });
  mark = server.log().length;
  const admitted = await listFromPage(tab, sas);
  assert.equal(admitted.status, 200, JSON.stringify(admitted));
  assert.deepEqual(admitted.body.value, [{ TableName: 'Visible' }]);
  assert.match(admitted.requestId ?? '', /^[0-9a-f-]{36}$/);
  assert.deepEqual(preflights(mark), [200]);

  // A rule that does not allow a header the page sends refuses it again.
  await service.setProperties({
    cors: [{ allowedOrigins: page.origin, allowedMethods: 'GET', allowedHeaders: 'accept', exposedHeaders: '', maxAgeInSeconds: 0 }],
  });
  mark = server.log().length;
  const header = await listFromPage(tab, sas);
  assert.ok(header.failed, JSON.stringify(header));
  assert.deepEqual(preflights(mark), [403]);

  // No rules at all: refused.
  await service.setProperties({ cors: [] });
  mark = server.log().length;
  const none = await listFromPage(tab, sas);
  assert.ok(none.failed, JSON.stringify(none));
  assert.deepEqual(preflights(mark), [403]);
  await context.close();
});

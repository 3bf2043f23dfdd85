// The Connect section at its edges: an endpoint whose success is not the Table service's JSON
// (an HTML page, a body cut off mid-string) is an error saying what came back, never an empty
// answer; `tablescope-serve` started as the README says (no --allow-anonymous) answers 401,
// and the section says how to start it so that it needs no credential, or to paste a SAS URL,
// in every language; and a connection with 200,000 tables lists them in a virtualised list
// that the Table field filters within a stated time per keypress.
//
// The hostile answers and the 200,000 tables come from a tiny HTTP server started here
// (a Table service answers 1,000 tables a page, with NextTableName, as this one does).
//
//   node --test tests/e2e/connect-edges.test.mjs      (against dist/; E2E_DIST to change it)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { openPage, screenshot, start } from './lib.mjs';
import { launch, serveBinary } from './endpoint.mjs';
import { freePort } from '../../scripts/bench/lib/servers.mjs';

/** The most a keypress in the Table field may take, with 200,000 tables listed: from the input
 * event to the frame after it (the filter, the rows in view, the count). */
const KEYPRESS_MS = 100;
const TABLES = 200_000;
const PAGE = 1000;
const name = (i) => `Table${String(i).padStart(6, '0')}`;

const HTML = '<!DOCTYPE html>\n<html lang="en"><head><title>Sign in to continue</title></head>' +
  '<body><form action="/login" method="post"><input name="user"><button>Sign in</button></form>' +
  '<p>This page is served by a proxy in front of the real endpoint.</p></body></html>';
const CUT = '{"odata.metadata":"http://127.0.0.1/devstoreaccount1/$metadata#Tables","value":[{"TableName":"Alpha"},{"TableName":"Be';

/** Answers /html/Tables, /cut/Tables and /many/Tables (with NextTableName), CORS open. */
function hostileServer() {
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET, POST, PUT, MERGE, DELETE, OPTIONS',
    };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/html/Tables') {
      return res.writeHead(200, { ...cors, 'content-type': 'text/html; charset=utf-8' }).end(HTML);
    }
    if (url.pathname === '/cut/Tables') {
      return res.writeHead(200, { ...cors, 'content-type': 'application/json;odata=minimalmetadata' }).end(CUT);
    }
    if (url.pathname === '/many/Tables') {
      const from = url.searchParams.has('NextTableName') ? Number(url.searchParams.get('NextTableName').slice(5)) : 0;
      const to = Math.min(from + PAGE, TABLES);
      const headers = { ...cors, 'content-type': 'application/json;odata=minimalmetadata' };
      if (to < TABLES) headers['x-ms-continuation-NextTableName'] = name(to);
      const value = [];
      for (let i = from; i < to; i++) value.push({ TableName: name(i) });
      return res.writeHead(200, headers).end(JSON.stringify({ value }));
    }
    res.writeHead(404, cors).end();
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

let env;
let hostile;
let base;
let serve;
before(async () => {
  env = await start();
  hostile = await hostileServer();
  base = `http://127.0.0.1:${hostile.address().port}`;
  // As the README starts it, on a free port, with a CORS rule for this test page's origin
  // (its default admits the playground's own http://127.0.0.1:8080).
  const port = await freePort();
  serve = await launch(serveBinary(), ['--port', String(port), '--in-memory', '--silent', '--cors-origin', new URL(env.url).origin], port);
});
after(async () => {
  await env?.close();
  await serve?.stop();
  await new Promise((ok) => (hostile ? hostile.close(ok) : ok()));
});

async function connectSection(lang) {
  const page = await openPage(env.browser, `${env.url}${lang ? `?lang=${lang}` : ''}`);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.locator('#nav-connect').click();
  await page.locator('#connect-url').waitFor({ timeout: 15_000 });
  return page;
}

async function connect(page, url) {
  await page.locator('#connect-url').fill(url);
  await page.locator('.connect-add').click();
}

test('an HTML page answered with 200 is an error that shows what came back', async () => {
  const page = await connectSection();
  await connect(page, `${base}/html`);
  const error = page.locator('.connect-browse .connect-malformed');
  await error.waitFor();
  assert.equal(
    await error.locator('p').textContent(),
    "The connection answered 200 (text/html; charset=utf-8), but not with the Table service's JSON: expected value at line 1 column 1. The answer began:",
  );
  assert.equal(await error.locator('pre').textContent(), HTML.slice(0, 200));
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.equal(await page.getByText('The connection has no tables.').count(), 0);
  await screenshot(page, 'connect-malformed-html');
  await page.context().close();
});

test('a JSON body cut off mid-string is an error that shows what came back', async () => {
  const page = await connectSection();
  await connect(page, `${base}/cut`);
  const error = page.locator('.connect-browse .connect-malformed');
  await error.waitFor();
  assert.equal(
    await error.locator('p').textContent(),
    `The connection answered 200 (application/json;odata=minimalmetadata), but not with the Table service's JSON: EOF while parsing a string at line 1 column ${CUT.length}. The answer began:`,
  );
  assert.equal(await error.locator('pre').textContent(), CUT);
  assert.equal(await page.locator('[data-remote-table]').count(), 0, 'no table of a cut-off list is shown');
  await page.context().close();
});

const ANONYMOUS = {
  en: [
    'The service answered 401 NoAuthenticationInformation: Server failed to authenticate the request. Please refer to the information in the www-authenticate header.',
    (e) => `${e} needs a credential, and this connection sends none (it has no SAS). If it is tablescope-serve, start it again so that it also answers requests without a credential:`,
    'Or connect with a SAS URL for this endpoint (…?sv=…&sig=…), as Azurite and Azure storage need.',
  ],
  de: [
    'Der Dienst antwortete 401 NoAuthenticationInformation: Server failed to authenticate the request. Please refer to the information in the www-authenticate header.',
    (e) => `${e} verlangt Anmeldedaten, und diese Verbindung sendet keine (sie hat keine SAS). Ist es tablescope-serve, starten Sie es neu, damit es auch Anfragen ohne Anmeldedaten beantwortet:`,
    'Oder verbinden Sie sich mit einer SAS-URL für diesen Endpunkt (…?sv=…&sig=…), wie Azurite und Azure Storage sie verlangen.',
  ],
  nl: [
    'De service antwoordde 401 NoAuthenticationInformation: Server failed to authenticate the request. Please refer to the information in the www-authenticate header.',
    (e) => `${e} vraagt om referenties, en deze verbinding stuurt er geen (ze heeft geen SAS). Is het tablescope-serve, start het dan opnieuw zodat het ook verzoeken zonder referenties beantwoordt:`,
    'Of maak verbinding met een SAS-URL voor dit eindpunt (…?sv=…&sig=…), zoals Azurite en Azure Storage die nodig hebben.',
  ],
  // Arabic isolates each inserted text (FSI … PDI), so Latin text keeps its own direction.
  ar: [
    'أجابت الخدمة 401 \u2068NoAuthenticationInformation\u2069: \u2068Server failed to authenticate the request. Please refer to the information in the www-authenticate header.',
    (e) => `تطلب \u2068${e}\u2069 بيانات اعتماد، وهذا الاتصال لا يرسل أيًّا منها (ليس فيه SAS). إن كان tablescope-serve فأعد تشغيله ليجيب أيضًا عن الطلبات التي لا تحمل بيانات اعتماد:`,
    'أو اتصل بعنوان SAS لنقطة النهاية هذه (…?sv=…&sig=…)، كما يحتاج Azurite وتخزين Azure.',
  ],
};

for (const [lang, [service, anonymous, sas]] of Object.entries(ANONYMOUS)) {
  test(`tablescope-serve without --allow-anonymous: the 401 says how to start it, or to paste a SAS URL (${lang})`, async () => {
    const page = await connectSection(lang);
    await connect(page, serve.endpoint);
    const error = page.locator('.connect-browse .connect-error');
    await error.waitFor();
    assert.equal(await error.getAttribute('data-code'), 'NoAuthenticationInformation');
    const port = new URL(serve.endpoint).port;
    const [said, ...explained] = await error.locator('p').allTextContents();
    // The service's message ends with its RequestId and Time lines, as Azure's do.
    assert.ok(said.startsWith(`${service}\nRequestId:`), said);
    assert.match(said.slice(service.length), /^\nRequestId:[0-9a-f-]{36}\nTime:\d{4}-\d\d-\d\dT[\d:.]+Z\u2069?$/);
    assert.deepEqual(explained, [anonymous(serve.endpoint), sas]);
    assert.equal(
      await error.locator('pre.connect-anonymous-command').textContent(),
      `cargo run -p tablescope-serve --profile serve -- --location ./tablescope-data --allow-anonymous --port ${port}`,
    );
    assert.equal(await error.locator('pre').getAttribute('dir'), 'ltr');
    if (lang === 'en') await screenshot(page, 'connect-401-anonymous');
    await page.context().close();
  });
}

test(`200,000 tables: a virtualised list, filtered by the Table field within ${KEYPRESS_MS} ms a keypress`, async () => {
  const page = await connectSection();
  await connect(page, `${base}/many`);
  const count = page.locator('.connect-tables-count');
  await count.waitFor({ timeout: 120_000 });
  assert.equal(await count.textContent(), 'Tables at the connection: 200,000.');
  const rows = page.locator('.connect-tables li');
  const shown = await rows.count();
  assert.ok(shown > 0 && shown <= 14, `rows in the page: ${shown}`);
  assert.equal(await rows.first().getAttribute('aria-setsize'), '200000');
  assert.deepEqual(await rows.locator('button').evaluateAll((b) => b.slice(0, 3).map((x) => x.textContent)), ['Table000000', 'Table000001', 'Table000002']);

  // The end of the list, scrolled to: the last table at its place, still a handful of rows.
  await page.locator('.connect-tables-scroll').evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await page.locator('.connect-tables li[aria-posinset="200000"]').waitFor();
  assert.equal(await page.locator('.connect-tables li[aria-posinset="200000"] button').textContent(), 'Table199999');
  assert.ok((await rows.count()) <= 14);

  // Typing a filter, a key at a time: each keypress's input event to the next frame.
  const times = await page.locator('#connect-table').evaluate(async (input, text) => {
    const out = [];
    for (const ch of text) {
      const started = performance.now();
      input.value += ch;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, data: ch, inputType: 'insertText' }));
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      out.push(performance.now() - started);
    }
    return out;
  }, 'table19999');
  console.log(`# keypress handling with 200,000 tables (ms): ${times.map((t) => t.toFixed(1)).join(', ')}`);
  for (const t of times) assert.ok(t < KEYPRESS_MS, `a keypress took ${t.toFixed(1)} ms: ${times.join(', ')}`);
  // The typed text is quoted inside Unicode isolates (FSI … PDI), so it keeps its direction.
  assert.equal(await count.textContent(), '10 of 200,000 tables contain “\u2068table19999\u2069”.');
  assert.deepEqual(
    await rows.locator('button').allTextContents(),
    Array.from({ length: 10 }, (_, i) => name(199990 + i)),
  );
  // A click chooses the table (the field holds its name, and it is marked pressed); the list
  // keeps the rows the typed text matched, so another of them is one click away.
  await page.locator('[data-remote-table="Table199993"]').click();
  assert.equal(await page.locator('#connect-table').inputValue(), 'Table199993');
  assert.equal(await page.locator('[data-remote-table="Table199993"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await count.textContent(), '10 of 200,000 tables contain “\u2068table19999\u2069”.');
  assert.equal(await rows.count(), 10);
  await page.locator('[data-remote-table="Table199995"]').click();
  assert.equal(await page.locator('#connect-table').inputValue(), 'Table199995');
  assert.equal(await page.locator('[data-remote-table="Table199993"]').getAttribute('aria-pressed'), 'false');
  await screenshot(page, 'connect-200000-tables');
  await page.context().close();
});

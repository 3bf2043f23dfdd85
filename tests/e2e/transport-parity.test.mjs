// The in-page transport (window.tablescope.wire, what the Code section and code cells use)
// answers exactly as `tablescope serve` does: the same requests, sent in the same order to a
// fresh page and to a fresh in-memory server, get the same status, headers and body. Only what
// names the moment or the connection is masked: Date, x-ms-request-id, the RequestId and Time
// lines of error messages, Timestamps and the ETags made from them, and the headers HTTP adds
// for the connection (Connection, Keep-Alive, Transfer-Encoding). CORS headers are an HTTP
// matter (a page's own transport has no origin to check) and are tested with a browser in
// cors.test.mjs.
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/transport-parity.test.mjs   (default dist: dist/)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './lib.mjs';
import { launch, serveBinary } from './endpoint.mjs';
import { freePort } from '../../scripts/bench/lib/servers.mjs';

let env;
let serve;
let page;
before(async () => {
  env = await start();
  const port = await freePort();
  serve = await launch(
    serveBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--in-memory', '--silent', '--allow-anonymous', '--no-cors'],
    port,
  );
  const context = await env.browser.newContext();
  page = await context.newPage();
  await page.goto(env.url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
});
after(async () => {
  await env?.close();
  await serve?.stop();
});

const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json;odata=minimalmetadata',
  'x-ms-version': '2019-02-02',
  'dataserviceversion': '3.0',
};
const XML_HEADERS = { 'content-type': 'application/xml', 'x-ms-version': '2019-02-02' };

const entity = (rk, props, extra = {}) => ({
  method: 'POST',
  path: '/Parity',
  headers: { ...JSON_HEADERS, prefer: 'return-content', ...extra },
  body: JSON.stringify({ PartitionKey: 'p', RowKey: rk, ...props }),
});

const cors = (rules) =>
  '<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors>' +
  rules
    .map(
      (origin) =>
        `<CorsRule><AllowedOrigins>${origin}</AllowedOrigins><AllowedMethods>GET,PUT</AllowedMethods>` +
        '<AllowedHeaders>*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule>',
    )
    .join('') +
  '</Cors></StorageServiceProperties>';

const acl = (ids) =>
  '<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>' +
  ids
    .map(
      (id) =>
        `<SignedIdentifier><Id>${id}</Id><AccessPolicy><Start>2020-01-01T00:00:00Z</Start>` +
        '<Expiry>2030-01-01T00:00:00Z</Expiry><Permission>raud</Permission></AccessPolicy></SignedIdentifier>',
    )
    .join('') +
  '</SignedIdentifiers>';

/** The requests, in order; each names what it exercises. */
const CORPUS = [
  { name: 'create table', method: 'POST', path: '/Tables', headers: { ...JSON_HEADERS, prefer: 'return-no-content' }, body: '{"TableName":"Parity"}' },
  { name: 'DateTime without a designator', ...entity('1', { d: '2023-01-01T23:00:00', 'd@odata.type': 'Edm.DateTime' }) },
  { name: 'DateTime with an offset', ...entity('2', { d: '2023-01-01T23:00:00+02:00', 'd@odata.type': 'Edm.DateTime' }) },
  { name: 'DateTime with seven digits', ...entity('3', { d: '2023-01-01T23:00:00.1234567Z', 'd@odata.type': 'Edm.DateTime' }) },
  { name: 'DateTime that is not one', ...entity('4', { d: '2023-02-30T00:00:00Z', 'd@odata.type': 'Edm.DateTime' }) },
  { name: 'a Double beyond the finite range', ...entity('5', { x: '1e400', 'x@odata.type': 'Edm.Double' }) },
  { name: 'point read', method: 'GET', path: "/Parity(PartitionKey='p',RowKey='1')", headers: JSON_HEADERS },
  { name: 'filter on a DateTime literal without Z', method: 'GET', path: `/Parity()?$filter=${encodeURIComponent("d eq datetime'2023-01-01T23:00:00'")}`, headers: JSON_HEADERS },
  { name: 'an unknown x-ms-version', method: 'GET', path: '/Parity()', headers: { ...JSON_HEADERS, 'x-ms-version': '2099-01-01' } },
  { name: 'a weak ETag that does not match', method: 'PUT', path: "/Parity(PartitionKey='p',RowKey='1')", headers: { ...JSON_HEADERS, 'if-match': `W/"datetime'2020-01-01T00%3A00%3A00Z'"` }, body: '{"a":1}' },
  { name: 'a strong ETag', method: 'PUT', path: "/Parity(PartitionKey='p',RowKey='1')", headers: { ...JSON_HEADERS, 'if-match': '"abc"' }, body: '{"a":1}' },
  { name: 'String of 32,767 units', ...entity('s1', { s: 'x'.repeat(32_767) }, { prefer: 'return-no-content' }) },
  { name: 'String of 32,768 units', ...entity('s2', { s: 'x'.repeat(32_768) }, { prefer: 'return-no-content' }) },
  { name: 'String of 32,769 units', ...entity('s3', { s: 'x'.repeat(32_769) }, { prefer: 'return-no-content' }) },
  { name: 'PropertiesNeedValue keeps Preference-Applied', method: 'POST', path: '/Parity', headers: { ...JSON_HEADERS, prefer: 'return-no-content' }, body: '{"PartitionKey":"p"}' },
  { name: 'a body over the limit', method: 'POST', path: '/Parity', headers: JSON_HEADERS, body: JSON.stringify({ PartitionKey: 'p', RowKey: 'big', s: 'x'.repeat(4_300_000) }) },
  { name: 'delete answers 204 with Content-Length 0', method: 'DELETE', path: "/Parity(PartitionKey='p',RowKey='2')", headers: { ...JSON_HEADERS, 'if-match': '*' } },
  { name: 'Get Table Service Properties', method: 'GET', path: '/?restype=service&comp=properties', headers: XML_HEADERS },
  { name: 'Set Table Service Properties, one CORS rule', method: 'PUT', path: '/?restype=service&comp=properties', headers: XML_HEADERS, body: cors(['https://example.com']) },
  { name: 'Set Table Service Properties, six CORS rules', method: 'PUT', path: '/?restype=service&comp=properties', headers: XML_HEADERS, body: cors(['a', 'b', 'c', 'd', 'e', 'f'].map((h) => `https://${h}.example.com`)) },
  { name: 'Set Table Service Properties, not XML', method: 'PUT', path: '/?restype=service&comp=properties', headers: XML_HEADERS, body: '<StorageServiceProperties>' },
  { name: 'Get Table Service Properties after the set', method: 'GET', path: '/?restype=service&comp=properties', headers: XML_HEADERS },
  { name: 'Set Table ACL', method: 'PUT', path: '/Parity?comp=acl', headers: XML_HEADERS, body: acl(['one', 'two']) },
  { name: 'Set Table ACL, six identifiers', method: 'PUT', path: '/Parity?comp=acl', headers: XML_HEADERS, body: acl(['1', '2', '3', '4', '5', '6']) },
  { name: 'Get Table ACL', method: 'GET', path: '/Parity?comp=acl', headers: XML_HEADERS },
  { name: 'Get Table Service Stats', method: 'GET', path: '/?restype=service&comp=stats', headers: XML_HEADERS },
];

/** What may differ between two answers to the same request: the moment and the connection. */
function normalize({ status, headers, body }) {
  const skip = new Set(['date', 'x-ms-request-id', 'connection', 'keep-alive', 'transfer-encoding', 'vary']);
  // HTTP frames a body by its length; the page hands the body over whole. A bodiless answer's
  // `Content-Length: 0` is the service's own header and is compared.
  if (body.length > 0) skip.add('content-length');
  const kept = headers
    .map(([n, v]) => [n.toLowerCase(), v])
    .filter(([n]) => !skip.has(n) && !n.startsWith('access-control-'))
    .map(([n, v]) => [n, n === 'etag' ? v.replace(/datetime'[^']*'/, "datetime'…'") : v]);
  const text = Buffer.from(body)
    .toString('utf8')
    .replace(/RequestId:[0-9a-f-]+/g, 'RequestId:…')
    .replace(/Time:\d{4}-[0-9T:.-]+Z/g, 'Time:…')
    .replace(/"Timestamp":"[^"]*"/g, '"Timestamp":"…"')
    .replace(/datetime'[^']*'/g, "datetime'…'");
  return { status, headers: kept, body: text };
}

async function viaServe({ method, path, headers, body }) {
  const response = await fetch(`${serve.endpoint}${path}`, { method, headers, body });
  return {
    status: response.status,
    headers: [...response.headers],
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

async function viaPage({ method, path, headers, body }) {
  const url = `${serve.endpoint}${path}`;
  const answer = await page.evaluate(
    ({ method, url, headers, body }) => {
      const r = window.tablescope.wire({ method, url, headers: Object.entries(headers), body });
      return { status: r.status, headers: r.headers, body: Array.from(r.body) };
    },
    { method, url, headers, body },
  );
  return { ...answer, body: Uint8Array.from(answer.body) };
}

/** fetch lower-cases and sorts header names; compare as a set of (name, value) pairs. */
const sorted = (answer) => ({ ...answer, headers: [...answer.headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) });

test('every request of the corpus gets the same answer from the page and from serve', async () => {
  const differences = [];
  const statuses = [];
  const answers = new Map();
  for (const request of CORPUS) {
    const http = sorted(normalize(await viaServe(request)));
    const inPage = sorted(normalize(await viaPage(request)));
    statuses.push([request.name, http.status]);
    answers.set(request.name, inPage);
    try {
      assert.deepEqual(inPage, http);
    } catch {
      differences.push({ request: request.name, serve: http, page: inPage });
    }
  }
  assert.deepEqual(differences, [], JSON.stringify(differences).slice(0, 6000));
  // The answers themselves are the service's (each is pinned in detail by the wire goldens).
  assert.deepEqual(statuses, [
    ['create table', 204],
    ['DateTime without a designator', 201],
    ['DateTime with an offset', 201],
    ['DateTime with seven digits', 201],
    ['DateTime that is not one', 400],
    ['a Double beyond the finite range', 400],
    ['point read', 200],
    ['filter on a DateTime literal without Z', 200],
    ['an unknown x-ms-version', 400],
    ['a weak ETag that does not match', 412],
    ['a strong ETag', 400],
    ['String of 32,767 units', 204],
    ['String of 32,768 units', 204],
    ['String of 32,769 units', 400],
    ['PropertiesNeedValue keeps Preference-Applied', 400],
    ['a body over the limit', 413],
    ['delete answers 204 with Content-Length 0', 204],
    ['Get Table Service Properties', 200],
    ['Set Table Service Properties, one CORS rule', 202],
    ['Set Table Service Properties, six CORS rules', 400],
    ['Set Table Service Properties, not XML', 400],
    ['Get Table Service Properties after the set', 200],
    ['Set Table ACL', 204],
    ['Set Table ACL, six identifiers', 400],
    ['Get Table ACL', 200],
    ['Get Table Service Stats', 400],
  ]);
  const header = (name, h) => answers.get(name).headers.find(([n]) => n === h)?.[1];
  const found = JSON.parse(answers.get('filter on a DateTime literal without Z').body).value;
  assert.deepEqual(found.map((e) => [e.RowKey, e.d]), [['1', '2023-01-01T23:00:00Z']]);
  assert.equal(header('PropertiesNeedValue keeps Preference-Applied', 'preference-applied'), 'return-no-content');
  assert.equal(header('delete answers 204 with Content-Length 0', 'content-length'), '0');
  assert.equal(header('Set Table Service Properties, one CORS rule', 'content-length'), '0');
  assert.match(answers.get('Get Table Service Properties after the set').body, /<Cors><CorsRule><AllowedMethods>GET,PUT<\/AllowedMethods><AllowedOrigins>https:\/\/example.com<\/AllowedOrigins>/);
  assert.match(answers.get('Get Table ACL').body, /<SignedIdentifiers><SignedIdentifier><Id>one<\/Id><AccessPolicy><Start>2020-01-01T00:00:00.0000000Z<\/Start>/);
});

// The first screen, the Query section after a query, a lesson, a docs embed
// and a storage banner, at desktop and 360 px width (/tmp/shots-i18n/nl-*.png), with no
// English left outside API terms and data (tests/e2e/i18n-lib.mjs).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './lib.mjs';
import { allPages } from './i18n-lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

test('every page speaks nl', async () => {
  const { banners } = await allPages(env, 'nl');
  assert.equal(banners.length, 2);
  assert.match(banners[0], /Tablescope is geopend in een ander tabblad/);
});

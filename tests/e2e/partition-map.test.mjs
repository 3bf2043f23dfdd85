// The partition map's three states ("returned", "scanned, filtered out", "not read") must stay
// apart without colour: each is drawn with its own shape as well as its hue. Checked
// on real pixels, in Chromium's simulated colour-vision deficiencies (the DevTools protocol's
// Emulation.setEmulatedVisionDeficiency), reduced to grey: two states must differ by more than
// a just-noticeable amount however the hues collapse.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { DESKTOP, openPage, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** A cell's pixels as luminance (0..255, Rec. 709), row by row. */
function luminance(png) {
  const { data, width, height } = PNG.sync.read(png);
  const out = new Float64Array(width * height);
  for (let i = 0; i < width * height; i++) {
    out[i] = 0.2126 * data[4 * i] + 0.7152 * data[4 * i + 1] + 0.0722 * data[4 * i + 2];
  }
  return out;
}

/** Mean absolute luminance difference of two same-sized pixel grids. */
function difference(a, b) {
  assert.equal(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

test('returned, scanned and not-read cells stay distinguishable under simulated colour-vision deficiencies', async () => {
  const page = await openPage(env.browser, `${env.url}?scenario=query-kinds.json#learn`, { viewport: DESKTOP });
  const player = page.locator('.scenario-player');
  await player.waitFor({ timeout: 20_000 });
  await player.getByRole('button', { name: 'Run all' }).click();
  const box = player.locator('.try-query');
  await box.waitFor();
  // The Books partition: 8 entities read, the 4 priced over 20 returned; the others not read.
  await box.locator('.try-filter').fill("PartitionKey eq 'Books' and Price gt 20");
  await box.locator('.try-filter').press('Control+Enter');
  const map = box.locator('.try-result .partition-map');
  await map.waitFor();
  const cell = (state) => map.locator(`.map-cell[data-state="${state}"]`).first();
  const states = ['returned', 'scanned', 'untouched'];
  for (const s of states) await cell(s).waitFor();

  const cdp = await page.context().newCDPSession(page);
  const seen = {};
  for (const type of ['none', 'achromatopsia', 'protanopia', 'deuteranopia', 'tritanopia']) {
    await cdp.send('Emulation.setEmulatedVisionDeficiency', { type });
    const pixels = {};
    for (const s of states) pixels[s] = luminance(await cell(s).screenshot());
    for (const [a, b] of [['returned', 'scanned'], ['returned', 'untouched'], ['scanned', 'untouched']]) {
      const d = difference(pixels[a], pixels[b]);
      seen[`${type} ${a}/${b}`] = Number(d.toFixed(1));
      assert.ok(d >= 12, `${type}: ${a} and ${b} differ by ${d.toFixed(1)} grey levels on average`);
    }
    if (type === 'achromatopsia') await screenshot(page, 'partition-map-achromatopsia');
  }
  console.log(`# mean grey-level differences between states: ${JSON.stringify(seen)}`);
  await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });
  await page.context().close();
});

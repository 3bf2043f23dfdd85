// A lesson follows the learner: each "Run next step" brings the new step into view just below
// the sticky controls (in the playground at 1280x800 and in a docs page's 640x480 frame), the
// live region says what the step found (kind, and the partition map's summary), earlier steps
// fold to one line that opens on demand, and "Learn in 5 minutes" lands on the lesson's
// introduction with its first step button in view.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DESKTOP, REPO, SCREENSHOTS, assertClean, openPage, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const LESSON = 'query-kinds.json';
const steps = JSON.parse(await readFile(join(REPO, 'www/scenarios', LESSON), 'utf8')).steps;
const KIND = {
  point: 'Point query',
  partitionRange: 'Partition range query',
  partitionScan: 'Partition scan',
  tableRange: 'Table range query',
  tableScan: 'Table scan',
};
// The lesson's Products table holds 40 entities once its five batches have run.
const ENTITIES = 40;

/** What the live region must say after step `i` (0-based), from the lesson file's own expectations. */
function announcement(i) {
  const { op, expect } = steps[i];
  if (op === 'query') {
    return `Step ${i + 1}: ${KIND[expect.kind]}, ${expect.scanned} of ${ENTITIES} entities scanned, ${expect.count} returned.`;
  }
  return `Step ${i + 1}: status ${expect.status}.`;
}

/** Waits until the window has stopped scrolling (smooth scrolling takes a few frames). */
async function settled(frame) {
  await frame.waitForFunction(
    () =>
      new Promise((done) => {
        let last = scrollY;
        let still = 0;
        const tick = () => {
          still = scrollY === last ? still + 1 : 0;
          last = scrollY;
          if (still >= 6) done(true);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/** Step `i`'s box and the sticky bar's, in the frame's viewport. */
function boxes(frame, i) {
  return frame.evaluate((i) => {
    const step = document.querySelector(`.scenario-player .step[data-index="${i}"]`).getBoundingClientRect();
    const bar = document.querySelector('.scenario-player .player-controls').getBoundingClientRect();
    return { top: step.top, bottom: step.bottom, barBottom: bar.bottom, barHeight: bar.height, height: innerHeight };
  }, i);
}

/**
 * Presses "Run next step" `count` times in `frame`; after each, step i is in view below the
 * bar (whole when it fits, else its top just under the bar) and the live region says its result.
 */
async function runSteps(frame, count) {
  const player = frame.locator('.scenario-player');
  for (let i = 0; i < count; i += 1) {
    await player.getByRole('button', { name: 'Run next step' }).click();
    await player.locator(`.step[data-index="${i}"]`).waitFor();
    await settled(frame);
    const b = await boxes(frame, i);
    const where = `step ${i + 1}: ${JSON.stringify(b)}`;
    assert.ok(b.top >= b.barBottom - 0.5, `below the sticky bar, ${where}`);
    assert.ok(b.top < b.height, `in the viewport, ${where}`);
    const fits = b.bottom - b.top <= b.height - b.barHeight - 8;
    if (fits) assert.ok(b.bottom <= b.height + 0.5, `whole in view, ${where}`);
    else assert.ok(Math.abs(b.top - (b.barHeight + 8)) <= 1, `starts just under the bar, ${where}`);
    assert.equal((await player.locator('.step-said').textContent()).trim(), announcement(i));
    assert.equal(await player.locator('.step-said').getAttribute('role'), 'status');
    // Only the newest step is open; the earlier ones are one-line summaries.
    const expanded = await player.locator('.step-toggle').evaluateAll((t) => t.map((b) => b.getAttribute('aria-expanded')));
    assert.deepEqual(expanded, [...Array(i).fill('false'), 'true']);
  }
}

test('in the playground at 1280x800 each new step comes into view below the bar and is said', async () => {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.locator('#nav-learn').click();
  await page.locator(`.scenario-load[data-file="${LESSON}"]`).click();
  const player = page.locator('.scenario-player');
  await player.waitFor();
  // The lesson opens at its introduction: its name and its first step button in view.
  await settled(page);
  const intro = await player.locator('.scenario-name').boundingBox();
  const button = await player.locator('.run-next').boundingBox();
  assert.ok(intro.y >= 0 && button.y + button.height <= DESKTOP.height, `intro in view: ${JSON.stringify({ intro, button })}`);

  await runSteps(page, 9);
  await page.screenshot({ path: join(SCREENSHOTS, 'teach-follow-desktop-step9.png') });

  // An earlier step opens on demand, and closes again.
  const first = player.locator('.step[data-index="0"]');
  assert.equal(await first.locator('.step-body').isHidden(), true);
  assert.equal((await first.locator('.step-brief').textContent()).trim(), '✓ 201');
  await first.locator('.step-toggle').click();
  assert.equal(await first.locator('.step-toggle').getAttribute('aria-expanded'), 'true');
  assert.equal(await first.locator('.step-body').isVisible(), true);
  assert.equal(await first.locator('.fig[data-field="status"] dd').textContent(), '201');
  await first.locator('.step-toggle').click();
  assert.equal(await first.locator('.step-body').isHidden(), true);
  // A folded query step says its kind and counts on its one line.
  const scan = player.locator('.step[data-index="6"]');
  assert.equal((await scan.locator('.step-brief').textContent()).trim(), '✓ Point query · 1 scanned · 1 returned');
  // The body the toggle controls is the step's own.
  const controls = await scan.locator('.step-toggle').getAttribute('aria-controls');
  assert.equal(await scan.locator(`#${controls}`).count(), 1);

  // Reset folds nothing left and says nothing.
  await player.getByRole('button', { name: 'Reset' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.scenario-player .step').length === 0);
  assert.equal((await player.locator('.step-said').textContent()).trim(), '');
  assertClean(page);
  await page.context().close();
});

test('in a docs page 640x480 frame each new step comes into view, at once with reduced motion', async () => {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 600 }, reducedMotion: 'reduce' });
  await context.route('**/sw.js', (route) => route.abort());
  // A docs page embedding the lesson as the README shows, in a 640x480 frame.
  await context.route('**/docs-frame.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Docs</title></head>
<body style="margin:0"><p>A page of docs.</p><iframe id="lesson" src="./?embed=1&amp;scenario=${LESSON}"
title="Tablescope: five kinds of query" sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
width="640" height="480" style="border:0"></iframe><p style="height:2000px">More docs.</p></body></html>`,
    }),
  );
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${env.url}docs-frame.html`);
  const frame = page.frames().find((f) => f.url().includes('embed=1')) ?? (await (await page.locator('#lesson').elementHandle()).contentFrame());
  await frame.locator('.scenario-player').waitFor({ timeout: 15_000 });
  assert.equal(await frame.evaluate(() => innerHeight), 480);
  // The embed opens at the top: its bar and the lesson's name in view.
  assert.equal(await frame.evaluate(() => scrollY), 0);

  await runSteps(frame, steps.length);
  // Run to step 9 again for the picture.
  await frame.locator('.scenario-player').getByRole('button', { name: 'Reset' }).click();
  await runSteps(frame, 9);
  await page.locator('#lesson').screenshot({ path: join(SCREENSHOTS, 'teach-follow-frame-640-step9.png') });
  // The docs page itself never scrolled: only the frame did.
  assert.equal(await page.evaluate(() => scrollY), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('"Learn in 5 minutes" lands on the lesson\'s introduction with its first step button in view', async () => {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: /Learn in 5 minutes/ }).click();
  await page.waitForFunction(() => document.activeElement?.classList.contains('run-next'));
  await settled(page);
  const view = await page.evaluate(() => {
    const box = (s) => document.querySelector(s).getBoundingClientRect();
    return {
      name: box('.scenario-player .scenario-name').top,
      intro: box('.scenario-player .scenario-description').top,
      button: box('.scenario-player .run-next').bottom,
      height: innerHeight,
    };
  });
  assert.ok(view.name >= 0, `the lesson's name in view: ${JSON.stringify(view)}`);
  assert.ok(view.intro > view.name && view.intro < view.height, `its introduction in view: ${JSON.stringify(view)}`);
  assert.ok(view.button <= view.height, `its first step button in view: ${JSON.stringify(view)}`);
  await page.screenshot({ path: join(SCREENSHOTS, 'teach-follow-learn-in-5.png') });
  assertClean(page);
  await page.context().close();
});

// The playground opened on its Design section for the design benches, with every long task
// (over 50 ms) recorded in `window.__longTasks` as its duration in ms.

/** Runs in the page before its scripts: records long tasks from the start. */
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
}

/** A fresh 1280×800 page of `env` (tests/e2e/lib.mjs `start()`) showing the Design section. */
export async function openDesign(env) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(watchLongTasks);
  const page = await context.newPage();
  await page.goto(`${env.url}?perf=1`);
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 30_000 });
  await page.locator('#nav-design').click();
  return { context, page };
}

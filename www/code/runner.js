// The sandbox runner (issue #12): starts a sandbox worker (www/code/worker.js) for each run and
// answers its HTTP requests with an in-page engine. The Code section's bundle (www/code/code.js)
// re-exports it beside its editor; a docs embed's code cell imports it alone, without the
// editor (scripts/bundle-code.mjs bundles it as code/tablescope-cell-<hash>.js with
// www/code/cell.css), and answers with the cell's own account instead of the page's tables.
//
//   const run = runCode({ code, limitMs: 5000, wire, onLog, onExchange });
//   const outcome = await run.settled;   // { status: 'done' | 'error' | 'timeout' | 'stopped', error? }

/** The worker's file, next to this one (scripts/bundle-code.mjs defines it). */
// eslint-disable-next-line no-undef
export const WORKER_URL = new URL(__TABLESCOPE_CODE_WORKER__, import.meta.url).href;

/** The SDK bundle the page names (scripts/bundle-sdk.mjs), as an absolute URL. */
export function sdkUrl(doc = document) {
  const hash = doc.querySelector('meta[name="tablescope-sdk"]')?.content;
  if (!hash) throw new Error('this page names no SDK bundle (<meta name="tablescope-sdk">)');
  return new URL(`sdk/tablescope-sdk-${hash}.js`, doc.baseURI).href;
}

const decoder = new TextDecoder();

function bodyText(body) {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  return decoder.decode(body);
}

/**
 * The sandbox worker. A page with an opaque origin (a docs embed in an iframe sandboxed without
 * allow-same-origin) may not start a worker from a URL of a real origin (SecurityError), nor, in
 * Chromium, from its own blob: URLs; there the worker is a one-line data: module (opaque too)
 * that imports the real one, by CORS, as the page's own modules are fetched.
 */
function startWorker(url) {
  const options = { type: 'module', name: 'tablescope-code' };
  try {
    return new Worker(url, options);
  } catch (e) {
    if (e?.name !== 'SecurityError') throw e;
    return new Worker(`data:text/javascript,${encodeURIComponent(`import ${JSON.stringify(url)};`)}`, options);
  }
}

/** The default runaway limit, in milliseconds. */
export const DEFAULT_LIMIT_MS = 5000;

/** How long a sandbox may take to load the SDK and start the code. */
const START_MS = 30_000;

/**
 * Runs `code` in a fresh sandbox worker. `wire` answers its HTTP requests (default: the
 * page's `window.tablescope.wire`). `onLog({level, values})` hears console output;
 * `onExchange({request, response, stats, ms})` every request with its answer (bodies as text).
 * `limitMs` after the code starts, the worker is terminated, whatever it is doing.
 *
 * Returns `{ settled, stop() }`; `settled` resolves once with `{status, error?, ms}`:
 * `done`, `error` (`error`: `{name, message, line?, column?, status?, code?}`), `timeout`,
 * or `stopped` (by `stop()`). The worker never outlives its run.
 */
export function runCode({
  code,
  limitMs = DEFAULT_LIMIT_MS,
  wire = (request) => globalThis.tablescope.wire(request),
  onLog = () => {},
  onExchange = () => {},
  sdk = sdkUrl(),
  workerUrl = WORKER_URL,
}) {
  const started = performance.now();
  const worker = startWorker(workerUrl);
  let finish;
  let timer;
  const settled = new Promise((resolve) => {
    finish = (outcome) => {
      clearTimeout(timer);
      worker.terminate();
      resolve({ ...outcome, ms: performance.now() - started });
      finish = () => {};
    };
  });
  // The limit counts from the moment the code starts, not while the worker loads the SDK
  // (which a busy machine may take seconds to do); a worker that never starts fails too.
  timer = setTimeout(
    () => finish({ status: 'error', error: { name: 'Error', message: `the sandbox did not start within ${START_MS / 1000} s` } }),
    START_MS,
  );
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    finish({ status: 'error', error: { name: 'Error', message: event.message || 'the sandbox failed to start' } });
  });
  worker.addEventListener('message', (event) => {
    const m = event.data;
    switch (m?.type) {
      case 'wire':
        answer(m);
        break;
      case 'started':
        clearTimeout(timer);
        timer = setTimeout(() => finish({ status: 'timeout', limitMs }), limitMs);
        break;
      case 'log':
        if (Array.isArray(m.values)) onLog({ level: String(m.level), values: m.values });
        break;
      case 'done':
        finish({ status: 'done' });
        break;
      case 'error':
        finish({ status: 'error', error: m.error });
        break;
      default:
        break; // Anything else the code posts is ignored.
    }
  });
  function answer(m) {
    const began = performance.now();
    let response;
    try {
      response = wire(m.request);
    } catch (e) {
      worker.postMessage({ type: 'wire', id: m.id, error: e?.message ?? String(e) });
      return;
    }
    try {
      onExchange({
        request: {
          method: m.request.method,
          url: m.request.url,
          headers: m.request.headers,
          body: bodyText(m.request.body),
        },
        response: { status: response.status, headers: response.headers, body: bodyText(response.body) },
        stats: response.stats,
        ms: performance.now() - began,
      });
    } catch (e) {
      console.warn('tablescope code: an exchange listener failed', e);
    }
    worker.postMessage({ type: 'wire', id: m.id, response });
  }
  worker.postMessage({ type: 'run', code, sdkUrl: sdk });
  return { settled, stop: () => finish({ status: 'stopped' }) };
}

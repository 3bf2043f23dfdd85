// The sandbox runner: starts a sandbox worker (www/code/worker.js) for each run and
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
 * The Content-Security-Policy the sandbox worker runs under: scripts from the worker's own
 * origin only (the worker, acorn and the SDK bundle live there; `'unsafe-eval'` compiles the
 * user's code), no connections, fonts, images or anything else. It stops what removing
 * globals cannot: a dynamic `import()` of another origin. `worker-src` is the worker's own
 * script: the blob:/data: module, and its static import of the real one, which a module
 * worker fetches as a worker, not as a script.
 */
export function sandboxPolicy(origin) {
  return `default-src 'none'; script-src ${origin} 'unsafe-eval'; worker-src ${origin} blob: data:; connect-src 'none'`;
}

/**
 * The sandbox worker, started from a frame of its own that carries the policy above.
 *
 * A worker loaded from a URL takes its policy from its response's headers, which a static host
 * may not send; a worker loaded from a blob: or data: URL inherits the policy of the document
 * that creates it (Chromium does, as HTML's policy containers say), and a `<meta>` policy added
 * to a document's head is that document's policy. So the page adds an invisible, empty frame
 * (its about:blank document shares the page's origin), gives it that `<meta>`, and calls the
 * frame's own `Worker` constructor, so the frame's document is the creator: the worker is a
 * blob: module (same origin, no CORS) that imports the real one. Removing the frame ends the
 * worker with it.
 *
 * A page whose origin is opaque (a docs embed in an iframe sandboxed without
 * allow-same-origin) cannot reach into a frame of its own (the frame's origin is another
 * opaque one), and Chromium starts no blob: worker there. That page takes the policy itself,
 * loosened to what it still needs after its start (its own origin's scripts and files, wasm),
 * once, and starts a data: worker (opaque too: its import is a CORS request, as the page's
 * own modules are there). The code's reach is the same: no other origin.
 */
function startWorker(url, doc = document) {
  const origin = new URL(url).origin;
  const source = `import ${JSON.stringify(url)};`;
  const options = { type: 'module', name: 'tablescope-code' };
  if (globalThis.origin === 'null') {
    if (!doc.querySelector('meta[data-tablescope-sandbox]')) {
      const meta = doc.createElement('meta');
      meta.httpEquiv = 'Content-Security-Policy';
      meta.content = `script-src ${origin} 'unsafe-eval'; worker-src ${origin} blob: data:; connect-src ${origin}`;
      meta.dataset.tablescopeSandbox = '';
      doc.head.append(meta);
    }
    return { worker: new Worker(`data:text/javascript,${encodeURIComponent(source)}`, options), frame: null };
  }
  const frame = doc.createElement('iframe');
  frame.hidden = true;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.className = 'tablescope-sandbox';
  (doc.body ?? doc.documentElement).append(frame);
  const win = frame.contentWindow;
  const meta = win.document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = sandboxPolicy(origin);
  win.document.head.append(meta);
  const script = win.URL.createObjectURL(new win.Blob([source], { type: 'text/javascript' }));
  return { worker: new win.Worker(script, options), frame };
}

/** The default runaway limit, in milliseconds. */
export const DEFAULT_LIMIT_MS = 5000;

/** How long a sandbox may take to load the SDK and start the code. */
const START_MS = 30_000;

/** Console lines a run shows; the rest are counted and summarised in one line. */
export const MAX_LOG_LINES = 1000;

/** The summary of lines not shown (`12,345 more lines not shown`). */
function omittedLine(n) {
  return { level: 'info', omitted: n, values: [{ text: `${n.toLocaleString('en-US')} more lines not shown` }] };
}

/**
 * Runs `code` in a fresh sandbox worker. `wire` answers its HTTP requests (default: the
 * page's `window.tablescope.wire`). `onLog({level, values})` hears console output, at most
 * MAX_LOG_LINES lines and then, once the run settles, one line `{level: 'info', omitted: n,
 * values}` saying how many more there were; `onExchange({request, response, stats, ru, ms})`
 * every request with its answer (bodies as text).
 *
 * The limit: `limitMs` after the code starts, the worker is terminated, whatever it is doing.
 * The page arms it once, on the worker's first `started`; the code can post messages too, so
 * nothing it posts re-arms or extends it.
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
  const t0 = performance.now();
  const { worker, frame } = startWorker(workerUrl);
  let finish;
  let timer;
  let armed = false;
  let shown = 0;
  let omitted = 0;
  const log = (level, values) => {
    if (shown >= MAX_LOG_LINES) {
      omitted += 1;
      return;
    }
    shown += 1;
    onLog({ level: String(level), values });
  };
  const settled = new Promise((resolve) => {
    finish = (outcome) => {
      clearTimeout(timer);
      worker.terminate();
      frame?.remove();
      if (omitted > 0) onLog(omittedLine(omitted));
      resolve({ ...outcome, ms: performance.now() - t0 });
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
        if (armed) break;
        armed = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish({ status: 'timeout', limitMs }), limitMs);
        break;
      case 'log':
        if (Array.isArray(m.values)) log(m.level, m.values);
        break;
      case 'logs':
        // A batch: `lines` of `{level, values}`, and `omitted` lines the worker only counted.
        if (Array.isArray(m.lines)) for (const l of m.lines) if (Array.isArray(l?.values)) log(l.level, l.values);
        if (Number.isSafeInteger(m.omitted) && m.omitted > 0) omitted += m.omitted;
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
        ru: response.ru,
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

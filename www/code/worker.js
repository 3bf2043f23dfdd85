// The Code section's sandbox: a module Web Worker that runs the user's code with the official
// @azure/data-tables in scope, and whose only way to the tables is the in-page transport, by
// message to the page (www/code/code.js answers with window.tablescope.wire).
//
// Protocol (page <-> worker, structured-cloned messages):
//   page -> worker  { type: 'run', code, sdkUrl }                  once per worker
//   worker -> page  { type: 'wire', id, request }                  an HTTP request of the SDK
//   page -> worker  { type: 'wire', id, response } | { ..., error } its answer
//   worker -> page  { type: 'started' }                            the code starts (limit runs)
//   worker -> page  { type: 'logs', lines: [{ level, values }], omitted }  console.log & co.
//   worker -> page  { type: 'done' } | { type: 'error', error }     the code settled
//
// Invariants:
// - The worker runs under the Content-Security-Policy of the frame that starts it
//   (runner.js, `sandboxPolicy`; in an opaque-origin page, the page's own): scripts from its
//   own origin only, so not even a dynamic `import()` reaches another origin.
// - Before user code runs, every global but those of ALLOWED is gone from its scope (fetch,
//   XMLHttpRequest, WebSocket, WebSocketStream, EventSource, WebTransport, FontFace and
//   fonts, indexedDB, caches, nested workers, BroadcastChannel, importScripts, postMessage,
//   and whatever a newer browser adds), and `navigator` keeps only who is asking
//   (NAVIGATOR_ALLOWED). A worker has no DOM, window or localStorage to begin with.
// - Syntax errors: V8 reports no position for code compiled with the Function constructor,
//   so when it refuses the code, acorn parses it again for the line and column. acorn is a
//   file of its own (ACORN_FILE), imported only then: a run of code that parses (a docs
//   embed's code cell, whose download has a budget) never downloads it. Runtime errors take
//   their line from the stack, where the code is named CODE_FILE.
// - Stopping runaway code is the page's job: it terminates this worker once the code has run
//   for its limit (counted from the first 'started', so loading the SDK does not count, and a
//   'started' the code forges changes nothing). Console output is capped here and again by the
//   page, which trusts no message of this worker.

/** acorn's bundle, next to this file (scripts/bundle-code.mjs names it). */
const ACORN_FILE = __TABLESCOPE_CODE_ACORN__;

/** The name the user's code has in stack traces. */
const CODE_FILE = 'tablescope-code.js';
/** Lines the AsyncFunction constructor puts before the body (`async function anonymous(…\n) {\n`). */
const HEADER_LINES = 2;

const post = self.postMessage.bind(self);
const later = self.queueMicrotask.bind(self);
const pending = new Map();
let nextId = 1;
let started = false;

self.addEventListener('message', (event) => {
  const m = event.data;
  if (m?.type === 'wire') {
    const waiting = pending.get(m.id);
    pending.delete(m.id);
    if (!waiting) return;
    if (m.error !== undefined) waiting.reject(new Error(m.error));
    else waiting.resolve(m.response);
  } else if (m?.type === 'run' && !started) {
    started = true;
    run(m.code, m.sdkUrl);
  }
});
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  logLine('error', ['Uncaught (in promise)', event.reason]);
});

/** The transport's `wire`: one request to the page, answered by its engine. */
function askPage(request) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ type: 'wire', id, request });
  });
}

/**
 * The globals user code keeps; every other name of the worker's global scope is removed before
 * the code runs, so a global a newer browser adds (the way WebSocketStream and FontFace were)
 * is gone by default rather than a new way out. ECMAScript's own, then the web's that compute
 * without reaching anything (the SDK's needs among them: timers, URL, text coding, crypto,
 * streams, abort, Headers/Request/Response as plain values). tests/e2e/code-sandbox.test.mjs
 * enumerates what is left.
 */
const ALLOWED = new Set([
  // ECMAScript
  'AggregateError', 'Array', 'ArrayBuffer', 'AsyncDisposableStack', 'Atomics', 'BigInt', 'BigInt64Array',
  'BigUint64Array', 'Boolean', 'DataView', 'Date', 'DisposableStack', 'Error', 'EvalError',
  'FinalizationRegistry', 'Float16Array', 'Float32Array', 'Float64Array', 'Function', 'Infinity',
  'Int16Array', 'Int32Array', 'Int8Array', 'Intl', 'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number',
  'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'String',
  'SuppressedError', 'Symbol', 'SyntaxError', 'Temporal', 'TypeError', 'URIError', 'Uint16Array',
  'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef', 'WeakSet', 'WebAssembly',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis',
  'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape',
  // The web, computing only
  'AbortController', 'AbortSignal', 'Blob', 'ByteLengthQueuingStrategy', 'CompressionStream',
  'CountQueuingStrategy', 'Crypto', 'CryptoKey', 'CustomEvent', 'DOMException', 'DecompressionStream',
  'ErrorEvent', 'Event', 'EventTarget', 'File', 'FormData', 'Headers', 'MessageEvent', 'Performance',
  'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure', 'PromiseRejectionEvent', 'ReadableByteStreamController',
  'ReadableStream', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest', 'ReadableStreamDefaultController',
  'ReadableStreamDefaultReader', 'Request', 'Response', 'SubtleCrypto', 'TextDecoder', 'TextDecoderStream',
  'TextEncoder', 'TextEncoderStream', 'TransformStream', 'TransformStreamDefaultController', 'URL',
  'URLSearchParams', 'WritableStream', 'WritableStreamDefaultController', 'WritableStreamDefaultWriter',
  'atob', 'btoa', 'clearInterval', 'clearTimeout', 'console', 'crypto', 'performance', 'queueMicrotask',
  'reportError', 'setInterval', 'setTimeout', 'structuredClone',
  // The scope itself and what describes it
  'self', 'name', 'location', 'origin', 'navigator', 'isSecureContext', 'crossOriginIsolated', 'onerror',
  'onmessage', 'onmessageerror', 'onunhandledrejection', 'onrejectionhandled', 'DedicatedWorkerGlobalScope',
  'WorkerGlobalScope', 'WorkerLocation', 'WorkerNavigator', 'constructor',
]);
/** What `navigator` keeps: who is asking, no devices, storage, locks or permissions. */
const NAVIGATOR_ALLOWED = new Set([
  'appCodeName', 'appName', 'appVersion', 'constructor', 'hardwareConcurrency', 'language', 'languages',
  'onLine', 'platform', 'product', 'userAgent', 'userAgentData',
]);

/**
 * Removes `name` from `target` and every prototype it inherits from, then pins it undefined on
 * `target` (so `fetch()` is a TypeError, as a missing function is, and nothing can put it back).
 */
function remove(target, name) {
  for (let o = target; o; o = Object.getPrototypeOf(o)) {
    if (Object.getOwnPropertyDescriptor(o, name)) {
      try {
        delete o[name];
      } catch {
        // A non-configurable property stays; the pin below shadows it on `target`.
      }
    }
  }
  try {
    Object.defineProperty(target, name, { value: undefined, writable: false, configurable: false });
  } catch {
    // Already pinned.
  }
}

/** Every name `target` has, own or inherited, up to (not including) `stop`. */
function namesOf(target, stop) {
  const names = new Set();
  for (let o = target; o && o !== stop; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) names.add(name);
  }
  return names;
}

function lockDown() {
  // EventTarget's and Object's prototypes are shared with every event target and object: the
  // scope keeps addEventListener and toString.
  for (const name of namesOf(self, EventTarget.prototype)) if (!ALLOWED.has(name)) remove(self, name);
  for (const name of namesOf(self.navigator, Object.prototype)) {
    if (!NAVIGATOR_ALLOWED.has(name)) remove(self.navigator, name);
  }
}

/** A credential the SDK takes (named key, SAS, token): not an options bag. */
function isCredential(x) {
  return !!x && (typeof x.getToken === 'function' || 'key' in x || 'signature' in x);
}

/** Where an SDK call was made, kept on the error it rejects with (see `withCallSites`). */
const CALL_SITE = Symbol('tablescope call site');

/**
 * `client` whose methods remember where the code called them: an SDK error is created deep in
 * the SDK's promise chain, and its stack no longer reaches the code's line. A rejected call,
 * or a failing page of a listing, carries the caller's stack in CALL_SITE.
 */
function withCallSites(client) {
  const mark = (site) => (e) => {
    if (e && typeof e === 'object' && !(CALL_SITE in e)) {
      try {
        e[CALL_SITE] = site.stack;
      } catch {
        // A frozen error keeps its own stack only.
      }
    }
    throw e;
  };
  const iterator = (it, site) => ({
    next: (...a) => it.next(...a).catch(mark(site)),
    return: it.return ? (...a) => it.return(...a) : undefined,
    [Symbol.asyncIterator]() {
      return this;
    },
    byPage: it.byPage ? (...a) => iterator(it.byPage(...a), site) : undefined,
  });
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      return function (...args) {
        const site = new Error();
        const result = value.apply(target, args);
        if (result && typeof result.then === 'function') return result.catch(mark(site));
        if (result && typeof result.next === 'function' && result[Symbol.asyncIterator]) {
          return iterator(result, site);
        }
        return result;
      };
    },
  });
}

/** The scope the code sees: the SDK pointed at the playground through the transport. */
function scopeOf(sdk, consoleLike) {
  const httpClient = sdk.createTransport({ wire: askPage });
  const options = (own) => sdk.clientOptions({ httpClient, ...own });
  // `new TableClient(url, table[, credential][, options])` reaches the playground too: the
  // transport answers whatever URL it is given.
  class TableClient extends sdk.TableClient {
    constructor(url, table, credentialOrOptions, maybeOptions) {
      if (isCredential(credentialOrOptions)) super(url, table, credentialOrOptions, options(maybeOptions));
      else super(url, table, options(credentialOrOptions));
      return withCallSites(this);
    }
  }
  class TableServiceClient extends sdk.TableServiceClient {
    constructor(url, credentialOrOptions, maybeOptions) {
      if (isCredential(credentialOrOptions)) super(url, credentialOrOptions, options(maybeOptions));
      else super(url, options(credentialOrOptions));
      return withCallSites(this);
    }
  }
  return {
    serviceClient: withCallSites(sdk.serviceClient({ httpClient })),
    tableClient: (name, own) => withCallSites(sdk.tableClient(name, options(own))),
    TableClient,
    TableServiceClient,
    odata: sdk.odata,
    TableTransaction: sdk.TableTransaction,
    console: consoleLike,
  };
}

/** Console lines sent to the page; the rest are only counted (runner.js shows as many). */
const MAX_LOG_LINES = 1000;
/** Counted lines that make the count worth sending before the code yields. */
const COUNT_EVERY = 10_000;

/**
 * console.log & co. The first MAX_LOG_LINES lines go to the page as they are logged (a message
 * from a worker arrives even while the code spins in a loop, so a line logged before an
 * endless loop is shown); after them a line is only counted, and the count goes to the page
 * every COUNT_EVERY lines, when the code yields and when it settles. 200,000 lines cost the
 * page a thousand messages and a few counts, not 200,000 renders.
 */
const output = { sent: 0, omitted: 0, queued: false };
function flushLog() {
  output.queued = false;
  if (output.omitted === 0) return;
  post({ type: 'logs', lines: [], omitted: output.omitted });
  output.omitted = 0;
}
function logLine(level, values) {
  if (output.sent < MAX_LOG_LINES) {
    output.sent += 1;
    post({ type: 'logs', lines: [{ level, values: values.map(describe) }], omitted: 0 });
    return;
  }
  output.omitted += 1;
  if (output.omitted >= COUNT_EVERY) {
    flushLog();
  } else if (!output.queued) {
    output.queued = true;
    later(flushLog);
  }
}

const consoleLike = Object.freeze(
  Object.fromEntries(['log', 'info', 'warn', 'error', 'debug'].map((level) => [level, (...values) => logLine(level, values)])),
);

async function run(code, sdkUrl) {
  let sdk;
  try {
    sdk = await import(sdkUrl);
  } catch (e) {
    post({ type: 'error', error: { name: 'LoadError', message: `the SDK did not load: ${e?.message ?? e}` } });
    return;
  }
  lockDown();
  const scope = scopeOf(sdk, consoleLike);
  let body;
  try {
    const AsyncFunction = (async () => {}).constructor;
    body = new AsyncFunction(...Object.keys(scope), `${code}\n//# sourceURL=${CODE_FILE}`);
  } catch (e) {
    // Where: acorn's position, or (acorn accepts what V8 refuses, rare; or acorn did not
    // load) V8's message without one.
    const syntax = await syntaxError(code).catch(() => null);
    post({ type: 'error', error: syntax ?? { name: e?.name ?? 'SyntaxError', message: e?.message ?? String(e) } });
    return;
  }
  post({ type: 'started' });
  try {
    await body(...Object.values(scope));
    flushLog();
    post({ type: 'done' });
  } catch (e) {
    flushLog();
    post({ type: 'error', error: runtimeError(e) });
  }
}

/** `{ name, message, line, column }` of code that does not parse, or null. */
async function syntaxError(code) {
  const { parse } = await import(new URL(ACORN_FILE, import.meta.url).href);
  try {
    parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
    });
    return null;
  } catch (e) {
    if (!(e instanceof SyntaxError) || !e.loc) throw e;
    return {
      name: 'SyntaxError',
      message: e.message.replace(/ \(\d+:\d+\)$/, ''),
      line: e.loc.line,
      column: e.loc.column + 1,
    };
  }
}

/** What the page shows of an error the code threw: message, line, and the service's answer. */
function runtimeError(e) {
  const error = {
    name: e?.name ?? 'Error',
    message: e?.message ?? String(e),
  };
  const file = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`);
  const stacks = [e?.stack, e?.[CALL_SITE]].filter((s) => typeof s === 'string');
  const at = stacks.map((s) => s.match(file)).find((m) => m);
  if (at) {
    error.line = Number(at[1]) - HEADER_LINES;
    error.column = Number(at[2]);
  }
  if (typeof e?.statusCode === 'number') error.status = e.statusCode;
  const code = e?.response?.parsedBody?.odataError?.code ?? e?.code;
  if (typeof code === 'string') error.code = code;
  return error;
}

function text(value) {
  return { text: value };
}

/**
 * A logged value as the page shows it: `{ text }` for a string, else `{ json }` with a value
 * structured clone and JSON can carry (bigint as `"123n"`, Date as its ISO text, bytes as a
 * number array, Map and Set as object and array, errors as `{name, message}`, a cycle as
 * `"[Circular]"`).
 */
function describe(value) {
  if (typeof value === 'string') return text(value);
  return { json: jsonable(value, new Set(), 0) };
}

function jsonable(value, seen, depth) {
  switch (typeof value) {
    case 'undefined':
      return null;
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'string':
    case 'boolean':
      return value;
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
    case 'symbol':
      return value.toString();
    default:
      break;
  }
  if (value === null) return null;
  if (seen.has(value)) return '[Circular]';
  if (depth > 20) return '[…]';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (ArrayBuffer.isView(value)) return Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof Error) return { name: value.name, message: value.message };
  seen.add(value);
  let out;
  if (Array.isArray(value) || value instanceof Set) {
    out = [...value].map((v) => jsonable(v, seen, depth + 1));
  } else if (value instanceof Map) {
    out = Object.fromEntries([...value].map(([k, v]) => [String(k), jsonable(v, seen, depth + 1)]));
  } else {
    out = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonable(v, seen, depth + 1);
  }
  seen.delete(value);
  return out;
}

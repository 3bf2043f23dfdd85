// The official @azure/data-tables SDK, unmodified, running against the page's own tables
//.
//
// The SDK accepts an injected `httpClient` ({ sendRequest(request) -> PipelineResponse }). This
// module's client serialises each request the SDK would have sent over the network and hands
// it to `window.tablescope.wire` (src/ui/state/wire_bridge.rs), which answers it with engine::wire on
// the user's account: no network, no TLS, no CORS. SDK calls change the user's tables exactly
// as the UI does: the other sections show the change at once, persistence saves it, and a
// read-only tab refuses writes with the service's 403 AuthorizationPermissionMismatch.
//
// scripts/bundle-sdk.mjs bundles this file with the SDK into dist/sdk/tablescope-sdk-<hash>.js,
// which the page imports on first use (never at start). The `wire` function is pluggable, so
// a Web Worker can run the SDK and reach the page's engine by message:
//
//   const sdk = await import(bundleUrl);
//   const tables = sdk.tableClient('Employees');           // pointed at the playground
//   await tables.createEntity({ partitionKey: 'p', rowKey: 'r', Name: 'Ada' });
//   const stop = sdk.observe((exchange) => console.log(exchange.request.method, exchange.response.status));
//
//   // in a worker: the page answers { request } messages with tablescope.wire(request)
//   const transport = sdk.createTransport({ wire: (request) => askThePage(request) });
//   const client = sdk.tableClient('Employees', { httpClient: transport });

import { TableClient, TableServiceClient, TableTransaction, odata } from '@azure/data-tables';
import { createHttpHeaders, RestError } from '@azure/core-rest-pipeline';
import { AbortError } from '@azure/abort-controller';

export { TableClient, TableServiceClient, TableTransaction, odata, RestError };
export { AzureNamedKeyCredential, AzureSASCredential } from '@azure/data-tables';

/**
 * The playground's service URL: the development account in path style, as Azurite and
 * `tablescope serve` address it (so the same code runs against either unchanged). In the page
 * nothing is sent to it: the transport answers every request in the page.
 */
export const PLAYGROUND_URL = 'http://127.0.0.1:10002/devstoreaccount1';

const observers = new Set();

/**
 * Calls `listener(exchange)` after every request any transport of this module answers:
 * `{ request: {method, url, headers, body}, response: {status, headers, body}, stats, ru, ms }`,
 * headers as `[name, value]` pairs in order, bodies as text, `stats` the query's
 * `{kind, scanned, returned, partitions}` (queries only), `ru` the estimated request units
 * (a Cosmos DB for Table account only). Returns a function that stops it.
 */
export function observe(listener) {
  observers.add(listener);
  return () => observers.delete(listener);
}

/**
 * The page's engine; looked up per request, so the bundle may load before the app mounts.
 * The engine's wire code lives in the split build's deferred wasm, which a first call would
 * fetch synchronously, and a service worker does not answer a synchronous request: offline,
 * before the idle prefetch has finished, that call failed. So each request first awaits the
 * deferred wasm the ordinary way (scripts/split/glue.mjs; at once when already loaded, and
 * absent in a build that is not split).
 */
async function pageWire(request) {
  const wire = globalThis.tablescope?.wire;
  if (typeof wire !== 'function') {
    throw new Error("Tablescope's engine is not running on this page (window.tablescope.wire is missing)");
  }
  await globalThis.__tablescope_deferred_ready?.();
  return wire(request);
}

/**
 * An `HttpClient` for the SDK that answers requests with `wire(request)` (default: the page's
 * `window.tablescope.wire`; may return a promise). `onExchange` hears each exchange, as
 * `observe` listeners do.
 */
export function createTransport({ wire = pageWire, onExchange } = {}) {
  return {
    async sendRequest(request) {
      if (request.abortSignal?.aborted) {
        throw new AbortError('The operation was aborted.');
      }
      const started = performance.now();
      const sent = {
        method: request.method,
        url: request.url,
        headers: [...request.headers],
        body: await bodyOf(request),
      };
      let answer;
      try {
        answer = await wire(sent);
      } catch (e) {
        throw new RestError(e?.message ?? String(e), { code: RestError.REQUEST_SEND_ERROR, request });
      }
      const headers = createHttpHeaders();
      for (const [name, value] of answer.headers) headers.set(name, value);
      const text = typeof answer.body === 'string' ? answer.body : decoder.decode(answer.body ?? new Uint8Array());
      const response = { request, status: answer.status, headers, bodyAsText: text };
      if (request.streamResponseStatusCodes?.has(answer.status)) {
        // The SDK asked for a stream (data-tables never does): hand the bytes over as one.
        const blob = new Blob([answer.body ?? text]);
        response.bodyAsText = undefined;
        response.blobBody = Promise.resolve(blob);
        response.browserStreamBody = blob.stream();
      }
      notify(onExchange, {
        request: { ...sent, body: typeof sent.body === 'string' ? sent.body : decoder.decode(sent.body ?? new Uint8Array()) },
        response: { status: answer.status, headers: [...answer.headers], body: text },
        stats: answer.stats,
        ru: answer.ru,
        ms: performance.now() - started,
      });
      return response;
    },
  };
}

const decoder = new TextDecoder();

/** The request's body as a string or bytes (what the bridge takes), or undefined. */
async function bodyOf(request) {
  let body = request.body;
  if (typeof body === 'function') body = body(); // a stream factory
  if (body === undefined || body === null || typeof body === 'string') return body ?? undefined;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) {
    return new Uint8Array(await new Response(body).arrayBuffer());
  }
  throw new RestError(`the in-page transport cannot send a ${body?.constructor?.name ?? typeof body} body`, {
    code: RestError.REQUEST_SEND_ERROR,
    request,
  });
}

/** Tells `own` and every observer; a listener that throws never breaks the SDK call. */
function notify(own, exchange) {
  for (const listener of own ? [own, ...observers] : observers) {
    try {
      listener(exchange);
    } catch (e) {
      console.warn('tablescope sdk: an exchange listener failed', e);
    }
  }
}

/** The transport the helpers below use: the page's engine. */
export const transport = createTransport();

/**
 * Client options for the playground: the in-page transport, and no retries (the engine in
 * the page never fails transiently, so a retry would only repeat the same answer later).
 * `allowInsecureConnection` lets the SDK use the http:// PLAYGROUND_URL.
 */
export function clientOptions(options = {}) {
  return { httpClient: transport, allowInsecureConnection: true, retryOptions: { maxRetries: 0 }, ...options };
}

/** A TableServiceClient on the playground's tables (create, list, delete tables). */
export function serviceClient(options) {
  return new TableServiceClient(PLAYGROUND_URL, clientOptions(options));
}

/** A TableClient for the playground's table `name` (entities, queries, transactions). */
export function tableClient(name, options) {
  return new TableClient(PLAYGROUND_URL, name, clientOptions(options));
}

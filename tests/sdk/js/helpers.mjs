// What every SDK test file shares: the endpoint tests/sdk/serve.sh started, the development
// account's credential, fresh table names, and assertions on what the SDK reports for a
// failed call.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  AzureNamedKeyCredential,
  RestError,
  TableClient,
  TableServiceClient,
} from "@azure/data-tables";

/** http://127.0.0.1:PORT/devstoreaccount1, from tests/sdk/serve.sh. */
export const ENDPOINT = process.env.TABLESCOPE_TABLE_ENDPOINT;
if (!ENDPOINT) {
  throw new Error(
    "TABLESCOPE_TABLE_ENDPOINT is not set: run the suite through tests/sdk/serve.sh " +
      "(tests/sdk/serve.sh node --test tests/sdk/js/)",
  );
}

/** The development account and its well-known key (Azurite's; `UseDevelopmentStorage=true`). */
export const DEV_ACCOUNT = "devstoreaccount1";
export const DEV_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export const credential = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);

/** The SDK refuses a key over plain http unless told otherwise. */
export const CLIENT_OPTIONS = { allowInsecureConnection: true };

/** A table name no other test uses: `prefix` plus 8 hex digits. */
export function uniqueName(prefix) {
  return `${prefix}${randomBytes(4).toString("hex")}`;
}

export function serviceClient() {
  return new TableServiceClient(ENDPOINT, credential, CLIENT_OPTIONS);
}

export function tableClient(name) {
  return new TableClient(ENDPOINT, name, credential, CLIENT_OPTIONS);
}

/** Creates a fresh table and returns its client. */
export async function freshTable(prefix) {
  const client = tableClient(uniqueName(prefix));
  await client.createTable();
  return client;
}

/**
 * Awaits `promise`, which must reject with the SDK's RestError carrying this HTTP status and
 * service error code (and, if given, a message that starts with `messageStart`).
 *
 * Where the SDK puts the code: for a single operation, @azure/data-tables 13.3.2 leaves
 * `RestError.code` undefined (core-client looks for `error.code` in the body, the service
 * writes `odata.error.code`) and hands the deserialised body over as
 * `error.response.parsedBody.odataError` ({code, message: {lang, value}}); for a transaction,
 * its own parser sets `RestError.code` and the message from the failing part's body. Both are
 * checked, and that no `x-ms-error-code` header came with the JSON error, as production sends
 * none.
 */
export async function rejectsWith(promise, statusCode, code, messageStart) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a RestError ${statusCode} ${code}, but the call succeeded`);
  assert.ok(error instanceof RestError, `expected a RestError, got ${error?.stack ?? error}`);
  const odataError = error.response?.parsedBody?.odataError;
  const reported = {
    statusCode: error.statusCode,
    code: odataError?.code ?? error.code,
  };
  assert.deepEqual(reported, { statusCode, code }, `${error.message}`);
  if (error.code !== undefined) assert.equal(error.code, code);
  assert.equal(error.response?.headers?.get("x-ms-error-code"), undefined, "no x-ms-error-code on a JSON error");
  if (messageStart !== undefined) {
    const message = odataError?.message?.value ?? error.message;
    assert.ok(
      message.startsWith(messageStart),
      `message ${JSON.stringify(message)} should start with ${JSON.stringify(messageStart)}`,
    );
  }
  return error;
}

/**
 * Options whose `onResponse` records every raw response, for what the SDK does not surface
 * (statuses of successful calls, errors it swallows).
 */
export function recording() {
  const responses = [];
  return {
    responses,
    options: { onResponse: (raw) => responses.push(raw) },
  };
}

/** `{status, code}` of a raw error response: the code from its `odata.error` body. */
export function statusAndCode(raw) {
  return { status: raw.status, code: JSON.parse(raw.bodyAsText)["odata.error"].code };
}

/** An ETag as the service writes it: the write's instant, colons as %3A, up to 7 digits. */
export const ETAG = /^W\/"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(\.\d{1,7})?Z'"$/;

/** The instant an ETag names, as Timestamp text (`%3A` decoded). */
export function etagInstant(etag) {
  const match = /^W\/"datetime'(.*)'"$/.exec(etag);
  assert.ok(match, `not an ETag: ${etag}`);
  return decodeURIComponent(match[1]);
}

/** A timestamp with its fraction padded to 7 digits, so that two texts of one instant compare equal. */
export function sevenDigits(text) {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,7}))?Z$/.exec(text);
  assert.ok(match, `not a timestamp: ${text}`);
  return `${match[1]}.${(match[2] ?? "").padEnd(7, "0")}Z`;
}

/** Every entity of `iterator` (the SDK's paged iterator), in the order served. */
export async function all(iterator) {
  const out = [];
  for await (const item of iterator) out.push(item);
  return out;
}

/** Every page of `iterator.byPage(settings)`, each as its list of entities. */
export async function pages(iterator, settings) {
  const out = [];
  for await (const page of iterator.byPage(settings)) out.push([...page]);
  return out;
}

/** Inserts `entities` (one partition) in transactions of at most 100. */
export async function insertAll(client, entities) {
  for (let i = 0; i < entities.length; i += 100) {
    await client.submitTransaction(entities.slice(i, i + 100).map((e) => ["create", e]));
  }
}

/** Ordinal comparison by UTF-16 code unit, as the service orders keys. */
export function ordinal(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The service the server models (tests/sdk/serve.sh's TABLESCOPE_TARGET): `storage` (Azure
 * Table storage) or `cosmos` (Azure Cosmos DB for Table, docs/service/cosmos.md). Where the
 * two answer differently, a test expects the answer of the one served.
 */
export const TARGET = process.env.TABLESCOPE_TARGET ?? "storage";
export const COSMOS = TARGET === "cosmos";

/**
 * Keys (or `[PartitionKey, RowKey]` pairs) listed in the order they were last written, in
 * the order a query returns them: key order (ordinal) on Table storage; on Cosmos DB for
 * Table not key order ([rec][doc]) but, as the model chooses where the sources are silent
 * about updates, the order of each entity's last write (Rule::InsertionOrder).
 */
export function served(written) {
  if (COSMOS) return [...written];
  const key = (k) => (Array.isArray(k) ? k : ["", k]);
  return [...written].sort((a, b) => {
    const [p1, r1] = key(a);
    const [p2, r2] = key(b);
    return ordinal(p1, p2) || ordinal(r1, r2);
  });
}

/**
 * Table names in the order a listing returns them: by name on Table storage; on Cosmos DB
 * for Table in neither name nor creation order ([rec]), here the model's order of an FNV-1a
 * hash of the name, then the name (ModelChoice::HashOfName).
 */
export function listedTables(names) {
  if (!COSMOS) return [...names].sort(ordinal);
  const hashed = (name) => {
    let hash = 0xcbf29ce484222325n;
    for (const byte of Buffer.from(name, "utf8")) {
      hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    return hash.toString(16).padStart(16, "0") + name;
  };
  return [...names].sort((a, b) => ordinal(hashed(a), hashed(b)));
}

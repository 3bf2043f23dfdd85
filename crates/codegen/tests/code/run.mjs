// Runs a "show as code" JavaScript form the way the Code section does: the code is the body
// of an async function whose parameters are the Code section's scope (serviceClient,
// tableClient(name), TableClient, TableServiceClient, odata, TableTransaction, console), with
// the official @azure/data-tables pointed at TABLESCOPE_TABLE_ENDPOINT (tablescope-serve) with
// the development account's key. Prints one JSON line: what the code logged (entities as
// their keys and property names, lone strings as they are) and the service error it ended
// with, if any. crates/serve/tests/code_sdk.rs compares it with the engine's answer.
//
//   TABLESCOPE_TABLE_ENDPOINT=http://127.0.0.1:PORT/devstoreaccount1 node crates/codegen/tests/code/run.mjs FILE

import { readFileSync } from "node:fs";
import {
  AzureNamedKeyCredential,
  TableClient,
  TableServiceClient,
  TableTransaction,
  odata,
} from "@azure/data-tables";

const endpoint = process.env.TABLESCOPE_TABLE_ENDPOINT;
const credential = new AzureNamedKeyCredential(
  "devstoreaccount1",
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
);
const options = { allowInsecureConnection: true };
const serviceClient = new TableServiceClient(endpoint, credential, options);
const tableClient = (name) => new TableClient(endpoint, name, credential, options);

const logged = [];
const capture = { log: (...args) => logged.push(args) };
const AsyncFunction = (async () => {}).constructor;
const body = readFileSync(process.argv[2], "utf8");
const run = new AsyncFunction(
  "serviceClient", "tableClient", "TableClient", "TableServiceClient", "odata", "TableTransaction", "console",
  body,
);

const SYSTEM = new Set(["partitionKey", "rowKey", "etag", "timestamp"]);
let error = null;
try {
  await run(serviceClient, tableClient, TableClient, TableServiceClient, odata, TableTransaction, capture);
} catch (e) {
  error = { code: e.response?.parsedBody?.odataError?.code ?? e.code ?? String(e) };
}
const entities = [];
const lines = [];
// An entity is what the SDK returns for one: an object with its `etag` (a projection may
// lack the keys). getEntity also hands over the response's `odata.metadata`: not a property.
for (const args of logged) {
  if (args.length !== 1) continue;
  const [a] = args;
  if (a && typeof a === "object" && "etag" in a) {
    entities.push([a.partitionKey ?? null, a.rowKey ?? null, Object.keys(a).filter((k) => !SYSTEM.has(k) && !k.startsWith("odata.")).sort()]);
  } else if (typeof a === "string") {
    lines.push(a);
  }
}
process.stdout.write(JSON.stringify({ error, entities, lines }) + "\n");

// Authorization as @azure/data-tables does it: the account key (SharedKeyLite) from a
// credential or a connection string, a wrong key, table SAS tokens with their permissions
// and expiry, and what the service answers a request that carries a SAS and a signed header
// at once, or a signed request without its date.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  TableClient,
  TableServiceClient,
  generateTableSas,
  odata,
} from "@azure/data-tables";
import {
  CLIENT_OPTIONS,
  DEV_ACCOUNT,
  DEV_KEY,
  ENDPOINT,
  all,
  credential,
  freshTable,
  rejectsWith,
  uniqueName,
} from "./helpers.mjs";

const table = await freshTable("auth");
await table.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });

test("the Azurite connection string with this endpoint: tables and entities", async () => {
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};` +
    `TableEndpoint=${ENDPOINT};`;
  const service = TableServiceClient.fromConnectionString(connectionString, CLIENT_OPTIONS);
  const name = uniqueName("conn");
  await service.createTable(name);
  const client = TableClient.fromConnectionString(connectionString, name, CLIENT_OPTIONS);
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: 7 });
  assert.equal((await client.getEntity("p", "r")).v, 7);
  const names = [];
  for await (const t of service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } })) names.push(t.name);
  assert.deepEqual(names, [name]);
  await service.deleteTable(name);
});

test("a wrong key: 403 AuthenticationFailed on every kind of request", async () => {
  const wrongKey = Buffer.from("not the development key, 64 bytes long................").toString("base64");
  const wrong = new AzureNamedKeyCredential(DEV_ACCOUNT, wrongKey);
  const client = new TableClient(ENDPOINT, table.tableName, wrong, CLIENT_OPTIONS);
  await rejectsWith(client.getEntity("p", "r"), 403, "AuthenticationFailed");
  await rejectsWith(client.createEntity({ partitionKey: "p", rowKey: "w" }), 403, "AuthenticationFailed");
  await rejectsWith(client.listEntities().next(), 403, "AuthenticationFailed");
  const service = new TableServiceClient(ENDPOINT, wrong, CLIENT_OPTIONS);
  await rejectsWith(service.listTables().next(), 403, "AuthenticationFailed");
  await rejectsWith(table.getEntity("p", "w"), 404, "ResourceNotFound"); // nothing was written
});

test("a read-only table SAS reads, and refuses writes with 403 AuthorizationPermissionMismatch", async () => {
  const sas = generateTableSas(table.tableName, credential, {
    permissions: { query: true },
    expiresOn: new Date(Date.now() + 3600_000),
  });
  assert.match(sas, /(^|&)sp=r(&|$)/);
  const reader = new TableClient(ENDPOINT, table.tableName, new AzureSASCredential(sas), CLIENT_OPTIONS);
  assert.equal((await reader.getEntity("p", "r")).v, 1);
  assert.deepEqual((await all(reader.listEntities())).map((e) => [e.rowKey, e.v]), [["r", 1]]);
  await rejectsWith(reader.createEntity({ partitionKey: "p", rowKey: "sas" }), 403, "AuthorizationPermissionMismatch");
  await rejectsWith(reader.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Merge"), 403, "AuthorizationPermissionMismatch");
  await rejectsWith(reader.upsertEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Replace"), 403, "AuthorizationPermissionMismatch");
  await rejectsWith(reader.deleteEntity("p", "r"), 403, "AuthorizationPermissionMismatch");
  assert.equal((await table.getEntity("p", "r")).v, 1);

  // A SAS for one table does not open another: its signature is valid, its scope is not
  // (403 AuthorizationFailure, as the service answers a SAS used outside its scope).
  const other = await freshTable("other");
  const elsewhere = new TableClient(ENDPOINT, other.tableName, new AzureSASCredential(sas), CLIENT_OPTIONS);
  await rejectsWith(elsewhere.listEntities().next(), 403, "AuthorizationFailure");
  await other.deleteTable();
});

test("a table SAS with add and update writes what it grants", async () => {
  const sas = generateTableSas(table.tableName, credential, {
    permissions: { query: true, add: true, update: true },
    expiresOn: new Date(Date.now() + 3600_000),
  });
  const writer = new TableClient(ENDPOINT, table.tableName, new AzureSASCredential(sas), CLIENT_OPTIONS);
  await writer.createEntity({ partitionKey: "p", rowKey: "sasw", v: 1 });
  await writer.updateEntity({ partitionKey: "p", rowKey: "sasw", v: 2 }, "Merge");
  assert.equal((await table.getEntity("p", "sasw")).v, 2);
  await rejectsWith(writer.deleteEntity("p", "sasw"), 403, "AuthorizationPermissionMismatch");
});

test("an expired SAS: 403 AuthenticationFailed", async () => {
  const sas = generateTableSas(table.tableName, credential, {
    permissions: { query: true, add: true },
    startsOn: new Date(Date.now() - 2 * 3600_000),
    expiresOn: new Date(Date.now() - 3600_000),
  });
  const expired = new TableClient(ENDPOINT, table.tableName, new AzureSASCredential(sas), CLIENT_OPTIONS);
  await rejectsWith(expired.getEntity("p", "r"), 403, "AuthenticationFailed");
  await rejectsWith(expired.createEntity({ partitionKey: "p", rowKey: "late" }), 403, "AuthenticationFailed");
});

test("a SAS whose signature was tampered with: 403 AuthenticationFailed", async () => {
  const sas = generateTableSas(table.tableName, credential, {
    permissions: { query: true },
    expiresOn: new Date(Date.now() + 3600_000),
  });
  // Widening the permissions without re-signing must not work.
  const widened = sas.replace(/(^|&)sp=r(&|$)/, "$1sp=raud$2");
  assert.notEqual(widened, sas);
  const forged = new TableClient(ENDPOINT, table.tableName, new AzureSASCredential(widened), CLIENT_OPTIONS);
  await rejectsWith(forged.createEntity({ partitionKey: "p", rowKey: "forged" }), 403, "AuthenticationFailed");
});

/** A client on `table` with the account key and `policy` run after the SDK has signed. */
function signedThen(name, change) {
  const client = new TableClient(ENDPOINT, table.tableName, credential, CLIENT_OPTIONS);
  client.pipeline.addPolicy(
    {
      name,
      sendRequest(request, next) {
        change(request);
        return next(request);
      },
    },
    { afterPhase: "Sign" },
  );
  return client;
}

test("a SAS beside a signed Authorization header: 400 InvalidAuthenticationInfo", async () => {
  // Both credentials are good alone; together the service refuses the ambiguity.
  const sas = generateTableSas(table.tableName, credential, {
    permissions: { query: true, add: true },
    expiresOn: new Date(Date.now() + 3600_000),
  });
  const both = signedThen("addSas", (request) => {
    request.url += (request.url.includes("?") ? "&" : "?") + sas;
  });
  const message = "Authentication information is not given in the correct format. Check the value of Authorization header.";
  await rejectsWith(both.getEntity("p", "r"), 400, "InvalidAuthenticationInfo", message);
  await rejectsWith(both.createEntity({ partitionKey: "p", rowKey: "both" }), 400, "InvalidAuthenticationInfo", message);
  await rejectsWith(table.getEntity("p", "both"), 404, "ResourceNotFound"); // nothing was written
});

test("a SharedKeyLite request without x-ms-date or Date: 403 AuthenticationFailed", async () => {
  const undated = signedThen("dropDate", (request) => {
    request.headers.delete("x-ms-date");
    request.headers.delete("date");
  });
  const message = "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.";
  await rejectsWith(undated.getEntity("p", "r"), 403, "AuthenticationFailed", message);
  await rejectsWith(undated.createEntity({ partitionKey: "p", rowKey: "undated" }), 403, "AuthenticationFailed", message);
  // The same date sent as Date instead of x-ms-date is what the SDK signed: served.
  const asDate = signedThen("moveDate", (request) => {
    request.headers.set("Date", request.headers.get("x-ms-date"));
    request.headers.delete("x-ms-date");
  });
  assert.equal((await asDate.getEntity("p", "r")).v, 1);
});

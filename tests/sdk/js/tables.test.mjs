// Tables through @azure/data-tables: create, create again, list (filter, paging through
// NextTableName), delete, delete a missing table.

import assert from "node:assert/strict";
import { test } from "node:test";
import { odata } from "@azure/data-tables";
import {
  COSMOS,
  ENDPOINT,
  ETAG,
  listedTables,
  pages,
  recording,
  serviceClient,
  statusAndCode,
  uniqueName,
} from "./helpers.mjs";

const service = serviceClient();

test("create a table: 201 with its name and Location, or 204 when asked for no content", async () => {
  const name = uniqueName("create");
  const { responses, options } = recording();
  await service.createTable(name, options);
  assert.equal(responses.length, 1);
  const [raw] = responses;
  assert.equal(raw.status, 201);
  assert.equal(raw.headers.get("location"), `${ENDPOINT}/Tables('${name}')`);
  assert.deepEqual(JSON.parse(raw.bodyAsText), {
    "odata.metadata": `${ENDPOINT}/$metadata#Tables/@Element`,
    TableName: name,
  });
  // Cosmos DB for Table puts TableName first and answers an ETag; storage neither.
  assert.deepEqual(
    Object.keys(JSON.parse(raw.bodyAsText)),
    COSMOS ? ["TableName", "odata.metadata"] : ["odata.metadata", "TableName"],
  );
  if (COSMOS) assert.match(raw.headers.get("etag"), ETAG);
  else assert.equal(raw.headers.get("etag"), undefined);
  const listed = [];
  for await (const t of service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } })) {
    listed.push(t.name);
  }
  assert.deepEqual(listed, [name]);

  const quiet = uniqueName("quiet");
  const asked = recording();
  await service.createTable(quiet, { ...asked.options, responsePreference: "return-no-content" });
  assert.equal(asked.responses[0].status, 204);
  assert.equal(asked.responses[0].headers.get("preference-applied"), "return-no-content");
  assert.equal(asked.responses[0].bodyAsText ?? "", "");
  await service.deleteTable(name);
  await service.deleteTable(quiet);
});

test("create an existing table (storage: also in another case): 409 TableAlreadyExists, which the SDK swallows", async () => {
  const name = uniqueName("again");
  await service.createTable(name);
  const { responses, options } = recording();
  await service.createTable(name, options); // the SDK logs a 409 TableAlreadyExists and resolves
  assert.deepEqual(statusAndCode(responses[0]), { status: 409, code: "TableAlreadyExists" });
  assert.equal(responses[0].headers.get("x-ms-error-code"), undefined, "the code is in the body only");
  const message = JSON.parse(responses[0].bodyAsText)["odata.error"].message.value;
  assert.ok(
    message.startsWith(COSMOS ? "The specified table already exists.\nRequestID:" : "The table specified already exists.\nRequestId:"),
    message,
  );
  // Table names are case-insensitive on storage, case-sensitive on Cosmos DB for Table.
  const upper = recording();
  await service.createTable(name.toUpperCase(), upper.options);
  if (COSMOS) {
    assert.equal(upper.responses[0].status, 201);
    await service.deleteTable(name.toUpperCase());
  } else {
    assert.deepEqual(statusAndCode(upper.responses[0]), { status: 409, code: "TableAlreadyExists" });
  }
  await service.deleteTable(name);
});

test("list tables with a filter, paging through NextTableName two at a time", async () => {
  const prefix = uniqueName("page");
  const names = [0, 1, 2, 3, 4].map((i) => `${prefix}n${i}`);
  for (const name of [...names].reverse()) await service.createTable(name);
  const filter = odata`TableName ge ${prefix} and TableName lt ${prefix + "o"}`;
  const got = await pages(service.listTables({ queryOptions: { filter } }), { maxPageSize: 2 });
  // Storage lists by name; Cosmos in its own order (created here in reverse).
  const order = listedTables(names);
  assert.deepEqual(
    got.map((page) => page.map((t) => t.name)),
    [order.slice(0, 2), order.slice(2, 4), order.slice(4)],
  );
  // The continuation token names the next table; resuming from it continues there.
  const iterator = service.listTables({ queryOptions: { filter } }).byPage({ maxPageSize: 2 });
  const first = (await iterator.next()).value;
  assert.equal(typeof first.continuationToken, "string");
  const resumed = await pages(service.listTables({ queryOptions: { filter } }), {
    maxPageSize: 3,
    continuationToken: first.continuationToken,
  });
  assert.deepEqual(resumed.map((page) => page.map((t) => t.name)), [order.slice(2, 5)]);
  for (const name of names) await service.deleteTable(name);
});

test("delete a table, then delete it again: 204, then 404 ResourceNotFound (which the SDK swallows)", async () => {
  const name = uniqueName("delete");
  await service.createTable(name);
  const first = recording();
  await service.deleteTable(name, first.options);
  assert.equal(first.responses[0].status, 204);
  const listed = [];
  for await (const t of service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } })) {
    listed.push(t.name);
  }
  assert.deepEqual(listed, []);
  const again = recording();
  await service.deleteTable(name, again.options);
  assert.deepEqual(statusAndCode(again.responses[0]), { status: 404, code: "ResourceNotFound" });
});

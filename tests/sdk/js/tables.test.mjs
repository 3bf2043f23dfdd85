// Tables through @azure/data-tables: create, create again, list (filter, paging through
// NextTableName), delete, delete a missing table.

import assert from "node:assert/strict";
import { test } from "node:test";
import { odata } from "@azure/data-tables";
import { ENDPOINT, pages, recording, serviceClient, statusAndCode, uniqueName } from "./helpers.mjs";

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

test("create an existing table (also in another case): 409 TableAlreadyExists, which the SDK swallows", async () => {
  const name = uniqueName("again");
  await service.createTable(name);
  for (const again of [name, name.toUpperCase()]) {
    const { responses, options } = recording();
    await service.createTable(again, options); // the SDK logs a 409 TableAlreadyExists and resolves
    assert.deepEqual(statusAndCode(responses[0]), { status: 409, code: "TableAlreadyExists" });
    assert.equal(responses[0].headers.get("x-ms-error-code"), undefined, "the code is in the body only");
  }
  await service.deleteTable(name);
});

test("list tables with a filter, paging through NextTableName two at a time", async () => {
  const prefix = uniqueName("page");
  const names = [0, 1, 2, 3, 4].map((i) => `${prefix}n${i}`);
  for (const name of [...names].reverse()) await service.createTable(name);
  const filter = odata`TableName ge ${prefix} and TableName lt ${prefix + "o"}`;
  const got = await pages(service.listTables({ queryOptions: { filter } }), { maxPageSize: 2 });
  assert.deepEqual(
    got.map((page) => page.map((t) => t.name)),
    [names.slice(0, 2), names.slice(2, 4), names.slice(4)],
  );
  // The continuation token names the next table; resuming from it continues there.
  const iterator = service.listTables({ queryOptions: { filter } }).byPage({ maxPageSize: 2 });
  const first = (await iterator.next()).value;
  assert.equal(typeof first.continuationToken, "string");
  const resumed = await pages(service.listTables({ queryOptions: { filter } }), {
    maxPageSize: 3,
    continuationToken: first.continuationToken,
  });
  assert.deepEqual(resumed.map((page) => page.map((t) => t.name)), [names.slice(2, 5)]);
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

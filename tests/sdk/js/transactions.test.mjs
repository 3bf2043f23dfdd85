// Entity group transactions through @azure/data-tables' submitTransaction: success with every
// kind of operation, and failures that apply nothing.

import assert from "node:assert/strict";
import { test } from "node:test";
import { odata } from "@azure/data-tables";
import { COSMOS, ETAG, all, freshTable, rejectsWith, served, tableClient, uniqueName } from "./helpers.mjs";

const table = await freshTable("transactions");

async function partition(pk) {
  const got = await all(table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${pk}` } }));
  return got.map(({ etag, timestamp, ...rest }) => rest);
}

test("create, update (Replace with ETag, Merge), upsert (Replace, Merge) and delete in one transaction", async () => {
  const pk = "ok";
  const a = await table.createEntity({ partitionKey: pk, rowKey: "a", v: 1, keep: "a" });
  await table.createEntity({ partitionKey: pk, rowKey: "b", v: 1, keep: "b" });
  await table.createEntity({ partitionKey: pk, rowKey: "c", v: 1, keep: "c" });
  await table.createEntity({ partitionKey: pk, rowKey: "d", v: 1 });

  const result = await table.submitTransaction([
    ["create", { partitionKey: pk, rowKey: "new", v: 1 }],
    ["update", { partitionKey: pk, rowKey: "a", v: 2 }, "Replace", { etag: a.etag }],
    ["update", { partitionKey: pk, rowKey: "b", v: 2 }, "Merge"],
    ["upsert", { partitionKey: pk, rowKey: "c", v: 2 }, "Replace"],
    ["upsert", { partitionKey: pk, rowKey: "e", v: 2 }, "Merge"],
    ["delete", { partitionKey: pk, rowKey: "d" }],
  ]);
  assert.equal(result.status, 202);
  assert.deepEqual(
    result.subResponses.map((r) => r.status),
    [204, 204, 204, 204, 204, 204],
  );
  // Inserts carry Location (the SDK reads the RowKey from it); every write carries an ETag,
  // a delete none.
  assert.equal(result.subResponses[0].rowKey, "new");
  assert.deepEqual(result.subResponses.map((r) => r.rowKey !== undefined), [true, false, false, false, false, false]);
  for (const r of result.subResponses.slice(0, 5)) assert.match(r.etag, ETAG);
  assert.equal(result.subResponses[5].etag, undefined);
  assert.equal(result.getResponseForEntity("new"), result.subResponses[0]);

  const after = await all(table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${pk}` } }));
  const etagOf = Object.fromEntries(after.map((e) => [e.rowKey, e.etag]));
  assert.deepEqual(
    result.subResponses.slice(0, 5).map((r) => r.etag),
    ["new", "a", "b", "c", "e"].map((rk) => etagOf[rk]),
  );
  const rows = {
    a: { partitionKey: pk, rowKey: "a", v: 2 },
    b: { partitionKey: pk, rowKey: "b", v: 2, keep: "b" },
    c: { partitionKey: pk, rowKey: "c", v: 2 },
    e: { partitionKey: pk, rowKey: "e", v: 2 },
    new: { partitionKey: pk, rowKey: "new", v: 1 },
  };
  // The transaction wrote them in this order (Cosmos returns them so; storage by RowKey).
  assert.deepEqual(await partition(pk), served(["new", "a", "b", "c", "e"]).map((rk) => rows[rk]));
});

test("two operations on one entity: storage fails the second part (400 InvalidDuplicateRow, 1:); Cosmos refuses the whole batch at the top", async () => {
  const pk = "twice";
  await table.createEntity({ partitionKey: pk, rowKey: "x", v: 1 });
  const before = await partition(pk);
  const error = await rejectsWith(
    table.submitTransaction([
      ["update", { partitionKey: pk, rowKey: "x", v: 2 }, "Merge"],
      ["delete", { partitionKey: pk, rowKey: "x" }],
    ]),
    400,
    "InvalidDuplicateRow",
    "1:The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",
  );
  // Storage's answer is a multipart 202 body holding the failing part; Cosmos's a plain JSON
  // error in fullmetadata at the top.
  const contentType = error.response.headers.get("content-type");
  if (COSMOS) {
    assert.equal(contentType, "application/json; odata=fullmetadata");
    assert.equal(JSON.parse(error.response.bodyAsText)["odata.error"].message.lang, "en-us");
  } else {
    assert.match(contentType, /^multipart\/mixed; boundary=batchresponse_/);
  }
  assert.deepEqual(await partition(pk), before);
});

test("a transaction's inserts share one Timestamp on storage; on Cosmos each has its own, in order, with 7 digits", async () => {
  const pk = "stamps";
  const result = await table.submitTransaction(
    ["r1", "r2", "r3"].map((rk) => ["create", { partitionKey: pk, rowKey: rk }]),
  );
  const etags = result.subResponses.map((r) => r.etag);
  for (const etag of etags) assert.match(etag, ETAG);
  if (COSMOS) {
    for (const etag of etags) assert.match(etag, /\.\d{7}Z'"$/);
    assert.equal(new Set(etags).size, 3);
    assert.deepEqual([...etags].sort(), etags);
  } else {
    assert.equal(new Set(etags).size, 1);
  }
  const stored = await all(table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${pk}` } }));
  assert.deepEqual(stored.map((e) => e.etag), etags);
});

test("a duplicate insert at index 2: 409 EntityAlreadyExists naming index 2, and nothing applied", async () => {
  const pk = "dup";
  await table.createEntity({ partitionKey: pk, rowKey: "x", v: 1 });
  await table.createEntity({ partitionKey: pk, rowKey: "y", v: 1 });
  const before = await partition(pk);
  await rejectsWith(
    table.submitTransaction([
      ["create", { partitionKey: pk, rowKey: "n1", v: 1 }],
      ["update", { partitionKey: pk, rowKey: "y", v: 2 }, "Merge"],
      ["create", { partitionKey: pk, rowKey: "x", v: 9 }],
      ["create", { partitionKey: pk, rowKey: "n2", v: 1 }],
    ]),
    409,
    "EntityAlreadyExists",
    "2:The specified entity already exists.",
  );
  assert.deepEqual(await partition(pk), before);
});

test("a failing update at index 1 (stale ETag): 412, nothing applied", async () => {
  const pk = "stale";
  const created = await table.createEntity({ partitionKey: pk, rowKey: "s", v: 1 });
  await table.updateEntity({ partitionKey: pk, rowKey: "s", v: 2 }, "Merge");
  const before = await partition(pk);
  await rejectsWith(
    table.submitTransaction([
      ["create", { partitionKey: pk, rowKey: "t", v: 1 }],
      ["update", { partitionKey: pk, rowKey: "s", v: 3 }, "Replace", { etag: created.etag }],
    ]),
    412,
    "UpdateConditionNotSatisfied",
    "1:",
  );
  assert.deepEqual(await partition(pk), before);
});

test("two partitions in one transaction: 400 CommandsInBatchActOnDifferentPartitions from the service", async () => {
  // The SDK refuses a second partition itself before anything is sent; this entity passes
  // its check (`partitionKey`, not serialised) and goes out with PartitionKey "two" (an own
  // property the SDK serialises under that name), so the service's answer is what is tested.
  const sneaky = { rowKey: "r2", PartitionKey: "two", v: 1 };
  Object.defineProperty(sneaky, "partitionKey", { value: "one", enumerable: false });
  await rejectsWith(
    table.submitTransaction([
      ["create", { partitionKey: "one", rowKey: "r1", v: 1 }],
      ["create", sneaky],
    ]),
    400,
    "CommandsInBatchActOnDifferentPartitions",
    "1:All commands in a batch must operate on same entity group.",
  );
  assert.deepEqual(await partition("one"), []);
  assert.deepEqual(await partition("two"), []);
});

test("a transaction on a missing table: 404 TableNotFound at index 0", async () => {
  const missing = tableClient(uniqueName("missing"));
  await rejectsWith(
    missing.submitTransaction([["create", { partitionKey: "p", rowKey: "r" }]]),
    404,
    "TableNotFound",
    "0:The table specified does not exist.",
  );
});

// Keys with `'`, `%`, non-ASCII (`#`-free) characters and empty strings through every path
// of @azure/data-tables: insert, get, update, delete, query, transaction, continuation.

import assert from "node:assert/strict";
import { test } from "node:test";
import { odata } from "@azure/data-tables";
import { all, freshTable, pages, rejectsWith, served } from "./helpers.mjs";

const table = await freshTable("keys");

const KEYS = ["", "'", "''", "%", "%25", "a'b%c", "100% 'sure'", "日本", "é", "😀", " x ", "+a,b=c&d;"];

test("insert, get, update with ETag, query and delete an entity for each key, as row and partition key", async () => {
  for (const key of KEYS) {
    for (const [pk, rk] of [["row", key], [key, "part"], [key, key]]) {
      const created = await table.createEntity({ partitionKey: pk, rowKey: rk, key });
      const got = await table.getEntity(pk, rk);
      assert.deepEqual([got.partitionKey, got.rowKey, got.key, got.etag], [pk, rk, key, created.etag]);

      const merged = await table.updateEntity({ partitionKey: pk, rowKey: rk, more: 1 }, "Merge", {
        etag: created.etag,
      });
      const found = await all(
        table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${pk} and RowKey eq ${rk}` } }),
      );
      assert.deepEqual(
        found.map((e) => [e.partitionKey, e.rowKey, e.key, e.more, e.etag]),
        [[pk, rk, key, 1, merged.etag]],
      );
      await rejectsWith(table.createEntity({ partitionKey: pk, rowKey: rk }), 409, "EntityAlreadyExists");
      await table.deleteEntity(pk, rk, { etag: merged.etag });
      await rejectsWith(table.getEntity(pk, rk), 404, "ResourceNotFound");
    }
  }
});

test("a transaction in a partition named with every kind of character, over rows keyed the same way", async () => {
  const pk = "日本's 100% é😀";
  const created = await table.submitTransaction(KEYS.map((rk) => ["create", { partitionKey: pk, rowKey: rk, v: 1 }]));
  assert.deepEqual(created.subResponses.map((r) => r.status), KEYS.map(() => 204));
  // Storage returns the rows in key order; Cosmos as they were written (`served`).
  const sorted = served(KEYS);
  const filter = odata`PartitionKey eq ${pk}`;
  assert.deepEqual(
    (await all(table.listEntities({ queryOptions: { filter } }))).map((e) => e.rowKey),
    sorted,
  );

  // Updates and deletes put the keys into each part's URL.
  const changed = await table.submitTransaction(
    KEYS.map((rk, i) =>
      i % 2 === 0
        ? ["update", { partitionKey: pk, rowKey: rk, v: 2 }, "Replace"]
        : ["delete", { partitionKey: pk, rowKey: rk }],
    ),
  );
  assert.deepEqual(changed.subResponses.map((r) => r.status), KEYS.map(() => 204));
  const left = await all(table.listEntities({ queryOptions: { filter } }));
  assert.deepEqual(
    left.map((e) => [e.rowKey, e.v]),
    served(KEYS.filter((_, i) => i % 2 === 0)).map((rk) => [rk, 2]),
  );
  for (const rk of KEYS.filter((_, i) => i % 2 === 0)) await table.deleteEntity(pk, rk);
});

test("continuation tokens carry every key: one entity per page, across partitions and rows", async () => {
  const prefix = "cont";
  const entities = KEYS.flatMap((pk) => KEYS.slice(0, 3).map((rk) => ({ partitionKey: prefix + pk, rowKey: rk })));
  for (const pk of new Set(entities.map((e) => e.partitionKey))) {
    await table.submitTransaction(entities.filter((e) => e.partitionKey === pk).map((e) => ["create", e]));
  }
  const expected = served(entities.map((e) => [e.partitionKey, e.rowKey]));
  const filter = odata`PartitionKey ge ${prefix} and PartitionKey lt ${"conu"}`;
  const paged = await pages(table.listEntities({ queryOptions: { filter } }), { maxPageSize: 1 });
  assert.deepEqual(
    paged.filter((p) => p.length > 0).map((p) => p.map((e) => [e.partitionKey, e.rowKey])),
    expected.map((k) => [k]),
  );
  const byTwo = await pages(table.listEntities({ queryOptions: { filter } }), { maxPageSize: 2 });
  assert.deepEqual(byTwo.flat().map((e) => [e.partitionKey, e.rowKey]), expected);
});

// Queries through @azure/data-tables: filters built with the `odata` template, `select`,
// page sizes and paging through continuation over more than the service's 1,000-entity page,
// and the service's order (PartitionKey, then RowKey, ordinal by UTF-16 code unit).

import assert from "node:assert/strict";
import { test } from "node:test";
import { odata } from "@azure/data-tables";
import { COSMOS, all, freshTable, insertAll, pages, rejectsWith, served } from "./helpers.mjs";

const table = await freshTable("queries");

// 1,100 entities in partition "big" (more than one service page), rows "0000".."1099".
const BIG = Array.from({ length: 1100 }, (_, i) => ({
  partitionKey: "big",
  rowKey: String(i).padStart(4, "0"),
  n: i,
  even: i % 2 === 0,
  ...(i % 10 === 0 ? { tenth: `t${i}` } : {}),
}));
await insertAll(table, BIG);

// Keys whose ordinal UTF-16 order differs from code point order: U+FF5A sorts after the
// surrogate pair of U+1F600 by code unit (0xFF5A > 0xD83D) but before it by code point.
const ORDER_KEYS = ["ｚ", "😀", "日本", "é", "a", "B", "", "A", "aa", "Z"];
for (const pk of ["order2", "order1"]) {
  await insertAll(table, ORDER_KEYS.map((rk, i) => ({ partitionKey: pk, rowKey: rk, i })));
}

test("a filter built with odata`...` returns exactly the matching entities, in key order", async () => {
  const low = 10;
  const high = 20;
  const got = await all(
    table.listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${"big"} and n ge ${low} and n lt ${high} and even eq ${true}` },
    }),
  );
  assert.deepEqual(
    got.map((e) => [e.rowKey, e.n, e.even]),
    [10, 12, 14, 16, 18].map((n) => [String(n).padStart(4, "0"), n, true]),
  );
  const byText = await all(
    table.listEntities({ queryOptions: { filter: odata`tenth eq ${"t1090"} or tenth eq ${"t0"}` } }),
  );
  assert.deepEqual(byText.map((e) => e.rowKey), ["0000", "1090"]);
  // A comparison on a property an entity lacks is false, `ne` included.
  const lacking = await all(
    table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"big"} and tenth ne ${"t0"}` } }),
  );
  assert.equal(lacking.length, 109);
  assert.deepEqual(lacking.slice(0, 2).map((e) => e.rowKey), ["0010", "0020"]);
});

test("select: the listed properties and the ETag; a listed property the entity lacks comes back as null", async () => {
  const got = await all(
    table.listEntities({
      queryOptions: {
        filter: odata`PartitionKey eq ${"big"} and RowKey ge ${"0009"} and RowKey le ${"0010"}`,
        select: ["n", "tenth"],
      },
    }),
  );
  const etags = await Promise.all(["0009", "0010"].map(async (rk) => (await table.getEntity("big", rk)).etag));
  assert.deepEqual(got, [
    { etag: etags[0], n: 9, tenth: null },
    { etag: etags[1], n: 10, tenth: "t10" },
  ]);
  const keysOnly = await all(
    table.listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${"big"} and RowKey eq ${"0001"}`, select: ["RowKey"] },
    }),
  );
  assert.deepEqual(keysOnly, [{ etag: (await table.getEntity("big", "0001")).etag, rowKey: "0001" }]);
});

test("no page size: the service's pages of at most 1,000, continued to the end", async () => {
  const got = await pages(table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"big"}` } }));
  assert.deepEqual(got.map((p) => p.length), [1000, 100]);
  assert.deepEqual(
    got.flat().map((e) => e.n),
    BIG.map((e) => e.n),
  );
  const everything = await all(table.listEntities());
  assert.equal(everything.length, 1100 + 2 * ORDER_KEYS.length);
});

test("page size (top) 1,001: storage refuses it; Cosmos DB for Table has no cap and serves 1,001", async () => {
  const iterator = table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"big"}` } });
  if (COSMOS) {
    const got = await pages(iterator, { maxPageSize: 1001 });
    assert.deepEqual(got.map((p) => p.length), [1001, 99]);
  } else {
    await rejectsWith(pages(iterator, { maxPageSize: 1001 }), 400, "InvalidInput");
  }
});

test("page size (top) 300 over 1,100 entities: 300, 300, 300, 200", async () => {
  const got = await pages(table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"big"}` } }), {
    maxPageSize: 300,
  });
  assert.deepEqual(got.map((p) => p.length), [300, 300, 300, 200]);
  assert.deepEqual(got.flat().map((e) => e.rowKey), BIG.map((e) => e.rowKey));
});

test("a continuation token resumes where its page ended, also in a new iterator", async () => {
  const filter = odata`PartitionKey eq ${"big"} and even eq ${false}`;
  const iterator = table.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 7 });
  const first = (await iterator.next()).value;
  assert.deepEqual([...first].map((e) => e.n), [1, 3, 5, 7, 9, 11, 13]);
  assert.equal(typeof first.continuationToken, "string");
  // The SDK's token is base64 JSON of the two continuation headers: storage's `1!<n>!<base64>`
  // forms; Cosmos's NextPartitionKey a JSON document and NextRowKey `NA`.
  const headers = JSON.parse(Buffer.from(first.continuationToken, "base64").toString("utf8"));
  if (COSMOS) {
    assert.equal(headers.nextRowKey, "NA");
    const document = JSON.parse(headers.nextPartitionKey);
    assert.equal(typeof document.token, "string");
    assert.deepEqual(document.range, { min: "", max: "FF" });
  } else {
    assert.match(headers.nextPartitionKey, /^1!\d+!/);
    assert.match(headers.nextRowKey, /^1!\d+!/);
  }
  const resumed = await pages(table.listEntities({ queryOptions: { filter } }), {
    maxPageSize: 500,
    continuationToken: first.continuationToken,
  });
  assert.deepEqual(resumed.map((p) => p.length), [500, 43]);
  assert.deepEqual(resumed[0].slice(0, 2).map((e) => e.n), [15, 17]);
  assert.equal(resumed[1].at(-1).n, 1099);
});

test("entities come in PartitionKey, then RowKey order, ordinal by UTF-16 code unit (Cosmos: as written)", async () => {
  const got = await all(
    table.listEntities({ queryOptions: { filter: odata`PartitionKey ge ${"order"} and PartitionKey lt ${"orderz"}` } }),
  );
  const expected = served(["order2", "order1"].flatMap((pk) => ORDER_KEYS.map((rk) => [pk, rk])));
  assert.deepEqual(
    expected.filter(([pk]) => pk === "order1").map(([, rk]) => rk),
    COSMOS ? ORDER_KEYS : ["", "A", "B", "Z", "a", "aa", "é", "日本", "😀", "ｚ"],
  );
  assert.deepEqual(got.map((e) => [e.partitionKey, e.rowKey]), expected);
  // One entity per page: the tokens carry "", non-ASCII and surrogate-pair keys. (The service
  // may end with an empty page that still had a token; it holds nothing.)
  const paged = await pages(
    table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"order1"}` } }),
    { maxPageSize: 1 },
  );
  assert.deepEqual(
    paged.filter((p) => p.length > 0).map((p) => p.map((e) => e.rowKey)),
    expected.filter(([pk]) => pk === "order1").map(([, rk]) => [rk]),
  );
});

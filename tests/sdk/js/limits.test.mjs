// The service's size limits through @azure/data-tables, each at limit - 1, limit and
// limit + 1: a String of 32,768 UTF-16 code units, a Binary of 65,536 bytes, an entity of
// 1 MiB (400 PropertyValueTooLarge, 400 EntityTooLarge), and a request body of
// tablescope_wire::MAX_BODY_BYTES (413 RequestBodyTooLarge). crates/wire/tests/
// wire_production.rs pins the same limits at the wire level; these must agree with it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { COSMOS, freshTable, rejectsWith, tableClient } from "./helpers.mjs";

const table = await freshTable("limits");

const VALUE_TOO_LARGE = "The property value exceeds the maximum allowed size (64KB).";
const ENTITY_TOO_LARGE = "The entity is larger than the maximum allowed size (1MB).";
/** crates/wire MAX_BODY_BYTES: 4 MiB of payload and 64 KiB of envelope. */
const MAX_BODY_BYTES = 4 * 1024 * 1024 + 64 * 1024;

test("a String holds 32,768 UTF-16 code units; one more is 400 PropertyValueTooLarge", async () => {
  for (const n of [32_767, 32_768]) {
    await table.createEntity({ partitionKey: "string", rowKey: `${n}`, s: "x".repeat(n) });
    const got = await table.getEntity("string", `${n}`);
    assert.equal(got.s, "x".repeat(n));
  }
  await rejectsWith(
    table.createEntity({ partitionKey: "string", rowKey: "32769", s: "x".repeat(32_769) }),
    400,
    "PropertyValueTooLarge",
    VALUE_TOO_LARGE,
  );
  // Code units, not characters or UTF-8 bytes: 16,384 emoji are 32,768 units (65,536 bytes
  // of UTF-8 would be 4 bytes each); one ASCII character more is over.
  const emoji = "😀".repeat(16_384);
  await table.createEntity({ partitionKey: "string", rowKey: "emoji", s: emoji });
  assert.equal((await table.getEntity("string", "emoji")).s, emoji);
  await rejectsWith(
    table.createEntity({ partitionKey: "string", rowKey: "emoji+1", s: `${emoji}x` }),
    400,
    "PropertyValueTooLarge",
    VALUE_TOO_LARGE,
  );
  // Nothing refused was stored.
  await rejectsWith(table.getEntity("string", "32769"), 404, "ResourceNotFound");
  await rejectsWith(table.getEntity("string", "emoji+1"), 404, "ResourceNotFound");
});

test("a Binary holds 65,536 bytes; one more is 400 PropertyValueTooLarge", async () => {
  const bytes = (n) => Uint8Array.from({ length: n }, (_, i) => i % 251);
  for (const n of [65_535, 65_536]) {
    await table.createEntity({ partitionKey: "binary", rowKey: `${n}`, b: bytes(n) });
    const got = await table.getEntity("binary", `${n}`);
    // (in Node the SDK hands back a Buffer, a Uint8Array)
    assert.ok(got.b instanceof Uint8Array);
    assert.deepEqual(Uint8Array.from(got.b), bytes(n));
  }
  await rejectsWith(
    table.createEntity({ partitionKey: "binary", rowKey: "65537", b: bytes(65_537) }),
    400,
    "PropertyValueTooLarge",
    VALUE_TOO_LARGE,
  );
  await rejectsWith(table.getEntity("binary", "65537"), 404, "ResourceNotFound");
});

test("an entity holds 1 MiB by the service's rule; one byte more is 400 EntityTooLarge", async () => {
  // Size = 4 + 2·(PartitionKey + RowKey) + Σ (8 + 2·name + value), a String's value 4 + 2·units.
  // Keys "p" and "e-1" (4 units): 12 bytes. S00..S14, 32,768 units each: 8 + 6 + 4 + 65,536
  // bytes apiece. S15 takes the rest, in code units of 2 bytes; +1 crosses 1,048,576.
  const fixed = 12 + 15 * (8 + 6 + 4 + 65_536);
  const atLimit = (1_048_576 - fixed - (8 + 6 + 4)) / 2;
  assert.equal(atLimit, 32_618);
  const entity = (rowKey, lastUnits) => {
    const e = { partitionKey: "p", rowKey };
    for (let i = 0; i < 15; i++) e[`S${String(i).padStart(2, "0")}`] = "x".repeat(32_768);
    e.S15 = "y".repeat(lastUnits);
    return e;
  };
  for (const [rowKey, units] of [
    ["e-1", atLimit - 1],
    ["e=0", atLimit],
  ]) {
    await table.createEntity(entity(rowKey, units));
    const got = await table.getEntity("p", rowKey);
    assert.equal(got.S15.length, units);
    assert.equal(got.S00.length, 32_768);
  }
  await rejectsWith(table.createEntity(entity("e+1", atLimit + 1)), 400, "EntityTooLarge", ENTITY_TOO_LARGE);
  await rejectsWith(table.getEntity("p", "e+1"), 404, "ResourceNotFound");
  // The same limit holds for a replace of a stored entity.
  await rejectsWith(table.updateEntity(entity("e=0", atLimit + 1), "Replace"), 400, "EntityTooLarge", ENTITY_TOO_LARGE);
  assert.equal((await table.getEntity("p", "e=0")).S15.length, atLimit);
});

test("a request body of MAX_BODY_BYTES is read; one byte more is 413 RequestBodyTooLarge", async () => {
  // The SDK writes the body; a policy measures it, so the String can be sized to make the
  // body exactly limit - 1, limit and limit + 1 bytes. The first two are read and refused
  // for the value's size, as at the wire level; the last is refused for the body's.
  let sent = 0;
  const client = tableClient(table.tableName);
  client.pipeline.addPolicy({
    name: "measureBody",
    sendRequest(request, next) {
      sent = Buffer.byteLength(request.body ?? "");
      return next(request);
    },
  });
  const body = (n) => ({ partitionKey: "p", rowKey: "big", s: "x".repeat(n) });
  await client.upsertEntity(body(0), "Replace");
  const envelope = sent;
  for (const [size, status, code] of [
    [MAX_BODY_BYTES - 1, 400, "PropertyValueTooLarge"],
    [MAX_BODY_BYTES, 400, "PropertyValueTooLarge"],
    [MAX_BODY_BYTES + 1, 413, "RequestBodyTooLarge"],
  ]) {
    const error = await rejectsWith(client.upsertEntity(body(size - envelope), "Replace"), status, code);
    assert.equal(sent, size, "the body the SDK sent");
    if (status === 413) {
      assert.ok(
        error.response.parsedBody.odataError.message.value.startsWith(
          "The request body is too large and exceeds the maximum permissible limit.",
        ),
      );
    }
  }
  // The entity upserted first is unchanged.
  assert.equal((await table.getEntity("p", "big")).s, "");
});

test("a RowKey of 255 bytes is taken by both; 256 bytes only by storage (Cosmos: 400 KeyValueTooLarge)", async () => {
  await table.createEntity({ partitionKey: "rk", rowKey: "k".repeat(255) });
  assert.equal((await table.getEntity("rk", "k".repeat(255))).rowKey.length, 255);
  // 128 two-byte characters: 256 bytes of UTF-8 in 128 UTF-16 code units.
  const long = "é".repeat(128);
  if (COSMOS) {
    await rejectsWith(table.createEntity({ partitionKey: "rk", rowKey: long }), 400, "KeyValueTooLarge");
    await rejectsWith(table.getEntity("rk", long), 404, "ResourceNotFound");
  } else {
    await table.createEntity({ partitionKey: "rk", rowKey: long });
    assert.equal((await table.getEntity("rk", long)).rowKey, long);
  }
});

// Every entity operation through @azure/data-tables, with and without ETags, and the types
// as the SDK hands them back.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  all,
  COSMOS,
  ENDPOINT,
  ETAG,
  etagInstant,
  freshTable,
  recording,
  rejectsWith,
  sevenDigits,
  tableClient,
  uniqueName,
} from "./helpers.mjs";

const table = await freshTable("entities");

/** Every Edm type, as the SDK sends it. */
const TYPED = {
  partitionKey: "types",
  rowKey: "all",
  int32: 42,
  int32Min: -2147483648,
  int64: { value: "9007199254740993", type: "Int64" }, // 2^53 + 1: a Number would round it
  int64Max: 9223372036854775807n,
  int64Min: { value: "-9223372036854775808", type: "Int64" },
  double: 3.25,
  wholeDouble: { value: 5, type: "Double" },
  bigDouble: { value: 1.2345678901234568e24, type: "Double" },
  nan: { value: "NaN", type: "Double" },
  infinity: { value: "Infinity", type: "Double" },
  minusInfinity: { value: "-Infinity", type: "Double" },
  yes: true,
  no: false,
  when: { value: "2024-02-29T12:34:56.1234567Z", type: "DateTime" },
  whenHalf: { value: "2024-01-01T00:00:00.5000000Z", type: "DateTime" },
  whenWhole: new Date("1999-12-31T23:59:59Z"),
  id: { value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" },
  bytes: new Uint8Array([0, 1, 2, 254, 255]),
  text: "Grüße aus 日本 😀",
  numberText: "123",
  empty: "",
};

test("createEntity: 204 with an ETag; getEntity returns every type exactly", async () => {
  const { responses, options } = recording();
  const created = await table.createEntity(TYPED, options);
  // The JS SDK asks for no content on insert: 204, with the entity's URL in Location and
  // DataServiceId (Cosmos DB for Table sends no DataServiceId).
  assert.equal(responses[0].status, 204);
  assert.equal(created.preferenceApplied, "return-no-content");
  const location = `${ENDPOINT}/${table.tableName}(PartitionKey='types',RowKey='all')`;
  assert.equal(responses[0].headers.get("location"), location);
  assert.equal(responses[0].headers.get("dataserviceid"), COSMOS ? undefined : location);
  assert.match(created.etag, ETAG);

  const got = await table.getEntity("types", "all");
  assert.equal(got.etag, created.etag);
  assert.equal(sevenDigits(got.timestamp), sevenDigits(etagInstant(created.etag)));
  const { etag, timestamp, bytes, whenWhole, when, whenHalf, ...rest } = got;
  assert.deepEqual(rest, {
    // Cosmos DB for Table's point read names the table once more, before `$metadata`.
    "odata.metadata": `${ENDPOINT}${COSMOS ? `/${table.tableName}` : ""}/$metadata#${table.tableName}/@Element`,
    partitionKey: "types",
    rowKey: "all",
    int32: 42,
    int32Min: -2147483648,
    int64: 9007199254740993n,
    int64Max: 9223372036854775807n,
    int64Min: -9223372036854775808n,
    double: 3.25,
    wholeDouble: 5,
    bigDouble: 1.2345678901234568e24,
    // The SDK hands back annotated Doubles' text as is.
    nan: "NaN",
    infinity: "Infinity",
    minusInfinity: "-Infinity",
    yes: true,
    no: false,
    id: { value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" },
    text: "Grüße aus 日本 😀",
    numberText: "123",
    empty: "",
  });
  assert.deepEqual(Buffer.from(bytes), Buffer.from([0, 1, 2, 254, 255]));
  assert.equal(whenWhole.toISOString(), "1999-12-31T23:59:59.000Z");
  assert.equal(when.toISOString(), "2024-02-29T12:34:56.123Z"); // a Date keeps milliseconds
  assert.equal(whenHalf.toISOString(), "2024-01-01T00:00:00.500Z");

  // Without type conversion the SDK shows the service's text: 7 digits kept, trailing zeros
  // dropped as production writes them.
  const raw = await table.getEntity("types", "all", { disableTypeConversion: true });
  assert.deepEqual(raw.when, { value: "2024-02-29T12:34:56.1234567Z", type: "DateTime" });
  assert.deepEqual(raw.whenHalf, { value: "2024-01-01T00:00:00.5Z", type: "DateTime" });
  assert.deepEqual(raw.whenWhole, { value: "1999-12-31T23:59:59Z", type: "DateTime" });
  assert.deepEqual(raw.int64, { value: "9007199254740993", type: "Int64" });
  assert.deepEqual(raw.bytes, { value: "AAEC/v8=", type: "Binary" });
  assert.deepEqual(raw.double, { value: "3.25", type: "Double" });
  assert.deepEqual(raw.int32, { value: "42", type: "Int32" });

  // JSON numbers lose whether 5 was a Double; the service writes it with a decimal point.
  const body = await new Promise((resolve, reject) => {
    table
      .getEntity("types", "all", { onResponse: (r) => resolve(r.bodyAsText) })
      .catch(reject);
  });
  assert.ok(body.includes('"wholeDouble":5.0,'), body);
  assert.ok(body.includes('"bigDouble":1.2345678901234568E+24,'), body);
  assert.ok(body.includes('"nan@odata.type":"Edm.Double","nan":"NaN"'), body);
});

test("createEntity twice: 409 EntityAlreadyExists", async () => {
  await table.createEntity({ partitionKey: "dup", rowKey: "1", v: 1 });
  await rejectsWith(
    table.createEntity({ partitionKey: "dup", rowKey: "1", v: 2 }),
    409,
    "EntityAlreadyExists",
    "The specified entity already exists.",
  );
  assert.equal((await table.getEntity("dup", "1")).v, 1);
});

test("updateEntity Replace and Merge with the current ETag, then with a stale one: 412", async () => {
  const created = await table.createEntity({ partitionKey: "upd", rowKey: "1", a: 1, b: "x" });

  const replaced = await table.updateEntity(
    { partitionKey: "upd", rowKey: "1", a: 2, c: true },
    "Replace",
    { etag: created.etag },
  );
  assert.match(replaced.etag, ETAG);
  assert.notEqual(replaced.etag, created.etag);
  let got = await table.getEntity("upd", "1");
  assert.deepEqual([got.etag, got.a, got.b, got.c], [replaced.etag, 2, undefined, true]);

  await rejectsWith(
    table.updateEntity({ partitionKey: "upd", rowKey: "1", a: 3 }, "Replace", { etag: created.etag }),
    412,
    "UpdateConditionNotSatisfied",
  );

  const merged = await table.updateEntity({ partitionKey: "upd", rowKey: "1", d: "m" }, "Merge", {
    etag: replaced.etag,
  });
  assert.notEqual(merged.etag, replaced.etag);
  got = await table.getEntity("upd", "1");
  assert.deepEqual([got.etag, got.a, got.c, got.d], [merged.etag, 2, true, "m"]);

  await rejectsWith(
    table.updateEntity({ partitionKey: "upd", rowKey: "1", d: "n" }, "Merge", { etag: replaced.etag }),
    412,
    "UpdateConditionNotSatisfied",
  );
  assert.equal((await table.getEntity("upd", "1")).d, "m");

  // Without an ETag the SDK sends If-Match: *, which matches any version.
  const unconditional = await table.updateEntity({ partitionKey: "upd", rowKey: "1", e: 5 }, "Replace");
  got = await table.getEntity("upd", "1");
  assert.deepEqual([got.etag, got.a, got.e], [unconditional.etag, undefined, 5]);

  await rejectsWith(
    table.updateEntity({ partitionKey: "upd", rowKey: "missing", a: 1 }, "Merge"),
    404,
    "ResourceNotFound",
  );
  await rejectsWith(
    table.updateEntity({ partitionKey: "upd", rowKey: "missing", a: 1 }, "Replace", { etag: created.etag }),
    404,
    "ResourceNotFound",
  );
});

test("upsertEntity Replace and Merge: insert when absent, replace or merge when present", async () => {
  const { responses, options } = recording();
  const inserted = await table.upsertEntity({ partitionKey: "ups", rowKey: "1", a: 1, b: 2 }, "Merge", options);
  assert.equal(responses[0].status, 204);
  assert.match(inserted.etag, ETAG);
  const merged = await table.upsertEntity({ partitionKey: "ups", rowKey: "1", b: 3, c: 4 }, "Merge");
  let got = await table.getEntity("ups", "1");
  assert.deepEqual([got.etag, got.a, got.b, got.c], [merged.etag, 1, 3, 4]);
  const replaced = await table.upsertEntity({ partitionKey: "ups", rowKey: "1", z: "only" }, "Replace");
  got = await table.getEntity("ups", "1");
  assert.deepEqual([got.etag, got.a, got.b, got.c, got.z], [replaced.etag, undefined, undefined, undefined, "only"]);
  await table.upsertEntity({ partitionKey: "ups", rowKey: "2", n: 7 }, "Replace");
  assert.equal((await table.getEntity("ups", "2")).n, 7);
});

test("deleteEntity with a stale ETag (412), the current one (204), then again (404)", async () => {
  const created = await table.createEntity({ partitionKey: "del", rowKey: "1", v: 1 });
  const updated = await table.updateEntity({ partitionKey: "del", rowKey: "1", v: 2 }, "Merge");
  await rejectsWith(
    table.deleteEntity("del", "1", { etag: created.etag }),
    412,
    "UpdateConditionNotSatisfied",
  );
  const { responses, options } = recording();
  await table.deleteEntity("del", "1", { etag: updated.etag, ...options });
  assert.equal(responses[0].status, 204);
  await rejectsWith(table.getEntity("del", "1"), 404, "ResourceNotFound");
  await rejectsWith(table.deleteEntity("del", "1"), 404, "ResourceNotFound");
  await rejectsWith(table.deleteEntity("del", "1", { etag: updated.etag }), 404, "ResourceNotFound");

  await table.createEntity({ partitionKey: "del", rowKey: "2" });
  await table.deleteEntity("del", "2"); // If-Match: *
  await rejectsWith(table.getEntity("del", "2"), 404, "ResourceNotFound");
});

test("every entity operation on a missing table: 404 TableNotFound", async () => {
  const missing = tableClient(uniqueName("missing"));
  const e = { partitionKey: "p", rowKey: "r", v: 1 };
  await rejectsWith(missing.createEntity(e), 404, "TableNotFound");
  await rejectsWith(missing.getEntity("p", "r"), 404, "TableNotFound");
  await rejectsWith(missing.updateEntity(e, "Replace"), 404, "TableNotFound");
  await rejectsWith(missing.upsertEntity(e, "Merge"), 404, "TableNotFound");
  await rejectsWith(missing.deleteEntity("p", "r"), 404, "TableNotFound");
  await rejectsWith(missing.listEntities().next(), 404, "TableNotFound");
});

test("a DateTime without a UTC designator is stored as UTC: create, get, query and transaction", async () => {
  await table.createEntity({
    partitionKey: "bare",
    rowKey: "1",
    when: { value: "2023-01-01T23:00:00", type: "DateTime" },
    offset: { value: "2023-01-02T01:30:00+02:30", type: "DateTime" },
    millis: { value: "2023-01-01T23:00:00.120", type: "DateTime" },
  });
  const got = await table.getEntity("bare", "1", { disableTypeConversion: true });
  assert.deepEqual(got.when, { value: "2023-01-01T23:00:00Z", type: "DateTime" });
  assert.deepEqual(got.offset, { value: "2023-01-01T23:00:00Z", type: "DateTime" });
  assert.deepEqual(got.millis, { value: "2023-01-01T23:00:00.12Z", type: "DateTime" });
  // The ETag names the Timestamp with the Timestamp's own digits.
  assert.equal(etagInstant(got.etag), got.timestamp);

  const filter = "PartitionKey eq 'bare' and when eq datetime'2023-01-01T23:00:00' and offset eq datetime'2023-01-01T23:00:00Z'";
  const found = await all(table.listEntities({ queryOptions: { filter } }));
  assert.deepEqual(found.map((e) => e.rowKey), ["1"]);
  // A literal with an offset is the same instant in UTC.
  const withOffset =
    "PartitionKey eq 'bare' and offset eq datetime'2023-01-02T01:30:00+02:30' and when eq datetime'2023-01-01T18:00:00-05:00'";
  assert.deepEqual((await all(table.listEntities({ queryOptions: { filter: withOffset } }))).map((e) => e.rowKey), ["1"]);

  await table.submitTransaction([
    ["create", { partitionKey: "bare", rowKey: "2", when: { value: "2023-01-01T23:00:00.5", type: "DateTime" } }],
    ["upsert", { partitionKey: "bare", rowKey: "3", when: { value: "2023-01-01T20:00:00-03:00", type: "DateTime" } }],
  ]);
  const second = await table.getEntity("bare", "2", { disableTypeConversion: true });
  assert.deepEqual(second.when, { value: "2023-01-01T23:00:00.5Z", type: "DateTime" });
  const third = await table.getEntity("bare", "3", { disableTypeConversion: true });
  assert.deepEqual(third.when, { value: "2023-01-01T23:00:00Z", type: "DateTime" });
  // A fraction without a designator in a literal, and a range over the batch's values.
  const fraction = "PartitionKey eq 'bare' and when eq datetime'2023-01-01T23:00:00.5000000'";
  assert.deepEqual((await all(table.listEntities({ queryOptions: { filter: fraction } }))).map((e) => e.rowKey), ["2"]);
  const range = "PartitionKey eq 'bare' and when ge datetime'2023-01-01T23:00:00' and when lt datetime'2023-01-02T00:00:00.5+01:00'";
  assert.deepEqual((await all(table.listEntities({ queryOptions: { filter: range } }))).map((e) => e.rowKey), ["1", "3"]);
});

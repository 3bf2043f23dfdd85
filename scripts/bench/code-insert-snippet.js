// 1,000 inserts, one request each: the Code section's benchmark snippet (scripts/bench/code-insert.mjs).
// Every createEntity is its own HTTP request, visible in the wire log. For many entities of
// one partition, a transaction of up to 100 operations does the same in one request each.
await serviceClient.deleteTable("Inserts"); // a second run starts from an empty table
const table = tableClient("Inserts");
await table.createTable();
const started = performance.now();
for (let i = 0; i < 1000; i++) {
  await table.createEntity({ partitionKey: "p" + (i % 10), rowKey: String(i).padStart(4, "0"), N: i });
}
console.log(`1,000 inserts in ${Math.round(performance.now() - started)} ms`);

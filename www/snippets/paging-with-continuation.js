// Paging with continuation tokens. The service returns at most 1,000 entities a request (here
// 10, with maxPageSize) and, when there may be more, a continuation token; the next request
// passes it back. A page can even come back empty with a token: stop only when there is none.
const orders = tableClient("Orders");
await orders.createTable();
await orders.submitTransaction(
  Array.from({ length: 25 }, (_, i) => [
    "upsert",
    { partitionKey: "2024-06", rowKey: String(i + 1).padStart(4, "0"), Total: (i + 1) * 10 },
    "Replace",
  ]),
);

let token;
let pages = 0;
do {
  const iterator = orders
    .listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"2024-06"}` } })
    .byPage({ maxPageSize: 10, continuationToken: token });
  const { value: page } = await iterator.next();
  pages += 1;
  console.log(`page ${pages}: ${page.length} orders, ${page[0]?.rowKey} to ${page.at(-1)?.rowKey}`);
  token = page.continuationToken;
} while (token);

const client = tableClient("Showcode");
await client.submitTransaction([
  ["update", {
    partitionKey: "Sales",
    rowKey: "002",
    N: 8,
  }, "Replace", { etag: "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"" }],
  ["create", {
    partitionKey: "Sales",
    rowKey: "it's 100%",
    N: 9,
  }],
]);

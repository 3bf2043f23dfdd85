const client = tableClient("Showcode");
await client.updateEntity({
  partitionKey: "Sales",
  rowKey: "001",
  N: 40,
  When: new Date("2030-12-31T00:00:00Z"),
}, "Replace", { etag: "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"" });

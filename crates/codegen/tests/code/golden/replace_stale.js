const client = tableClient("Showcode");
await client.updateEntity({
  partitionKey: "Sales",
  rowKey: "002",
  N: 0,
}, "Replace", { etag: "W/\"datetime'2001-01-01T00%3A00%3A00Z'\"" });

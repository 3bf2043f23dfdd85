const client = tableClient("Showcode");
await client.updateEntity({
  partitionKey: "Sales",
  rowKey: "002",
  N: 50,
}, "Merge");

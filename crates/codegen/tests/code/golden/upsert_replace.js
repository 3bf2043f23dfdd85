const client = tableClient("Showcode");
await client.upsertEntity({
  partitionKey: "O'Brien 100%",
  rowKey: "it's 50%",
  Only: "this",
}, "Replace");

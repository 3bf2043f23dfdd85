const client = tableClient("Showcode");
await client.updateEntity({
  partitionKey: "O'Brien 100%",
  rowKey: "it's 50%",
  Extra: 1.5,
}, "Merge", { etag: "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"" });

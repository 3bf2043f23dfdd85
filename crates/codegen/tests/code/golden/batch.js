const client = tableClient("Showcode");
await client.submitTransaction([
  ["create", {
    partitionKey: "Sales",
    rowKey: "003",
    N: 6,
    Id: { value: "00000000-0000-0000-0000-000000000001", type: "Guid" },
  }],
  ["upsert", {
    partitionKey: "Sales",
    rowKey: "001",
    N: 7,
  }, "Replace"],
  ["upsert", {
    partitionKey: "Sales",
    rowKey: "004",
    Big: -9223372036854775808n,
  }, "Merge"],
  ["update", {
    partitionKey: "Sales",
    rowKey: "002",
    M: true,
  }, "Merge"],
  ["delete", { partitionKey: "Sales", rowKey: "009" }],
]);

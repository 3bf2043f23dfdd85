const client = tableClient("Showcode");
await client.upsertEntity({
  partitionKey: "O'Brien 100%",
  rowKey: "100% sure, it's é",
  Name: "Say \"hi\"\nit's 100%",
  Age: 42,
  Big: 9007199254740993n,
  Small: -5n,
  Ratio: 0.25,
  Whole: { value: 2.0, type: "Double" },
  Nan: { value: "NaN", type: "Double" },
  Active: true,
  Joined: { value: "2024-02-29T23:59:58.1234567Z", type: "DateTime" },
  Seen: new Date("2024-01-02T03:04:05.678Z"),
  Id: { value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" },
  Blob: new Uint8Array([0, 1, 255, 34, 92]),
}, "Merge");

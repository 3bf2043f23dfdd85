const client = tableClient("Things");
await client.setAccessPolicy([
  { id: "readers", accessPolicy: { start: new Date("2030-01-01T00:00:00Z"), expiry: new Date("2030-12-31T23:59:59Z"), permission: "raud" } },
  { id: "query-only", accessPolicy: { permission: "r" } },
  { id: "revoked" },
]);

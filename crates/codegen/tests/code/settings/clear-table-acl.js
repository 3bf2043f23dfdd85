const client = tableClient("Things");
await client.setAccessPolicy([
]);

const client = tableClient("Showcode");
await client.deleteEntity("Sales", "001");

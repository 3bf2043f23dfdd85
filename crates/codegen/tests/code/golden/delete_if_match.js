const client = tableClient("Showcode");
await client.deleteEntity("O'Brien 100%", "it's 50%", { etag: "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"" });

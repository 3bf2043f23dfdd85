const client = tableClient("Showcode");
const entity = await client.getEntity("O'Brien 100%", "it's 50%", { queryOptions: { select: ["Name", "Big"] } });
console.log(entity);

const client = tableClient("Things");
const identifiers = await client.getAccessPolicy();
for (const identifier of identifiers) console.log(identifier);

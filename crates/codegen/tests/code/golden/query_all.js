const client = tableClient("Showcode");
const entities = client.listEntities();
// One page, as one request returns it.
const { value: page = [] } = await entities.byPage().next();
for (const entity of page) console.log(entity);
console.log("continuationToken:", page.continuationToken);

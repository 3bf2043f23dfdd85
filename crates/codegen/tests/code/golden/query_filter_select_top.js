const client = tableClient("Showcode");
const entities = client.listEntities({
  queryOptions: { filter: "PartitionKey eq 'O''Brien 100%' and N ge 2 or Big eq 1099511627780L", select: ["Name", "N"] },
});
// One page, as one request returns it.
const { value: page = [] } = await entities.byPage({ maxPageSize: 2 }).next();
for (const entity of page) console.log(entity);
console.log("continuationToken:", page.continuationToken);

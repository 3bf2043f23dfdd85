const client = tableClient("Showcode");
// @azure/data-tables has no read in a transaction: the same read on its own.
const entity = await client.getEntity("Sales", "002");
console.log(entity);

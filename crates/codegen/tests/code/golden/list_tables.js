const tables = serviceClient.listTables({ queryOptions: { filter: "TableName ge 'Showcode' and TableName lt 'T'" } });
// One page, as one request returns it.
const { value: page = [] } = await tables.byPage({ maxPageSize: 2 }).next();
for (const table of page) console.log(table.name);
console.log("continuationToken:", page.continuationToken);

// An upsert instead of read-then-write. Reading an entity to decide between insert and update
// costs two requests, and another writer can get in between. An upsert is one request: the
// service inserts the entity, or merges it into the one already there ("Merge"; "Replace"
// would drop the properties you leave out).
const settings = tableClient("Settings");
await settings.createTable();

// Not this:
//   try { const old = await settings.getEntity("user-42", "theme"); await settings.updateEntity(...); }
//   catch (e) { if (e.statusCode === 404) await settings.createEntity(...); }
await settings.upsertEntity({ partitionKey: "user-42", rowKey: "theme", Value: "dark" }, "Merge");
await settings.upsertEntity({ partitionKey: "user-42", rowKey: "theme", ChangedBy: "app" }, "Merge");

const theme = await settings.getEntity("user-42", "theme");
console.log(theme.Value, theme.ChangedBy); // both kept: the second upsert merged

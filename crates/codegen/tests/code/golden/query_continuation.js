const client = tableClient("Showcode");
const entities = client.listEntities();
// One page, as one request returns it.
const { value: page = [] } = await entities.byPage({ maxPageSize: 2, continuationToken: "eyJuZXh0UGFydGl0aW9uS2V5IjoiMSExNiFUeWRDY21sbGJpQXhNREFsIiwibmV4dFJvd0tleSI6IjEhMTIhYVhRbmN5QTFNQ1UtIn0=" }).next();
for (const entity of page) console.log(entity);
console.log("continuationToken:", page.continuationToken);

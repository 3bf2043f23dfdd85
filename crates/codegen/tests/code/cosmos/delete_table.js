// AZURE_TABLES_CONNECTION_STRING holds the account's Cosmos DB for Table connection string:
// DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=<account-key>;TableEndpoint=https://contoso.table.cosmos.azure.com:443/;
await serviceClient.deleteTable("Employees");

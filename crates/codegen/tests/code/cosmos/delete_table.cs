// AZURE_TABLES_CONNECTION_STRING holds the account's Cosmos DB for Table connection string:
// DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=<account-key>;TableEndpoint=https://contoso.table.cosmos.azure.com:443/;
using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
service.DeleteTable("Employees");

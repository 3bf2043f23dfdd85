using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Things");
foreach (TableSignedIdentifier identifier in table.GetAccessPolicies().Value)
    Console.WriteLine($"{identifier.Id}: {identifier.AccessPolicy?.Permission}");

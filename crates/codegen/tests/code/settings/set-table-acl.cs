using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Things");
table.SetAccessPolicy(new List<TableSignedIdentifier>
{
    new TableSignedIdentifier("readers", new TableAccessPolicy(DateTimeOffset.Parse("2030-01-01T00:00:00Z"), DateTimeOffset.Parse("2030-12-31T23:59:59Z"), "raud")),
    new TableSignedIdentifier("query-only", new TableAccessPolicy(null, null, "r")),
    new TableSignedIdentifier("revoked", null),
});

using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.UpdateEntity(new TableEntity("Sales", "002")
{
    ["N"] = 50,
}, ETag.All, TableUpdateMode.Merge);

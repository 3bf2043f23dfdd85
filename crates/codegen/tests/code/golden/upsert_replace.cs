using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.UpsertEntity(new TableEntity("O'Brien 100%", "it's 50%")
{
    ["Only"] = "this",
}, TableUpdateMode.Replace);

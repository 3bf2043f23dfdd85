using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.UpdateEntity(new TableEntity("Sales", "002")
{
    ["N"] = 0,
}, new ETag("W/\"datetime'2001-01-01T00%3A00%3A00Z'\""), TableUpdateMode.Replace);

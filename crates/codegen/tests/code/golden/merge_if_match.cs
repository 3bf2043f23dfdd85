using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.UpdateEntity(new TableEntity("O'Brien 100%", "it's 50%")
{
    ["Extra"] = 1.5,
}, new ETag("W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\""), TableUpdateMode.Merge);

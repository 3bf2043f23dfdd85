using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.UpdateEntity(new TableEntity("Sales", "001")
{
    ["N"] = 40,
    ["When"] = new DateTimeOffset(2030, 12, 31, 0, 0, 0, TimeSpan.Zero),
}, new ETag("W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\""), TableUpdateMode.Replace);

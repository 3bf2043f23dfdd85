using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
// Azure.Data.Tables has no read in a transaction: the same read on its own.
TableEntity entity = table.GetEntity<TableEntity>("Sales", "002").Value;
Console.WriteLine(string.Join(", ", entity.Select(p => $"{p.Key}={p.Value}")));

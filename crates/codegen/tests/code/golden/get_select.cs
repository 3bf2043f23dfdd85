using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
TableEntity entity = table.GetEntity<TableEntity>("O'Brien 100%", "it's 50%", select: new[] { "Name", "Big" }).Value;
Console.WriteLine(string.Join(", ", entity.Select(p => $"{p.Key}={p.Value}")));

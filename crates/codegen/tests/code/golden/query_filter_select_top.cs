using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
// One page, as one request returns it.
var page = table.Query<TableEntity>(filter: "PartitionKey eq 'O''Brien 100%' and N ge 2 or Big eq 1099511627780L", maxPerPage: 2, select: new[] { "Name", "N" }).AsPages().First();
foreach (var entity in page.Values)
{
    Console.WriteLine(string.Join(", ", entity.Select(p => $"{p.Key}={p.Value}")));
}
Console.WriteLine($"ContinuationToken: {page.ContinuationToken}");

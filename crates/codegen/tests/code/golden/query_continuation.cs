using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
// One page, as one request returns it.
var page = table.Query<TableEntity>(maxPerPage: 2).AsPages("1!16!TydCcmllbiAxMDAl 1!12!aXQncyA1MCU-").First();
foreach (var entity in page.Values)
{
    Console.WriteLine(string.Join(", ", entity.Select(p => $"{p.Key}={p.Value}")));
}
Console.WriteLine($"ContinuationToken: {page.ContinuationToken}");

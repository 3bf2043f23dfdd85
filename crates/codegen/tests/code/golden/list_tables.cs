using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
// One page, as one request returns it.
var page = service.Query(filter: "TableName ge 'Showcode' and TableName lt 'T'", maxPerPage: 2).AsPages().First();
foreach (var table in page.Values) Console.WriteLine(table.Name);
Console.WriteLine($"ContinuationToken: {page.ContinuationToken}");

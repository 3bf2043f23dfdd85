using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
TableServiceProperties properties = service.GetProperties().Value;
Console.WriteLine($"{properties.Cors.Count} CORS rules");

using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var properties = new TableServiceProperties();
properties.Cors.Add(new TableCorsRule("https://example.com,http://127.0.0.1:8080", "GET,PUT,OPTIONS", "x-ms-meta-*,content-type", "x-ms-meta-*,content-type", 3600));
properties.Cors.Add(new TableCorsRule("*", "GET", "", "", 0));
service.SetProperties(properties);

using Azure;
using Azure.Data.Tables;
using Azure.Data.Tables.Models;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var properties = new TableServiceProperties();
properties.Logging = new TableAnalyticsLoggingSettings("1.0", true, false, true, new TableRetentionPolicy(true) { Days = 30 });
properties.HourMetrics = new TableMetrics(true) { Version = "1.0", IncludeApis = false, RetentionPolicy = new TableRetentionPolicy(true) { Days = 7 } };
properties.MinuteMetrics = new TableMetrics(false) { Version = "1.0", RetentionPolicy = new TableRetentionPolicy(false) };
service.SetProperties(properties);

using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.UpsertEntity(new TableEntity("O'Brien 100%", "100% sure, it's é")
{
    ["Name"] = "Say \"hi\"\nit's 100%",
    ["Age"] = 42,
    ["Big"] = 9007199254740993L,
    ["Small"] = -5L,
    ["Ratio"] = 0.25,
    ["Whole"] = 2.0,
    ["Nan"] = double.NaN,
    ["Active"] = true,
    ["Joined"] = new DateTimeOffset(2024, 2, 29, 23, 59, 58, TimeSpan.Zero).AddTicks(1234567),
    ["Seen"] = new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.Zero).AddTicks(6780000),
    ["Id"] = Guid.Parse("c9da6455-213d-42c9-9a79-3e9149a57833"),
    ["Blob"] = new byte[] { 0x00, 0x01, 0xFF, 0x22, 0x5C },
}, TableUpdateMode.Merge);

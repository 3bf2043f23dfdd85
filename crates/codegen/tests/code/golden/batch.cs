using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.SubmitTransaction(new List<TableTransactionAction>
{
    new TableTransactionAction(TableTransactionActionType.Add, new TableEntity("Sales", "003")
    {
        ["N"] = 6,
        ["Id"] = Guid.Parse("00000000-0000-0000-0000-000000000001"),
    }),
    new TableTransactionAction(TableTransactionActionType.UpsertReplace, new TableEntity("Sales", "001")
    {
        ["N"] = 7,
    }),
    new TableTransactionAction(TableTransactionActionType.UpsertMerge, new TableEntity("Sales", "004")
    {
        ["Big"] = -9223372036854775808L,
    }),
    new TableTransactionAction(TableTransactionActionType.UpdateMerge, new TableEntity("Sales", "002")
    {
        ["M"] = true,
    }, ETag.All),
    new TableTransactionAction(TableTransactionActionType.Delete, new TableEntity("Sales", "009"), ETag.All),
});

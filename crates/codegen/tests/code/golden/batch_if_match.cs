using Azure;
using Azure.Data.Tables;

var service = new TableServiceClient(Environment.GetEnvironmentVariable("AZURE_TABLES_CONNECTION_STRING"));
var table = service.GetTableClient("Showcode");
table.SubmitTransaction(new List<TableTransactionAction>
{
    new TableTransactionAction(TableTransactionActionType.UpdateReplace, new TableEntity("Sales", "002")
    {
        ["N"] = 8,
    }, new ETag("W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"")),
    new TableTransactionAction(TableTransactionActionType.Add, new TableEntity("Sales", "it's 100%")
    {
        ["N"] = 9,
    }),
});

import os

from azure.data.tables import TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.upsert_entity({
    "PartitionKey": "O'Brien 100%",
    "RowKey": "it's 50%",
    "Only": "this",
}, mode=UpdateMode.REPLACE)

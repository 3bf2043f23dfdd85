import os

from azure.data.tables import TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.update_entity({
    "PartitionKey": "Sales",
    "RowKey": "002",
    "N": 50,
}, mode=UpdateMode.MERGE)

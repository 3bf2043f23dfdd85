import os

from azure.core import MatchConditions
from azure.data.tables import TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.update_entity({
    "PartitionKey": "O'Brien 100%",
    "RowKey": "it's 50%",
    "Extra": 1.5,
}, mode=UpdateMode.MERGE, etag="W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"", match_condition=MatchConditions.IfNotModified)

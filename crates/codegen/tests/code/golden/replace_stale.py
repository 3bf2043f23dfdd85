import os

from azure.core import MatchConditions
from azure.data.tables import TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.update_entity({
    "PartitionKey": "Sales",
    "RowKey": "002",
    "N": 0,
}, mode=UpdateMode.REPLACE, etag="W/\"datetime'2001-01-01T00%3A00%3A00Z'\"", match_condition=MatchConditions.IfNotModified)

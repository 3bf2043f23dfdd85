import os
from datetime import datetime, timezone

from azure.core import MatchConditions
from azure.data.tables import TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.update_entity({
    "PartitionKey": "Sales",
    "RowKey": "001",
    "N": 40,
    "When": datetime(2030, 12, 31, 0, 0, 0, tzinfo=timezone.utc),
}, mode=UpdateMode.REPLACE, etag="W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"", match_condition=MatchConditions.IfNotModified)

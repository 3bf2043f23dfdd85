import os

from azure.core import MatchConditions
from azure.data.tables import TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.submit_transaction([
    ("update", {
        "PartitionKey": "Sales",
        "RowKey": "002",
        "N": 8,
    }, {"mode": UpdateMode.REPLACE, "etag": "W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"", "match_condition": MatchConditions.IfNotModified}),
    ("create", {
        "PartitionKey": "Sales",
        "RowKey": "it's 100%",
        "N": 9,
    }),
])

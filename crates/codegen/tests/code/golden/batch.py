import os
from uuid import UUID

from azure.data.tables import EdmType, EntityProperty, TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.submit_transaction([
    ("create", {
        "PartitionKey": "Sales",
        "RowKey": "003",
        "N": 6,
        "Id": UUID("00000000-0000-0000-0000-000000000001"),
    }),
    ("upsert", {
        "PartitionKey": "Sales",
        "RowKey": "001",
        "N": 7,
    }, {"mode": UpdateMode.REPLACE}),
    ("upsert", {
        "PartitionKey": "Sales",
        "RowKey": "004",
        "Big": EntityProperty(-9223372036854775808, EdmType.INT64),
    }, {"mode": UpdateMode.MERGE}),
    ("update", {
        "PartitionKey": "Sales",
        "RowKey": "002",
        "M": True,
    }, {"mode": UpdateMode.MERGE}),
    ("delete", {"PartitionKey": "Sales", "RowKey": "009"}),
])

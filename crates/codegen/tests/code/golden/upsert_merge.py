import os
from datetime import datetime, timezone
from uuid import UUID

from azure.data.tables import EdmType, EntityProperty, TableServiceClient, UpdateMode

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.upsert_entity({
    "PartitionKey": "O'Brien 100%",
    "RowKey": "100% sure, it's é",
    "Name": "Say \"hi\"\nit's 100%",
    "Age": 42,
    "Big": EntityProperty(9007199254740993, EdmType.INT64),
    "Small": EntityProperty(-5, EdmType.INT64),
    "Ratio": 0.25,
    "Whole": 2.0,
    "Nan": float("nan"),
    "Active": True,
    "Joined": EntityProperty("2024-02-29T23:59:58.1234567Z", EdmType.DATETIME),
    "Seen": datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=timezone.utc),
    "Id": UUID("c9da6455-213d-42c9-9a79-3e9149a57833"),
    "Blob": b"\x00\x01\xff\"\\",
}, mode=UpdateMode.MERGE)

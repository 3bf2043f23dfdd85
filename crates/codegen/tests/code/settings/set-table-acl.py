import os
from datetime import datetime, timezone

from azure.data.tables import TableAccessPolicy, TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Things")
table.set_table_access_policy(
    signed_identifiers={
        "readers": TableAccessPolicy(start=datetime(2030, 1, 1, 0, 0, 0, tzinfo=timezone.utc), expiry=datetime(2030, 12, 31, 23, 59, 59, tzinfo=timezone.utc), permission="raud"),
        "query-only": TableAccessPolicy(permission="r"),
        "revoked": None,
    },
)

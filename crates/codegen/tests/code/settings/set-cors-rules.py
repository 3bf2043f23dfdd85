import os

from azure.data.tables import TableCorsRule, TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
service.set_service_properties(
    cors=[
        TableCorsRule(
            ["https://example.com", "http://127.0.0.1:8080"],
            ["GET", "PUT", "OPTIONS"],
            allowed_headers=["x-ms-meta-*", "content-type"],
            exposed_headers=["x-ms-meta-*", "content-type"],
            max_age_in_seconds=3600,
        ),
        TableCorsRule(
            ["*"],
            ["GET"],
            allowed_headers=[],
            exposed_headers=[],
            max_age_in_seconds=0,
        ),
    ],
)

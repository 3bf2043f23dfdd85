import os

from azure.data.tables import TableAnalyticsLogging, TableMetrics, TableRetentionPolicy, TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
service.set_service_properties(
    analytics_logging=TableAnalyticsLogging(
        version="1.0", read=False, write=True, delete=True,
        retention_policy=TableRetentionPolicy(enabled=True, days=30),
    ),
    hour_metrics=TableMetrics(
        version="1.0", enabled=True, include_apis=False,
        retention_policy=TableRetentionPolicy(enabled=True, days=7),
    ),
    minute_metrics=TableMetrics(
        version="1.0", enabled=False,
        retention_policy=TableRetentionPolicy(enabled=False),
    ),
    cors=[],
)

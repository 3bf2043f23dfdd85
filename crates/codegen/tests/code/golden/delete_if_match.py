import os

from azure.core import MatchConditions
from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
table.delete_entity("O'Brien 100%", "it's 50%", etag="W/\"datetime'2024-05-06T07%3A08%3A09.1234567Z'\"", match_condition=MatchConditions.IfNotModified)

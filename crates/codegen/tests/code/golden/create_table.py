import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
service.create_table("Showcode")

import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
entity = table.get_entity("O'Brien 100%", "it's 50%", select=["Name", "Big"])
print(entity)

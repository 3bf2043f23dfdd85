import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
# azure-data-tables has no read in a transaction: the same read on its own.
entity = table.get_entity("Sales", "002")
print(entity)

import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
# One page, as one request returns it.
pages = table.list_entities().by_page()
for entity in next(pages):
    print(entity)
print("continuation_token:", pages.continuation_token)

import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
# One page, as one request returns it.
pages = table.query_entities("PartitionKey eq 'O''Brien 100%' and N ge 2 or Big eq 1099511627780L", select=["Name", "N"], results_per_page=2).by_page()
for entity in next(pages):
    print(entity)
print("continuation_token:", pages.continuation_token)

import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
# One page, as one request returns it.
pages = service.query_tables("TableName ge 'Showcode' and TableName lt 'T'", results_per_page=2).by_page()
for table in next(pages):
    print(table.name)
print("continuation_token:", pages.continuation_token)

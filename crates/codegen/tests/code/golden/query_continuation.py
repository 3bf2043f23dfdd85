import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
table = service.get_table_client("Showcode")
# One page, as one request returns it.
pages = table.list_entities(results_per_page=2).by_page(continuation_token={"PartitionKey": "1!16!TydCcmllbiAxMDAl", "RowKey": "1!12!aXQncyA1MCU-"})
for entity in next(pages):
    print(entity)
print("continuation_token:", pages.continuation_token)

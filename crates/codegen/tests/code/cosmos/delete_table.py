# AZURE_TABLES_CONNECTION_STRING holds the account's Cosmos DB for Table connection string:
# DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=<account-key>;TableEndpoint=https://contoso.table.cosmos.azure.com:443/;
import os

from azure.data.tables import TableServiceClient

service = TableServiceClient.from_connection_string(os.environ["AZURE_TABLES_CONNECTION_STRING"])
service.delete_table("Employees")

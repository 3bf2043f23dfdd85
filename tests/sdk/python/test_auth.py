"""Authorization as azure-data-tables does it: the account key from a credential or a
connection string, a wrong key, table SAS tokens with their permissions and expiry, and what the
service answers a request that carries a SAS and a signed header at once, or a signed request
without its date."""

import base64
from datetime import datetime, timedelta, timezone

import pytest
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.data.tables import TableClient, TableSasPermissions, TableServiceClient, UpdateMode, generate_table_sas

from conftest import CREDENTIAL, DEV_ACCOUNT, DEV_KEY, ENDPOINT, raises, table_client, unique_name


@pytest.fixture(scope="module")
def table(table):
    table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
    return table


def sas_client(table, **sas):
    token = generate_table_sas(CREDENTIAL, table.table_name, **sas)
    return token, TableClient(endpoint=ENDPOINT, table_name=table.table_name, credential=AzureSasCredential(token))


def in_hours(hours):
    return datetime.now(timezone.utc) + timedelta(hours=hours)


def test_the_azurite_connection_string_with_this_endpoint():
    connection_string = (
        f"DefaultEndpointsProtocol=http;AccountName={DEV_ACCOUNT};AccountKey={DEV_KEY};TableEndpoint={ENDPOINT};"
    )
    service = TableServiceClient.from_connection_string(connection_string)
    name = unique_name("conn")
    service.create_table(name)
    client = TableClient.from_connection_string(connection_string, name)
    client.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 7})
    assert client.get_entity("p", "r")["v"] == 7
    assert [t.name for t in service.query_tables("TableName eq @n", parameters={"n": name})] == [name]
    service.delete_table(name)


def test_a_wrong_key_403_authentication_failed(table):
    wrong_key = base64.b64encode(b"not the development key, 64 bytes long..............").decode()
    wrong = AzureNamedKeyCredential(DEV_ACCOUNT, wrong_key)
    client = table_client(table.table_name, wrong)
    raises(lambda: client.get_entity("p", "r"), 403, "AuthenticationFailed")
    raises(lambda: client.create_entity({"PartitionKey": "p", "RowKey": "w"}), 403, "AuthenticationFailed")
    raises(lambda: list(client.list_entities()), 403, "AuthenticationFailed")
    raises(lambda: list(TableServiceClient(endpoint=ENDPOINT, credential=wrong).list_tables()), 403, "AuthenticationFailed")
    assert [e["RowKey"] for e in table.list_entities()] == ["r"]  # nothing was written


def test_a_read_only_table_sas_reads_and_refuses_writes_403_authorization_permission_mismatch(table):
    token, reader = sas_client(table, permission=TableSasPermissions(read=True), expiry=in_hours(1))
    assert "sp=r&" in token + "&"
    assert reader.get_entity("p", "r")["v"] == 1
    assert [(e["RowKey"], e["v"]) for e in reader.list_entities()] == [("r", 1)]
    for write in (
        lambda: reader.create_entity({"PartitionKey": "p", "RowKey": "sas"}),
        lambda: reader.update_entity({"PartitionKey": "p", "RowKey": "r", "v": 2}, mode=UpdateMode.MERGE),
        lambda: reader.upsert_entity({"PartitionKey": "p", "RowKey": "r", "v": 2}, mode=UpdateMode.REPLACE),
        lambda: reader.delete_entity("p", "r"),
    ):
        raises(write, 403, "AuthorizationPermissionMismatch")
    assert table.get_entity("p", "r")["v"] == 1
    # A SAS for one table does not open another: its signature is valid, its scope is not
    # (403 AuthorizationFailure, as the service answers a SAS used outside its scope).
    other = table_client(unique_name("other"))
    other.create_table()
    elsewhere = TableClient(endpoint=ENDPOINT, table_name=other.table_name, credential=AzureSasCredential(token))
    raises(lambda: list(elsewhere.list_entities()), 403, "AuthorizationFailure")
    other.delete_table()


def test_a_table_sas_with_add_and_update_writes_what_it_grants(table):
    _, writer = sas_client(table, permission=TableSasPermissions(read=True, add=True, update=True), expiry=in_hours(1))
    writer.create_entity({"PartitionKey": "p", "RowKey": "sasw", "v": 1})
    writer.update_entity({"PartitionKey": "p", "RowKey": "sasw", "v": 2}, mode=UpdateMode.MERGE)
    assert table.get_entity("p", "sasw")["v"] == 2
    raises(lambda: writer.delete_entity("p", "sasw"), 403, "AuthorizationPermissionMismatch")
    table.delete_entity("p", "sasw")


def test_an_expired_sas_403_authentication_failed(table):
    _, expired = sas_client(
        table, permission=TableSasPermissions(read=True, add=True), start=in_hours(-2), expiry=in_hours(-1)
    )
    raises(lambda: expired.get_entity("p", "r"), 403, "AuthenticationFailed")
    raises(lambda: expired.create_entity({"PartitionKey": "p", "RowKey": "late"}), 403, "AuthenticationFailed")


def test_a_sas_whose_permissions_were_widened_without_signing_403_authentication_failed(table):
    token = generate_table_sas(CREDENTIAL, table.table_name, permission=TableSasPermissions(read=True), expiry=in_hours(1))
    widened = token.replace("sp=r&", "sp=raud&")
    assert widened != token
    forged = TableClient(endpoint=ENDPOINT, table_name=table.table_name, credential=AzureSasCredential(widened))
    raises(lambda: forged.create_entity({"PartitionKey": "p", "RowKey": "forged"}), 403, "AuthenticationFailed")


INVALID_AUTHENTICATION_INFO = (
    "Authentication information is not given in the correct format. Check the value of Authorization header."
)
AUTHENTICATION_FAILED = (
    "Server failed to authenticate the request. "
    "Make sure the value of Authorization header is formed correctly including the signature."
)


def test_a_sas_beside_a_signed_authorization_header_is_400_invalid_authentication_info(table):
    # A raw_request_hook runs after the SDK has signed (CustomHookPolicy follows the credential
    # policy), so it can add a good SAS to a request the account key signed. Either is good
    # alone; together the service refuses the ambiguity.
    token = generate_table_sas(
        CREDENTIAL, table.table_name, permission=TableSasPermissions(read=True, add=True), expiry=in_hours(1)
    )

    def add_sas(pipeline_request):
        request = pipeline_request.http_request
        request.url += ("&" if "?" in request.url else "?") + token

    for call in (
        lambda: table.get_entity("p", "r", raw_request_hook=add_sas),
        lambda: table.create_entity({"PartitionKey": "p", "RowKey": "both"}, raw_request_hook=add_sas),
    ):
        raises(call, 400, "InvalidAuthenticationInfo", INVALID_AUTHENTICATION_INFO)
    raises(lambda: table.get_entity("p", "both"), 404, "ResourceNotFound")  # nothing was written


def test_a_shared_key_request_without_x_ms_date_or_date_is_403_authentication_failed(table):
    def drop_date(pipeline_request):
        headers = pipeline_request.http_request.headers
        headers.pop("x-ms-date", None)
        headers.pop("Date", None)

    for call in (
        lambda: table.get_entity("p", "r", raw_request_hook=drop_date),
        lambda: table.create_entity({"PartitionKey": "p", "RowKey": "undated"}, raw_request_hook=drop_date),
    ):
        raises(call, 403, "AuthenticationFailed", AUTHENTICATION_FAILED)

    # The same date sent as Date instead of x-ms-date is what the SDK signed: served.
    def move_date(pipeline_request):
        headers = pipeline_request.http_request.headers
        headers["Date"] = headers.pop("x-ms-date")

    assert table.get_entity("p", "r", raw_request_hook=move_date)["v"] == 1

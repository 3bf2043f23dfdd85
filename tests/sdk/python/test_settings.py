"""The account-level operations through azure-data-tables: service properties round trip,
a table's stored access policies, a SAS that names one and its revocation
(docs/service/settings.md)."""

from datetime import datetime, timedelta, timezone

import pytest
from azure.core.credentials import AzureSasCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import (
    TableAccessPolicy,
    TableAnalyticsLogging,
    TableClient,
    TableCorsRule,
    TableMetrics,
    TableRetentionPolicy,
    generate_table_sas,
)

from conftest import COSMOS, CREDENTIAL, ENDPOINT, raises, service_client, table_client, unique_name

# Cosmos DB for Table supports none of these operations: the last test checks its answers.
storage_only = pytest.mark.skipif(COSMOS, reason="Cosmos DB for Table does not support it (see the last test)")


def xml_error(call, status, code):
    """call() must fail with this status and x-ms-error-code (the XML errors of these operations)."""
    with pytest.raises(HttpResponseError) as caught:
        call()
    error = caught.value
    assert error.status_code == status, str(error)
    assert error.response.headers.get("x-ms-error-code") == code, error.response.headers
    return error


def rule(origin):
    return TableCorsRule([origin], ["GET", "PUT"], allowed_headers=["x-ms-*"], exposed_headers=["etag"], max_age_in_seconds=30)


@storage_only
def test_service_properties_round_trip_and_refusals():
    service = service_client()
    before = service.get_service_properties()
    try:
        service.set_service_properties(
            analytics_logging=TableAnalyticsLogging(
                version="1.0", delete=True, read=False, write=True,
                retention_policy=TableRetentionPolicy(enabled=True, days=5),
            ),
            hour_metrics=TableMetrics(
                version="1.0", enabled=True, include_apis=True,
                retention_policy=TableRetentionPolicy(enabled=True, days=1),
            ),
            cors=[rule("http://a.example"), rule("http://b.example")],
        )
        got = service.get_service_properties()
        logging = got["analytics_logging"]
        assert (logging.delete, logging.read, logging.write) == (True, False, True)
        assert (logging.retention_policy.enabled, logging.retention_policy.days) == (True, 5)
        hour = got["hour_metrics"]
        assert (hour.enabled, hour.include_apis, hour.retention_policy.days) == (True, True, 1)
        assert [r.allowed_origins for r in got["cors"]] == [["http://a.example"], ["http://b.example"]]
        assert got["cors"][0].allowed_methods == ["GET", "PUT"]
        # Six rules, or 366 days, are refused whole.
        xml_error(lambda: service.set_service_properties(cors=[rule(f"http://o{i}.example") for i in range(6)]),
                  400, "InvalidXmlDocument")
        xml_error(lambda: service.set_service_properties(
            analytics_logging=TableAnalyticsLogging(retention_policy=TableRetentionPolicy(enabled=True, days=366))),
            400, "InvalidXmlDocument")
        assert len(service.get_service_properties()["cors"]) == 2
    finally:
        service.set_service_properties(cors=before["cors"], analytics_logging=before["analytics_logging"])


@storage_only
def test_access_policy_and_a_sas_naming_it_until_it_is_removed():
    name = unique_name("pyacl")
    table = table_client(name)
    table.create_table()
    try:
        table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 3})
        expiry = datetime.now(timezone.utc) + timedelta(hours=1)
        table.set_table_access_policy({
            "readers": TableAccessPolicy(start=datetime(2020, 1, 1, tzinfo=timezone.utc), expiry=expiry, permission="r"),
            "bare": None,
        })
        policies = table.get_table_access_policy()
        assert list(policies) == ["readers", "bare"]
        assert policies["readers"].permission == "r"
        assert policies["bare"] is None

        token = generate_table_sas(CREDENTIAL, name, policy_id="readers")
        reader = TableClient(endpoint=ENDPOINT, table_name=name, credential=AzureSasCredential(token))
        assert reader.get_entity("p", "r")["v"] == 3
        raises(lambda: reader.create_entity({"PartitionKey": "p", "RowKey": "w"}), 403, "AuthorizationPermissionMismatch")
        # Removing the policy revokes the SAS.
        table.set_table_access_policy({"bare": None})
        raises(lambda: reader.get_entity("p", "r"), 403, "AuthenticationFailed")
        # Six identifiers are refused (the SDK turns the service's 400 into a ValueError).
        six = {f"id{i}": TableAccessPolicy(permission="r") for i in range(6)}
        with pytest.raises(ValueError, match="more than 5 access policies"):
            table.set_table_access_policy(six)
        assert list(table.get_table_access_policy()) == ["bare"]
    finally:
        table.delete_table()


@pytest.mark.skipif(not COSMOS, reason="Table storage supports them (the tests above)")
def test_cosmos_does_not_support_service_properties_stats_or_table_acls_501_not_implemented():
    """The documentation lists them as not supported without saying what a request answers: the
    model answers the engine's refusal, as storage writes an XML error (docs/service/cosmos.md,
    Silences)."""
    service = service_client()
    xml_error(service.get_service_properties, 501, "NotImplemented")
    xml_error(lambda: service.set_service_properties(cors=[rule("http://a.example")]), 501, "NotImplemented")
    table = table_client(unique_name("acl"))
    table.create_table()
    try:
        xml_error(table.get_table_access_policy, 501, "NotImplemented")
        policy = TableAccessPolicy(permission="r", expiry=datetime.now(timezone.utc) + timedelta(hours=1))
        xml_error(lambda: table.set_table_access_policy({"readers": policy}), 501, "NotImplemented")
    finally:
        table.delete_table()

"""Every entity operation through azure-data-tables, with and without ETags, and the types as
the SDK hands them back."""

import json
import math
import uuid
from datetime import datetime, timezone

from azure.core import MatchConditions
from azure.core.exceptions import ResourceExistsError, ResourceModifiedError, ResourceNotFoundError
from azure.data.tables import EdmType, EntityProperty, UpdateMode

from conftest import COSMOS, ENDPOINT, ETAG, Responses, raises, table_client, unique_name

def seven_digits(text):
    """A timestamp with its fraction padded to 7 digits, so two texts of one instant compare equal."""
    seconds, _, fraction = text.rstrip("Z").partition(".")
    return f"{seconds}.{fraction.ljust(7, '0')}Z"


GUID = uuid.UUID("c9da6455-213d-42c9-9a79-3e9149a57833")

TYPED = {
    "PartitionKey": "types",
    "RowKey": "all",
    "int32": 42,
    "int32Min": -(2**31),
    "int64": EntityProperty(2**53 + 1, EdmType.INT64),  # beyond a double's integers
    "int64Max": EntityProperty(2**63 - 1, EdmType.INT64),
    "int64Small": EntityProperty(7, EdmType.INT64),
    "double": 3.25,
    "wholeDouble": 5.0,
    "bigDouble": 1.2345678901234568e24,
    "nan": float("nan"),
    "infinity": float("inf"),
    "minusInfinity": float("-inf"),
    "yes": True,
    "no": False,
    "when": EntityProperty("2024-02-29T12:34:56.1234567Z", EdmType.DATETIME),
    "whenHalf": EntityProperty("2024-01-01T00:00:00.5000000Z", EdmType.DATETIME),
    "whenWhole": datetime(1999, 12, 31, 23, 59, 59, tzinfo=timezone.utc),
    "id": GUID,
    "bytes": b"\x00\x01\x02\xfe\xff",
    "text": "Grüße aus 日本 😀",
    "numberText": "123",
    "empty": "",
}


def test_create_entity_201_with_etag_and_get_entity_returns_every_type_exactly(table):
    hook = Responses()
    created = table.create_entity(TYPED, raw_response_hook=hook)
    # The Python SDK sends no Prefer header on insert: 201 with the entity, Location and ETag.
    assert hook.statuses == [201]
    assert ETAG.match(created["etag"]), created
    raw = hook.all[0]
    location = f"{ENDPOINT}/{table.table_name}(PartitionKey='types',RowKey='all')"
    assert raw.headers["Location"] == location
    body = json.loads(raw.text())
    # Cosmos DB for Table's entity bodies name the table once more, before `$metadata`, and put
    # Timestamp after the properties (storage: right after the keys).
    here = f"/{table.table_name}" if COSMOS else ""
    assert body["odata.metadata"] == f"{ENDPOINT}{here}/$metadata#{table.table_name}/@Element"
    members = [k for k in body if not k.startswith("odata.") and "@odata." not in k]
    if COSMOS:
        assert members[:2] == ["PartitionKey", "RowKey"] and members[-1] == "Timestamp", members
    else:
        assert members[:3] == ["PartitionKey", "RowKey", "Timestamp"], members
    assert body["odata.etag"] == created["etag"]
    assert (body["wholeDouble"], body["int64"], body["int64@odata.type"]) == (5.0, "9007199254740993", "Edm.Int64")
    assert '"wholeDouble":5.0,' in raw.text()
    got = table.get_entity("types", "all")
    assert got.metadata["etag"] == created["etag"]
    assert seven_digits(got.metadata["timestamp"].tables_service_value) == seven_digits(
        created["etag"][len("W/\"datetime'") : -len("'\"")].replace("%3A", ":")
    )
    plain = {k: v for k, v in got.items() if k not in ("when", "whenHalf", "whenWhole", "nan")}
    assert plain == {
        "PartitionKey": "types",
        "RowKey": "all",
        "int32": 42,
        "int32Min": -(2**31),
        "int64": EntityProperty(2**53 + 1, EdmType.INT64),
        "int64Max": EntityProperty(2**63 - 1, EdmType.INT64),
        "int64Small": EntityProperty(7, EdmType.INT64),
        "double": 3.25,
        "wholeDouble": 5.0,
        "bigDouble": 1.2345678901234568e24,
        "infinity": float("inf"),
        "minusInfinity": float("-inf"),
        "yes": True,
        "no": False,
        "id": GUID,
        "bytes": b"\x00\x01\x02\xfe\xff",
        "text": "Grüße aus 日本 😀",
        "numberText": "123",
        "empty": "",
    }
    # Types, not only values: a whole Double stays a float, an Int32 an int.
    assert type(got["wholeDouble"]) is float and type(got["int32"]) is int
    assert type(got["double"]) is float and type(got["yes"]) is bool
    assert math.isnan(got["nan"])
    # DateTime keeps the service's text (7 digits, trailing zeros dropped as production does);
    # the datetime itself holds microseconds.
    assert got["when"].tables_service_value == "2024-02-29T12:34:56.1234567Z"
    assert got["when"] == datetime(2024, 2, 29, 12, 34, 56, 123456, tzinfo=timezone.utc)
    assert got["whenHalf"].tables_service_value == "2024-01-01T00:00:00.5Z"
    assert got["whenWhole"].tables_service_value == "1999-12-31T23:59:59Z"
    assert got["whenWhole"] == datetime(1999, 12, 31, 23, 59, 59, tzinfo=timezone.utc)


def test_create_entity_twice_409_entity_already_exists(table):
    table.create_entity({"PartitionKey": "dup", "RowKey": "1", "v": 1})
    raises(
        lambda: table.create_entity({"PartitionKey": "dup", "RowKey": "1", "v": 2}),
        409,
        "EntityAlreadyExists",
        "The specified entity already exists.",
        ResourceExistsError,
    )
    assert table.get_entity("dup", "1")["v"] == 1


def test_update_entity_replace_and_merge_with_etag_then_stale_412(table):
    created = table.create_entity({"PartitionKey": "upd", "RowKey": "1", "a": 1, "b": "x"})
    replaced = table.update_entity(
        {"PartitionKey": "upd", "RowKey": "1", "a": 2, "c": True},
        mode=UpdateMode.REPLACE,
        etag=created["etag"],
        match_condition=MatchConditions.IfNotModified,
    )
    assert ETAG.match(replaced["etag"]) and replaced["etag"] != created["etag"]
    got = table.get_entity("upd", "1")
    assert dict(got) == {"PartitionKey": "upd", "RowKey": "1", "a": 2, "c": True}
    assert got.metadata["etag"] == replaced["etag"]

    raises(
        lambda: table.update_entity(
            {"PartitionKey": "upd", "RowKey": "1", "a": 3},
            mode=UpdateMode.REPLACE,
            etag=created["etag"],
            match_condition=MatchConditions.IfNotModified,
        ),
        412,
        "UpdateConditionNotSatisfied",
        None,
        ResourceModifiedError,
    )
    merged = table.update_entity(
        {"PartitionKey": "upd", "RowKey": "1", "d": "m"},
        mode=UpdateMode.MERGE,
        etag=replaced["etag"],
        match_condition=MatchConditions.IfNotModified,
    )
    got = table.get_entity("upd", "1")
    assert dict(got) == {"PartitionKey": "upd", "RowKey": "1", "a": 2, "c": True, "d": "m"}
    assert got.metadata["etag"] == merged["etag"] != replaced["etag"]
    raises(
        lambda: table.update_entity(
            {"PartitionKey": "upd", "RowKey": "1", "d": "n"},
            mode=UpdateMode.MERGE,
            etag=replaced["etag"],
            match_condition=MatchConditions.IfNotModified,
        ),
        412,
        "UpdateConditionNotSatisfied",
        None,
        ResourceModifiedError,
    )
    assert table.get_entity("upd", "1")["d"] == "m"

    # Without an ETag the SDK sends If-Match: *, which matches any version.
    unconditional = table.update_entity({"PartitionKey": "upd", "RowKey": "1", "e": 5}, mode=UpdateMode.REPLACE)
    got = table.get_entity("upd", "1")
    assert dict(got) == {"PartitionKey": "upd", "RowKey": "1", "e": 5}
    assert got.metadata["etag"] == unconditional["etag"]
    for mode in (UpdateMode.MERGE, UpdateMode.REPLACE):
        raises(
            lambda: table.update_entity({"PartitionKey": "upd", "RowKey": "missing", "a": 1}, mode=mode),
            404,
            "ResourceNotFound",
            None,
            ResourceNotFoundError,
        )


def test_upsert_entity_replace_and_merge(table):
    hook = Responses()
    inserted = table.upsert_entity({"PartitionKey": "ups", "RowKey": "1", "a": 1, "b": 2}, mode=UpdateMode.MERGE, raw_response_hook=hook)
    assert hook.statuses == [204] and ETAG.match(inserted["etag"])
    merged = table.upsert_entity({"PartitionKey": "ups", "RowKey": "1", "b": 3, "c": 4}, mode=UpdateMode.MERGE)
    got = table.get_entity("ups", "1")
    assert dict(got) == {"PartitionKey": "ups", "RowKey": "1", "a": 1, "b": 3, "c": 4}
    assert got.metadata["etag"] == merged["etag"]
    replaced = table.upsert_entity({"PartitionKey": "ups", "RowKey": "1", "z": "only"}, mode=UpdateMode.REPLACE)
    got = table.get_entity("ups", "1")
    assert dict(got) == {"PartitionKey": "ups", "RowKey": "1", "z": "only"}
    assert got.metadata["etag"] == replaced["etag"]
    table.upsert_entity({"PartitionKey": "ups", "RowKey": "2", "n": 7}, mode=UpdateMode.REPLACE)
    assert table.get_entity("ups", "2")["n"] == 7


def test_delete_entity_stale_412_current_204_then_404(table):
    created = table.create_entity({"PartitionKey": "del", "RowKey": "1", "v": 1})
    updated = table.update_entity({"PartitionKey": "del", "RowKey": "1", "v": 2})
    raises(
        lambda: table.delete_entity("del", "1", etag=created["etag"], match_condition=MatchConditions.IfNotModified),
        412,
        "UpdateConditionNotSatisfied",
        None,
        ResourceModifiedError,
    )
    hook = Responses()
    table.delete_entity("del", "1", etag=updated["etag"], match_condition=MatchConditions.IfNotModified, raw_response_hook=hook)
    assert hook.statuses == [204]
    raises(lambda: table.get_entity("del", "1"), 404, "ResourceNotFound", None, ResourceNotFoundError)
    # The SDK swallows a 404 on delete (it means "already gone"); the service still says 404.
    again = Responses()
    table.delete_entity("del", "1", raw_response_hook=again)
    assert again.statuses == [404]
    stale = Responses()
    table.delete_entity("del", "1", etag=updated["etag"], match_condition=MatchConditions.IfNotModified, raw_response_hook=stale)
    assert stale.statuses == [404]


def test_every_entity_operation_on_a_missing_table_404_table_not_found():
    missing = table_client(unique_name("missing"))
    e = {"PartitionKey": "p", "RowKey": "r", "v": 1}
    for call in (
        lambda: missing.create_entity(e),
        lambda: missing.get_entity("p", "r"),
        lambda: missing.update_entity(e, mode=UpdateMode.REPLACE),
        lambda: missing.upsert_entity(e, mode=UpdateMode.MERGE),
        lambda: list(missing.list_entities()),
        lambda: list(missing.query_entities("v eq 1")),
    ):
        raises(call, 404, "TableNotFound", "The table specified does not exist.", ResourceNotFoundError)
    hook = Responses()
    missing.delete_entity("p", "r", raw_response_hook=hook)  # swallowed by the SDK, as above
    assert hook.statuses == [404]


def test_a_datetime_without_a_utc_designator_is_stored_as_utc(table):
    table.create_entity(
        {
            "PartitionKey": "bare",
            "RowKey": "1",
            "when": EntityProperty("2023-01-01T23:00:00", EdmType.DATETIME),
            "offset": EntityProperty("2023-01-02T01:30:00+02:30", EdmType.DATETIME),
            "millis": EntityProperty("2023-01-01T23:00:00.120", EdmType.DATETIME),
        }
    )
    got = table.get_entity("bare", "1")
    assert got["when"].tables_service_value == "2023-01-01T23:00:00Z"
    assert got["offset"].tables_service_value == "2023-01-01T23:00:00Z"
    assert got["millis"].tables_service_value == "2023-01-01T23:00:00.12Z"
    assert got["when"] == datetime(2023, 1, 1, 23, 0, 0, tzinfo=timezone.utc)
    # The ETag names the Timestamp with the Timestamp's own digits.
    etag = got.metadata["etag"]
    assert etag[len("W/\"datetime'") : -len("'\"")].replace("%3A", ":") == got.metadata["timestamp"].tables_service_value

    found = list(
        table.query_entities(
            "PartitionKey eq 'bare' and when eq datetime'2023-01-01T23:00:00' and offset eq datetime'2023-01-01T23:00:00Z'"
        )
    )
    assert [e["RowKey"] for e in found] == ["1"]
    # A literal with an offset is the same instant in UTC.
    with_offset = (
        "PartitionKey eq 'bare' and offset eq datetime'2023-01-02T01:30:00+02:30'"
        " and when eq datetime'2023-01-01T18:00:00-05:00'"
    )
    assert [e["RowKey"] for e in table.query_entities(with_offset)] == ["1"]

    table.submit_transaction(
        [
            ("create", {"PartitionKey": "bare", "RowKey": "2", "when": EntityProperty("2023-01-01T23:00:00.5", EdmType.DATETIME)}),
            ("upsert", {"PartitionKey": "bare", "RowKey": "3", "when": EntityProperty("2023-01-01T20:00:00-03:00", EdmType.DATETIME)}),
        ]
    )
    assert table.get_entity("bare", "2")["when"].tables_service_value == "2023-01-01T23:00:00.5Z"
    assert table.get_entity("bare", "3")["when"].tables_service_value == "2023-01-01T23:00:00Z"
    # A fraction without a designator in a literal, and a range over the batch's values.
    fraction = "PartitionKey eq 'bare' and when eq datetime'2023-01-01T23:00:00.5000000'"
    assert [e["RowKey"] for e in table.query_entities(fraction)] == ["2"]
    in_range = (
        "PartitionKey eq 'bare' and when ge datetime'2023-01-01T23:00:00'"
        " and when lt datetime'2023-01-02T00:00:00.5+01:00'"
    )
    assert [e["RowKey"] for e in table.query_entities(in_range)] == ["1", "3"]

"""Entity group transactions through azure-data-tables' submit_transaction: success with every
kind of operation, and failures that apply nothing."""

import json

import pytest
from azure.core import MatchConditions
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableTransactionError

from conftest import COSMOS, ETAG, served, table_client, unique_name


def partition(table, pk):
    return [dict(e) for e in table.query_entities("PartitionKey eq @pk", parameters={"pk": pk})]


def transaction_raises(call, status, code, index, message_start):
    """call() must raise the SDK's TableTransactionError with this status, code (`error_code`,
    from the failing part's odata.error body), operation index and message."""
    with pytest.raises(TableTransactionError) as caught:
        call()
    error = caught.value
    assert (error.status_code, error.error_code, error.index) == (status, code, index), str(error)
    assert error.message.startswith(message_start), error.message
    return error


def test_create_update_upsert_delete_in_one_transaction(table):
    pk = "ok"
    a = table.create_entity({"PartitionKey": pk, "RowKey": "a", "v": 1, "keep": "a"})
    for rk in ("b", "c"):
        table.create_entity({"PartitionKey": pk, "RowKey": rk, "v": 1, "keep": rk})
    table.create_entity({"PartitionKey": pk, "RowKey": "d", "v": 1})
    result = table.submit_transaction(
        [
            ("create", {"PartitionKey": pk, "RowKey": "new", "v": 1}),
            ("update", {"PartitionKey": pk, "RowKey": "a", "v": 2}, {"mode": "replace", "etag": a["etag"], "match_condition": MatchConditions.IfNotModified}),
            ("update", {"PartitionKey": pk, "RowKey": "b", "v": 2}, {"mode": "merge"}),
            ("upsert", {"PartitionKey": pk, "RowKey": "c", "v": 2}, {"mode": "replace"}),
            ("upsert", {"PartitionKey": pk, "RowKey": "e", "v": 2}, {"mode": "merge"}),
            ("delete", {"PartitionKey": pk, "RowKey": "d"}),
        ]
    )
    assert len(result) == 6
    for r in result[:5]:
        assert ETAG.match(r["etag"]), r
    assert result[5].get("etag") is None
    after = {e["RowKey"]: e.metadata["etag"] for e in table.query_entities("PartitionKey eq 'ok'")}
    assert [r["etag"] for r in result[:5]] == [after[rk] for rk in ("new", "a", "b", "c", "e")]
    rows = {
        "a": {"PartitionKey": pk, "RowKey": "a", "v": 2},
        "b": {"PartitionKey": pk, "RowKey": "b", "v": 2, "keep": "b"},
        "c": {"PartitionKey": pk, "RowKey": "c", "v": 2},
        "e": {"PartitionKey": pk, "RowKey": "e", "v": 2},
        "new": {"PartitionKey": pk, "RowKey": "new", "v": 1},
    }
    # The transaction wrote them in this order (Cosmos returns them so; storage by RowKey).
    assert partition(table, pk) == [rows[rk] for rk in served(["new", "a", "b", "c", "e"])]


def test_inserts_share_one_timestamp_on_storage_and_have_one_each_on_cosmos(table):
    pk = "stamps"
    result = table.submit_transaction([("create", {"PartitionKey": pk, "RowKey": rk}) for rk in ("r1", "r2", "r3")])
    etags = [r["etag"] for r in result]
    assert all(ETAG.match(e) for e in etags), etags
    if COSMOS:
        # Seven fraction digits always, and increasing from one operation to the next.
        assert all(e.endswith("Z'\"") and len(e.split(".")[-1]) == len("1234567Z'\"") for e in etags), etags
        assert len(set(etags)) == 3 and sorted(etags) == etags
    else:
        assert len(set(etags)) == 1
    stored = table.query_entities("PartitionKey eq @pk", parameters={"pk": pk})
    assert [e.metadata["etag"] for e in stored] == etags


def test_two_operations_on_one_entity_storage_fails_the_part_cosmos_refuses_at_the_top(table):
    pk = "twice"
    table.create_entity({"PartitionKey": pk, "RowKey": "x", "v": 1})
    before = partition(table, pk)
    operations = [
        ("update", {"PartitionKey": pk, "RowKey": "x", "v": 2}, {"mode": "merge"}),
        ("delete", {"PartitionKey": pk, "RowKey": "x"}),
    ]
    message = "1:The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."
    if COSMOS:
        # A plain JSON error at the top, which the SDK raises as it is (no part, no index).
        with pytest.raises(HttpResponseError) as caught:
            table.submit_transaction(operations)
        error = caught.value
        assert not isinstance(error, TableTransactionError)
        assert (error.status_code, error.error_code) == (400, "InvalidDuplicateRow")
        assert error.response.headers["Content-Type"] == "application/json; odata=fullmetadata"
        body = json.loads(error.response.text())["odata.error"]
        assert body["message"]["lang"] == "en-us"
        assert body["message"]["value"].startswith(message + "\nRequestID:")
    else:
        transaction_raises(lambda: table.submit_transaction(operations), 400, "InvalidDuplicateRow", 1, message)
    assert partition(table, pk) == before


def test_a_duplicate_insert_at_index_2_409_entity_already_exists_nothing_applied(table):
    pk = "dup"
    table.create_entity({"PartitionKey": pk, "RowKey": "x", "v": 1})
    table.create_entity({"PartitionKey": pk, "RowKey": "y", "v": 1})
    before = partition(table, pk)
    transaction_raises(
        lambda: table.submit_transaction(
            [
                ("create", {"PartitionKey": pk, "RowKey": "n1", "v": 1}),
                ("update", {"PartitionKey": pk, "RowKey": "y", "v": 2}),
                ("create", {"PartitionKey": pk, "RowKey": "x", "v": 9}),
                ("create", {"PartitionKey": pk, "RowKey": "n2", "v": 1}),
            ]
        ),
        409,
        "EntityAlreadyExists",
        2,
        "2:The specified entity already exists.",
    )
    assert partition(table, pk) == before


def test_a_stale_etag_at_index_1_412_nothing_applied(table):
    pk = "stale"
    created = table.create_entity({"PartitionKey": pk, "RowKey": "s", "v": 1})
    table.update_entity({"PartitionKey": pk, "RowKey": "s", "v": 2})
    before = partition(table, pk)
    transaction_raises(
        lambda: table.submit_transaction(
            [
                ("create", {"PartitionKey": pk, "RowKey": "t", "v": 1}),
                ("update", {"PartitionKey": pk, "RowKey": "s", "v": 3}, {"mode": "replace", "etag": created["etag"], "match_condition": MatchConditions.IfNotModified}),
            ]
        ),
        412,
        "UpdateConditionNotSatisfied",
        1,
        "1:",
    )
    assert partition(table, pk) == before


class SecondPartition(dict):
    """An entity that shows the SDK's partition check PartitionKey "one" and is sent with
    PartitionKey "two": the check reads entity["PartitionKey"], the serialiser copies the dict."""

    def __getitem__(self, key):
        return "one" if key == "PartitionKey" else super().__getitem__(key)


def test_two_partitions_400_commands_in_batch_act_on_different_partitions(table):
    sneaky = SecondPartition({"PartitionKey": "two", "RowKey": "r2", "v": 1})
    transaction_raises(
        lambda: table.submit_transaction(
            [("create", {"PartitionKey": "one", "RowKey": "r1", "v": 1}), ("create", sneaky)]
        ),
        400,
        "CommandsInBatchActOnDifferentPartitions",
        1,
        "1:All commands in a batch must operate on same entity group.",
    )
    assert partition(table, "one") == [] and partition(table, "two") == []


def test_a_transaction_on_a_missing_table_404_table_not_found():
    missing = table_client(unique_name("missing"))
    transaction_raises(
        lambda: missing.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "r"})]),
        404,
        "TableNotFound",
        0,
        "0:The table specified does not exist.",
    )

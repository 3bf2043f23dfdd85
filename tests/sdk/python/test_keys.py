"""Keys with `'`, `%`, non-ASCII (`#`-free) characters and empty strings through every path of
azure-data-tables: insert, get, update, delete, query, transaction, continuation."""

from azure.core import MatchConditions
from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError

from conftest import raises, served

KEYS = ["", "'", "''", "%", "%25", "a'b%c", "100% 'sure'", "日本", "é", "😀", " x ", "+a,b=c&d;"]


def test_insert_get_update_query_delete_for_each_key_as_row_and_partition_key(table):
    for key in KEYS:
        for pk, rk in (("row", key), (key, "part"), (key, key)):
            created = table.create_entity({"PartitionKey": pk, "RowKey": rk, "key": key})
            got = table.get_entity(pk, rk)
            assert (dict(got), got.metadata["etag"]) == ({"PartitionKey": pk, "RowKey": rk, "key": key}, created["etag"])
            merged = table.update_entity(
                {"PartitionKey": pk, "RowKey": rk, "more": 1},
                etag=created["etag"],
                match_condition=MatchConditions.IfNotModified,
            )
            found = list(table.query_entities("PartitionKey eq @pk and RowKey eq @rk", parameters={"pk": pk, "rk": rk}))
            assert [(dict(e), e.metadata["etag"]) for e in found] == [
                ({"PartitionKey": pk, "RowKey": rk, "key": key, "more": 1}, merged["etag"])
            ]
            raises(
                lambda: table.create_entity({"PartitionKey": pk, "RowKey": rk}),
                409,
                "EntityAlreadyExists",
                None,
                ResourceExistsError,
            )
            table.delete_entity(pk, rk, etag=merged["etag"], match_condition=MatchConditions.IfNotModified)
            raises(lambda: table.get_entity(pk, rk), 404, "ResourceNotFound", None, ResourceNotFoundError)


def test_a_transaction_in_a_partition_named_with_every_kind_of_character(table):
    pk = "日本's 100% é😀"
    created = table.submit_transaction([("create", {"PartitionKey": pk, "RowKey": rk, "v": 1}) for rk in KEYS])
    assert len(created) == len(KEYS)
    query = ("PartitionKey eq @pk", {"pk": pk})
    # Storage returns the rows in key order; Cosmos as they were written (`served`).
    assert [e["RowKey"] for e in table.query_entities(query[0], parameters=query[1])] == served(KEYS)
    # Updates and deletes put the keys into each part's URL.
    table.submit_transaction(
        [
            ("update", {"PartitionKey": pk, "RowKey": rk, "v": 2}, {"mode": "replace"}) if i % 2 == 0 else ("delete", {"PartitionKey": pk, "RowKey": rk})
            for i, rk in enumerate(KEYS)
        ]
    )
    kept = served(KEYS[0::2])
    assert [(e["RowKey"], e["v"]) for e in table.query_entities(query[0], parameters=query[1])] == [(rk, 2) for rk in kept]
    for rk in kept:
        table.delete_entity(pk, rk)


def test_continuation_tokens_carry_every_key_one_entity_per_page(table):
    prefix = "cont"
    entities = [{"PartitionKey": prefix + pk, "RowKey": rk} for pk in KEYS for rk in KEYS[:3]]
    # One transaction per partition, in the order of KEYS (the order Cosmos returns them in).
    for pk in dict.fromkeys(e["PartitionKey"] for e in entities):
        table.submit_transaction([("create", e) for e in entities if e["PartitionKey"] == pk])
    expected = served([(e["PartitionKey"], e["RowKey"]) for e in entities])
    query = "PartitionKey ge @low and PartitionKey lt @high"
    parameters = {"low": prefix, "high": "conu"}
    pages = [list(p) for p in table.query_entities(query, parameters=parameters, results_per_page=1).by_page()]
    assert [[(e["PartitionKey"], e["RowKey"]) for e in p] for p in pages if p] == [[k] for k in expected]
    by_two = table.query_entities(query, parameters=parameters, results_per_page=2)
    assert [(e["PartitionKey"], e["RowKey"]) for e in by_two] == expected

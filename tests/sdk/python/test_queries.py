"""Queries through azure-data-tables: filters with parameters, select, page sizes and paging
through continuation over more than the service's 1,000-entity page, and the service's order
(PartitionKey, then RowKey, ordinal by UTF-16 code unit)."""

import json
import re

import pytest
from azure.core.exceptions import HttpResponseError

from conftest import COSMOS, raises, served, table_client, unique_name

# 1,100 entities in partition "big" (more than one service page), rows "0000".."1099".
BIG = [
    {"PartitionKey": "big", "RowKey": f"{i:04d}", "n": i, "even": i % 2 == 0, **({"tenth": f"t{i}"} if i % 10 == 0 else {})}
    for i in range(1100)
]
# Keys whose ordinal UTF-16 order differs from code point order: U+FF5A sorts after the
# surrogate pair of U+1F600 by code unit (0xFF5A > 0xD83D) but before it by code point.
ORDER_KEYS = ["ｚ", "😀", "日本", "é", "a", "B", "", "A", "aa", "Z"]


def insert_all(table, entities):
    for i in range(0, len(entities), 100):
        table.submit_transaction([("create", e) for e in entities[i : i + 100]])


@pytest.fixture(scope="module")
def table():
    client = table_client(unique_name("queries"))
    client.create_table()
    insert_all(client, BIG)
    for pk in ("order2", "order1"):
        insert_all(client, [{"PartitionKey": pk, "RowKey": rk, "i": i} for i, rk in enumerate(ORDER_KEYS)])
    yield client
    client.delete_table()
    client.close()


def test_filter_with_parameters_returns_exactly_the_matching_entities_in_key_order(table):
    got = table.query_entities(
        "PartitionKey eq @pk and n ge @low and n lt @high and even eq @even",
        parameters={"pk": "big", "low": 10, "high": 20, "even": True},
    )
    assert [(e["RowKey"], e["n"], e["even"]) for e in got] == [(f"{n:04d}", n, True) for n in (10, 12, 14, 16, 18)]
    by_text = table.query_entities("tenth eq @a or tenth eq @b", parameters={"a": "t1090", "b": "t0"})
    assert [e["RowKey"] for e in by_text] == ["0000", "1090"]
    # A comparison on a property an entity lacks is false, `ne` included.
    lacking = list(table.query_entities("PartitionKey eq @pk and tenth ne @t", parameters={"pk": "big", "t": "t0"}))
    assert len(lacking) == 109
    assert [e["RowKey"] for e in lacking[:2]] == ["0010", "0020"]


def test_select_a_listed_property_the_entity_lacks_comes_back_as_none(table):
    got = list(
        table.query_entities(
            "PartitionKey eq @pk and RowKey ge @a and RowKey le @b",
            parameters={"pk": "big", "a": "0009", "b": "0010"},
            select=["n", "tenth"],
        )
    )
    assert [dict(e) for e in got] == [{"n": 9, "tenth": None}, {"n": 10, "tenth": "t10"}]
    etags = [table.get_entity("big", rk).metadata["etag"] for rk in ("0009", "0010")]
    assert [e.metadata["etag"] for e in got] == etags
    keys_only = list(table.query_entities("PartitionKey eq 'big' and RowKey eq '0001'", select="RowKey"))
    assert [dict(e) for e in keys_only] == [{"RowKey": "0001"}]


def test_no_page_size_pages_of_at_most_1000_continued_to_the_end(table):
    pages = [list(p) for p in table.query_entities("PartitionKey eq 'big'").by_page()]
    assert [len(p) for p in pages] == [1000, 100]
    assert [e["n"] for p in pages for e in p] == list(range(1100))
    assert len(list(table.list_entities())) == 1100 + 2 * len(ORDER_KEYS)


def test_page_size_1001_storage_refuses_it_cosmos_serves_it_uncapped(table):
    pager = table.query_entities("PartitionKey eq 'big'", results_per_page=1001).by_page()
    if COSMOS:
        assert [len(list(p)) for p in pager] == [1001, 99]
    else:
        raises(lambda: next(pager), 400, "InvalidInput", None, HttpResponseError)


def test_page_size_300_over_1100_entities(table):
    pages = [list(p) for p in table.query_entities("PartitionKey eq 'big'", results_per_page=300).by_page()]
    assert [len(p) for p in pages] == [300, 300, 300, 200]
    assert [e["RowKey"] for p in pages for e in p] == [e["RowKey"] for e in BIG]
    listed = [list(p) for p in table.list_entities(results_per_page=1000).by_page()]
    assert [len(p) for p in listed] == [1000, 100 + 2 * len(ORDER_KEYS)]


def test_a_continuation_token_resumes_where_its_page_ended_also_in_a_new_pager(table):
    query = "PartitionKey eq 'big' and even eq false"
    pager = table.query_entities(query, results_per_page=7).by_page()
    assert [e["n"] for e in next(pager)] == [1, 3, 5, 7, 9, 11, 13]
    token = pager.continuation_token
    assert token == {"PartitionKey": token["PartitionKey"], "RowKey": token["RowKey"]}
    # Storage's `1!<n>!<base64>` forms; Cosmos's NextPartitionKey a JSON document, NextRowKey NA.
    if COSMOS:
        assert token["RowKey"] == "NA"
        document = json.loads(token["PartitionKey"])
        assert isinstance(document["token"], str) and document["range"] == {"min": "", "max": "FF"}
    else:
        assert re.match(r"1!\d+!", token["PartitionKey"]) and re.match(r"1!\d+!", token["RowKey"])
    resumed = [list(p) for p in table.query_entities(query, results_per_page=500).by_page(continuation_token=token)]
    assert [len(p) for p in resumed] == [500, 43]
    assert [e["n"] for e in resumed[0][:2]] == [15, 17]
    assert resumed[1][-1]["n"] == 1099


def test_entities_come_in_partition_then_row_key_order_ordinal_by_utf16(table):
    """On Cosmos DB for Table: in the order they were written."""
    got = table.query_entities("PartitionKey ge 'order' and PartitionKey lt 'orderz'")
    expected = served([(pk, rk) for pk in ("order2", "order1") for rk in ORDER_KEYS])
    ordered = [rk for pk, rk in expected if pk == "order1"]
    assert ordered == (ORDER_KEYS if COSMOS else ["", "A", "B", "Z", "a", "aa", "é", "日本", "😀", "ｚ"])
    assert [(e["PartitionKey"], e["RowKey"]) for e in got] == expected
    # One entity per page: the tokens carry "", non-ASCII and surrogate-pair keys. (The service
    # may end with an empty page that still had a token; it holds nothing.)
    pages = [list(p) for p in table.query_entities("PartitionKey eq 'order1'", results_per_page=1).by_page()]
    assert [[e["RowKey"] for e in p] for p in pages if p] == [[rk] for rk in ordered]

"""Tables through azure-data-tables: create, create again, list (filter, paging through
NextTableName), delete, delete a missing table."""

import json

from azure.core.exceptions import ResourceExistsError

from conftest import COSMOS, ENDPOINT, ETAG, Responses, listed_tables, raises, service_client, unique_name

SERVICE = service_client()


def names_of(tables):
    return [t.name for t in tables]


def test_create_table_201_with_its_name_then_listed():
    name = unique_name("create")
    hook = Responses()
    SERVICE.create_table(name, raw_response_hook=hook)
    assert hook.statuses == [201]
    assert hook.all[0].headers["Location"] == f"{ENDPOINT}/Tables('{name}')"
    assert json.loads(hook.all[0].text()) == {
        "odata.metadata": f"{ENDPOINT}/$metadata#Tables/@Element",
        "TableName": name,
    }
    # Cosmos DB for Table puts TableName first and answers an ETag; storage neither.
    members = list(json.loads(hook.all[0].text()))
    assert members == (["TableName", "odata.metadata"] if COSMOS else ["odata.metadata", "TableName"])
    etag = hook.all[0].headers.get("ETag")
    assert ETAG.match(etag) if COSMOS else etag is None, etag
    assert names_of(SERVICE.query_tables("TableName eq @n", parameters={"n": name})) == [name]
    SERVICE.delete_table(name)


def test_create_existing_table_409_table_already_exists_also_in_another_case():
    """On Cosmos DB for Table names are case-sensitive: another case is another table."""
    name = unique_name("again")
    SERVICE.create_table(name)
    message = "The specified table already exists." if COSMOS else "The table specified already exists."
    raises(lambda: SERVICE.create_table(name), 409, "TableAlreadyExists", message, ResourceExistsError)
    if COSMOS:
        hook = Responses()
        SERVICE.create_table(name.upper(), raw_response_hook=hook)
        assert hook.statuses == [201]
        SERVICE.delete_table(name.upper())
    else:
        raises(lambda: SERVICE.create_table(name.upper()), 409, "TableAlreadyExists", message, ResourceExistsError)
    SERVICE.delete_table(name)


def test_list_tables_with_a_filter_paging_through_next_table_name():
    prefix = unique_name("page")
    names = [f"{prefix}n{i}" for i in range(5)]
    for name in reversed(names):
        SERVICE.create_table(name)
    query = "TableName ge @low and TableName lt @high"
    parameters = {"low": prefix, "high": prefix + "o"}
    pager = SERVICE.query_tables(query, parameters=parameters, results_per_page=2).by_page()
    pages = [names_of(page) for page in pager]
    # Storage lists by name; Cosmos in its own order (created here in reverse).
    order = listed_tables(names)
    assert pages == [order[0:2], order[2:4], order[4:5]]

    first = SERVICE.query_tables(query, parameters=parameters, results_per_page=2).by_page()
    assert names_of(next(first)) == order[0:2]
    token = first.continuation_token
    assert isinstance(token, str) and token != ""
    resumed = SERVICE.query_tables(query, parameters=parameters, results_per_page=3).by_page(
        continuation_token=token
    )
    assert [names_of(page) for page in resumed] == [order[2:5]]
    for name in names:
        SERVICE.delete_table(name)


def test_delete_table_204_then_again_404_resource_not_found_which_the_sdk_swallows():
    name = unique_name("delete")
    SERVICE.create_table(name)
    hook = Responses()
    SERVICE.delete_table(name, raw_response_hook=hook)
    assert hook.statuses == [204]
    assert names_of(SERVICE.query_tables("TableName eq @n", parameters={"n": name})) == []
    again = Responses()
    SERVICE.delete_table(name, raw_response_hook=again)  # the SDK ignores a 404 here
    assert again.statuses == [404]
    assert json.loads(again.all[0].text())["odata.error"]["code"] == "ResourceNotFound"

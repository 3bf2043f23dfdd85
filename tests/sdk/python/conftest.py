"""What every SDK test module shares: the endpoint tests/sdk/serve.sh started, the development
account's credential, fresh tables, and assertions on what the SDK reports for a failed call."""

import json
import os
import re
import uuid

import pytest
from azure.core.credentials import AzureNamedKeyCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableClient, TableServiceClient

ENDPOINT = os.environ.get("TABLESCOPE_TABLE_ENDPOINT")
if not ENDPOINT:
    raise pytest.UsageError(
        "TABLESCOPE_TABLE_ENDPOINT is not set: run the suite through tests/sdk/serve.sh "
        "(tests/sdk/serve.sh .venv-sdk/bin/python -m pytest tests/sdk/python)"
    )

# The development account and its well-known key (Azurite's; UseDevelopmentStorage=true).
DEV_ACCOUNT = "devstoreaccount1"
DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
CREDENTIAL = AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY)

# The service the server models (tests/sdk/serve.sh's TABLESCOPE_TARGET): "storage" (Azure
# Table storage) or "cosmos" (Azure Cosmos DB for Table, docs/service/cosmos.md). Where the two
# answer differently, a test expects the answer of the one served.
TARGET = os.environ.get("TABLESCOPE_TARGET", "storage")
COSMOS = TARGET == "cosmos"

# An ETag as the service writes it: the write's instant, colons as %3A, up to 7 digits.
ETAG = re.compile(r"""W/"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(\.\d{1,7})?Z'"\Z""")


def ordinal(text):
    """The sort key of ordinal order by UTF-16 code unit, as the service orders keys."""
    return text.encode("utf-16-be")


def served(written):
    """Keys (or (PartitionKey, RowKey) pairs) listed in the order they were last written, in the
    order a query returns them: key order (ordinal) on Table storage; on Cosmos DB for Table not
    key order ([rec][doc]) but, as the model chooses where the sources are silent about
    updates, the order of each entity's last write (Rule::InsertionOrder)."""
    if COSMOS:
        return list(written)
    key = lambda k: tuple(map(ordinal, k)) if isinstance(k, tuple) else ordinal(k)
    return sorted(written, key=key)


def listed_tables(names):
    """Table names in the order a listing returns them: by name on Table storage; on Cosmos DB
    for Table in neither name nor creation order ([rec]), here the model's order of an FNV-1a
    hash of the name, then the name (ModelChoice::HashOfName)."""
    if not COSMOS:
        return sorted(names, key=ordinal)

    def hashed(name):
        h = 0xCBF29CE484222325
        for byte in name.encode("utf-8"):
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        return f"{h:016x}{name}".encode("utf-8")

    return sorted(names, key=hashed)


def unique_name(prefix):
    """A table name no other test uses: prefix plus 8 hex digits."""
    return prefix + uuid.uuid4().hex[:8]


def table_client(name, credential=CREDENTIAL):
    return TableClient(endpoint=ENDPOINT, table_name=name, credential=credential)


def service_client(credential=CREDENTIAL):
    return TableServiceClient(endpoint=ENDPOINT, credential=credential)


def raises(call, status, code, message_start=None, error_type=HttpResponseError):
    """Runs call(), which must raise the SDK's error (an HttpResponseError, of error_type) with
    this HTTP status and service error code, and a message starting with message_start if given.

    Where the SDK puts the code: most operations re-raise through the SDK's decoder, which sets
    `error_code` from the odata.error body (else x-ms-error-code). create_entity in 12.7.0
    re-raises azure-core's error, which has `status_code` but no `error_code` and a generic
    message; there the code is read from the body the SDK holds (`error.response`). The
    attribute (where present) and the body must agree, and no x-ms-error-code header may come
    with the JSON error, as production sends none.
    Returns the error."""
    with pytest.raises(error_type) as caught:
        call()
    error = caught.value
    body = json.loads(error.response.text())["odata.error"]
    assert (error.status_code, body["code"]) == (status, code), str(error)
    if hasattr(error, "error_code"):
        assert error.error_code == code, str(error)
    assert error.response.headers.get("x-ms-error-code") is None, error.response.headers
    if message_start is not None:
        assert body["message"]["value"].startswith(message_start), body
        if hasattr(error, "error_code"):
            assert error.message.startswith(message_start), error.message
    return error


class Responses:
    """A raw_response_hook that keeps every raw HTTP response, for what the SDK does not
    surface (statuses of successful calls, errors it swallows)."""

    def __init__(self):
        self.all = []

    def __call__(self, pipeline_response):
        self.all.append(pipeline_response.http_response)

    @property
    def statuses(self):
        return [r.status_code for r in self.all]


@pytest.fixture(scope="module")
def table(request):
    """A fresh table for one test module, deleted after it."""
    prefix = re.sub(r"[^A-Za-z]", "", request.module.__name__.split(".")[-1])[:20]
    client = table_client(unique_name(prefix))
    client.create_table()
    yield client
    client.delete_table()
    client.close()

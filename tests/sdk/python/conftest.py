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

# An ETag as the service writes it: the write's instant, colons as %3A, up to 7 digits.
ETAG = re.compile(r"""W/"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(\.\d{1,7})?Z'"\Z""")


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

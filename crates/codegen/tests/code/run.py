"""Runs a "show as code" Python form against tablescope-serve with the official azure-data-tables:
the code reads its connection string from AZURE_TABLES_CONNECTION_STRING, as generated. Its
print() is captured. Prints one JSON line: what the code printed on its own (entities as their
keys and property names, strings as they are) and the service error it ended with, if any.
crates/serve/tests/code_sdk.rs compares it with the engine's answer.

    AZURE_TABLES_CONNECTION_STRING=... .venv-sdk/bin/python crates/codegen/tests/code/run.py FILE
"""

import json
import sys

from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableEntity

logged = []


def capture(*args, **_kwargs):
    logged.append(args)


path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    code = f.read()

error = None
try:
    exec(compile(code, path, "exec"), {"print": capture, "__name__": "__main__"})
except HttpResponseError as e:
    code_name = getattr(e, "error_code", None)
    code_name = getattr(code_name, "value", code_name)
    if not code_name:
        try:
            code_name = json.loads(e.response.text())["odata.error"]["code"]
        except Exception:  # noqa: BLE001 - any body that is not the service's error JSON
            code_name = str(e)
    error = {"code": str(code_name)}

SYSTEM = {"PartitionKey", "RowKey", "Timestamp"}
entities, lines = [], []
for args in logged:
    if len(args) != 1:
        continue
    if isinstance(args[0], TableEntity):
        a = args[0]
        entities.append([a.get("PartitionKey"), a.get("RowKey"), sorted(k for k in a if k not in SYSTEM)])
    elif isinstance(args[0], str):
        lines.append(args[0])
print(json.dumps({"error": error, "entities": entities, "lines": lines}))

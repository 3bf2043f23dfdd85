"""The service's size limits through azure-data-tables, each at limit - 1, limit and limit + 1:
a String of 32,768 UTF-16 code units, a Binary of 65,536 bytes, an entity of 1 MiB (400
PropertyValueTooLarge, 400 EntityTooLarge), and a request body of tablescope_wire::MAX_BODY_BYTES
(413 RequestBodyTooLarge). crates/wire/tests/wire_production.rs pins the same limits at the wire
level; these must agree with it."""

from azure.core.exceptions import ResourceNotFoundError
from azure.data.tables import UpdateMode

from conftest import COSMOS, raises

VALUE_TOO_LARGE = "The property value exceeds the maximum allowed size (64KB)."
ENTITY_TOO_LARGE = "The entity is larger than the maximum allowed size (1MB)."
# crates/wire MAX_BODY_BYTES: 4 MiB of payload and 64 KiB of envelope.
MAX_BODY_BYTES = 4 * 1024 * 1024 + 64 * 1024


def absent(table, pk, rk):
    raises(lambda: table.get_entity(pk, rk), 404, "ResourceNotFound", error_type=ResourceNotFoundError)


def test_a_string_holds_32768_utf16_code_units(table):
    for n in (32_767, 32_768):
        table.create_entity({"PartitionKey": "string", "RowKey": str(n), "s": "x" * n})
        assert table.get_entity("string", str(n))["s"] == "x" * n
    raises(
        lambda: table.create_entity({"PartitionKey": "string", "RowKey": "32769", "s": "x" * 32_769}),
        400,
        "PropertyValueTooLarge",
        VALUE_TOO_LARGE,
    )
    # Code units, not characters or UTF-8 bytes: 16,384 emoji are 32,768 units; one more
    # ASCII character is over.
    emoji = "\U0001F600" * 16_384
    table.create_entity({"PartitionKey": "string", "RowKey": "emoji", "s": emoji})
    assert table.get_entity("string", "emoji")["s"] == emoji
    raises(
        lambda: table.create_entity({"PartitionKey": "string", "RowKey": "emoji+1", "s": emoji + "x"}),
        400,
        "PropertyValueTooLarge",
        VALUE_TOO_LARGE,
    )
    absent(table, "string", "32769")
    absent(table, "string", "emoji+1")


def test_a_binary_holds_65536_bytes(table):
    def data(n):
        return bytes(i % 251 for i in range(n))

    for n in (65_535, 65_536):
        table.create_entity({"PartitionKey": "binary", "RowKey": str(n), "b": data(n)})
        assert table.get_entity("binary", str(n))["b"] == data(n)
    raises(
        lambda: table.create_entity({"PartitionKey": "binary", "RowKey": "65537", "b": data(65_537)}),
        400,
        "PropertyValueTooLarge",
        VALUE_TOO_LARGE,
    )
    absent(table, "binary", "65537")


def test_an_entity_holds_1_mib_by_the_services_rule(table):
    # Size = 4 + 2*(PartitionKey + RowKey) + sum of (8 + 2*name + value), a String's value
    # 4 + 2*units. Keys "p" and "e-1" (4 units): 12 bytes. S00..S14, 32,768 units each:
    # 8 + 6 + 4 + 65,536 bytes apiece. S15 takes the rest; one unit more crosses 1,048,576.
    fixed = 12 + 15 * (8 + 6 + 4 + 65_536)
    at_limit = (1_048_576 - fixed - (8 + 6 + 4)) // 2
    assert at_limit == 32_618

    def entity(rk, last_units):
        e = {"PartitionKey": "p", "RowKey": rk}
        e.update({f"S{i:02}": "x" * 32_768 for i in range(15)})
        e["S15"] = "y" * last_units
        return e

    for rk, units in (("e-1", at_limit - 1), ("e=0", at_limit)):
        table.create_entity(entity(rk, units))
        got = table.get_entity("p", rk)
        assert (len(got["S15"]), len(got["S00"])) == (units, 32_768)
    raises(lambda: table.create_entity(entity("e+1", at_limit + 1)), 400, "EntityTooLarge", ENTITY_TOO_LARGE)
    absent(table, "p", "e+1")
    # The same limit holds for a replace of a stored entity.
    raises(
        lambda: table.update_entity(entity("e=0", at_limit + 1), mode=UpdateMode.REPLACE),
        400,
        "EntityTooLarge",
        ENTITY_TOO_LARGE,
    )
    assert len(table.get_entity("p", "e=0")["S15"]) == at_limit


def test_a_request_body_over_max_body_bytes_is_413(table):
    # The SDK writes the body; a request hook measures it, so the String can be sized to make
    # the body exactly limit - 1, limit and limit + 1 bytes. The first two are read and refused
    # for the value's size, as at the wire level; the last is refused for the body's.
    sent = []

    def measure(pipeline_request):
        body = pipeline_request.http_request.body or b""
        sent.append(len(body.encode("utf-8") if isinstance(body, str) else body))

    def entity(n):
        return {"PartitionKey": "p", "RowKey": "big", "s": "x" * n}

    table.upsert_entity(entity(0), mode=UpdateMode.REPLACE, raw_request_hook=measure)
    envelope = sent[-1]
    for size, status, code, message in (
        (MAX_BODY_BYTES - 1, 400, "PropertyValueTooLarge", VALUE_TOO_LARGE),
        (MAX_BODY_BYTES, 400, "PropertyValueTooLarge", VALUE_TOO_LARGE),
        (
            MAX_BODY_BYTES + 1,
            413,
            "RequestBodyTooLarge",
            "The request body is too large and exceeds the maximum permissible limit.",
        ),
    ):
        sent.clear()
        raises(
            lambda: table.upsert_entity(
                entity(size - envelope), mode=UpdateMode.REPLACE, raw_request_hook=measure
            ),
            status,
            code,
            message,
        )
        # Sent once: the SDK does not retry these statuses.
        assert sent == [size]
    assert table.get_entity("p", "big")["s"] == ""


def test_a_row_key_of_255_bytes_is_taken_by_both_256_only_by_storage(table):
    """Cosmos DB for Table holds a RowKey of at most 255 bytes: 400 KeyValueTooLarge."""
    table.create_entity({"PartitionKey": "rk", "RowKey": "k" * 255})
    assert table.get_entity("rk", "k" * 255)["RowKey"] == "k" * 255
    # 128 two-byte characters: 256 bytes of UTF-8 in 128 UTF-16 code units.
    long = "é" * 128
    if COSMOS:
        raises(lambda: table.create_entity({"PartitionKey": "rk", "RowKey": long}), 400, "KeyValueTooLarge")
        absent(table, "rk", long)
    else:
        table.create_entity({"PartitionKey": "rk", "RowKey": long})
        assert table.get_entity("rk", long)["RowKey"] == long

"""The building blocks of the response schemas (api/description/schemas.py): a property with its description,
and the kinds of field that recur (counts, shares, amounts, instants, plate codes, sector ids,
objects, the collection envelope), each saying its unit once."""

from __future__ import annotations

from typing import Any

from store.reference.lists import sectors

TRY = "nominal Turkish lira (TRY, not adjusted for inflation)"
EMPTY_NULL = "null when the set it is computed over is empty"
CURSOR_PATTERN = "^[A-Za-z0-9_-]+$"  # unpadded base64url (api/transport/paging.py)
SECTOR_COUNT = len(sectors())


def prop(description: str, schema: dict[str, Any] | None = None, **keywords: Any) -> dict[str, Any]:
    """A property schema with its description (keywords are JSON Schema keywords)."""
    return {**(schema or {}), **keywords, "description": description}


def count(description: str) -> dict[str, Any]:
    return prop(description, type="integer", minimum=0)


def share(description: str) -> dict[str, Any]:
    return prop(f"{description}. A fraction from 0 to 1; {EMPTY_NULL}.", type=["number", "null"], minimum=0, maximum=1)


def amount(description: str, *, nullable: bool = True) -> dict[str, Any]:
    return prop(f"{description}, in {TRY}" + (f"; {EMPTY_NULL}." if nullable else "."),
                type=["number", "null"] if nullable else "number", minimum=0)


def text(description: str, **keywords: Any) -> dict[str, Any]:
    return prop(description, type="string", **keywords)


def instant(description: str, *, nullable: bool = False) -> dict[str, Any]:
    kind: Any = ["string", "null"] if nullable else "string"
    return prop(f"{description} (RFC 3339, UTC).", type=kind, format="date-time")


def plate(description: str, *, nullable: bool = False) -> dict[str, Any]:
    kind: Any = ["integer", "null"] if nullable else "integer"
    return prop(f"{description}: the province's plate code, 1 to 81 (/provinces).", type=kind, minimum=1, maximum=81)


def sector_id(description: str) -> dict[str, Any]:
    return prop(f"{description}: the sector id, 1 to {SECTOR_COUNT} (/sectors).", type="integer", minimum=1,
                maximum=SECTOR_COUNT)


def obj(properties: dict[str, Any], *, optional: tuple[str, ...] = (), description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties,
                              "required": [k for k in properties if k not in optional]}
    if description:
        schema["description"] = description
    return schema


def envelope(item_ref: str) -> dict[str, Any]:
    """The collection envelope of decisions.md around items of one schema."""
    return obj({
        "items": prop("The items of this page, in the endpoint's order.", type="array",
                      items={"$ref": f"#/components/schemas/{item_ref}"}),
        "total": count("How many items match the filters, on every page together."),
        "next_cursor": prop("Send it back as `cursor`, with the same filters, for the next page; null on the last "
                            "page.", type=["string", "null"], pattern=CURSOR_PATTERN),
    }, description=f"One page of {item_ref} items.")

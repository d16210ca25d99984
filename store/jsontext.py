"""Item JSON as the service writes it: an amount (a Decimal) as its digits, never through a double
(decisions.md, "Precision"). The loader writes stored bodies with it; the API writes the item
dicts the store's functions return with it."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any


def item_json(value: Any) -> str:
    """Compact JSON of a JSON-ready value whose amounts may be Decimals, at any depth."""
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(str(k), ensure_ascii=False) + ":" + item_json(v) for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(item_json(v) for v in value) + "]"
    if isinstance(value, Decimal):
        return format(value, "f")
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def parse_item(text: str) -> Any:
    """A stored JSON body as a JSON-ready value: numbers with a fraction become Decimals, so that
    `item_json` writes them back digit for digit."""
    return json.loads(text, parse_float=Decimal)

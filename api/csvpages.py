"""Paged answers as CSV (`Accept: text/csv` or `format=csv`): the page's items as RFC 4180 rows under
a header row, the columns of the item schema in its order; the envelope's `total` and `next_cursor`
go into headers, as they do for JSON pages (api/pagelinks.py)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from decimal import Decimal
from typing import Any

from flask import request

from api.params import enum_param
from api.schemas import SCHEMAS

CSV_MEDIA_TYPE = "text/csv"
# Not a filter: a cursor from a JSON page carries on in CSV and back.
FORMAT = replace(enum_param("format", ["json", "csv"], "`csv` for the page's items as CSV (as `Accept: text/csv`); "
                            "the paging headers are the same. Default: JSON, or CSV when `Accept` prefers "
                            "`text/csv`."), filter=False)


def wants_csv() -> bool:
    """An explicit `format` wins; otherwise `Accept`, JSON when it is absent or indifferent."""
    chosen = request.args.get("format")
    if chosen is not None:
        return chosen == "csv"
    return request.accept_mimetypes.best_match(["application/json", CSV_MEDIA_TYPE]) == CSV_MEDIA_TYPE


def csv_columns(page_schema: str) -> list[str]:
    """The item fields of a page schema, in the schema's order."""
    item = SCHEMAS[page_schema]["properties"]["items"]["items"]["$ref"].rsplit("/", 1)[1]
    return list(SCHEMAS[item]["properties"])


def _cell(value: Any) -> str:
    # null is an empty cell; booleans as in JSON; numbers with the digits served (Decimal, not a
    # double that could print more); arrays and objects as their compact JSON text, which keeps them whole.
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=float)
    return str(value)


def render_csv(body: str, columns: list[str]) -> str:
    """The items of a JSON page as CSV text."""
    items = json.loads(body, parse_float=Decimal)["items"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for item in items:
        writer.writerow([_cell(item.get(name)) for name in columns])
    return out.getvalue()

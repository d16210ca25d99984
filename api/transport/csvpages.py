"""Paged answers as CSV (`Accept: text/csv` or `format=csv`): the page's items as RFC 4180 rows under
a header row, the columns of the item schema in its order; the envelope's `total` and `next_cursor`
go into headers, as they do for JSON pages (api/transport/pagelinks.py)."""

from __future__ import annotations

import csv
import functools
import io
import json
from decimal import Decimal
from typing import Any

from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

from api.context import this_request
from api.description.schemas import SCHEMAS
from api.transport.query import may_name

CSV_MEDIA_TYPE = "text/csv"
# What a spreadsheet reads as the start of a formula (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def wants_csv() -> str | None:
    """`csv`, `csv-raw` or None (JSON): an explicit `format` wins; otherwise `Accept`, JSON when it
    is absent or indifferent."""
    req = this_request()
    if may_name(req.environ.get("QUERY_STRING", ""), "format"):
        chosen = req.args.get("format")
        if chosen is not None:
            return chosen if chosen != "json" else None
    return _csv_by_accept(req.environ.get("HTTP_ACCEPT", ""))


@functools.lru_cache(maxsize=64)
def _csv_by_accept(accept: str) -> str | None:
    # Clients send the same few Accept headers again and again: each is parsed once.
    if parse_accept_header(accept, MIMEAccept).best_match(["application/json", CSV_MEDIA_TYPE]) == CSV_MEDIA_TYPE:
        return "csv"
    return None


def csv_columns(page_schema: str) -> list[str]:
    """The item fields of a page schema, in the schema's order."""
    item = SCHEMAS[page_schema]["properties"]["items"]["items"]["$ref"].rsplit("/", 1)[1]
    return list(SCHEMAS[item]["properties"])


def _cell(value: Any, *, safe: bool) -> str:
    # null is an empty cell; booleans as in JSON; numbers with the digits served (Decimal, not a
    # double that could print more); arrays and objects as their compact JSON text, which keeps them
    # whole. Only text is escaped: a negative number is a number, not a formula.
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=float)
    elif isinstance(value, str):
        text = value
    else:
        return str(value)
    return "'" + text if safe and text.startswith(FORMULA_STARTS) else text


def render_csv(body: str, columns: list[str], *, safe: bool = True) -> str:
    """The items of a JSON page as CSV text; `safe` escapes text a spreadsheet would run."""
    items = json.loads(body, parse_float=Decimal)["items"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for item in items:
        writer.writerow([_cell(item.get(name), safe=safe) for name in columns])
    return out.getvalue()

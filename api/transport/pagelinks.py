"""Paging headers: `Link: <next URL>; rel="next"` (RFC 8288) with the full URL of the next page, and
the envelope's cursor and total as headers, so a CSV page pages like a JSON one."""

from __future__ import annotations

import functools
import json
from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import MultiDict

from api.context import this_request
from api.transport.query import may_name
from api.transport.urls import public_url

# Left out of the next URL: the cursor is replaced, and a key sent as `apikey` is not echoed back.
NOT_CARRIED = frozenset({"cursor", "apikey"})


def page_meta(body: str) -> tuple[int, str | None]:
    """`total` and `next_cursor` of an envelope written by api/transport/paging.py `page_envelope`, which puts
    them after the items: read from the tail, without parsing the page."""
    tail = body[body.rindex('],"total":') + 2:]
    meta = json.loads("{" + tail)
    return meta["total"], meta["next_cursor"]


def next_url(cursor: str) -> str:
    query = this_request().environ.get("QUERY_STRING", "")
    # A query that may carry a key is read each time: no key is kept in memory beyond its request.
    carried = _carried(query) if not may_name(query, "apikey") else _carried.__wrapped__(query)
    return f"{public_url(this_request().path)}?{carried}{urlencode([('cursor', cursor)])}"


@functools.lru_cache(maxsize=256)
def _carried(query: str) -> str:
    """The parameters of `query` the next page keeps, read as werkzeug reads `this_request().args`, encoded
    again and followed by `&` (or nothing): the same for every page of one question, so made once."""
    args = MultiDict(parse_qsl(query.encode("latin-1").decode(), keep_blank_values=True, errors="werkzeug.url_quote"))
    kept = [(k, v) for k, v in args.items(multi=True) if k not in NOT_CARRIED]
    return f"{urlencode(kept)}&" if kept else ""


def page_headers(total: int, cursor: str | None) -> dict[str, str]:
    headers = {"X-Total-Count": str(total)}
    if cursor is not None:
        headers["Link"] = f'<{next_url(cursor)}>; rel="next"'
        headers["X-Next-Cursor"] = cursor
    return headers

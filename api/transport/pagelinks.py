"""Paging headers: `Link: <next URL>; rel="next"` (RFC 8288) with the full URL of the next page, and
the envelope's cursor and total as headers, so a CSV page pages like a JSON one."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from flask import request

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
    query = [(k, v) for k, v in request.args.items(multi=True) if k not in NOT_CARRIED]
    return public_url(request.path) + "?" + urlencode([*query, ("cursor", cursor)])


def page_headers(total: int, cursor: str | None) -> dict[str, str]:
    headers = {"X-Total-Count": str(total)}
    if cursor is not None:
        headers["Link"] = f'<{next_url(cursor)}>; rel="next"'
        headers["X-Next-Cursor"] = cursor
    return headers

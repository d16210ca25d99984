"""Opaque keyset cursors: signed with a server key, bound to the operation and the filters they were
issued for, so that a client can neither forge a position nor carry a cursor to another endpoint."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from api.context import extension, this_request

MAC_BYTES = 16


@dataclass(frozen=True)
class Cursor:
    position: Any
    filters_digest: str


def filters_digest(filters: dict[str, Any]) -> str:
    """A short digest of the request's filters (everything but limit and cursor)."""
    canonical = json.dumps(filters, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _mac(payload: bytes) -> bytes:
    # The operation (the Flask endpoint) is signed with the payload: a cursor of one endpoint fails
    # the check on every other.
    message = (this_request().endpoint or "").encode("utf-8") + b"\n" + payload
    # The app's cursor key (api/cursor_key.py).
    return hmac.new(extension("gosterge.cursor_key")(), message, hashlib.sha256).digest()[:MAC_BYTES]


def encode_cursor(position: Any, filters: dict[str, Any]) -> str:
    payload = json.dumps({"p": position, "f": filters_digest(filters)}, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(_mac(payload) + payload).decode("ascii").rstrip("=")


def decode_cursor(text: str) -> Cursor:
    """Decode a cursor or raise ValueError: the signature catches edited, forged and borrowed cursors."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        mac, payload = raw[:MAC_BYTES], raw[MAC_BYTES:]
        if len(mac) != MAC_BYTES or not hmac.compare_digest(_mac(payload), mac):
            raise ValueError
        data = json.loads(payload)
        return Cursor(position=data["p"], filters_digest=data["f"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError("is not a cursor this service issued for this endpoint") from exc


def cursor_filters(values: dict[str, Any], params: Iterable[Any]) -> dict[str, Any]:
    """The part of the parsed values a cursor is bound to (every parameter marked as a filter)."""
    return {p.name: values.get(p.name) for p in params if p.filter}


def finish_page(rows: list[tuple[Any, str]], total: int, values: Any, *, position: Callable[[Any], Any]) -> str:
    """The envelope of (order key, body) rows fetched with `limit + 1`: the extra row only says that a
    next page exists, and the cursor points after the last row shown. `values` are parse_args's
    Values: the cursor is bound to their filters."""
    limit = values["limit"]
    next_cursor = None
    if len(rows) > limit:
        rows = rows[:limit]
        next_cursor = encode_cursor(position(rows[-1][0]), cursor_filters(values, values.params))
    return page_envelope([body for _, body in rows], total, next_cursor)


def page_envelope(items_json: list[str], total: int, next_cursor: str | None) -> str:
    """The collection envelope, assembled from item bodies that are already JSON."""
    cursor_json = json.dumps(next_cursor)
    return '{"items":[' + ",".join(items_json) + f'],"total":{total},"next_cursor":{cursor_json}}}'

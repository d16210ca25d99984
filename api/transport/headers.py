"""Headers every answer carries: never sniffed, and private to the key that asked."""

from __future__ import annotations

from flask import Response
from werkzeug.datastructures import Headers

from api.context import request_state

NO_SNIFF = ("X-Content-Type-Options", "nosniff")
# An answer to a keyed request is the key holder's: a shared cache must not keep it. Answers that
# carry a key say no-store themselves.
PRIVATE = ("Cache-Control", "private")


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    # Added, not set: no answer carries nosniff before this point.
    if "api_key" in request_state() and header_value(headers, PRIVATE[0]) is None:
        headers.extend((NO_SNIFF, PRIVATE))
    else:
        headers.add(*NO_SNIFF)
    return response


def header_value(headers: Headers, name: str) -> str | None:
    """`headers.get(name)`, without the exception werkzeug raises and catches inside it for a header
    that is not there, which is most of what such a look-up costs."""
    wanted = name.lower()
    for key, value in headers:
        if key.lower() == wanted:
            return value
    return None

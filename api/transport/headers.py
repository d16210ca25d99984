"""Headers every answer carries: never sniffed, and private to the key that asked."""

from __future__ import annotations

from flask import Response, g


def add_security_headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # An answer to a keyed request is the key holder's: a shared cache must not keep it. Answers
    # that carry a key say no-store themselves.
    if g.get("api_key") is not None:
        response.headers.setdefault("Cache-Control", "private")
    return response

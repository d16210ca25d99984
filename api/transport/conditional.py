"""Strong ETags and 304 answers, using Werkzeug's If-None-Match parsing (lists and `*`)."""

from __future__ import annotations

import hashlib

from flask import Response

from api.context import this_request


def compute_etag(body: str, version: str) -> str:
    """A strong validator of the representation and the data version it came from."""
    return hashlib.sha256(f"{version}\n{body}".encode()).hexdigest()[:32]


def matches(etag: str) -> bool:
    # RFC 9110 13.1.2: If-None-Match uses the weak comparison function.
    req = this_request()
    return "HTTP_IF_NONE_MATCH" in req.environ and req.if_none_match.contains_weak(etag)


def not_modified(etag: str) -> Response:
    response = Response(status=304)
    response.set_etag(etag)
    return response

"""Strong ETags and 304 answers, using Werkzeug's If-None-Match parsing (lists and `*`)."""

from __future__ import annotations

import hashlib

from flask import Response

from api.context import this_request
from api.problems import InvalidParameters


def compute_etag(body: str, version: str) -> str:
    """A strong validator of the representation and the data version it came from."""
    return hashlib.sha256(f"{version}\n{body}".encode()).hexdigest()[:32]


# ETags one If-None-Match may list. A client lists the one it holds (a cache a few); a list of
# hundreds tests as many candidate answers in one free request.
MAX_ETAGS = 16


def check_if_none_match() -> None:
    """400 naming the header when If-None-Match lists more than MAX_ETAGS."""
    req = this_request()
    if "HTTP_IF_NONE_MATCH" in req.environ and len(req.if_none_match.as_set(include_weak=True)) > MAX_ETAGS:
        raise InvalidParameters([{"parameter": "If-None-Match",
                                  "message": f"may list at most {MAX_ETAGS} ETags"}])


def matches(etag: str) -> bool:
    # RFC 9110 13.1.2: If-None-Match uses the weak comparison function.
    req = this_request()
    return "HTTP_IF_NONE_MATCH" in req.environ and req.if_none_match.contains_weak(etag)


def not_modified(etag: str) -> Response:
    response = Response(status=304)
    response.set_etag(etag)
    return response

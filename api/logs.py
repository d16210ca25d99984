"""Structured access logs: one JSON line per request, with the key id and never the key."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from urllib.parse import parse_qsl, urlencode

from flask import Response, current_app, g, request

from api.problems import InvalidParameters

access_log = logging.getLogger("gosterge.access")
REDACTED_PARAMS = frozenset({"apikey", "token"})
# A load balancer asks these every few seconds: at INFO they would drown the access log. A failing
# answer is still logged at INFO.
QUIET_PATHS = frozenset({"/v1/health", "/v1/ready"})
# Anything shaped like a key (store/keys.py: gk_ and URL-safe base64), wherever a client put it: under
# another parameter name, in the path, inside another value.
KEY_SHAPE = re.compile(r"gk_[A-Za-z0-9_-]{8,}")


def redact_keys(text: str) -> str:
    return KEY_SHAPE.sub("gk_REDACTED", text)


def redact_query(query: str) -> str:
    """The query string with the value of every secret parameter, and every key, replaced."""
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(redact_keys(k), "REDACTED" if k.lower() in REDACTED_PARAMS else redact_keys(v))
                      for k, v in pairs])


def start_request() -> None:
    g.request_started = time.perf_counter()
    incoming = request.headers.get("X-Request-Id", "")
    g.request_id = incoming if 0 < len(incoming) <= 64 and incoming.isprintable() else uuid.uuid4().hex
    limit = current_app.config["MAX_QUERY_STRING_BYTES"]
    if len(request.query_string) > limit:
        raise InvalidParameters([{"parameter": "query", "message": f"the query string is longer than {limit} bytes"}])


def log_request(response: Response) -> Response:
    response.headers["X-Request-Id"] = g.get("request_id", "")
    key = g.get("api_key")
    query = request.query_string.decode("latin-1")
    record = {
        "request_id": g.get("request_id"),
        "method": request.method,
        "path": redact_keys(request.path),
        "query": redact_query(query) if query else "",
        "status": response.status_code,
        "ms": round((time.perf_counter() - g.get("request_started", time.perf_counter())) * 1000, 2),
        "key_id": key.id if key is not None else None,
        "remote": request.remote_addr,
    }
    quiet = request.path in QUIET_PATHS and response.status_code < 400
    access_log.log(logging.DEBUG if quiet else logging.INFO, json.dumps(record, ensure_ascii=False))
    return response

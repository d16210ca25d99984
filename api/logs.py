"""Structured access logs: one JSON line per request, with the key id and never the key."""

from __future__ import annotations

import json
import logging
import time
import uuid
from urllib.parse import parse_qsl, urlencode

from flask import Response, current_app, g, request

from api.problems import InvalidParameters

access_log = logging.getLogger("gosterge.access")
REDACTED_PARAMS = frozenset({"apikey", "token"})


def redact_query(query: str) -> str:
    """The query string with the value of every secret parameter replaced."""
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(k, "REDACTED" if k.lower() in REDACTED_PARAMS else v) for k, v in pairs])


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
        "path": request.path,
        "query": redact_query(query) if query else "",
        "status": response.status_code,
        "ms": round((time.perf_counter() - g.get("request_started", time.perf_counter())) * 1000, 2),
        "key_id": key.id if key is not None else None,
        "remote": request.remote_addr,
    }
    access_log.info(json.dumps(record, ensure_ascii=False))
    return response
